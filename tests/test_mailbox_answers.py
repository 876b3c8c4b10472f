"""What a mailbox says and answers.  RFC 3834: an automatic message (auto-reply, vacation notice,
bounce, list mail) is never answered; an answer is marked automatic, threaded under the message
it answers, names it by its subject and date, never quotes a turn file nor shows a local path.
A campaign answers only mail naming its game, from its players.  Every message read is one line
of output, saying what it was and what was done; a run with nothing new is one line."""

from __future__ import annotations

import email
import re
from email.policy import default as default_policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import invoke
from tests.mail_harness import Relay, refereed_game


@pytest.fixture
def relay():
    server = Relay().start()
    yield server
    server.stop()


def game_id(game: Path) -> str:
    from pbem.play.campaign import Campaign

    camp = Campaign.open(game, readonly=True)
    try:
        return camp.genesis["game"]
    finally:
        camp.ledger.close()


def damaged(game: str) -> str:
    return f"-----BEGIN PBEM TURN-----\r\nGame: {game}\r\nSeq: 2\r\nFrom: allied\r\n"


def mail(sender: str, subject: str, body: str, mid: str, extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: ref@example.org\r\nSubject: {subject}\r\nMessage-ID: {mid}\r\n"
            f"Date: Tue, 03 Jun 2025 10:00:00 +0000\r\n{extra}\r\n{body}\r\n").encode()


def test_automatic_messages_are_never_answered_and_answers_follow_rfc_3834(tmp_path, relay):
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    gid = game_id(game)
    machines = {
        "vacation": "Auto-Submitted: auto-replied\r\n",
        "generated": "Auto-Submitted: auto-generated\r\n",
        "bulk": "Precedence: bulk\r\n",
        "list": "List-Id: <wargamers.example.org>\r\n",
        "outlook": "X-Auto-Response-Suppress: All\r\n",
        "bounce": "Return-Path: <>\r\n",
        "report": "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
    }
    for name, extra in machines.items():  # each from a player of the game, each naming it: only a machine's
        body = damaged(gid) if name != "report" else f"--b\r\nContent-Type: text/plain\r\n\r\n{damaged(gid)}\r\n--b--"
        ref.box.deliver(mail(alice.address, f"Auto: [hill60 {gid[:8]}] {name}", body, f"<{name}@example.org>", extra))
    ref.box.deliver(mail("MAILER-DAEMON@example.org", f"Undelivered: [hill60 {gid[:8]}]", damaged(gid),
                         "<daemon@example.org>"))
    ref.box.deliver(mail(alice.address, f" [hill60 {gid[:8]}]  my orders", "my orders:\r\n" + damaged(gid),
                         "<person@example.org>", "References: <earlier@example.org>\r\n"))
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    lines = (run.stdout + run.stderr).splitlines()  # a delivery report is a BOUNCE line, on stderr
    for name in [*machines, "Undelivered"]:
        found = [x for x in lines if f"] {name}" in x or (name == "Undelivered" and "Undelivered" in x)]
        assert len(found) == 1 and found[0].endswith("; not answered"), (name, lines)
    [line] = [x for x in lines if "my orders" in x]
    assert line.endswith("; answered"), line
    [answer] = relay.replies_from(ref.address)
    msg = answer.message
    assert answer.to == alice.address and msg["Auto-Submitted"] == "auto-replied"
    assert msg["Date"].datetime.tzinfo is not None  # RFC 5322: dated
    assert msg["In-Reply-To"] == "<person@example.org>"
    assert msg["References"].split()[:2] == ["<earlier@example.org>", "<person@example.org>"]
    assert msg["Subject"] == f"Re: [hill60 {gid[:8]}] my orders"  # no leading space, no doubled blanks
    text = msg.get_content()
    assert f"Your message '[hill60 {gid[:8]}]  my orders' of Tue, 03 Jun 2025 10:00:00 +0000" in text
    assert "truncated" in text and "message " + "1" not in text.split("Hello")[0]
    assert "BEGIN PBEM TURN-----" not in text and str(tmp_path) not in text
    assert not re.search(r"message \d+", text)  # a mailbox's own numbers mean nothing to a player


def test_a_game_answers_only_its_own_mail_from_its_own_players(tmp_path, relay):
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    gid, other = game_id(game), "0123456789abcdef" * 2
    ref.box.deliver(mail(alice.address, "old orders", damaged(other), "<other-game@example.org>"))
    ref.box.deliver(mail("carol@example.org", "orders", damaged(gid), "<stranger@example.org>"))
    ref.box.deliver(mail(alice.address, "hello", "Are you there?", "<chat@example.org>"))
    ref.box.deliver(mail(bob.address, f"Re: [hill60 {gid[:8]}] invitation", "When do we start?",
                         "<question@example.org>"))
    ref.box.deliver(mail(bob.address, "my orders", damaged(gid), "<orders@example.org>"))
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    out = run.stdout
    assert "not for this game: alice@example.org ('old orders'" in out  # another game's damaged mail: left alone
    assert "carol@example.org is not the address of a player of this game" in out
    assert "no turn file in a message from alice@example.org ('hello'" in out  # said, not answered: no game named
    answered = sorted(str(d.message["In-Reply-To"]) for d in relay.replies_from(ref.address))
    assert answered == ["<orders@example.org>", "<question@example.org>"]
    [question] = [d for d in relay.replies_from(ref.address) if "question" in str(d.message["In-Reply-To"])]
    assert "holds no turn file for our game" in question.message.get_content()


def test_one_line_per_message_and_one_line_when_nothing_changed(two_campaigns, tmp_path):
    """A player's fetch: an accepted turn (attached), a repeat, a chat, and another
    game's whole history each make one line; the next fetch one line."""
    import mailbox

    from tests.conftest import Duel

    d = two_campaigns
    other = Duel(tmp_path / "other", CliRunner())
    history = "".join(f.read_text() for f in other.play_out())  # another game's whole history
    d.run(d.alice, "play", "1", "--campaign", d.alice.dir)
    [turn] = (d.alice.dir / "outbox").glob("*-turn-*.eml")
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(turn.read_bytes())  # the turn attached
    box.add(turn.read_bytes())  # sent twice by a mail program
    box.add(b"From: carol@example.org\r\nSubject: hello\r\n\r\nhow are you?\r\n")
    box.add(b"From: dave@example.org\r\nSubject: our game\r\n\r\n" + history.encode())
    first = invoke(d.runner, "mail", "fetch", "--maildir", tmp_path / "Maildir", "--campaign", d.bob.dir, env=d.bob.env)
    lines = first.stdout.splitlines()
    assert lines[0].startswith("accepted #2 from red: ") and lines[1].startswith("already had #2 from red: ")
    assert lines[2].startswith("no turn file in a message from carol@example.org ('hello'")
    assert lines[3].startswith("not for this game: dave@example.org ('our game'), turn files of game ")
    assert lines[4].endswith("1 accepted, 1 already had, 1 without a turn file, 1 not for this game")
    assert len(lines) == 6 and "repeated" not in first.stdout  # and "Your move"
    again = invoke(d.runner, "mail", "fetch", "--maildir", tmp_path / "Maildir", "--campaign", d.bob.dir, env=d.bob.env)
    assert again.stdout.splitlines()[0].startswith("nothing new in ") and len(again.stdout.splitlines()) == 2


def test_the_disclosure_is_called_a_disclosure_and_play_after_it_says_so(tmp_path, relay):
    from pbem.play.campaign import Campaign

    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    ref.invoke("disclose", "--campaign", game)
    disclosure = sorted((game / "outbox").glob("*.eml"))
    msg = email.message_from_bytes(disclosure[0].read_bytes(), policy=default_policy)
    assert "game over: the referee discloses the game" in msg["Subject"]
    body = msg.get_body(("plain",)).get_content()
    assert "referee discloses" in body and "to the referee" not in body
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    assert "adjudicated" not in run.stdout and run.stdout.count("sent ") == 2
    for p, where in ((alice, a), (bob, b)):
        p.invoke("mail", "fetch", "--maildir", p.box.maildir, "--campaign", where)
    over = ref.invoke("play", "--campaign", game, ok=False)
    assert "the game is over: the referee has disclosed it" in over.stderr and "pbem disclose" not in over.stderr
    camp = Campaign.open(a, readonly=True)
    assert camp.waiting() is None
    camp.ledger.close()


def test_a_run_killed_after_writing_an_answer_never_writes_a_second(tmp_path, relay):
    import os
    import subprocess
    import sys

    from pbem.store.lock import CRASH_EXIT

    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    ref.box.deliver(mail(alice.address, "my orders", damaged(game_id(game)), "<orders@example.org>"))
    command = [sys.executable, "-m", "pbem", "mail", "run", *ref.reading(), "--campaign", str(game)]
    killed = subprocess.run(command, env={**os.environ, **ref.env, "PBEM_CRASH_AT": "mail:answered"},
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == CRASH_EXIT, killed.stdout + killed.stderr
    assert len(list((game / "outbox").glob("reply-*.eml"))) == 1 and not relay.replies_from(ref.address)
    again = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    assert "; answered" in again.stdout  # read again (it was not marked), answered under the same name
    [answer] = relay.replies_from(ref.address)
    assert answer.message["In-Reply-To"] == "<orders@example.org>"
    assert ref.invoke("mail", "run", *ref.reading(), "--campaign", game).stdout.startswith("nothing new")


def test_a_message_too_large_is_answered_with_what_the_player_can_do(tmp_path, relay, monkeypatch):
    """The player cannot raise the referee's limit: the answer tells him what he can do (send the
    file alone, or ask the referee), and the referee's run says what the referee can set."""
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    gid = game_id(game)
    monkeypatch.setenv("PBEM_MAX_MAIL_BYTES", "50000")  # the referee's bound
    ref.box.deliver(mail(alice.address, f"Re: [hill60 {gid[:8]}] my orders and a photo of the map",
                         "my orders:\r\n" + damaged(gid) + "x" * 60000, "<photo@example.org>"))
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    [line] = [x for x in run.stdout.splitlines() if "REFUSED" in x]
    assert "too-large" in line and "set PBEM_MAX_MAIL_BYTES" in line and line.endswith("; answered"), line
    [answer] = relay.replies_from(ref.address)
    text = answer.message.get_content()
    assert "is larger than this mailbox reads" in text and "limit is 50 kB" in text
    assert "PBEM_" not in text and "ask the referee to raise the limit" in text
    assert "send your turn file alone" in text and "waiting for the referee." in text


def test_a_new_game_on_a_shared_mailbox_leaves_other_games_mail_alone(tmp_path, relay, monkeypatch):
    """Old mail of another game, refused there (damaged past reading, too large), is that game's:
    a new campaign on the same mailbox says whose it is, and neither refuses nor answers it."""
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    old = "0123456789abcdef" * 2
    monkeypatch.setenv("PBEM_MAX_MAIL_BYTES", "50000")
    begin_lost = f"Game: {old}\r\nSeq: 4\r\nFrom: allied\r\n\r\nAAAA\r\n-----END PBEM TURN-----\r\n"
    ref.box.deliver(mail(alice.address, "my orders", "here:\r\n" + begin_lost, "<begin-lost@example.org>"))
    ref.box.deliver(mail(alice.address, f"Re: [hill60 {old[:8]}] my orders and a photo", "x" * 60000,
                         "<photo@example.org>"))
    ref.box.deliver(mail(alice.address, "orders", "-----BEGIN PBEM TURN-----\r\nGaem: x\r\n", "<pbem@example.org>",
                         f"X-Pbem-Game: {old}\r\n"))
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    lines = [x for x in (run.stdout + run.stderr).splitlines() if "example.org ('" in x and "joins" not in x]
    assert len(lines) == 3 and "REFUSED" not in run.stdout + run.stderr, lines
    assert all(x.startswith("not for this game: alice@example.org") and f"of game {old[:8]}" in x for x in lines)
    assert any("a message that cannot be read (too-large)" in x for x in lines), lines
    assert not relay.replies_from(ref.address) and "3 not for this game" in run.stdout.splitlines()[-1]


def test_a_player_reads_why_the_referees_mailbox_refused_his_mail(tmp_path, relay):
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    gid = game_id(game)
    relay.accept(alice.address, [ref.address], mail(alice.address, f"Re: [hill60 {gid[:8]}] my orders",
                                                    "my orders:\r\n" + damaged(gid), "<orders@example.org>"))
    ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    fetched = alice.invoke("mail", "fetch", *alice.reading(), "--campaign", a)
    [line] = [x for x in fetched.stderr.splitlines() if "my orders" in x]
    assert line.startswith(f"ANSWER from {ref.address} ('Re: [hill60 {gid[:8]}] my orders'"), line
    assert "your message was refused: truncated: truncated turn file" in line and "automatic" not in line
    assert "1 answer(s) refusing your mail" in fetched.stdout


def test_status_keeps_what_the_unattended_mailbox_refused_answered_or_bounced(tmp_path, relay):
    """cron runs pbem mail run: what it refused, answered or saw bounce is said in that run's output
    only, so pbem status shows the latest ones, each with its reason (at most ten kept)."""
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    gid = game_id(game)
    relay.bounce.add("bob@old.example.org")
    ref.invoke("mail", "address", "ottoman", "bob@old.example.org", "--campaign", game)
    ref.invoke("mail", "run", *ref.reading(), "--campaign", game)  # bob's file goes, and bounces
    relay.accept(alice.address, [ref.address], mail(alice.address, f"[hill60 {gid[:8]}] orders 0",
                                                    damaged(gid), "<orders-0@example.org>"))
    ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    status = ref.invoke("status", "--campaign", game).output.splitlines()
    kept = [x for x in status if x.startswith("MAIL 20")]
    assert len(kept) == 2, status
    assert re.match(r"MAIL \d{4}-\d\d-\d\d \d\d:\d\d UTC: BOUNCE from MAILER-DAEMON.*bob@old\.example\.org", kept[0])
    assert "REFUSED a message from alice@example.org" in kept[1] and "truncated" in kept[1]
    assert kept[1].endswith("; answered")
    for n in range(1, 12):
        relay.accept(alice.address, [ref.address], mail(alice.address, f"[hill60 {gid[:8]}] orders {n}",
                                                        damaged(gid), f"<orders-{n}@example.org>"))
    ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    kept = [x for x in ref.invoke("status", "--campaign", game).output.splitlines() if x.startswith("MAIL 20")]
    assert len(kept) == 10 and "orders 2'" in kept[0] and "orders 11'" in kept[-1], kept

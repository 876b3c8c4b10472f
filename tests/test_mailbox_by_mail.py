"""Whole games by mail alone, over the loopback mail system of ``tests.mail_harness``: an SMTP
relay delivering into Maildirs (and, when Debian's dovecot is there, the referee's mailbox over
IMAP; without it that case is skipped and says why).

A refereed Hill 60 game from the invitation to the disclosure, with a second game of the same
referee on the same mailbox, an SMTP outage, a player's vacation auto-replies, a bounce, a
mistyped address refused at once, a duplicate, a cheating attempt and a chatty player; then a
two-player game.  At the end: no message lost, none delivered twice that was not sent twice,
every message that needed an answer answered once, nothing else answered.
"""

from __future__ import annotations

import email
import re
import shutil
import time
from collections import Counter
from email.policy import default as default_policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.play.campaign import Campaign
from tests.mail_harness import Mailbox, Relay, person, signed_file


@pytest.fixture
def relay():
    server = Relay().start()
    yield server
    server.stop()


@pytest.fixture(params=["maildir", "imap"])
def referee_box(request, tmp_path):
    """The referee's mailbox: a Maildir, or the INBOX of user 'ref' on a private dovecot."""
    if request.param == "maildir":
        yield Mailbox(tmp_path / "mail" / "ref"), None
        return
    from tests.imap_server import SKIP_PREFIX, DovecotUnavailable, ImapServer

    server = ImapServer(users={"ref": "ref-secret"})
    try:
        server.start()
    except DovecotUnavailable as exc:
        pytest.skip(f"{SKIP_PREFIX}: {exc}")
    yield Mailbox(imap=server, user="ref"), server
    server.stop()


def open_ro(path: Path) -> Campaign:
    return Campaign.open(path, readonly=True)


def my_move(path: Path) -> tuple[bool, list[str]]:
    """(is it this campaign's side to decide, the labels of its choices)."""
    camp = open_ro(path)
    try:
        waiting = camp.waiting()
        if waiting is None or waiting["side"] != camp.side:
            return False, []
        if camp.refereed:
            from pbem.play.refereeing import latest_view

            view = latest_view(camp)
            return True, [label for label, _ in view["prompt"]["choices"]] if view and view["prompt"] else []
        return True, []
    finally:
        camp.ledger.close()


def order_for(labels: list[str], nth: int = 0) -> str:
    from pbem_engine.protocol.core import Choice, Prompt

    from pbem.commands.demo import choose

    if nth:
        return labels[nth % len(labels)]
    return choose(Prompt("x", "", tuple(Choice(label, {}) for label in labels)))


def subjects(raws: list[bytes]) -> list[str]:
    return [str(email.message_from_bytes(r, policy=default_policy).get("Subject", "")) for r in raws]


def _keep_log(name: str, *people) -> None:
    """With PBEM_HARNESS_LOG=DIR, every command each person ran and what it said, in DIR/NAME.txt."""
    import os

    folder = os.environ.get("PBEM_HARNESS_LOG")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{name}.txt").write_text("\n".join(f"[{p.name}] {text}" for p in people for text in p.outputs))


def test_a_refereed_game_by_mail_alone(tmp_path, relay, referee_box):
    started = time.monotonic()
    runner = CliRunner()
    box, imap = referee_box
    ref = person(runner, tmp_path, relay, "ref", "referee", box=box, imap=imap)
    alice = person(runner, tmp_path, relay, "alice", "allied")
    bob = person(runner, tmp_path, relay, "bob", "ottoman")
    carol = person(runner, tmp_path, relay, "carol", "allied")
    dave = person(runner, tmp_path, relay, "dave", "ottoman")
    for p in (ref, alice, bob, carol, dave):
        p.configure(relay)
    A, B = tmp_path / "ref-a", tmp_path / "ref-b"  # the referee's two games, on one mailbox
    # months-old mail of a game long gone, damaged, from a player of game B: no game answers it
    old_game = "0123456789abcdef" * 2
    box.deliver(b"From: carol@example.org\r\nTo: ref@example.org\r\nSubject: my orders\r\n"
                b"Message-ID: <old-1@example.org>\r\n\r\n-----BEGIN PBEM TURN-----\r\nGame: "
                + old_game.encode() + b"\r\nSeq: 4\r\n")

    # --- game A: the invitations go by mail; bob's recorded address bounces ------------------------
    relay.bounce.add("bob@old.example.org")
    ref.invoke("new", "hill60", "--referee", "--key", "ref", "--player", f"allied={alice.player.pub}",
               "--player", f"ottoman={bob.player.pub}", "--campaign", A)
    ref.invoke("mail", "address", "allied", alice.address, "--campaign", A)
    ref.invoke("mail", "address", "ottoman", "bob@old.example.org", "--campaign", A)
    out = ref.invoke("mail", "send", "--campaign", A).output
    assert out.count("sent ") == 2, out
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", A)
    assert re.search(r"BOUNCE from MAILER-DAEMON.*delivery to bob@old\.example\.org failed: 5\.2\.1", run.stderr), \
        run.output + run.stderr
    assert "answered" not in run.output + run.stderr  # a bounce is never answered
    assert "'my orders'" in run.output and "not for this game" in run.output  # the old mail: another game's
    genesis = next((A / "outbox" / "sent").glob("*genesis-ottoman.eml"))
    ref.invoke("mail", "address", "ottoman", bob.address, "--campaign", A)
    out = ref.invoke("mail", "send", "--campaign", A, genesis).output
    assert f"to {bob.address}" in out  # the same mail, to the address recorded now

    # --- game B: a mistyped address is refused at once, set aside, and blocks nothing --------------
    ref.invoke("new", "hill60", "--referee", "--key", "ref", "--player", f"allied={carol.player.pub}",
               "--player", f"ottoman={dave.player.pub}", "--campaign", B)
    ref.invoke("mail", "address", "allied", carol.address, "--campaign", B)
    ref.invoke("mail", "address", "ottoman", "dave@nowhere.example.org", "--campaign", B)
    refused = ref.invoke("mail", "send", "--campaign", B, ok=False)
    assert "SET ASIDE" in refused.output and "550" in refused.output and f"to {carol.address}" in refused.output
    assert "smtp: 1 message(s) could not be sent" in refused.stderr
    ref.invoke("mail", "address", "ottoman", dave.address, "--campaign", B)
    [failed] = (B / "outbox" / "failed").glob("*.eml")
    assert (B / "outbox" / "failed" / f"{failed.stem}.reason.txt").read_text().count("550") == 1
    assert f"to {dave.address}" in ref.invoke("mail", "send", "--campaign", B, failed).output

    # --- everyone joins by mail: the invitation piped in, the join mailed back ---------------------
    campaigns = {alice: tmp_path / "alice-a", bob: tmp_path / "bob-a", carol: tmp_path / "carol-b",
                 dave: tmp_path / "dave-b"}
    for p, where in campaigns.items():
        out = p.invoke("join", "-", "--key", p.name, "--campaign", where, input=p.newest_mail("invitation")).output
        assert "ready to send:" in out and "ref's address" not in out
        assert f"referee's address: {ref.address}" in out or "referee's address" in out
        assert "sent " in p.invoke("mail", "send", "--campaign", where).output

    def run_referee(game: Path, ok: bool | None = True):
        return ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=ok)

    def fetch(p, where):
        return p.invoke("mail", "fetch", *p.reading(), "--campaign", where)

    def take_turn(p, where, nth=0, fetched=False) -> bool:
        if not fetched:
            fetch(p, where)
        mine, labels = my_move(where)
        if not mine:
            return False
        p.invoke("play", order_for(labels, nth), "--campaign", where)
        sent = p.invoke("mail", "send", "--campaign", where, ok=None)
        assert sent.exit_code == 0 or not relay.up, sent.output + sent.stderr
        return True

    out = run_referee(A).output
    assert "accepted the join of allied" in out and "accepted the join of ottoman" in out and "adjudicated #1" in out
    assert "not for this game" in out  # game B's joins, seen by game A: left alone
    out = run_referee(B).output
    assert "accepted the join of allied" in out and "adjudicated #1" in out

    # --- game B: a player's damaged orders are answered by game B alone, once ------------------------
    fetch(carol, campaigns[carol])
    _, labels = my_move(campaigns[carol])
    if labels:  # carol's first orders, sent damaged by her mail program (the END line lost)
        carol.invoke("play", order_for(labels), "--campaign", campaigns[carol])
        orders = signed_file(carol.outputs[-1])
        damaged = "\n".join(orders.read_text().splitlines()[:-1])
        last = email.message_from_bytes(carol.newest_mail("[hill60"), policy=default_policy)
        relay.accept(carol.address, [ref.address], (
            f"From: {carol.address}\r\nTo: {ref.address}\r\nSubject: Re: {last['Subject']}\r\n"
            f"Message-ID: <carol-1@example.org>\r\nIn-Reply-To: {last['Message-ID']}\r\n\r\nmy orders:\r\n\r\n"
            + damaged.replace("\n", "\r\n") + "\r\n").encode())
    out_a = run_referee(A).output
    out_b = run_referee(B).output
    assert "not for this game" in out_a and "answered" not in out_a
    assert re.search(r"REFUSED a message from carol@example\.org .*truncated.*; answered", out_b), out_b
    fetch(carol, campaigns[carol])  # the answer says what to do: she sends the file pbem wrote
    carol.invoke("mail", "send", "--campaign", campaigns[carol])
    assert "accepted #2 from allied" in run_referee(B).output

    # --- game A, played by mail to the end --------------------------------------------------------
    players = {alice: campaigns[alice], bob: campaigns[bob]}
    cycle = 0
    outage_seen = equivocation = hello = duplicate = False
    while True:
        cycle += 1
        assert cycle < 80, "the game by mail does not end"
        if cycle == 3:
            relay.vacation.add(bob.address)  # bob's vacation: his mailbox answers everything
        if cycle == 6:
            relay.vacation.discard(bob.address)
        for p, where in players.items():
            fetch(p, where)
            mine, labels = my_move(where)
            if p is alice and mine and not equivocation and cycle >= 4 and len(labels) > 1:
                # a cheating attempt: a copy of her campaign signs other orders for the same number
                copy = tmp_path / "alice-copy"
                shutil.copytree(where, copy)
                take_turn(p, where, 0, fetched=True)
                p.invoke("play", order_for(labels, 1) if order_for(labels, 1) != order_for(labels) else labels[0],
                         "--campaign", copy)
                p.invoke("mail", "send", "--campaign", copy)
                equivocation = True
                continue
            if p is alice and cycle == 2 and not hello:  # a word to the referee, in the game's thread
                last = email.message_from_bytes(alice.newest_mail("[hill60"), policy=default_policy)
                relay.accept(alice.address, [ref.address], (
                    f"From: {alice.address}\r\nTo: {ref.address}\r\nSubject: Re: {last['Subject']}\r\n"
                    f"Message-ID: <alice-hello@example.org>\r\nIn-Reply-To: {last['Message-ID']}\r\n"
                    f"References: {last['References']} {last['Message-ID']}\r\n\r\nHello, how long do you "
                    "need for each turn?\r\n").encode())
                hello = True
            take_turn(p, where, fetched=True)
        if cycle == 5 and not duplicate:  # alice's mail program sends her last orders again
            last = sorted((players[alice] / "outbox" / "sent").glob("*allied-turn-referee.eml"))[-1]
            alice.invoke("mail", "send", "--campaign", players[alice], last)
            duplicate = True
        if cycle == 7 and not outage_seen:  # the SMTP server goes down while the referee adjudicates
            relay.stop()
            down = run_referee(A, ok=False)
            assert "adjudicated #" in down.output or "disclosed" in down.output, down.output
            assert "waiting in the outbox" in down.output and "Error: smtp: sending mail failed" in down.stderr
            for p, where in players.items():  # and the players' sending fails too: their mail waits
                take_turn(p, where)
            relay.start()
            outage_seen = True
        out = run_referee(A).output
        out_b = run_referee(B).output  # the other game on the same mailbox: reads it all, answers none of it
        assert "answered" not in out_b and "accepted" not in out_b, out_b
        if open_ro(A).waiting() is None and not any((A / "outbox").glob("*.eml")):
            break
    assert any("disclosed the game: turn file #" in o for o in ref.outputs)  # a disclosure, not an adjudication
    for p, where in players.items():
        out = fetch(p, where).output
    for p, where in players.items():
        assert "The game is over." in fetch(p, where).output

    # --- every side checks the whole game ---------------------------------------------------------
    states = set()
    for who, where in ((ref, A), (alice, players[alice]), (bob, players[bob])):
        out = who.invoke("verify", where).output
        assert out.startswith("OK: "), out
        states.add(re.search(r"; state (\w+)", out).group(1))
        if who is not ref:
            assert "referee disclosed: full game replayed" in out
            assert who.invoke("audit", where).exit_code == 0
    assert len(states) == 1

    # --- nothing lost, nothing twice, every answer due given once, nothing else answered -----------
    for where in (A, B, *campaigns.values()):
        assert not list((where / "outbox").glob("*.eml")), f"left in {where}/outbox"
        assert not list((where / "outbox" / "failed").glob("*.eml")) if (where / "outbox" / "failed").is_dir() else True
    assert relay.refused == ["dave@nowhere.example.org"]
    again = [run_referee(g).output for g in (A, B)]
    assert all(o.startswith("nothing new in ") and len(o.splitlines()) == 1 for o in again), again
    delivered = Counter((d.to, d.message_id) for d in relay.log if d.kind == "mail")
    twice = {key for key, n in delivered.items() if n > 1}
    alice_dup = {(ref.address, mid) for (to, mid) in twice if to == ref.address}
    assert twice == alice_dup and len(alice_dup) == 1, twice  # only what alice's mail program sent twice
    answers = relay.replies_from(ref.address)
    answered = sorted((d.to, str(d.message.get("In-Reply-To") or "")) for d in answers)
    assert len(answered) == 3, (answered, [o for o in ref.outputs if "REFUSED" in o][:3], [o for o in alice.outputs if "alice-copy" in o])
    assert (alice.address, "<alice-hello@example.org>") in answered  # her word in the game's thread
    assert (carol.address, "<carol-1@example.org>") in answered  # game B's damaged orders, by game B
    [(_, cheat)] = [a for a in answered if a[1] not in ("<alice-hello@example.org>", "<carol-1@example.org>")]
    assert "pbem-" in cheat  # the cheating attempt's own mail, written by pbem
    texts = {d.to + d.subject: d.message.get_content() for d in answers}
    equivocal = [t for t in texts.values() if "equivocation" in t]
    assert len(equivocal) == 1 and "malformed" not in equivocal[0] and str(tmp_path) not in equivocal[0]
    assert all("BEGIN PBEM TURN-----" not in t and str(tmp_path) not in t for t in texts.values())
    assert all(d.message["Auto-Submitted"] == "auto-replied" and d.message["References"] for d in answers)
    # bob's vacation answered the referee's mail while it lasted, and nothing answered it back
    vacation = [d for d in relay.log if d.kind == "vacation"]
    assert vacation and all(d.to == ref.address for d in vacation)
    assert not [d for d in answers if d.to == bob.address]
    # each player got each of the referee's files once: its invitation, every adjudication, the disclosure
    camp = open_ro(A)
    referee_files = [seq for seq, _, author, *_ in camp.ledger.envelopes() if author == "referee" and seq > 0]
    camp.ledger.close()
    for p in (alice, bob):
        files = [d for d in relay.to(p.address, "mail") if d.sender == ref.address and "[hill60 " in d.subject
                 and b"auto-replied" not in d.raw and A.name not in d.subject]
        game_a = [d for d in files if open_ro(A).genesis["game"][:8] in d.subject]
        assert len(game_a) == len(referee_files) + 1, [d.subject for d in game_a]  # + the invitation
    mails = len([d for d in relay.log if d.kind == "mail"])
    _keep_log("refereed", ref, alice, bob, carol, dave)
    print(f"\nrefereed game by mail: {len(referee_files)} referee files, {mails} mails delivered, "
          f"{len(relay.log) - mails} bounces and auto-replies, {cycle} cycles, "
          f"{time.monotonic() - started:.1f} s")
    assert outage_seen and equivocation and hello and duplicate


def test_a_two_player_game_by_mail_alone(tmp_path, relay):
    started = time.monotonic()
    runner = CliRunner()
    alice = person(runner, tmp_path, relay, "alice", "red")
    bob = person(runner, tmp_path, relay, "bob", "blue")
    for p in (alice, bob):
        p.configure(relay)
    a, b = tmp_path / "alice-game", tmp_path / "bob-game"
    out = alice.invoke("new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.player.pub,
                       "--campaign", a).output
    assert "ready to send:" in out
    alice.invoke("mail", "address", "blue", bob.address, "--campaign", a)
    alice.invoke("mail", "send", "--campaign", a)
    invitation = bob.newest_mail("invitation")
    assert "you play blue" in subjects([invitation])[0]
    saved = tmp_path / "invitation.eml"
    saved.write_bytes(invitation)
    out = bob.invoke("join", saved, "--key", "bob", "--campaign", b).output  # a saved mail, like ingest reads
    assert f"red's address: {alice.address}" in out
    bob.invoke("mail", "send", "--campaign", b)
    turns = 0
    while True:
        moved = False
        for p, where in ((alice, a), (bob, b)):
            fetched = p.invoke("mail", "fetch", "--maildir", p.box.maildir, "--campaign", where)
            lines = fetched.output.splitlines()
            assert len(lines) <= 4 and "repeated" not in fetched.output, fetched.output  # one line per message
            if "Your move" in fetched.output:
                p.invoke("play", "1", "--campaign", where)
                p.invoke("mail", "send", "--campaign", where)
                moved = True
                turns += 1
        if not moved:
            break
        assert turns < 60
    for p, where in ((alice, a), (bob, b)):
        out = p.invoke("mail", "fetch", "--maildir", p.box.maildir, "--campaign", where).output
        assert "The game is over." in out
        assert p.invoke("verify", where).output.startswith("OK: ")
        assert not list((where / "outbox").glob("*.eml"))
    delivered = Counter((d.to, d.message_id) for d in relay.log)
    assert all(n == 1 for n in delivered.values()) and relay.refused == []
    subjects_to_bob = [d.subject for d in relay.to(bob.address)]
    subjects_to_alice = [d.subject for d in relay.to(alice.address)]
    # barrage: every barrage is the only legal choice, so no mail asks bob to decide anything
    assert any("no decision for you, your tool answers" in s for s in subjects_to_bob), subjects_to_bob
    assert not any("your move" in s for s in subjects_to_bob), subjects_to_bob
    # whoever did not send the last turn file is told by mail that the game is over
    assert [any("game over" in s for s in subs) for subs in (subjects_to_alice, subjects_to_bob)].count(True) == 1, \
        (subjects_to_alice, subjects_to_bob)
    assert all(not s.startswith(" ") for s in subjects_to_bob), subjects_to_bob
    _keep_log("two-player", alice, bob)
    print(f"\ntwo-player game by mail: {turns} turn files, {len(relay.log)} mails, {time.monotonic() - started:.1f} s")

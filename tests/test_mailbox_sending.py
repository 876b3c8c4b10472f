"""Sending from a mailbox that runs itself: one message the server will not take never stops the
others; refused for now, it is tried again later, with growing waits, then set aside with its
reason; an outage leaves everything waiting and says so; a file given to ``pbem mail send`` from
elsewhere is copied, never moved.  Over the loopback relay of ``tests.mail_harness``."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import db_bytes
from tests.mail_harness import Relay, person, refereed_game

T0 = datetime(2025, 6, 3, 10, 0, tzinfo=UTC)


@pytest.fixture
def relay():
    server = Relay().start()
    yield server
    server.stop()


@pytest.fixture
def clock(monkeypatch):
    """pbem's clock for sending, set by the test: clock.now = T0 + ..."""

    class Clock:
        now = T0

    monkeypatch.setattr("pbem.mailbox.mail_send._now", lambda: Clock.now)
    return Clock


def outbox(game: Path, sub: str = "") -> list[str]:
    folder = game / "outbox" / sub if sub else game / "outbox"
    return sorted(p.name for p in folder.glob("*.eml")) if folder.is_dir() else []


def test_an_address_refused_for_good_is_set_aside_and_never_stops_later_runs(tmp_path, relay):
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    ref.invoke("mail", "address", "ottoman", "bob@nowhere.example.org", "--campaign", game)  # a typo
    first = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False)
    assert "adjudicated #1" in first.output
    assert "sent " in first.output and f"to {alice.address}" in first.output  # alice's file went
    assert "SET ASIDE" in first.output and "550 5.1.1" in first.output  # bob's did not: set aside, with why
    assert "Error: smtp: 1 message(s) could not be sent" in first.stderr
    assert outbox(game) == [] and len(outbox(game, "failed")) == 1
    reason = next((game / "outbox" / "failed").glob("*.reason.txt")).read_text()
    assert "bob@nowhere.example.org" in reason and "550" in reason
    # the next runs go on: nothing is stuck behind it
    alice.invoke("mail", "fetch", "--maildir", alice.box.maildir, "--campaign", a)
    alice.invoke("play", "1", "--campaign", a)
    alice.invoke("mail", "send", "--campaign", a)
    second = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False)  # bob's address: still wrong
    assert "accepted #2 from allied" in second.output and "adjudicated #3" in second.output
    assert f"to {alice.address}" in second.output and outbox(game) == [] and len(outbox(game, "failed")) == 2
    third = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)  # nothing new: nothing to fail
    assert third.output.startswith("nothing new") and len(third.output.splitlines()) == 1
    # mended: the address, then the messages set aside, sent to the address recorded now
    ref.invoke("mail", "address", "ottoman", bob.address, "--campaign", game)
    failed = sorted((game / "outbox" / "failed").glob("*.eml"))
    out = ref.invoke("mail", "send", "--campaign", game, *failed).output
    assert all(f"sent {f.name} to {bob.address}" in out for f in failed) and outbox(game, "failed") == []
    fetched = bob.invoke("mail", "fetch", "--maildir", bob.box.maildir, "--campaign", b).output
    assert "accepted #1 from referee with your view" in fetched and "#3 from referee" in fetched
    status = ref.invoke("status", "--campaign", game).output  # sent at last, and still on record
    assert "MAIL SET ASIDE" not in status and len(re.findall(r"(?m)^MAIL .* UTC: SET ASIDE .*550", status)) == 2


def test_refused_for_now_is_tried_again_later_with_growing_waits_then_set_aside(tmp_path, relay, clock):
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    relay.temporary.add(bob.address)  # bob's server greylists, then his mailbox stays full
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False)
    assert "adjudicated #1" in run.output and f"to {alice.address}" in run.output
    assert "refused for now" in run.output and "450" in run.output and "next try 2025-06-03 10:05 UTC" in run.output
    assert len(relay.deferred) == 1
    clock.now = T0 + timedelta(minutes=1)  # cron, a minute later: not yet, and that is no error
    quiet = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    assert "next try 2025-06-03 10:05 UTC" in quiet.output and len(relay.deferred) == 1
    assert "1 waiting in the outbox" in quiet.output.splitlines()[-1]
    waits = []
    for minutes in (6, 17, 38, 79):  # each try after the last wait: 5, 10, 20, 40 minutes...
        clock.now = T0 + timedelta(minutes=minutes)
        out = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False).output
        waits.append(out.split("next try ")[1][:16])
    assert waits == ["2025-06-03 10:16", "2025-06-03 10:37", "2025-06-03 11:18", "2025-06-03 12:39"], waits
    assert len(relay.deferred) == 5
    before = len(relay.deferred)
    ref.invoke("mail", "send", "--campaign", game, ok=False)  # by hand: tried at once, whatever the wait
    assert len(relay.deferred) == before + 1
    clock.now = T0 + timedelta(days=5, minutes=1)  # still refused five days on: set aside, with why
    out = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False).output
    assert "SET ASIDE" in out and "refused for 5 days" in out and "450" in out
    assert outbox(game) == [] and len(outbox(game, "failed")) == 1
    relay.temporary.clear()
    failed = next((game / "outbox" / "failed").glob("*.eml"))
    assert f"to {bob.address}" in ref.invoke("mail", "send", "--campaign", game, failed).output


def test_sending_by_hand_never_puts_off_the_unattended_runs_next_try(tmp_path, relay, clock):
    """A referee who tries by hand (pbem mail send) while the server refuses for now gets an extra
    try, not a longer wait: the waits grow with the run's own tries only, and a try by hand that
    goes clears them."""
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    relay.temporary.add(bob.address)
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False)
    assert "next try 2025-06-03 10:05 UTC" in run.output
    clock.now = T0 + timedelta(minutes=1)
    for _ in range(4):  # impatient: four tries by hand, each refused, each says when the run tries again
        by_hand = ref.invoke("mail", "send", "--campaign", game, ok=False)
        assert "refused for now" in by_hand.output and "next try 2025-06-03 10:05 UTC" in by_hand.output
    relay.temporary.clear()  # the server takes mail again
    clock.now = T0 + timedelta(minutes=6)
    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)  # when it was due, not 80 minutes on
    assert f"to {bob.address}" in run.output and outbox(game) == []
    # refused again later (a second message): the run starts over at 5 minutes; by hand it goes and clears
    relay.temporary.add(bob.address)
    ref.invoke("resend", "--campaign", game)
    clock.now = T0 + timedelta(minutes=10)
    assert "next try 2025-06-03 10:15 UTC" in ref.invoke("mail", "run", *ref.reading(), "--campaign", game,
                                                          ok=False).output
    clock.now = T0 + timedelta(minutes=16)
    assert "next try 2025-06-03 10:26 UTC" in ref.invoke("mail", "run", *ref.reading(), "--campaign", game,
                                                          ok=False).output
    relay.temporary.clear()
    assert f"to {bob.address}" in ref.invoke("mail", "send", "--campaign", game).output
    assert "outbox-retry" not in settings(game)


def settings(game: Path) -> dict[str, str]:
    import sqlite3

    with sqlite3.connect(f"file:{game / 'campaign.db'}?mode=ro", uri=True) as db:
        return dict(db.execute("select key, value from settings").fetchall())


def test_an_outage_says_what_was_done_and_what_waits_and_loses_nothing(tmp_path, relay, clock):
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    relay.stop()
    down = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False)
    last = down.stdout.splitlines()[-1]
    assert "2 accepted" in last and "adjudicated #1" in last and "2 waiting in the outbox" in last, down.output
    assert "Error: smtp: sending mail failed" in down.stderr and "Connection refused" in down.stderr
    clock.now = T0 + timedelta(days=6)  # a long outage is no message's fault: nothing is set aside
    again = ref.invoke("mail", "run", *ref.reading(), "--campaign", game, ok=False)
    assert "2 waiting in the outbox" in again.output and outbox(game, "failed") == []
    relay.start()
    up = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
    assert up.output.count("sent ") == 2 and outbox(game) == []
    assert len(relay.to(alice.address)) == 2 and len(relay.to(bob.address)) == 2  # invitation, first file


def test_mail_send_copies_a_file_from_elsewhere_and_mails_a_turn_file(tmp_path, relay):
    runner = CliRunner()
    alice = person(runner, tmp_path, relay, "alice", "red")
    bob = person(runner, tmp_path, relay, "bob", "blue")
    alice.configure(relay)
    a = tmp_path / "alice-game"
    alice.invoke("new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.player.pub, "--campaign", a)
    alice.invoke("mail", "address", "blue", bob.address, "--campaign", a)
    [mail] = (a / "outbox").glob("*.eml")
    elsewhere = tmp_path / "kept" / "invitation.eml"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(mail.read_bytes())
    mail.unlink()
    out = alice.invoke("mail", "send", "--campaign", a, elsewhere).output
    assert f"to {bob.address}" in out
    assert elsewhere.exists() and elsewhere.read_bytes()  # copied, never moved
    assert (a / "outbox" / "sent" / "invitation.eml").exists()
    # the invitation's turn file itself: its mail is written, then sent (it failed with '{}')
    genesis = next((a / "sent").glob("*genesis.pbem"))
    out = alice.invoke("mail", "send", "--campaign", a, genesis).output
    assert f"sent {genesis.stem}-blue.eml to {bob.address}" in out and genesis.exists()
    subjects = [d.subject for d in relay.to(bob.address)]
    assert len(subjects) == 2 and all("invitation to Barrage" in s for s in subjects), subjects
    # something that is neither: refused with a reason, the campaign as it was
    junk = tmp_path / "notes.txt"
    junk.write_text("my plans\n")
    before = db_bytes(a)
    refused = alice.invoke("mail", "send", "--campaign", a, junk, ok=False)
    assert "Error: not-mail: notes.txt is neither a mail nor a turn file" in refused.stderr
    assert db_bytes(a) == before and junk.exists()


def test_two_overlapping_runs_do_nothing_twice(tmp_path, relay):
    """Two `pbem mail run` at once (cron and a referee by hand) on one campaign: each message is
    read, answered and adjudicated once."""
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    for n in range(3):  # three damaged messages from a player: three answers, not six
        relay.accept(alice.address, [ref.address], (
            f"From: {alice.address}\r\nTo: {ref.address}\r\nSubject: [hill60 x] orders {n}\r\n"
            f"Message-ID: <damaged-{n}@example.org>\r\n\r\n-----BEGIN PBEM TURN-----\r\n"
            f"Game: {game_id(game)}\r\nSeq: 2\r\n").encode())
    env = dict(ref.env, PBEM_LOCK_WAIT="60")
    command = [sys.executable, "-m", "pbem", "mail", "run", *ref.reading(), "--campaign", str(game)]
    runs = [subprocess.Popen(command, env={**__import__("os").environ, **env}, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [r.communicate(timeout=120) for r in runs]
    assert [r.returncode for r in runs] == [0, 0], outputs
    text = "".join(o for o, _ in outputs)
    assert text.count("adjudicated #1\n") == 1 and text.count("; answered") == 3, text
    assert sum(o.startswith("nothing new") for o, _ in outputs) == 1  # the second waited, then found it all done
    answers = relay.replies_from(ref.address)
    assert sorted(str(d.message["In-Reply-To"]) for d in answers) == [f"<damaged-{n}@example.org>" for n in range(3)]
    assert len(relay.to(alice.address)) == 2 + 3  # the invitation, the first file, three answers


def game_id(game: Path) -> str:
    from pbem.play.campaign import Campaign

    camp = Campaign.open(game, readonly=True)
    try:
        return camp.genesis["game"]
    finally:
        camp.ledger.close()


def test_a_mailbox_that_cannot_be_read_still_sends_what_waits(tmp_path, relay):
    from tests.mail_harness import free_port

    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay)
    ref.invoke("mail", "run", *ref.reading(), "--campaign", game)  # adjudicates #1, sends both files
    relay.stop()
    alice.invoke("mail", "fetch", "--maildir", alice.box.maildir, "--campaign", a)
    ref.invoke("resend", "--campaign", game)  # a referee's file written again: its mail waits in the outbox
    relay.start()
    ref.invoke("mail", "config", "--imap", f"127.0.0.1:{free_port()}", "--imap-security", "none",
               "--imap-user", "ref")  # the IMAP server is down
    run = ref.invoke("mail", "run", "--campaign", game, ok=False)  # (by IMAP now: no --maildir)
    assert run.stdout.count("sent ") == 2, run.output
    assert run.stdout.splitlines()[-1].startswith("could not read INBOX at 127.0.0.1; 2 sent"), run.output
    assert "Error: imap: reading mail failed" in run.stderr

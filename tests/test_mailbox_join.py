"""A player joins from his mailbox (``pbem join --from-mailbox``): the invitation is read from his
IMAP folder (a private dovecot; skipped, visibly, without it), never saved by hand; with two
games inviting him he is asked which, and nothing is joined until he says."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from tests.mail_harness import Mailbox, Relay, person


@pytest.fixture
def relay():
    server = Relay().start()
    yield server
    server.stop()


@pytest.fixture
def imap():
    from tests.imap_server import SKIP_PREFIX, DovecotUnavailable, ImapServer

    server = ImapServer(users={"alice": "alice-secret"})
    try:
        server.start()
    except DovecotUnavailable as exc:
        pytest.skip(f"{SKIP_PREFIX}: {exc}")
    yield server
    server.stop()


def test_a_player_joins_from_his_mailbox(tmp_path, relay, imap):
    runner = CliRunner()
    ref = person(runner, tmp_path, relay, "ref", "referee")
    alice = person(runner, tmp_path, relay, "alice", "allied", box=Mailbox(imap=imap, user="alice"), imap=imap)
    bob = person(runner, tmp_path, relay, "bob", "ottoman")
    for p in (ref, alice, bob):
        p.configure(relay)
    games = {}
    for name in ("first", "second"):
        games[name] = tmp_path / f"ref-{name}"
        ref.invoke("new", "hill60", "--referee", "--key", "ref", "--player", f"allied={alice.player.pub}",
                   "--player", f"ottoman={bob.player.pub}", "--campaign", games[name])
        for side, p in (("allied", alice), ("ottoman", bob)):
            ref.invoke("mail", "address", side, p.address, "--campaign", games[name])
        if name == "first":
            ref.invoke("mail", "send", "--campaign", games[name])
    first = ref.invoke("status", "--campaign", games["first"]).output.split("game ")[1][:8]
    second = ref.invoke("status", "--campaign", games["second"]).output.split("game ")[1][:8]

    # one invitation in the mailbox: joined from it, the join goes back to the address it came from
    assert b"pbem join --from-mailbox --key YOUR-NAME" in imap.messages(user="alice")[0]  # the mail says how
    a = tmp_path / "alice-first"
    out = alice.invoke("join", "--from-mailbox", "--key", "alice", "--campaign", a).output
    assert f"the invitation in message 1 of INBOX at 127.0.0.1: game {first} (Hill 60" in out, out
    assert f"joined game {first}" in out and f"referee's address: {ref.address}" in out
    alice.invoke("mail", "send", "--campaign", a)
    assert "accepted the join of allied" in ref.invoke("mail", "run", *ref.reading(), "--campaign",
                                                       games["first"]).output
    assert len(imap.messages(user="alice")) >= 1  # the mailbox is only read

    # two games invite her: she is asked which, and nothing is joined until she says
    ref.invoke("mail", "send", "--campaign", games["second"])
    b = tmp_path / "alice-second"
    two = alice.invoke("join", "--from-mailbox", "--key", "alice", "--campaign", b, ok=False)
    assert "Error: several-invitations: 2 invitations in INBOX at 127.0.0.1" in two.stderr
    assert f"game {first} (Hill 60" in two.stderr and f"game {second} (Hill 60" in two.stderr
    assert "give --game with the one you accept" in two.stderr and not b.exists()
    out = alice.invoke("join", "--from-mailbox", "--game", second, "--key", "alice", "--campaign", b).output
    assert f"joined game {second}" in out
    none = alice.invoke("join", "--from-mailbox", "--game", "ffffffff", "--key", "alice", "--campaign",
                        tmp_path / "alice-third", ok=False)
    assert re.search(r"Error: no-invitation: no invitation of game ffffffff naming your key in INBOX", none.stderr)
    assert not (tmp_path / "alice-third").exists()

    # misuse: neither a file nor the mailbox, or both, or --game alone: exit 2
    for args in ((), ("-", "--from-mailbox"), ("-", "--game", first)):
        misuse = alice.invoke("join", *args, "--key", "alice", "--campaign", tmp_path / "x", ok=None)
        assert misuse.exit_code == 2 and not (tmp_path / "x").exists(), misuse.output + misuse.stderr

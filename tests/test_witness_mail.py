"""Witnesses by mail (issue 37, point 3): each player's ``pbem mail send`` mails the witness one
copy of each turn file it signed, once; the witness founds her copy from the invitation's mail and
reads her mailbox (``pbem mail fetch``).  Over the loopback relay of ``tests.mail_harness``; and the independent
verifier (written from docs/spec.md alone) reads the game the witness holds."""

from __future__ import annotations

import email
import json
from email.policy import default as default_policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.wire.envelope import seal
from pbem.wire.keys import KeyStore
from tests import independent_verifier as iv
from tests.conftest import read_envelope
from tests.mail_harness import Relay, person, signed_file


@pytest.fixture
def relay():
    server = Relay().start()
    yield server
    server.stop()


def test_each_turn_file_reaches_the_witness_once_by_mail(tmp_path: Path, relay: Relay):
    runner = CliRunner()
    alice, bob = person(runner, tmp_path, relay, "alice", "allied"), person(runner, tmp_path, relay, "bob", "ottoman")
    carol = person(runner, tmp_path, relay, "carol", "")
    for p in (alice, bob, carol):
        p.configure(relay)
    a, b, c = tmp_path / "alice-game", tmp_path / "bob-game", tmp_path / "carol-watch"
    alice.invoke("new", "raid", "--as", "allied", "--key", "alice", "--opponent", bob.player.pub,
                 "--witness", carol.player.pub, "--campaign", a)
    alice.invoke("mail", "address", "ottoman", bob.address, "--campaign", a)
    alice.invoke("witnesses", "--campaign", a, "--address", "carol", carol.address)
    sent = alice.invoke("mail", "send", "--campaign", a).output
    assert f"to {carol.address}" in sent and f"to {bob.address}" in sent
    invitation = carol.newest_mail("for witness carol")
    msg = email.message_from_bytes(invitation, policy=default_policy)
    assert msg["X-Pbem-To-Side"] == "witness:carol" and "genesis.pbem" in msg["Subject"]
    carol.invoke("watch", "-", "--key", "carol", "--campaign", c, input=invitation)

    bob.invoke("join", "-", "--key", "bob", "--campaign", b, input=bob.newest_mail("invitation"))
    bob.invoke("witnesses", "--campaign", b, "--address", "carol", carol.address)
    bob.invoke("mail", "send", "--campaign", b)
    alice.invoke("ingest", "--campaign", a, alice.box.maildir)
    assert signed_file(alice.invoke("play", "1", "--campaign", a).output).name.endswith("-0002-allied-turn.pbem")
    alice.invoke("mail", "send", "--campaign", a)
    alice.invoke("mail", "send", "--campaign", a)  # nothing new: no second copy

    to_carol = [d for d in relay.log if d.to == carol.address]
    files = sorted((a / "sent").glob("*.pbem")) + sorted((b / "sent").glob("*.pbem"))
    assert len(to_carol) == len(files) == 3  # the invitation, the join, alice's turn: once each
    out = carol.invoke("mail", "fetch", "--campaign", c, *carol.reading()).output
    assert "2 accepted, 1 already had" in out  # the join and alice's turn; the invitation founded the copy
    assert not list(c.glob("outbox/**/*.eml"))  # a witness answers nothing
    report = carol.invoke("report", "--campaign", c).output
    assert "report for witness (witness carol)" in report and "#2 allied (turn):" in report
    mails = b"".join(carol.box.messages())
    secrets = json.loads((a / "secrets" / "chain.json").read_text())
    assert secrets["private"].encode() not in mails and secrets["secret"].encode() not in mails

    texts = [p.read_text() for p in sorted((c / "received").glob("*.pbem"))]
    checked = iv.verify_files(texts)  # the witness's files, read from the spec alone
    assert len(checked.envelopes) == 3
    assert f"state {checked.state[:16]}" in carol.invoke("verify", c).output  # the same game as pbem's


def test_the_independent_verifier_checks_the_witnesses_member(tmp_path: Path, relay: Relay):
    runner = CliRunner()
    alice, bob = person(runner, tmp_path, relay, "alice", "allied"), person(runner, tmp_path, relay, "bob", "ottoman")
    carol = person(runner, tmp_path, relay, "carol", "")
    a = tmp_path / "alice-game"
    alice.invoke("new", "raid", "--as", "allied", "--key", "alice", "--opponent", bob.player.pub,
                 "--witness", carol.player.pub, "--campaign", a)
    genesis = read_envelope(next((a / "sent").glob("*genesis.pbem")))
    iv.verify_files([genesis.raw])  # as pbem made it
    identity = KeyStore(alice.player.home).load("alice")
    content = json.loads(json.dumps(genesis.content))
    content["body"]["witnesses"].append(dict(content["body"]["witnesses"][0]))  # the same witness twice
    with pytest.raises(iv.Refused) as refused:
        iv.verify_files([seal(identity, content).raw])
    assert refused.value.code == "bad-genesis" and "witnesses" in refused.value.reason

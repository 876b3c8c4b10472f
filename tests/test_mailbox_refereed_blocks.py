"""The referee's mailbox runs a whole refereed block game unattended (issue 16, point 3).

A referee, two players and the loopback mail system of ``tests.mail_harness`` (the referee's
mailbox a Maildir, or the INBOX of a private dovecot over IMAP, skipped with its reason where
dovecot is absent).  The players are the game's own simple player, giving every order their tool
can follow in one file and mailing it; the referee only ever runs ``pbem mail run``.  Midway a
damaged turn file and a forged one (signed by a key that is not the player's) arrive from a
player's address: each is refused with its reason, answered once, politely, and nothing is lost.
"""

from __future__ import annotations

import email
import re
from email.policy import default as default_policy
from pathlib import Path

from click.testing import CliRunner

from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.wire.keys import KeyStore
from pbem.mailbox.mail import write_outbox
from tests.mail_harness import refereed_game
from tests.test_mailbox_by_mail import referee_box, relay  # noqa: F401 (the same fixtures: the relay, the referee's box)


def plays(person, where: Path) -> bool:
    """The player's turn, if it is his: the game's own player chooses, the tool signs the file."""
    camp = Campaign.open(where)
    try:
        waiting = camp.waiting()
        if waiting is None or waiting["side"] != camp.side:
            return False
        identity = KeyStore(person.player.home).load(person.name)
        result = camp.play(identity, [], policy(camp))
        assert result.envelope is not None
        write_outbox(camp, result, person.address)  # what 'pbem play' writes for 'pbem mail send'
        return True
    finally:
        camp.ledger.close()


def my_turn(where: Path) -> bool:
    camp = Campaign.open(where, readonly=True)
    try:
        waiting = camp.waiting()
        return waiting is not None and waiting["side"] == camp.side
    finally:
        camp.ledger.close()


def test_the_referees_mailbox_runs_a_refereed_block_game_unattended(tmp_path, relay, referee_box):
    box, imap = referee_box
    ref, alice, bob, game, a, b = refereed_game(CliRunner(), tmp_path, relay, "gallipoli-blocks",
                                                referee_box=box, imap=imap, options=("--option", "turns=2"))
    players = {alice: a, bob: b}
    refused = []
    for cycle in range(200):
        run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
        refused += [line for line in (run.stdout + run.stderr).splitlines() if "REFUSED" in line]
        if Campaign.open(game, readonly=True).waiting() is None and not list((game / "outbox").glob("*.eml")):
            break
        for p, where in players.items():
            p.invoke("mail", "fetch", *p.reading(), "--campaign", where)
            hostile = p is alice and cycle >= 3 and not refused and my_turn(where)
            fake = forged(tmp_path, where) if hostile else None  # her next file, signed by a stranger
            if plays(p, where):
                if hostile:  # first a damaged copy and the forged one, from her address
                    signed = sorted((where / "sent").glob("*-turn.pbem"))[-1].read_text()
                    damaged = "\n".join(signed.splitlines()[:-3])
                    last = email.message_from_bytes(alice.newest_mail("[gallipoli-blocks"), policy=default_policy)
                    for mid, body in (("<damaged@example.org>", damaged), ("<forged@example.org>", fake)):
                        relay.accept(alice.address, [ref.address], (
                            f"From: {alice.address}\r\nTo: {ref.address}\r\nSubject: Re: {last['Subject']}\r\n"
                            f"Message-ID: {mid}\r\nIn-Reply-To: {last['Message-ID']}\r\n\r\nmy orders:\r\n\r\n"
                            + body.replace("\n", "\r\n") + "\r\n").encode())
                    run = ref.invoke("mail", "run", *ref.reading(), "--campaign", game)
                    refused += [line for line in (run.stdout + run.stderr).splitlines() if "REFUSED" in line]
                p.invoke("mail", "send", "--campaign", where)
    else:
        raise AssertionError("the refereed block game by mail did not end")

    # the two hostile messages: refused with their reason, answered once each, and nothing else refused
    assert len(refused) == 2, refused
    assert any("truncated" in line or "damaged" in line for line in refused), refused
    assert any("key" in line for line in refused), refused
    assert all(line.endswith("; answered") for line in refused), refused
    answers = {str(d.message["In-Reply-To"]): d for d in relay.replies_from(ref.address)}
    assert {"<damaged@example.org>", "<forged@example.org>"} <= set(answers)
    for mid in ("<damaged@example.org>", "<forged@example.org>"):
        text = answers[mid].message.get_content()
        assert answers[mid].to == alice.address and "-----BEGIN PBEM TURN-----" not in text and str(tmp_path) not in text

    # each of the referee's mails holds its player's file once (attached), and a view in words, bounded
    from pbem.mailbox.mail import BODY_MOST

    mails = [d for d in relay.log if d.kind == "mail" and d.sender == ref.address and b"auto-replied" not in d.raw]
    assert len(mails) > 10  # a game turn and more of adjudications (a random game may be short: 20 seen)
    for d in mails:
        msg = d.message
        [attached] = list(msg.iter_attachments())
        body = msg.get_body(("plain",)).get_content()
        assert "-----BEGIN PBEM TURN-----" not in body and "[[" not in body, body[:2000]
        assert len(body) <= BODY_MOST + 400 and len(d.raw) < len(attached.get_content()) + BODY_MOST + 3000

    # everyone verifies the whole game; one history; nothing left in any outbox
    states = set()
    for who, where in ((ref, game), (alice, a), (bob, b)):
        who.invoke("mail", "fetch", *who.reading(), "--campaign", where) if who is not ref else None
        out = who.invoke("verify", where).output
        assert out.startswith("OK: "), out
        states.add(re.search(r"; state (\w+)", out).group(1))
        assert not list((where / "outbox").glob("*.eml"))
    assert len(states) == 1
    assert Campaign.open(a, readonly=True).outcome() is not None


def forged(root: Path, where: Path) -> str:
    """alice's next turn file as a stranger would make it: her campaign copied, signed with another key."""
    import shutil

    from tests.conftest import new_player

    mallory = new_player(CliRunner(), root / "mallory", "mallory", "allied")
    copy = root / "mallory-copy"
    shutil.copytree(where, copy)
    camp = Campaign.open(copy)
    try:
        identity = KeyStore(mallory.home).load("mallory")
        from pbem_engine.canonical import canonical_json

        from pbem.chain import referee
        from pbem.wire.envelope import seal

        head = camp.ledger.head()
        genesis = camp.genesis
        box = referee.seal_box(bytes.fromhex(camp.match()["public"]["boxes"]["referee"]), canonical_json([{}]),
                               genesis["game"], "orders", referee.orders_aad(genesis["game"], head[0] + 1, camp.side))
        content = {"v": 1, "game": genesis["game"], "seq": head[0] + 1, "prev": head[1], "author": camp.side,
                   "kind": "turn", "engine": genesis["engine"],
                   "body": {"reveal": "00" * 32, "orders": box}, "state": ""}
        return seal(identity, content).raw
    finally:
        camp.ledger.close()

"""The Naval Gunfire chits through the real tool: the Entente's tool refuses to reveal a No Fire
chit with the rule's reason, before anything is signed, and no file the Ottoman receives ever
names a No Fire chit (the chit held stays a commitment token; the secret opened at the end
lets the Ottoman re-derive the draws without any file naming them)."""

from __future__ import annotations

from pathlib import Path

from pbem.commands.demo import policy
from pbem.errors import PbemError
from pbem.play.campaign import Campaign
from pbem.play.turns import ahead
from pbem.wire.envelope import read_envelopes
from tests import golden_play
from tests.test_golden import identity

MODULE = "gallipoli-1915"


def test_a_no_fire_chit_is_refused_before_signing_and_never_reaches_the_ottoman(tmp_path: Path):
    alice, bob = identity("alice"), identity("bob")
    a, genesis = Campaign.new(tmp_path / "alice", MODULE, "entente", alice, bob.public, bob.name, "helles",
                              {"last_turn": 3}, entropy=golden_play.entropy(MODULE, "alice"))
    b, joined = Campaign.join(tmp_path / "bob", genesis.raw, bob, entropy=golden_play.entropy(MODULE, "bob"))
    a.ingest([("join", joined.raw)])
    camps, who = {"entente": a, "ottoman": b}, {"entente": alice, "ottoman": bob}
    refused, tried = [], set()
    try:
        while (waiting := a.waiting()) is not None:
            side = waiting["side"]
            match, _, mine = ahead(camps[side])  # where its player is asked (after a roll its file resolves)
            state = match["game"]
            here = (state["turn"], state["phase"])
            held = state["ngf"]["held"]["helles"]
            if side == "entente" and mine and state["phase"] == "activations" and held and here not in tried:
                tried.add(here)  # the Entente tries to reveal whatever chit it holds
                try:
                    result = camps[side].play(who[side], ["fire naval gunfire helles"], None)
                    if result.envelope is not None:
                        b.ingest([("mail", result.envelope.raw)])
                except PbemError as e:
                    refused.append(e.detail)
                continue
            result = camps[side].play(who[side], [], policy(camps[side]))
            camps["ottoman" if side == "entente" else "entente"].ingest([("mail", result.envelope.raw)])
        assert a.outcome() is not None
    finally:
        a.ledger.close()
        b.ledger.close()
    assert refused, "this game's chits (fixed randomness) include a No Fire held in an Activations Phase"
    assert all("the chit held is No Fire: it is never revealed" in r and "\n" not in r for r in refused), refused
    received = [read_envelopes(p.read_text())[0] for p in sorted((tmp_path / "bob" / "received").glob("*"))]
    assert len(received) > 10  # three turns: the set-up and about four files a turn (RULES.md, "Hand-overs")
    assert not any(b"no-fire" in e.payload for e in received)

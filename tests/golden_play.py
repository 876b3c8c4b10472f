"""A rules module's golden game: the real tool, fixed keys and fixed randomness, both sides played
by the game's own player (as `pbem demo` plays it); used by each module's golden test."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.view.report import render
from tests.test_golden import identity


def entropy(module: str, party: str):
    counter = iter(range(10**6))
    return lambda n: hashlib.sha256(f"pbem/golden/{module}/{party}/{next(counter)}".encode()).digest()[:n]


def play_golden(root: Path, module: str, sides: tuple[str, str], scenario: str, options: dict[str, Any],
                limit: int) -> tuple[dict[str, str], dict[str, str]]:
    """(turn files by name, each side's final text report) of the game alice (``sides[0]``) and
    bob play; at most ``limit`` files."""
    first, second = sides
    alice, bob = identity("alice"), identity("bob")
    a, genesis = Campaign.new(root / "alice", module, first, alice, bob.public, bob.name, scenario, options,
                              entropy=entropy(module, "alice"))
    b, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy(module, "bob"))
    a.ingest([("join", joined.raw)])
    camps, who = {first: a, second: b}, {first: alice, second: bob}
    files = {f"{env.seq:04d}-{env.author}-{env.kind}.pbem": env.raw for env in (genesis, joined)}
    while (waiting := a.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        camps[second if side == first else first].ingest([("golden", result.envelope.raw)])
        files[f"{result.envelope.seq:04d}-{side}-turn.pbem"] = result.envelope.raw
        assert len(files) < limit, "the golden game does not end"
    reports = {side: render(camp, "text", since=-1) for side, camp in camps.items()}
    for camp in camps.values():
        camp.ledger.close()
    return dict(sorted(files.items())), reports

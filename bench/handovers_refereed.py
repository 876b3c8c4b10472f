"""Hand-overs of a refereed game: a referee and two players, three campaigns, files only.

Set up as ``pbem demo --referee`` does (``Campaign.new_refereed``, each player's ``join`` carried
in the referee's first file), then played as a refereed game is by mail: a player seals his
orders to the referee (the game's own player choosing, every order his tool can follow in one
file: ``pbem.play.referee_orders``), the referee's campaign adjudicates at once, unattended (its
``play`` asks nothing), and its adjudication goes to each player with his own sealed view. A
referee's file never needs a person; an adjudication is one turn file in the chain, though a copy
goes to each player.

The referee's game id and secrets (its chain and salt) come from the seed, as the players' do in
``handovers.play_files``, so a game is the same from run to run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from .handovers import battles, entropy, identity, needed_person, no_choice, recording


class _Seeded:
    """``secrets`` for the referee's genesis (``pbem.play.refereeing``), from a seeded source."""

    def __init__(self, tag: str) -> None:
        self.entropy = entropy(tag)

    def token_bytes(self, n: int) -> bytes:
        return self.entropy(n)

    def token_hex(self, n: int) -> str:
        return self.entropy(n).hex()


def play_files(module: str, options: dict[str, Any] | None, seed: int, root: Path, *, scenario: str | None = None,
               choose: Callable | None = None, describe: Callable | None = None) -> list[dict[str, Any]]:
    """One refereed game by the game's own player (``choose``, default the demo's): a record for
    each turn file after the joins, in the order sent, as ``handovers.play_files`` gives (``side``
    ``referee`` for the referee's), the game turn read in the referee's full state."""
    from pbem.commands.demo import choose as demo_choose
    from pbem.commands.demo import game_turn
    from pbem.play import refereeing
    from pbem.play.campaign import Campaign
    from pbem_engine.registry import get_game

    game = get_game(module)
    first, second = game.sides[0], game.sides[1]
    ids = {"referee": identity("r", seed), first: identity("a", seed), second: identity("b", seed)}
    with mock.patch.object(refereeing, "secrets_mod", _Seeded(f"{module}/{seed}/referee")):
        ref, genesis = Campaign.new_refereed(root / "referee", module, ids["referee"],
                                             {first: (ids[first].public, "a"), second: (ids[second].public, "b")},
                                             scenario, options=options or None)
    camps = {"referee": ref}
    try:
        for side in (first, second):
            camps[side], joined = Campaign.join(root / side, genesis.raw, ids[side],
                                                entropy=entropy(f"{module}/{seed}/{side}"))
            ref.ingest([(f"{side}'s join", joined.raw)])
        files: list[dict[str, Any]] = []
        for _ in range(5000):
            waiting = ref.waiting()
            if waiting is None:
                break
            side = waiting["side"]
            camp = camps[side]
            asked: list = []
            result = camp.play(ids[side], [], recording(camp, choose or demo_choose, asked, describe))
            if side == "referee":
                targets = result.paths or [result.path]
                for path in targets:  # each player's copy (one file when the referee discloses)
                    for player in (first, second):
                        if len(targets) == 1 or path.parent.name == f"to-{player}":
                            camps[player].ingest([(str(path), path.read_text())])
            else:
                ref.ingest([(str(result.path), result.path.read_text())])
            referee = side == "referee"
            kind = ("disclosure" if len(result.paths) < 2 else "adjudication") if referee else \
                "decision" if needed_person(asked) else "forced choice"
            files.append({"turn": game_turn(ref.match()["full"]["game"]), "side": side,
                          "person": not referee and needed_person(asked), "no choice": not referee and no_choice(asked),
                          "kind": kind, "asks": asked, "actions": len(result.drafted), "rolls": len(result.rolls),
                          "battles": battles(result) if side == "referee" else 0,
                          "owed": (ref.waiting() or {}).get("why")})
        else:
            raise RuntimeError(f"{module}: the refereed game did not end")
    finally:
        for camp in camps.values():
            camp.ledger.close()
    return files

"""Turn files per game turn: what a game costs by e-mail, where each turn file is one exchange.

Each rules module is played to the end several times by its own simple player (the demo's),
both sides in their own campaigns, exchanging real signed turn files (sealed dice). A game turn
is the module's own ``turn`` (or ``round``) in the state; the files from the first game turn
to the last complete one are counted, so set-up and the final openings are left out, and the
game turns that hold a battle or a landing are also counted apart. Where a module can say how
many hand-overs its rules' information flow requires for a game turn (a ``handovers(battles)``
function giving ``{"rules": n, "planned": n}``: in the rules' order, and with the standing
orders the module offers), both are reported beside it; the block game's analysis is in its
RULES.md.
"""

from __future__ import annotations

import hashlib
import statistics
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

MODULES = {"gallipoli-blocks": {"turns": 4}, "hill60": {}, "barrage": {}, "raid": {}}


def _entropy(tag: str):
    counter = iter(range(10**9))
    return lambda n: hashlib.sha256(f"pbem/bench/{tag}/{next(counter)}".encode()).digest()[:n]


def _turn(state: dict[str, Any]) -> int | None:
    """The game turn: the state's ``turn`` where it is a number, else its ``round``."""
    from pbem.commands.demo import game_turn

    return game_turn(state)


def play_one(module: str, options: dict[str, Any], seed: int, root: Path) -> list[tuple[int, int]]:
    """One game of ``module`` by its own player: for each complete game turn, its number of turn
    files and of battles and landings."""
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from pbem.wire.keys import Identity
    from pbem_engine.registry import get_game

    game = get_game(module)
    first, second = game.sides[0], game.sides[1]
    a = Identity("a", Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"a{seed}".encode()).digest()))
    b = Identity("b", Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"b{seed}".encode()).digest()))
    one, genesis = Campaign.new(root / "a", module, first, a, b.public, "b", None, options or None,
                                entropy=_entropy(f"{module}/{seed}/a"))
    two, joined = Campaign.join(root / "b", genesis.raw, b, entropy=_entropy(f"{module}/{seed}/b"))
    one.ingest([("join", joined.raw)])
    camps, who = {first: one, second: two}, {first: a, second: b}
    files: Counter[int] = Counter()
    fought: Counter[int] = Counter()  # the battles and landings of each game turn
    for _ in range(5000):
        waiting = one.waiting()
        if waiting is None:
            break
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        camps[second if side == first else first].ingest([("bench", result.envelope.raw)])
        turn = _turn(one.match()["game"])
        if turn is not None:
            files[turn] += 1
            fought[turn] += sum(1 for e in result.events if e["text"].startswith("battle for"))
    for camp in (one, two):
        camp.ledger.close()
    turns = sorted(t for t in files if t >= 1)[:-1]  # the last game turn is cut short by the end
    return [(files[t], fought[t]) for t in turns]


def measure(module: str, games: int = 3) -> dict[str, Any]:
    """The median number of turn files per complete game turn over ``games`` seeded games."""
    from pbem_engine.registry import get_game

    per_turn: list[tuple[int, int]] = []
    for seed in range(games):
        with tempfile.TemporaryDirectory(prefix="pbem-handovers-") as tmp:
            per_turn += play_one(module, MODULES.get(module, {}), seed, Path(tmp))
    every = [n for n, _ in per_turn]
    fighting = [n for n, fights in per_turn if fights]
    need = getattr(get_game(module), "handovers", None)  # what the rules' information flow requires

    def floor(key: str, turns: list[tuple[int, int]]) -> float | None:
        return statistics.median([need(f)[key] for _, f in turns]) if need and turns else None

    fought = [t for t in per_turn if t[1]]
    return {"module": module, "game_turns": len(every), "median": statistics.median(every) if every else None,
            "max": max(every, default=None), "fighting_turns": len(fighting),
            "median_fighting": statistics.median(fighting) if fighting else None,
            "required": floor("rules", per_turn), "required_fighting": floor("rules", fought),
            "planned": floor("planned", per_turn), "planned_fighting": floor("planned", fought)}


def report(echo, games: int = 3) -> list[dict[str, Any]]:
    out = []
    for module in MODULES:
        m = measure(module, games)
        required = (f"; the rules' information flow requires a median of {m['required']}"
                    f" ({m['required_fighting']} with a battle) in the rules' order, {m['planned']}"
                    f" ({m['planned_fighting']}) with battle plans" if m["required"] is not None else "")
        fights = (f"; with a battle or landing: median {m['median_fighting']} over {m['fighting_turns']}"
                  if m["fighting_turns"] else "")
        echo(f"turn files per game turn, {module}: median {m['median']} (max {m['max']}) over {m['game_turns']} "
             f"game turns of {games} games by its own player{fights}{required}")
        out.append(m)
    return out

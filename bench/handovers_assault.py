"""Assault on Gallipoli's turn files per game turn, by cause (engine/games/assault_on_gallipoli,
RULES.md "Hand-overs").

The block game's bench (``handovers.py``) counts files; this one also says why each file exists,
because the cuts depend on it. Seeded games of Scenario 1 are played by the game's own player,
both sides in their own campaigns exchanging real signed turn files (sealed dice, the Action deck
dealt through the shared-deck protocol, the close combat hands as private draws). Each file is put
in one class, by what it carries:

* ``reveal only``: no action; it only reveals the link that resolves the other side's roll;
* ``deck step``: no action; it only carries deck messages (a shuffle step, a draw's keys);
* ``forced choice``: actions, every one of them the only legal choice (a close combat draw of a
  fixed size, a lone card to play): its tool asked no one;
* ``decision``: its tool asked the player at a prompt that is not forced.

A reveal only file is further named by the roll it resolves (``land``, ``cc initiative``,
``pass``...), a forced or decision file by the decision it opens with (the frame: ``round``,
``cc deal``, ``damage``...). The game turns are the state's ``turn``; the first and last are
reported apart (turn 1 holds the landing; the last is cut short by the end).
"""

from __future__ import annotations

import statistics
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

MODULE = "assault-on-gallipoli"
OPTIONS = {"turns": 3}  # the landing turn, then two turns without landings (the last is cut short)
CLASSES = ("reveal only", "deck step", "forced choice", "decision")


def frame(state: dict[str, Any]) -> str:
    """The decision a state asks for, by its frame (a close combat by its step)."""
    f = state["frames"][-1]
    return f"cc {f['step']}" if f["k"] == "cc" else f["k"]


def _roll(action: dict[str, Any], state: dict[str, Any]) -> str:
    """What a pending roll is, in words: the action that declared it."""
    do = action.get("do", "?")
    if state["frames"][-1]["k"] == "cc" and do == "play":
        return "cc initiative"
    return {"go": "move's roll"}.get(do, do)


def _what(state: dict[str, Any], match: dict[str, Any], waiting: dict[str, Any], result: Any) -> dict[str, Any]:
    """``play_files``' note: the roll a file resolves (``reveal``, when it has no action)."""
    pending = match["pending"]
    return {"reveal": _roll(pending["action"], state) if pending and not result.drafted else ""}


def play_one(seed: int, root: Path, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One game by the game's own player (``handovers.play_files``): a record for each turn file
    after the join (its game turn, side, class, what it opens with, its actions and rolls, and why
    the next one is owed)."""
    from .handovers import play_files

    files = play_files(MODULE, dict(options or OPTIONS), seed, root, describe=frame, note=_what)
    return [{"turn": f["turn"], "side": f["side"], "class": f["kind"],
             "what": f["reveal"] if f["reveal"] else f["asks"][0][0] if f["asks"] else "",
             "asks": [(what, n) for what, n, _, _ in f["asks"]], "actions": f["actions"], "rolls": f["rolls"],
             "owed": f["owed"]} for f in files]


def measure(games: int = 3, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Turn files per game turn over ``games`` seeded games: the landing turn (1) and the complete
    turns after it, each by class and by what the files open with."""
    per_game: list[list[dict[str, Any]]] = []
    for seed in range(games):
        with tempfile.TemporaryDirectory(prefix="pbem-handovers-aog-") as tmp:
            per_game.append(play_one(seed, Path(tmp), options))
    landing: list[int] = []
    later: list[int] = []
    causes = {"landing": Counter(), "later": Counter()}
    details = {"landing": Counter(), "later": Counter()}
    for files in per_game:
        last = max(f["turn"] for f in files)
        for turn in range(1, last):  # the last game turn is cut short by the end
            mine = [f for f in files if f["turn"] == turn]
            key = "landing" if turn == 1 else "later"
            (landing if turn == 1 else later).append(len(mine))
            for f in mine:
                causes[key][f["class"]] += 1
                details[key][(f["class"], f["what"])] += 1
    n = {"landing": max(len(landing), 1), "later": max(len(later), 1)}
    return {"games": games, "landing": landing, "later": later,
            "median_landing": statistics.median(landing) if landing else None,
            "median_later": statistics.median(later) if later else None,
            "by_class": {k: {c: round(causes[k][c] / n[k], 1) for c in CLASSES if causes[k][c]} for k in causes},
            "by_what": {k: {f"{c}: {w}": round(v / n[k], 1) for (c, w), v in sorted(details[k].items())}
                        for k in details}}


def report(echo, games: int = 3) -> dict[str, Any]:
    m = measure(games)
    echo(f"Assault on Gallipoli, Scenario 1, {games} games by its own player: turn files per game turn")
    echo(f"  turn 1 (the landing): median {m['median_landing']} {m['landing']}; "
         f"later turns: median {m['median_later']} {m['later']}")
    for key, title in (("landing", "turn 1"), ("later", "a later turn")):
        echo(f"  {title}, mean by class: " + ", ".join(f"{c} {v}" for c, v in m["by_class"][key].items()))
        for what, v in m["by_what"][key].items():
            echo(f"      {v:5}  {what}")
    return m


if __name__ == "__main__":
    import sys

    report(print, int(sys.argv[1]) if len(sys.argv) > 1 else 3)

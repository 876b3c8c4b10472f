"""Good Luck's re-roll of a roll other than a fire's (the Action Cards Summary: "re-roll any one of
your or your opponent's die, except Morale Advantage die"): the landing roll (20.3), a pass roll
(4.4), a close combat initiative (10.4.2) or withdrawal (10.5) roll, a Sniper! roll.

The roller has no decision between his roll and its consequence, and the roll is made in his own
file; so the card is played *ahead*, at any decision its side has, as a conditional order on the
next such roll this turn: "if it comes out so, re-roll it" (RULES.md, "When a card may be
played").  The order waits in ``state["ac"]["luck"]`` and the roll site (``roll``) carries it out
at once: no turn file of its own.  One card, one re-roll; the second result stands.
"""

from __future__ import annotations

from typing import Any

from . import board
from .board import enemy, name

WHAT = {"landing": "landing roll", "pass": "pass roll", "initiative": "close combat initiative roll",
        "withdrawal": "close combat withdrawal roll", "sniper": "Sniper! roll"}


def outcome(what: str, value: int, need: int = 0) -> str:
    """The class of a result a waiting order names: a beach, Killing Time lowered or not, a success."""
    if what == "landing":
        return next(b for top, b in board.landing() if value <= top)
    if what == "pass":
        return "lowers" if value >= 8 else "keeps"
    return "success" if value <= need else "failure"


def offers(state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """The conditional re-rolls ``side`` may leave waiting: (text, the use's keys)."""
    foe = enemy(side)
    out = []
    if state["waves"]:
        for _, beach in board.landing():
            out.append((f"if the next landing roll lands at {name(beach)}, it is re-rolled",
                        {"roll": "landing", "of": "anzac", "on": beach}))
    for on, text in (("lowers", "lowers Killing Time (8-10)"), ("keeps", "does not lower Killing Time (1-7)")):
        out.append((f"if the next pass roll {text}, it is re-rolled", {"roll": "pass", "of": "any", "on": on}))
    for what in ("initiative", "withdrawal", "sniper"):
        out.append((f"if your next {WHAT[what]} fails, it is re-rolled", {"roll": what, "of": side, "on": "failure"}))
        out.append((f"if the enemy's next {WHAT[what]} succeeds, it is re-rolled",
                     {"roll": what, "of": foe, "on": "success"}))
    return out


def wait(state: dict[str, Any], side: str, action: dict[str, Any]) -> str:
    state["ac"].setdefault("luck", []).append({"side": side, "roll": action["roll"], "of": action.get("of", "any"),
                                               "on": action["on"]})
    return f"the next {WHAT[action['roll']]} is re-rolled if it comes out so"


def roll(state: dict[str, Any], dice: Any, what: str, roller: str, text: str, events: list, need: int = 0) -> int:
    """Roll a d10 for ``what``; a waiting Good Luck whose condition the result meets re-rolls it."""
    value = dice.roll(10, text)
    got = outcome(what, value, need)
    waiting = state["ac"].get("luck", [])
    order = next((o for o in waiting if o["roll"] == what and o["of"] in ("any", roller) and o["on"] == got), None)
    if order:
        waiting.remove(order)
        new = dice.roll(10, f"Good Luck: re-roll of the {WHAT[what]} {value}")
        events.append({"text": f"{order['side']}'s Good Luck: the {WHAT[what]} {value} is re-rolled: {new}"})
        value = new
    return value

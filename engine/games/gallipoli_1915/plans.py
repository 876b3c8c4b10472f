"""Planned orders (RULES.md, "Hand-overs"): a side's orders for its next PHASE, given ahead and
sealed, which its own tool opens and gives, in order, when that phase gives it the word.

Why: an Activations Phase ends with the Entente's roll, which waits for the Ottoman's next link,
and his next decisions are the next turn's landings: a second file of his with only the
Ottoman's reveal between.  ``plan assault: land 3 steps at W Beach; land 3 steps at X Beach;
done`` given before that roll lets his tool land them when the phase comes (the file that
carries the draw and the landings needs no person).  He chooses earlier, knowing less (not his
roll's result), as the module's other standing orders do.  Sealed (``dice.seal``), the plan
tells the Ottoman nothing until it is carried out; and the Ottoman has no decision between (his
standing CD fire answers the landings).  Each order is checked when it is given, as if typed
then; the first one refused ends the plan, and the rest is the player's to decide.

May import: ``pbem_engine.chance``, ``pbem_engine.protocol``, this package's ``data``,
``cadence`` and ``procedures``; ``orders`` imports it (the orders are applied there).
"""

from __future__ import annotations

from typing import Any

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import IllegalAction

from . import data
from .cadence import REACH
from .procedures import need

State = dict[str, Any]
OPEN = "carry out the planned orders"
MAX_ORDERS = 40  # a plan is a phase's orders, not a game's: bounded before it is split


def parse(rest: str, raw: str) -> dict[str, Any]:
    """``plan PHASE: ORDER; ORDER; ...`` (``plan none`` withdraws a plan not yet opened)."""
    if rest.strip() == "none":
        return {"do": "plan", "phase": None, "orders": ""}
    phase_words, sep, orders = raw.partition(":")
    phase = REACH.get(" ".join(phase_words.lower().replace(" phase", "").split()).removeprefix("the "))
    if not sep or phase is None or not orders.strip():
        raise IllegalAction("say 'plan PHASE: ORDER; ORDER; ...' (PHASE: reinforcement, phase 2, command, "
                            "assault, activations), or 'plan none'")
    return {"do": "plan", "phase": phase, "orders": {"$hide": " ".join(orders.split())}}


def split(text: str) -> list[str]:
    orders = [o.strip() for o in text.split(";") if o.strip()]
    need(len(orders) <= MAX_ORDERS, f"a plan holds at most {MAX_ORDERS} orders")
    return orders


def do_plan(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """Seal the orders for the side's next ``phase`` (replacing a plan not yet opened)."""
    plans = state.setdefault("plans", {})
    if a["phase"] is None:
        plans.pop(side, None)
        return [f"{side} withdraws its planned orders"]
    need(a["phase"] in data.PHASES and side in data.PHASE_SIDES[a["phase"]],
         f"{side} has no part in the {data.PHASE_NAMES.get(a['phase'], a['phase'])}")
    if isinstance(a["orders"], str):  # a token in every tool but its author's: checked when opened
        need(len(a["orders"]) == 64, "a sealed plan is a token")
    else:
        split(str(a["orders"].get("$hide", "")))
    token = dice.seal(side, a["orders"])
    plans[side] = {"phase": a["phase"], "turn": state["turn"], "at": data.PHASES.index(state["phase"])
                   if state["phase"] in data.PHASES else -1, "token": token}
    return [f"{side} seals its orders for its next {data.PHASE_NAMES[a['phase']]} ([[{token}|plan]]): its tool "
            f"gives them then"]


def due(state: State, side: str) -> str | None:
    """``OPEN`` when ``side`` has the word in the phase its plan is for (a later one than where the
    plan was given), else None."""
    plan = state.get("plans", {}).get(side)
    if plan is None or state["active"] != side or state["phase"] != plan["phase"]:
        return None
    return OPEN if (state["turn"], data.PHASES.index(state["phase"])) > (plan["turn"], plan["at"]) else None


def take(state: State, side: str, dice: Dice) -> list[str]:
    """The plan's orders, opened (``due`` said so)."""
    need(due(state, side) is not None, "no planned orders of yours are due in this phase")
    text = dice.reveal(side, state["plans"].pop(side)["token"])
    try:
        return split(text)
    except IllegalAction:
        return []

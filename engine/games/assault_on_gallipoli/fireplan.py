"""The plan given with a fire (RULES.md, "Hand-overs"): what a side does next, should its fire
score no hit, when its next decision is its own.

A fire's roll waits for the other side's next link.  When the fire scores no hit the other side
has nothing to decide, and the next decision is often the firer's own: its Round, when the fire
was a Heroic Act's activation or a Coordinated Attack at the start of that Round (17); another
Round, when Keep Moving gives it one.  By e-mail that is a file of the other side's tool that only
reveals its link, then a second file of the same person.  "fire at X, and plan your next
decisions should the fire score no hit" answers ahead: the side picks, among the rules' own
choices on a copy of the board its fire leaves when every die misses, the decisions it would
make there, in order, up to one it cannot foresee (a decision of the other side, another roll) or
"decide after the roll from here".  The other side's file that resolves the roll carries the plan
out when the fire left exactly that board, and goes on with its own decisions; when the fire hit
(the other side then allocates the damage, a decision of its own), the plan lapses.

It decides earlier, never with more knowledge; it gives up the Action Cards it could play at
those decisions (never planned).  Like the landing plan (plans.py) it is public: the other side
sees what the firer would have done had the fire missed.  It is offered while the firing side's
next decision after a miss may be its own (a Round of its own not yet acted, or one Keep Moving,
a Coordinated Attack or a Heroic Act gives it after this one; a Heroic Act's activation after the
enemy's Round, its own Round next).  The rules' ``prompt`` and
``apply`` are passed in (this module is below ``rules``).
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.protocol.core import Choice, Prompt

from . import cards
from .board import name
from .plans import UNFORESEEN, ApplyFn, PromptFn, plannable

MISS = 10  # a d10 face no fire hits on unless its target is 10 or more (then the copy shows a hit: no plan)
DICE = 60  # more than any fire rolls, its Good Luck re-roll included


def offered(state: dict[str, Any], f: dict[str, Any]) -> bool:
    r = cards.round_frame(state)
    if r is None:
        return False
    if r["side"] != f["side"]:  # a Heroic Act's activation after the enemy's Round: its own Round comes next
        return f["mode"] == "standard" and r["acted"]
    record = state["ac"]["round"]
    return (not r["acted"] or bool(record.get("extra")) or bool(record.get("after"))
            or any(side == f["side"] for side, _ in record.get("heroes", [])))


def variants(state: dict[str, Any], f: dict[str, Any], listed: list[Choice]) -> list[Choice]:
    if not offered(state, f):
        return []
    return [Choice(f"{c.label}, and plan your next decisions should it score no hit", dict(c.action, plan=True))
            for c in listed if c.action["do"] == "fire"]


def new(side: str, at: str) -> dict[str, Any]:
    return {"k": "fireplan", "side": side, "fire": {"do": "fire", "at": at}, "plan": [], "ended": False}


def _missed(state: dict[str, Any], f: dict[str, Any], apply: ApplyFn) -> dict[str, Any]:
    """The board the fire leaves when every die misses (the plan's frame taken off)."""
    sim = copy.deepcopy(state)
    if sim["frames"][-1]["k"] == "fireplan":
        sim["frames"].pop()
    apply(sim, f["side"], f["fire"], ScriptedDice([MISS] * DICE))
    return sim


def simulate(state: dict[str, Any], f: dict[str, Any], prompt: PromptFn, apply: ApplyFn
             ) -> tuple[dict[str, Any], Prompt | None]:
    """The board after a missed fire and the plan so far, and the side's decision the plan may
    take next there (None: the plan is complete)."""
    sim = _missed(state, f, apply)
    try:
        for action in f["plan"]:
            apply(sim, f["side"], action, ScriptedDice([]))
    except UNFORESEEN:  # the last planned action rolls: what follows cannot be foreseen
        return sim, None
    if f["ended"]:
        return sim, None
    shown = prompt(sim)
    choices = tuple(c for c in shown.choices if plannable(c.action))
    if shown.side != f["side"] or not choices:
        return sim, None
    return sim, Prompt(shown.side, shown.text, choices)


def choices(state: dict[str, Any], f: dict[str, Any], prompt: PromptFn, apply: ApplyFn) -> list[Choice]:
    _, planned = simulate(state, f, prompt, apply)
    out = [Choice(f"should it score no hit: {c.label}", {"do": "plan", "act": c.action})
           for c in planned.choices] if planned is not None else []
    return out + [Choice("decide after the roll from here", {"do": "plan-end"})]


def text(f: dict[str, Any]) -> str:
    return (f"{f['side']} fires at {name(f['fire']['at'])}; should the fire score no hit, what it does next, "
            f"decided now ({len(f['plan'])} planned so far)")


def start(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list,
          prompt: PromptFn, apply: ApplyFn) -> None:
    """The fire chosen with a plan: the plan's frame, or the fire at once when a miss leaves the
    side nothing to decide next."""
    plan = new(f["side"], action["at"])
    state["frames"].append(plan)
    if simulate(state, plan, prompt, apply)[1] is None:
        carry_out(state, plan, dice, events, prompt, apply)


def do_plan(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list,
            prompt: PromptFn, apply: ApplyFn) -> None:
    """One planned decision (or the plan's end); when the plan is complete, the fire."""
    if action["do"] == "plan":
        f["plan"].append(action["act"])
    else:
        f["ended"] = True
    if simulate(state, f, prompt, apply)[1] is None:
        carry_out(state, f, dice, events, prompt, apply)


def carry_out(state: dict[str, Any], f: dict[str, Any], dice: Any, events: list, prompt: PromptFn,
              apply: ApplyFn) -> None:
    """The fire with the real dice (it waits for the other side's link), then the plan if the
    fire left the board it was made on."""
    side = f["side"]
    foreseen = _missed(state, f, apply) if f["plan"] else None
    state["frames"].pop()
    events += apply(state, side, f["fire"], dice)
    if foreseen is None:
        return
    if state["units"] != foreseen["units"] or state["frames"] != foreseen["frames"]:
        events.append({"text": f"{side}'s plan lapses: its fire hit, the board is not the one it was made for"})
        return
    events.append({"text": f"{side} carries out the plan it gave with its fire"})
    for planned in f["plan"]:
        shown = prompt(state)
        if shown.side != side or planned not in [c.action for c in shown.choices]:
            events.append({"text": f"{side}'s plan stops: the board is not the one it was made for"})
            return
        events += apply(state, side, planned, dice)

"""Standing orders (RULES.md, "Hand-overs"): the landing plan.

A landing roll (20.3) follows the ANZAC player's choice of a boat and needs the Turk's next chain
link, and then the ANZAC player decides again: the landed group's move (20.4), its stacking, its
advancing fire. By e-mail that is a turn file carrying only the Turk's reveal, then one carrying
the move. A landing plan answers ahead: for each beach the roll may give, the decisions the
ANZAC player would make there, in order, chosen on the board as it would then be. The roll is
resolved in the Turk's file and the plan for the beach it gives is carried out at once, in the
same file, which goes on to the Turk's own decisions.

A plan decides earlier, never with more knowledge: it covers the decisions the ANZAC player
makes after the roll and before anything he cannot foresee, a decision of the Turk (opportunity
fire) or another roll (his advancing fire is planned up to its target, and the plan ends there).
Nothing else happens between the plan and the roll, so each beach's plan is chosen on exactly
the board the roll would leave. Action Cards are not planned (a card is played by deciding each
step). It is never imposed: "land a boat" decides each step, and at any beach "decide after the
roll from here" ends the plan there. The plan is public, like the units it moves: the Turk sees
what the ANZAC player would have done at the beaches the roll did not give.

The frame ``landplan`` holds the boat and one list of actions a beach. Its choices are those of
the board after a landing at the beach being planned (the rules' own prompt, on a copy of the
state played with dice that give that beach), so that a planned action is legal when carried
out. The rules' ``prompt`` and ``apply`` are passed in (this module is below ``rules``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pbem_engine.protocol.core import Choice, Prompt
from pbem_engine.chance.dice import DiceNotReady, NoPrivateItems, ScriptedDice, ScriptExhausted

from .board import landing, name

PromptFn = Callable[[dict[str, Any]], Prompt]
ApplyFn = Callable[[dict[str, Any], str, dict[str, Any], Any], list]
CARD_ACTIONS = ("card", "owed-discard")  # Action Cards are never planned


def plannable(action: dict[str, Any]) -> bool:
    """A decision a public plan may hold: no Action Card, no order sealed from the other side (a
    lead order, discards: leadorder.py, discards.py), no plan within the plan (fireplan.py)."""
    return (action["do"] not in CARD_ACTIONS + ("leads",)
            and not (action.get("discards") or action.get("plan") or action.get("seal")))
UNFORESEEN = (ScriptExhausted, DiceNotReady, NoPrivateItems)  # a roll or a hidden draw the plan cannot see


def beaches() -> list[str]:
    """20.3: the landing table's beaches (ours: Brighton Beach, ANZAC Cove, North Beach)."""
    return [beach for _, beach in landing()]


def face(beach: int) -> int:
    """The lowest die face that lands at the ``beach``-th beach."""
    return 1 + (landing()[beach - 1][0] if beach else 0)


def new(boat: int) -> dict[str, Any]:
    return {"k": "landplan", "side": "anzac", "boat": boat, "beach": 0, "plans": [[] for _ in beaches()],
            "ended": [False for _ in beaches()]}


def simulate(state: dict[str, Any], f: dict[str, Any], beach: int, prompt: PromptFn, apply: ApplyFn
             ) -> tuple[dict[str, Any], Prompt | None]:
    """The board after the boat lands at ``beach`` and its plan so far is carried out, and the
    ANZAC decision the plan may take next there (None: the plan for that beach is complete)."""
    sim = copy.deepcopy(state)
    sim["frames"].pop()  # the plan's frame: the Round's frame is on top again
    sim["ac"]["luck"] = [o for o in sim["ac"].get("luck", []) if o["roll"] != "landing"]  # a Good Luck re-roll
    # only picks another beach, whose own plan then applies (luck.py)
    dice = ScriptedDice([face(beach)])
    try:
        apply(sim, "anzac", {"do": "land", "boat": f["boat"]}, dice)
        for action in f["plans"][beach]:
            apply(sim, "anzac", action, dice)
    except UNFORESEEN:  # the last planned action rolls: what follows cannot be foreseen
        return sim, None
    if f["ended"][beach]:
        return sim, None
    shown = prompt(sim)
    choices = tuple(c for c in shown.choices if plannable(c.action))
    if shown.side != "anzac" or not choices:
        return sim, None
    return sim, Prompt(shown.side, shown.text, choices)


def choices(state: dict[str, Any], f: dict[str, Any], prompt: PromptFn, apply: ApplyFn) -> list[Choice]:
    _, planned = simulate(state, f, f["beach"], prompt, apply)
    where = name(beaches()[f["beach"]])
    # None: the board changed under the plan (an Action Card played at this decision) and the
    # plan for this beach is complete: only its end is left to record
    out = [Choice(f"if at {where}: {c.label}", {"do": "plan", "act": c.action}) for c in planned.choices] \
        if planned is not None else []
    return out + [Choice(f"if at {where}: decide after the roll from here", {"do": "plan-end"})]


def text(f: dict[str, Any]) -> str:
    beach = name(beaches()[f["beach"]])
    done = ", ".join(f"{name(beaches()[i])} {len(f['plans'][i])}" for i in range(f["beach"]))
    return (f"anzac landing plan ({', '.join(name(b) for b in beaches())}): what the landed boat does "
            f"if the roll gives {beach}" + (f" (planned: {done})" if done else "") + " (20.3-20.4)")


def do_plan(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list,
            prompt: PromptFn, apply: ApplyFn) -> None:
    """Record one planned decision (or the end of a beach's plan); when every beach is planned,
    the boat lands and the plan for its beach is carried out."""
    b = f["beach"]
    if action["do"] == "plan":
        f["plans"][b].append(action["act"])
    else:
        f["ended"][b] = True
    while f["beach"] < len(beaches()) and simulate(state, f, f["beach"], prompt, apply)[1] is None:
        f["beach"] += 1
    if f["beach"] < len(beaches()):
        return
    state["frames"].pop()
    events.append({"text": "anzac lands a boat with a plan for each beach: "
                           + "; ".join(f"{name(beaches()[i])} {len(p)} decision(s)" for i, p in enumerate(f["plans"]))})
    boat = list(state["waves"][0][f["boat"]])
    events += apply(state, "anzac", {"do": "land", "boat": f["boat"]}, dice)
    at = state["units"].get(boat[0], {}).get("at")
    if at not in beaches():
        return  # the boat could not land (20.5): nothing to carry out
    for planned in f["plans"][beaches().index(at)]:
        shown = prompt(state)
        if shown.side != "anzac" or planned not in [c.action for c in shown.choices]:
            events.append({"text": "the landing plan stops: the board is not the one it was made for"})
            return
        events += apply(state, "anzac", planned, dice)

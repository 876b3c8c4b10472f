"""A simple player for the demo, the tests and the hand-overs bench: it keeps the game book's
procedures (its tool draws its naval gunfire; it fires a fire chit once, lands within capacity,
stands by to fire CD guns at every landing, which its tool then does alone), rolls 2d10 for the
series rules in each Activations Phase (the Entente planning its next landings first, plans.py),
stands by with ``done until PHASE`` through the phases where it has nothing to do (cadence.py),
and claims a modest result at the end.  Pure: it sees the state and its own hidden items
(``known``) and answers with an order."""

from __future__ import annotations

from typing import Any

from . import data
from .cadence import owes
from .orders import parse
from .procedures import do_land, room_left

LANDINGS = {"helles": ("w-beach", "x-beach", "y-beach"), "anzac": ("z-beach",), "peninsula": ("z-beach", "w-beach"),
            "free-landing": ("gully-beach",)}


def order(state: dict[str, Any], side: str, known: dict[str, str]) -> str:
    did = [a for a in state["acts"] if a.startswith(side + ":")]
    phase = state["phase"]
    if phase == "victory":
        claim = state["claim"]
        if claim and claim["by"] != side:
            return "accept"
        if state["scenario"] == "peninsula":
            return "claim anzac ottoman-minor helles entente-minor"
        return f"claim {data.LEVELS[state['scenario']][1]}"
    if phase == "setup":  # a counter on the map, by hex number
        if not state["pieces"].get(side):
            return "move 1/Royal Dublin Fusiliers to 6.2" if side == "entente" else "move 3/26th Regiment to 8.2"
        return "done"
    owed = owes(state, side)
    if owed:  # its tool makes the draw alone in two-player play (order_without_choice); a referee's does not
        return owed
    if side == "entente":
        if phase == "amphibious-assault":
            return landing(state, did)
        if phase == "activations":
            for cup, token in state["ngf"]["held"].items():
                item = known.get(token or "", "no-fire")
                if not item.startswith("no-fire") and "entente:fire-ngf" not in did:
                    return f"fire naval gunfire {cup}"
            if state["turn"] < state["last"] and "entente" not in state.get("plans", {}):
                return "plan assault: " + "; ".join(next_landings(state)) + "; done"
            until = " until assault" if "entente" in state.get("plans", {}) else ""  # the draw is its tool's
            return f"roll 2d10 for entente fire (series 17), then done{until}"
        return "done until assault"  # the draw is its tool's (cadence.owes); nothing of its own before the landings
    if "cd_standing" not in state:  # its tool fires at every landing (cadence.standing_cd_fire)
        return "cd fire at every landing"
    if phase == "amphibious-assault":  # woken by a landing (cadence.wake), CD fire by hand (a referee's game)
        return f"cd fire {sum(state['landed'].values())} steps at the landing, then done" if state["landed"] else "done"
    if phase == "activations":
        return "roll 2d10 for ottoman fire (series 17), then done until activations"
    return "done until activations"


def landing(state: dict[str, Any], did: list[str]) -> str:
    """Its next order in an Amphibious Assault Phase: the River Clyde, then up to 3 steps a beach."""
    if state["scenario"] in ("helles", "peninsula") and not state["clyde"] and state["turn"] >= 2:
        return "land river clyde"  # 103.7: two steps of V Beach's capacity
    for beach in LANDINGS.get(state["scenario"], ()):
        steps = min(room_left(state, beach), 3)
        if f"entente:land:{beach}" not in did and steps > 0:
            return f"land {steps} steps at {data.BEACHES[beach]}"
    return "done"


def next_landings(state: dict[str, Any]) -> list[str]:
    """The landings it would order in the next turn's Amphibious Assault Phase, planned now, before
    its Activations roll (plans.py): the beaches as they will be then (this turn's delays filling
    them, 103.6)."""
    then = dict(state, turn=state["turn"] + 1, landed={}, clyde=False, delayed=state["delays"])
    out, did = [], []
    while (words := landing(then, did)) != "done" and len(out) < 8:
        out.append(words)
        action = parse(then, "entente", words)
        then = dict(then, landed=dict(then["landed"]))
        do_land(then, "entente", action, None)
        did.append(f"entente:land:{action['beach']}")
    return out
"""Standing orders (RULES.md, "Hand-overs"): the close combat order given with a pass (10.1.2,
4.4-4.5), and the ANZAC ship placement given with his Action Card draw (16.2, 18.1).

A pass rolls a d10 (4.4) that waits for the other side's next link. When that pass ends the
Activation Phase (both sides passed in a row, or the roll takes Killing Time to 0: 4.5, 19.7) and
two or more areas are contested, the next decision is the Morale Advantage holder's close combat
order (10.1.2). When the holder is the one who passed, he decided, the other side's file only
revealed its link, and he decided again: a second file of his with no decision of the other
player between.  The roll changes Killing Time only, which no close combat reads, so the order
he would give after it is the one he can give with the pass: "pass, and give the close combat
order now" opens a frame where he names the areas in the order they fight (``do_plan``); the
file that resolves the roll carries it out (``next_combat``).  It lapses when the phase goes on
(``lapse``), and an area it does not name is picked when it comes, as before.  Nothing hidden is
in it: the contested areas are on the map.  A player who would rather decide after the roll
passes as before.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board, closecombat
from .board import name, units_at

LATER = "the rest when they come"


def offered(state: dict[str, Any], side: str) -> bool:
    """The holder's pass that may end the phase (the other side passed last, or a roll of 8-10
    takes Killing Time to 0), with two or more close combats to order."""
    return (side == state["ma"] and (state["passes"] >= 1 or state["kt"] <= 1)
            and len(closecombat.pending(state, [])) >= 2)


def pass_choices(state: dict[str, Any], side: str) -> list[Choice]:
    if not offered(state, side):
        return []
    return [Choice("pass, and give the close combat order now, should the phase end (10.1.2)",
                   {"do": "pass", "order": True})]


def new(side: str, state: dict[str, Any]) -> dict[str, Any]:
    return {"k": "ccplan", "side": side, "areas": closecombat.pending(state, []), "picked": []}


def text(f: dict[str, Any]) -> str:
    named = ", ".join(name(a) for a in f["picked"]) or "none yet"
    return (f"{f['side']} passes (4.4); should the Activation Phase end, the close combats fight in this order "
            f"(10.1.2), decided now, before the roll: which is next? (so far: {named})")


def choices(f: dict[str, Any]) -> list[Choice]:
    out = [Choice(f"close combat at {name(a)} next", {"do": "next", "at": a})
           for a in f["areas"] if a not in f["picked"]]
    return out + [Choice(LATER, {"do": "done"})]


def do_plan(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> bool:
    """One pick (the last area left is implied); True when the order is given and the pass is
    to be made."""
    if action["do"] == "next":
        if action["at"] not in f["areas"] or action["at"] in f["picked"]:
            raise IllegalAction(f"no close combat at {action['at']!r} to order")
        f["picked"].append(action["at"])
        left = [a for a in f["areas"] if a not in f["picked"]]
        if len(left) > 1:
            return False
        f["picked"] += left
    state["frames"].pop()
    state["ccplan"] = {"side": f["side"], "areas": list(f["picked"])}
    events.append({"text": f"{f['side']}'s close combat order, should the phase end: "
                           + (", ".join(name(a) for a in f["picked"]) or "none") + " (10.1.2)"})
    return True


def next_combat(state: dict[str, Any], fights: list[str]) -> str | None:
    """The next close combat by the holder's standing order, or None (he decides)."""
    plan = state.get("ccplan")
    if not plan or plan["side"] != state["ma"]:
        return None
    return next((a for a in plan["areas"] if a in fights), None)


def lapse(state: dict[str, Any]) -> None:
    state.pop("ccplan", None)


# ------------------------------------------------------------------ 16.2 ships, placed with the draw
# When the Turk holds the Morale Advantage the ANZAC draws second (18.1); his draw's keys ride on
# the Turk's next file, and the ship placement (3.4, 16.2) came after it: a file of his after a
# file of the Turk's tool, no decision of the Turk between.  No card may be played at the
# placement (cards.WINDOWS) and the ships are public, so he may place them with his draw, before
# seeing the cards it brings: "draw, and place the ships now".  The file that carries his keys
# places them (``place_planned``); a ship no longer in the fleet (sunk) is skipped, and one the
# plan cannot place legally is left to him, as before.

def ships_offered(state: dict[str, Any], f: dict[str, Any]) -> bool:
    return (f["side"] == "anzac" and state["ma"] != "anzac" and state["turn"] > 1 and not f["wait"]
            and bool(state["fleet"]["anzac"]))


def draw_choices(state: dict[str, Any], f: dict[str, Any], label: str) -> list[Choice]:
    if not ships_offered(state, f):
        return []
    return [Choice(f"{label}, and place the ships now, before the cards it brings are seen (16.2)",
                   {"do": "draw", "ships": True})]


def new_ships(state: dict[str, Any]) -> dict[str, Any]:
    return {"k": "shipplan", "side": "anzac", "left": list(state["fleet"]["anzac"]), "placed": []}


def ships_text() -> str:
    return "anzac: place your ships now, to be set out when the ships are placed (16.2, 3.4)"


def ship_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    u = f["left"][0]
    taken = [a for _, a in f["placed"]]
    return [Choice(f"place {board.unit_name(u)} in {name(a)}", {"do": "place", "unit": u, "at": a})
            for a in board.tagged("aegean") if a not in state["off"]
            and len(units_at(state, a, "anzac")) + taken.count(a) < board.SEA_LIMIT]


def do_ships(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> bool:
    """One ship placed in the plan; True when every ship is placed and the draw is to be made."""
    f["placed"].append((action["unit"], action["at"]))
    f["left"].pop(0)
    if f["left"]:
        return False
    state["frames"].pop()
    state["shipplan"] = [list(p) for p in f["placed"]]
    events.append({"text": "anzac places its ships with its draw: " + ", ".join(
        f"{board.unit_name(u)} in {name(a)}" for u, a in f["placed"]) + " (16.2)"})
    return True


def place_planned(state: dict[str, Any], events: list) -> list[str]:
    """The ships phase: the planned ships set out; the ships it could not place, left to decide."""
    plan = state.pop("shipplan", None) or []
    fleet = list(state["fleet"]["anzac"])
    for u, a in plan:
        if u in fleet and a not in state["off"] and len(units_at(state, a, "anzac")) < board.SEA_LIMIT:
            state["units"][u] = {"at": a, "fresh": True}
            fleet.remove(u)
            events.append({"text": f"{board.unit_name(u)} placed in {name(a)} (the ANZAC's order, 16.2)"})
    return fleet

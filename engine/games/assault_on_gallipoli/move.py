"""Movement (6), group moves with Leaders (6.6, 15.1), reinforcements (6.5), the landing (20),
and the fire it triggers: opportunity fire (8.9) before advancing fire (8.8).

A move is a frame: units are taken from one area, then the group goes area by area; a Leader
may pick up or drop off on the way (not both); entering enemy units ends the move (6.4.1).
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board, fire, luck
from .board import enemy, kind, label, name, units_at


def new_move(side: str, at: str, group: list[str] | None = None, spent: int = 0, start: str | None = None,
             entry: str = "") -> dict[str, Any]:
    f = {"k": "move", "side": side, "at": at, "origin": start or at, "group": [], "spent": {}, "budget": {},
         "start": {}, "mode": None, "dropped": [], "entry": entry, "went": False}
    for u in group or []:
        join(f, u, start or at, spent)
    if group:
        f["went"] = True
        refresh_budgets(f)
    return f


def join(f: dict[str, Any], u: str, start: str, spent: int) -> None:
    f["group"].append(u)
    f["spent"][u] = spent
    f["start"][u] = start


def refresh_budgets(f: dict[str, Any]) -> None:
    """6.3, 15.1.1: units that start with a Leader get his movement bonus (the best one, 6.6.2);
    units picked up later keep their own MF (6.6.3); Leaders have 7 MF."""
    leaders = [u for u in f["group"] if kind(u) == "leader" and f["start"][u] == f["origin"]]
    bonus = max((board.move_bonus(ldr) for ldr in leaders), default=0)
    for u in f["group"]:
        if u not in f["budget"]:
            own = board.mf(u)
            f["budget"][u] = own + (bonus if kind(u) != "leader" and f["start"][u] == f["origin"] else 0)


def step_ok(state: dict[str, Any], f: dict[str, Any], group: list[str], to: str) -> bool:
    at, side = f["at"], f["side"]
    if to not in board.adj(at) or not (board.walkable(at, to) or red_gully(f, at, to)) or to in state["off"]:
        return False  # 6.1.4 red lines (Hidden Gully), 16.1 no sea, half board
    cost = board.move_cost(at, to)
    budget = dict(f["budget"])
    bonus = max((board.move_bonus(u) for u in group if kind(u) == "leader"), default=0)  # before the first step
    for u in group:
        limit = budget.get(u, board.mf(u) + (bonus if kind(u) != "leader" else 0)) + f.get("extra_mf", 0)  # Forced March
        if f["spent"].get(u, 0) + cost > limit:
            return False
    if board.has_enemy(state, to, side):
        if any(kind(u) == "art" for u in group):  # 6.4.2
            return False
        if all(kind(u) == "leader" for u in group) or any(board.rank(u) == 4 for u in group):  # 15.3.1, 22
            return False
    if to in state["wire"] and board.controller(state, to) == enemy(side):  # 6.1.5, 14.3
        if any(to not in board.adj(f["start"].get(u, at)) for u in group):
            return False
    return True


def red_gully(f: dict[str, Any], at: str, to: str) -> bool:
    """Hidden Gully: a red line crossed, one a card played on the group."""
    return f.get("redlines", 0) > 0 and not board.is_sea(at) and not board.is_sea(to) and "red" in board.adj(at)[to]


def steps(state: dict[str, Any], f: dict[str, Any], group: list[str]) -> list[str]:
    return [a for a in board.adj(f["at"]) if step_ok(state, f, group, a)]


def movable(state: dict[str, Any], side: str, area: str) -> list[str]:
    """Fresh land units that may move: not in an area with enemy units (6.4.3 pinned)."""
    if board.is_sea(area) or board.has_enemy(state, area, side):
        return []
    return [u for u in units_at(state, area, side) if state["units"][u]["fresh"]]


def can_move_from(state: dict[str, Any], side: str, area: str) -> bool:
    f = new_move(side, area)
    return any(steps(state, f, [u]) for u in movable(state, side, area))


def move_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    side, at = f["side"], f["at"]
    out = []
    if not f["went"]:
        for u in movable(state, side, at):
            if f.get("only") and u not in f["only"]:  # Heroic Act: the unit alone
                continue
            if u not in f["group"] and len(f["group"]) < board.LAND_LIMIT and steps(state, f, f["group"] + [u]):
                out.append(Choice(f"take {label(state, u)}", {"do": "take", "unit": u}))
        out += [Choice(f"go to {name(a)}", {"do": "go", "to": a}) for a in steps(state, f, f["group"]) if f["group"]]
        return out
    has_leader = any(kind(u) == "leader" for u in f["group"])
    out += [Choice(f"go to {name(a)}", {"do": "go", "to": a}) for a in steps(state, f, f["group"])]
    if has_leader and f["mode"] != "drop" and len(f["group"]) < board.LAND_LIMIT:  # 6.6.3
        out += [Choice(f"pick up {label(state, u)}", {"do": "pick", "unit": u}) for u in movable(state, side, at)
                if u not in f["group"] and u not in f["dropped"]]
    if f["mode"] != "pick" and len(f["group"]) > 1:  # 6.6.3-6.6.4
        out += [Choice(f"drop off {label(state, u)}", {"do": "drop", "unit": u}) for u in f["group"]]
    out.append(Choice(f"stop at {name(at)}", {"do": "stop"}))
    return out


def do_move(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    do = action["do"]
    if do == "take":
        join(f, action["unit"], f["at"], 0)
    elif do == "pick":
        u = action["unit"]
        spent = max(f["spent"].values()) if state["options"].get("pickup_mf") == "group" else 0
        join(f, u, f["at"], spent)
        f["budget"][u] = board.mf(u)  # 6.6.3: no Leader bonus for a unit picked up
        f["mode"] = "pick"
    elif do == "drop":
        u = action["unit"]
        f["group"].remove(u)
        f["dropped"].append(u)
        state["units"][u]["fresh"] = False  # 6.6.3: stops, flips, no advancing fire
        f["mode"] = "drop"
        events.append({"text": f"{board.unit_name(u)} is dropped off at {name(f['at'])}"})
    elif do == "go":
        if not f["went"]:
            refresh_budgets(f)
            f["went"] = True
        to = action["to"]
        cost = board.move_cost(f["at"], to)
        if "red" in board.adj(f["at"])[to]:
            f["redlines"] -= 1
        f.setdefault("path", [[f["at"], 0]]).append([to, cost])  # for Sudden Storm
        for u in f["group"]:
            f["spent"][u] += cost
            state["units"][u]["at"] = to
        f["at"] = to
        events.append({"text": f"{f['side']} group of {len(f['group'])} moves to {name(to)} ({cost} MF)"})
        if board.has_enemy(state, to, f["side"]):  # 6.4.1: enemy units end the move at once
            events.append({"text": f"enemy units at {name(to)}: the move ends there (6.4.1)"})
            stop(state, f, events)
    elif do == "stop":
        stop(state, f, events)
    else:
        raise IllegalAction(f"no {do} in a move")


def stop(state: dict[str, Any], f: dict[str, Any], events: list) -> None:
    """End of movement: movers flip (2.3.2), stacking is checked (5.4), then the enemy may use
    opportunity fire (8.9.1) before the movers' advancing fire (8.8)."""
    state["frames"].pop()
    side, at = f["side"], f["at"]
    storms = [c for c in state["ac"].get("storm", []) if c["side"] == enemy(side)]
    if storms and len(f.get("path", [])) > 1:  # Sudden Storm played ahead (RULES.md, "When a card may be played")
        state["ac"]["storm"].remove(storms[0])
        at = f["at"] = storm_back(state, f["path"], f["group"], at)
        events.append({"text": f"{enemy(side)}'s Sudden Storm: the group goes back to {name(at)}"})
    for u in f["group"]:
        state["units"][u]["fresh"] = False
    board.update_control(state)
    state["frames"].append({"k": "advance", "side": side, "area": at, "group": list(f["group"]),
                            "path": f.get("path", [])})
    foe = enemy(side)
    shooters = [u for u in units_at(state, at, foe) if state["units"][u]["fresh"] and board.firepower(u, True) > 0]
    if shooters:
        state["frames"].append(fire.new_fire(state, foe, at, "opportunity", shooters,
                                             [u for u in units_at(state, at, foe) if kind(u) == "leader"]))
    by_area: dict[str, list[str]] = {at: list(f["group"])}
    for u in f["dropped"]:
        if u in state["units"]:
            by_area.setdefault(state["units"][u]["at"], []).append(u)
    for area, arrived in by_area.items():
        fire.check_stacking(state, side, area, arrived)


def storm_back(state: dict[str, Any], path: list, group: list[str], at: str) -> str:
    """Sudden Storm: the group at ``at`` goes back along its ``path`` by 2 MF; returns where to."""
    i, budget = len(path) - 1, 2
    while i > 0 and path[i][1] <= budget:
        budget -= path[i][1]
        i -= 1
    to = path[i][0]
    for u in group:
        if u in state["units"] and state["units"][u]["at"] == at:
            state["units"][u]["at"] = to
    board.update_control(state)
    return to


def settle_advance(state: dict[str, Any], f: dict[str, Any]) -> None:
    """8.8: the group's surviving Infantry may fire, range 2, with its Leaders' bonus (8.8.9)."""
    state["frames"].pop()
    here = [u for u in f["group"] if u in state["units"] and state["units"][u]["at"] == f["area"]]
    shooters = [u for u in here if kind(u) == "inf"]  # 8.8.4: not MGs, artillery or Remnants
    if shooters and fire.targets(state, f["side"], f["area"], shooters[:1], "advancing"):
        state["frames"].append(fire.new_fire(state, f["side"], f["area"], "advancing", shooters,
                                             [u for u in here if kind(u) == "leader"]))


# ------------------------------------------------------------------ 6.5 reinforcements, 20 landing
def can_enter(state: dict[str, Any], side: str, entry: str, units: list[str]) -> bool:
    """6.5.6: a group that cannot enter (here: enemy units hold its entry area) waits."""
    return not board.has_enemy(state, entry, side)


def bring_on(state: dict[str, Any], side: str, group: str, events: list) -> None:
    entry, units = state["reinforcements"][side].pop(group)
    for other, (_, more) in list(state["reinforcements"][side].items()):  # 22: Hamilton's other entry goes
        if set(more) & set(units):
            del state["reinforcements"][side][other]
    units = [u for u in units if u not in state["units"]]
    for u in units:
        state["units"][u] = {"at": entry, "fresh": True}
    events.append({"text": f"{side} reinforcements: group {group} enters at {name(entry)} (6.5)"})
    f = new_move(side, entry, units, spent=1, entry=entry)  # 6.5.5: entering costs each unit 1 MF
    state["frames"].append(f)
    board.update_control(state)


def land(state: dict[str, Any], boat: int, dice: Any, events: list) -> None:
    """20.3-20.5: a d10 picks the beach; landing costs 1 MF and the boat moves on as a group."""
    wave = state["waves"][0]
    units = wave.pop(boat)
    if not wave:
        state["waves"].pop(0)
    roll = luck.roll(state, dice, "landing", "anzac", "landing (20.3)", events)
    beach = next(b for top, b in board.landing() if roll <= top)
    sea = board.tagged("boats")[0]
    if board.has_enemy(state, beach, "anzac") and any(kind(u) == "art" for u in units):
        state["next_reinf"]["anzac"][f"boat {state['clock']}"] = ["anzac-cove", units]
        events.append({"text": f"landing roll {roll}: {name(beach)} is held; the boat comes in next turn (20.5)"})
        return
    for u in units:
        state["units"][u] = {"at": beach, "fresh": True}
    events.append({"text": f"landing roll {roll}: the boat lands at {name(beach)} (20.3)"})
    f = new_move("anzac", beach, units, spent=1, start=sea, entry=beach)
    state["frames"].append(f)
    board.update_control(state)
    if board.has_enemy(state, beach, "anzac"):
        stop(state, f, events)

"""Moving supply and building (12.3, 12.1 errata, 15.3, 15.4, 9.2, 9.6, 15.1): mobile depots
moving, steamers ferrying a river hexside and carrying depots, Ford vans carrying a combat
unit, forts, burning a grounded gunboat.  Each is a move-phase order checked here; rules.py
lists them and dispatches.
"""

from __future__ import annotations

import heapq
from typing import Any

from . import board, counters, hexmap, movement
from .board import enemy, kind, side_of
from .charts import Charts
from .counters import UNITS

DEPOT_MA = 6  # 12.3: the text gives mobile depots no MA; ours, as 12.6's free movement of 6 MPs
VAN_PICKUP_MP = 1  # 9.6
BURN_MP = 3  # 15.1


# -- 12.3 mobile depots moving -------------------------------------------------------------

def depot_reach(charts: Charts, state: dict[str, Any], did: str) -> dict[str, list[str]]:
    """Hexes a mobile depot may move to this phase (12.3): DEPOT_MA MPs at the TEC's costs
    (not motorized, 2.2 errata), never into an enemy-occupied hex, stopping on entering an
    enemy ZOC (ours: as infantry), no more than 5 depots a hex (12.3); across a river only
    where a steamer ferries (15.4)."""
    d = state["depots"][did]
    side = d["side"]
    zoc = board.zoc_map(state, side)
    start = d["hex"]
    best: dict[str, tuple[int, list[str]]] = {start: (0, [start])}
    heap = [(0, start)]
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > best[h][0]:
            continue
        if h != start and h in zoc:
            continue
        for n in hexmap.neighbours(h):
            step = movement.enter_cost(charts, state, None, h, n)
            if step is None or board.occupied_by(state, n) == enemy(side):
                continue
            total = cost + step
            if total <= DEPOT_MA and (n not in best or total < best[n][0]):
                best[n] = (total, best[h][1] + [n])
                heapq.heappush(heap, (total, n))
    best.pop(start)
    return {h: p for h, (_, p) in best.items() if len(board.depots_at(state, h)) < 5}


def depot_why_not(state: dict[str, Any], side: str, did: str) -> str:
    d = state["depots"].get(did)
    if d is None or d["side"] != side:
        return f"{did!r} is not a {side} depot"
    if d.get("aboard"):
        return "it is aboard a steamer (15.3): unload it first"
    if d["mode"] != "mobile":
        return "only a depot on its mobile side may move (12.3)"
    if d["moved"]:
        return "it has moved already this phase"
    return ""


def move_depot(state: dict[str, Any], did: str, to: str, events: list[dict[str, Any]]) -> None:
    d = state["depots"][did]
    events.append({"text": f"the {d['side']} depot {did} moves {d['hex']} -> {hexmap.label(to)} (12.3)"})
    d["hex"], d["moved"] = to, True


# -- 15.4 ferrying, 15.3 depots aboard -------------------------------------------------------

def ferry_choices(state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """15.4: a steamer that has not moved may spend its whole allowance to ferry across the
    river or seasonal water hexside it stands on (not a lake)."""
    out = []
    for st in sorted(state["units"]):
        v = state["units"][st]
        if side_of(st) != side or kind(st) != "steamer" or v["moved"] or "|" not in v["at"]:
            continue
        if hexmap.water(v["at"]) in ("river", "seasonal") or (hexmap.water(v["at"]) == "wadi" and board.rain(state)):
            if v["at"] not in state.get("ferried", []):
                out.append((f"ferry across {v['at']} with {counters.name(st)} (15.4)", {"do": "ferry", "steamer": st}))
    return out


def ferry(state: dict[str, Any], steamer: str, events: list[dict[str, Any]]) -> None:
    v = state["units"][steamer]
    v["moved"] = True
    state.setdefault("ferried", []).append(v["at"])
    events.append({"text": f"{counters.name(steamer)} ferries across {v['at']} this phase (15.4)"})


def load(state: dict[str, Any], steamer: str) -> int:
    """15.3: units and depots aboard a steamer (3 at most)."""
    units = sum(1 for v in state["units"].values() if v.get("aboard") == steamer)
    return units + sum(1 for d in state["depots"].values() if d.get("aboard") == steamer)


def depot_cargo_choices(state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """15.3: a depot beside a steamer's hexside may be loaded (it has not moved); a depot
    aboard may be unloaded on a bordering hex not held by the enemy."""
    out = []
    for st in sorted(u for u in state["units"] if side_of(u) == side and kind(u) == "steamer"):
        at = state["units"][st]["at"]
        for did, d in sorted(state["depots"].items()):
            if d["side"] != side:
                continue
            if d.get("aboard") == st:
                for h in hexmap.bordering(at):
                    if hexmap.terrain(h) != "lake" and board.occupied_by(state, h) != enemy(side):
                        out.append((f"unload depot {did} at {h} (15.3)", {"do": "unload", "depot": did, "hex": h}))
            elif not d.get("aboard") and not d["moved"] and d["hex"] in hexmap.bordering(at) \
                    and load(state, st) < UNITS[st]["carry"]:
                out.append((f"load depot {did} on {counters.name(st)} (15.3)", {"do": "load", "depot": did, "steamer": st}))
    return out


def load_depot(state: dict[str, Any], did: str, steamer: str) -> None:
    """Aboard, the depot stands on the steamer's hexside and supplies no one (ours)."""
    d = state["depots"][did]
    d["aboard"], d["hex"] = steamer, state["units"][steamer]["at"]


def unload_depot(state: dict[str, Any], did: str, h: str) -> None:
    d = state["depots"][did]
    d.pop("aboard")
    d["hex"], d["moved"] = h, True


# -- 9.6 Ford vans -------------------------------------------------------------------------

def van_routes(charts: Charts, state: dict[str, Any], van: str, unit: str) -> dict[str, list[str]]:
    """9.6: the van drives to the unit (or starts with it), picks it up for 1 MP and drives on
    with what is left; it may never end next to an enemy unit.  Destinations with the path."""
    v = state["units"][van]
    if v["moved"] or state["units"][unit]["moved"]:
        return {}
    at = state["units"][unit]["at"]
    ma = board.movement_allowance(state, van)
    if v["at"] == at:
        spent, first = 0, [at]
    else:
        there = movement.reach(charts, state, van).get(at)
        if there is None:
            return {}
        spent, first = there
    left = ma - spent - VAN_PICKUP_MP
    if left < 0:
        return {}
    out = {}
    for h, (_, path) in movement.reach(charts, state, van, mp=left, start=at).items():
        if not _next_to_enemy(state, h, side_of(van)):
            out[h] = first + path[1:]
    if not _next_to_enemy(state, at, side_of(van)):
        out.setdefault(at, first)
    return out


def _next_to_enemy(state: dict[str, Any], h: str, side: str) -> bool:
    return any(board.occupied_by(state, n) == enemy(side) for n in hexmap.neighbours(h))


def carry(state: dict[str, Any], van: str, unit: str, to: str, events: list[dict[str, Any]]) -> None:
    for uid in (van, unit):
        w = state["units"][uid]
        w["at"], w["moved"], w["entrenched"] = to, True, False
    events.append({"text": f"{counters.name(van)} carries {counters.name(unit)} to {hexmap.label(to)} (9.6)"})


def carry_why_not(state: dict[str, Any], side: str, van: str, unit: str) -> str:
    for uid in (van, unit):
        if uid not in state["units"] or side_of(uid) != side:
            return f"{uid!r} is not a {side} unit on the map"
    if board.arm(van) != "van":
        return f"{counters.name(van)} is not a Ford van (9.6)"
    if kind(unit) != "combat":
        return "a Ford van carries one combat unit (9.6)"
    return ""


# -- 9.2 forts, 15.1 burning -------------------------------------------------------------------

def fort_choices(state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """9.2: a supplied unit in communication, entrenched on an earlier turn, not in an enemy
    ZOC nor in a marsh, spends its whole move and a supply point to build a fort."""
    if state["supply"][side] < 1:
        return []
    out = []
    for uid in sorted(state["units"]):
        v = state["units"][uid]
        if side_of(uid) != side or kind(uid) != "combat" or v["moved"] or v["oos"] or v["ooc"]:
            continue
        since = v.get("entrenched")
        if not since or since >= state["turn"] or v["at"] not in hexmap.ALL_HEXES_SET:
            continue
        h = v["at"]
        if h in state["forts"] or hexmap.terrain(h) == "marsh" or board.in_enemy_zoc(state, h, side):
            continue
        out.append((f"build a fort at {hexmap.label(h)} with {counters.name(uid)} for 1 supply point (9.2)",
                    {"do": "fort", "unit": uid}))
    return out


def build_fort(state: dict[str, Any], uid: str, events: list[dict[str, Any]]) -> None:
    v = state["units"][uid]
    side = side_of(uid)
    state["supply"][side] -= 1
    state["forts"].append(v["at"])
    v["moved"] = True
    events.append({"text": f"{counters.name(uid)} builds a fort at {hexmap.label(v['at'])} (9.2)"})


def burn_choices(charts: Charts, state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """15.1: an enemy combat unit that moves next to a grounded gunboat may burn it for 3 MPs
    more.  Here: a combat unit that has not moved and can reach a hex beside the hexside with
    3 MPs to spare (its move for the phase ends there)."""
    out = []
    boats = [(b, v["at"]) for b, v in sorted(state["units"].items())
             if kind(b) == "gunboat" and side_of(b) == enemy(side) and v.get("aground")]
    if not boats:
        return out
    for uid in sorted(state["units"]):
        v = state["units"][uid]
        if side_of(uid) != side or kind(uid) != "combat" or v["moved"] or v["at"] not in hexmap.ALL_HEXES_SET:
            continue
        ma = board.movement_allowance(state, uid)
        reach = movement.reach(charts, state, uid, mp=max(0, ma - BURN_MP))
        reach[v["at"]] = (0, [v["at"]])
        for b, at in boats:
            spots = sorted(h for h in hexmap.bordering(at) if h in reach and board.occupied_by(state, h) != enemy(side))
            if spots and ma >= BURN_MP:
                out.append((f"burn the grounded {counters.name(b)} with {counters.name(uid)} from {spots[0]} (15.1)",
                            {"do": "burn", "unit": uid, "boat": b, "hex": spots[0]}))
    return out


def burn(state: dict[str, Any], uid: str, boat: str, h: str, events: list[dict[str, Any]]) -> None:
    v = state["units"][uid]
    v["at"], v["moved"] = h, True
    del state["units"][boat]
    state["lost"].append(boat)
    events.append({"text": f"{counters.name(uid)} burns the grounded {counters.name(boat)}: sunk (15.1)"})

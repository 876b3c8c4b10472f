"""Movement (4.0), zones of control (5.0-5.2), the HQ river crossing (9.4), weather (14.0),
retreats (8.0) and advances after combat (8.1) on the hex map.

A move order names a unit and a destination; the path is computed here (the cheapest, ties
broken by hex number), never asked of the player hex by hex.
"""

from __future__ import annotations

import heapq
from functools import cache
from typing import Any

from . import board, counters, hexmap
from .board import arm, enemy, kind, side_of
from .charts import Charts
from .counters import UNITS

ZOC_EXIT_MP = 4  # 5.1: armoured cars and cavalry, per enemy ZOC exited
DISENGAGE_MP = {"infantry": 6, "fast": 4}  # 5.2
LONE_SUPPORT_MP = 4  # 9.0: destroying support units alone in a hex
BIG_RIVERS = ("tigris", "shatt", "euphrates", "euphrates-upper")  # 5.2: "the Tigris or Euphrates rivers"


@cache
def _big_sides() -> frozenset[str]:
    return frozenset(s for name in BIG_RIVERS for s in hexmap.LINES.get(name, []))


def fast(uid: str) -> bool:
    """5.1: armoured cars and cavalry may pay to leave enemy ZOCs."""
    return arm(uid) in ("cavalry", "armoured-car")


def motorized(uid: str | None) -> bool:
    """2.2 errata, 9.6: "motorized" means armoured cars (and Ford vans), not artillery or supply
    (``None``: a depot)."""
    return uid is not None and arm(uid) in ("armoured-car", "van")


def enter_cost(charts: Charts, state: dict[str, Any], uid: str | None, a: str, b: str, wade: bool = False) -> int | None:
    """MPs to move from hex a into adjacent hex b (terrain and hexside, TEC; 14.0 rain adds 1),
    or None if the unit may not.  A hexside a steamer ferries this phase costs nothing beyond
    the hex entered (15.4).  ``wade``: as if no hexside were prohibited (only to say why a move
    is refused)."""
    tec = charts.terrain_effects
    wet = board.rain(state)
    t = hexmap.terrain(b)
    if t == "lake":
        return None
    entry = tec.get(t, tec["clear"])
    if entry["mp"] == "prohibited" or (motorized(uid) and entry["motorized"] == "prohibited"):
        return None
    cost = entry["mp"] + (1 if wet else 0)
    side = hexmap.crossing(a, b, wet)
    if side and (wade or hexmap.hexside(a, b) in state.get("ferried", [])):
        side = ""  # 15.4: the ferry carries every ground unit, depot and motorized unit across
    if side:
        se = tec[side]
        if se["mp"] == "prohibited" or (motorized(uid) and se["motorized"] == "prohibited"):
            return None
        cost += se["mp"] * (2 if motorized(uid) and se["motorized"] == "double" else 1)
    return int(cost) if float(cost).is_integer() else cost  # type: ignore[return-value]


def held(state: dict[str, Any], uid: str) -> str:
    """Why a unit may not move this turn, or "" (16.3 turn 7: the 46th until turn 13)."""
    u = UNITS[uid]
    if u.get("released") and state["turn"] < u["released"] and u.get("division") != "35th":
        return f"held until turn {u['released']}"
    return ""


def tethered(state: dict[str, Any], uid: str, h: str) -> bool:
    """16.22: the 35th Division stays within 5 hexes of Nasirya until attacked or turn 10."""
    if UNITS[uid].get("division") != "35th" or state["turn"] >= 10 or state.get("released_35") \
            or state["scenario"] not in ("campaign", "lightning"):
        return False
    return hexmap.distance(h, hexmap.PLACE_HEX["nasirya"]) > 5


def reach(charts: Charts, state: dict[str, Any], uid: str, mp: int | None = None,
          ignore_zoc: bool = False, start: str | None = None, wade: bool = False) -> dict[str, tuple[int, list[str]]]:
    """Every hex a ground unit may end its move in, with the cost and the cheapest path
    (4.2-4.3, 5.1-5.2, 9.0, 14.0).  ``ignore_zoc``: a breakthrough's special movement (7.8);
    ``start``: another hex to start from (a Ford van after its pick-up, 9.6)."""
    side = side_of(uid)
    start = start or state["units"][uid]["at"]
    mp = board.movement_allowance(state, uid) if mp is None else mp
    zoc = set() if ignore_zoc else board.zoc_map(state, side)
    foe = enemy(side)
    can_fast = fast(uid)
    first_extra = 0
    if start in zoc:  # 5.2 disengagement: free if every source is across the Tigris or Euphrates
        sources = board.zoc_sources(state, start, side)
        if any(hexmap.hexside(start, s) not in _big_sides() for s in sources):
            first_extra = DISENGAGE_MP["fast" if can_fast else "infantry"]
    best: dict[str, tuple[int, list[str]]] = {start: (0, [start])}
    heap: list[tuple[int, str]] = [(0, start)]
    done: set[str] = set()
    while heap:
        cost, h = heapq.heappop(heap)
        if h in done:
            continue
        done.add(h)
        path = best[h][1]
        if h != start:
            if h in zoc and not can_fast:
                continue  # 4.3, 5.1: infantry stops on entering an enemy ZOC
            if board.occupied_by(state, h) == foe or board.depots_at(state, h, foe):
                continue  # 9.0, 12.6: a unit that destroys or captures stops there (provisional)
        for n in hexmap.neighbours(h):
            step = enter_cost(charts, state, uid, h, n, wade)
            if step is None:
                continue
            if h == start:
                if first_extra and n in zoc:
                    continue  # 5.2: first to a hex free of enemy ZOCs
                step += first_extra
            elif h in zoc and can_fast:
                step += ZOC_EXIT_MP  # 5.1
            if board.occupied_by(state, n) == foe:
                if kind(uid) != "combat" or any(kind(u) == "combat" for u in board.ground_at(state, n, foe)):
                    continue  # 4.3: never into an enemy-occupied hex
                step += LONE_SUPPORT_MP  # 9.0: support units alone may be destroyed
            if tethered(state, uid, n):
                continue
            total = cost + step
            if total <= mp and (n not in best or total < best[n][0]):
                best[n] = (total, path + [n])
                heapq.heappush(heap, (total, n))
    best.pop(start)
    return best


def why_out_of_reach(charts: Charts, state: dict[str, Any], uid: str, dest: str) -> str:
    """Why a move order's hex is not in ``reach``, in the player's terms, with the rule: the hex,
    the movement points (with the cost of the cheapest way), zones of control, rivers."""
    if not isinstance(dest, str) or dest not in hexmap.ALL_HEXES_SET:
        return "no such hex on the map"
    side, at = side_of(uid), state["units"][uid]["at"]
    if dest == at:
        return "it is there already"
    foe = enemy(side)
    if board.occupied_by(state, dest) == foe and \
            (kind(uid) != "combat" or any(kind(u) == "combat" for u in board.ground_at(state, dest, foe))):
        return "enemy units hold it: a ground unit never enters an enemy-occupied hex (4.3); attack it in the combat phase"
    if enter_cost(charts, state, uid, dest, dest) is None:
        what = hexmap.terrain(dest)
        return f"{what} is prohibited terrain for it (4.2, TEC" + (", 2.2 errata: armoured cars)" if what == "marsh" else ")")
    if tethered(state, uid, dest):
        return "the 35th Division stays within 5 hexes of Nasirya until attacked or turn 10 (16.22)"
    mp, rain = board.movement_allowance(state, uid), board.rain(state)
    anyhow = reach(charts, state, uid, mp=10 ** 6)
    far = f"costs {anyhow[dest][0]} MPs" if dest in anyhow else ""
    zoc_free = reach(charts, state, uid, mp=10 ** 6, ignore_zoc=True)
    if dest in zoc_free and (zoc_free[dest][0] <= mp or not far):
        zoc = board.zoc_map(state, side)
        stop = next((h for h in zoc_free[dest][1][1:] if h in zoc), None)
        return ("enemy zones of control stop it on the way" + (f", at {stop}" if stop else "")
                + " (4.3, 5.1: infantry stops on entering one; 5.2: leaving one, first to a hex free of them)")
    if dest in reach(charts, state, uid, wade=True, ignore_zoc=True) \
            or (not far and dest in reach(charts, state, uid, mp=10 ** 6, ignore_zoc=True, wade=True)):
        return ("an unbridged river hexside is in the way, prohibited to ground units (TEC; 'cross UNIT to HEX' "
                "crosses one beside the unit, 9.4)" + (f"; the way round {far}, it has {mp} (4.2)" if far else
                                                        "; there is no way round by land"))
    if far:
        cost, path = anyhow[dest]
        printed = UNITS[uid]["ma"]
        halved = " (an HQ out of supply does not move, 4.0)" if mp == 0 else \
            f" (printed {printed}: halved out of supply or of communication, 3.21, 10.0)" if mp < printed else ""
        way = " -> ".join(path) if len(path) <= 8 else f"{len(path) - 1} hexes"
        return (f"not enough movement points: the cheapest way ({way}) costs {cost} MPs, it has {mp}{halved} (4.2"
                + (", rain +1 a hex, 14.0" if rain else "")
                + (", leaving an enemy ZOC costs more, 5.1-5.2" if at in board.zoc_map(state, side) else "") + ")")
    return "no way there by land: prohibited terrain or enemy units cut it off (4.2-4.3)"


def river_crossings(state: dict[str, Any], uid: str) -> list[str]:
    """9.4: a unit in supply, within command radius of its parent divisional HQ or a corps or
    army HQ, may cross a prohibited river hexside by expending all its MPs (before moving).
    An HQ may cross itself; support units may use any HQ.  Not into an enemy-occupied hex."""
    v = state["units"][uid]
    if v["moved"] or v["oos"] or not board.is_ground(uid):
        return []
    side = side_of(uid)
    if not _crossing_hq(state, uid):
        return []
    out = []
    for n in hexmap.neighbours(v["at"]):
        if hexmap.crossing(v["at"], n, board.rain(state)) == "river" and hexmap.terrain(n) != "lake" \
                and board.occupied_by(state, n) != enemy(side) and not tethered(state, uid, n):
            if motorized(uid) and hexmap.terrain(n) == "marsh":
                continue
            out.append(n)
    return out


def _crossing_hq(state: dict[str, Any], uid: str) -> bool:
    from .supply import hq_ok  # the HQ's own condition is supply's question

    if kind(uid) == "hq":
        return True
    at = state["units"][uid]["at"]
    parent = UNITS[uid].get("division")
    for hid, hv in state["units"].items():
        h = UNITS[hid]
        if h["kind"] != "hq" or h["side"] != side_of(uid) or hv["at"] not in hexmap.ALL_HEXES_SET:
            continue
        if h["echelon"] == "division" and (kind(uid) == "combat" and h.get("division") != parent):
            continue
        if hexmap.distance(hv["at"], at) <= h["radius"] and hq_ok(state, hid):
            return True
    return False


# -- 8.0 retreats ----------------------------------------------------------------------------

def retreat_paths(charts: Charts, state: dict[str, Any], units: list[str], n: int,
                  attackers: list[str]) -> list[tuple[list[str], int]]:
    """8.0: the paths a stack may retreat ``n`` hexes by, each with the step losses it costs.
    Each hex is one further from the hex left; never into an enemy-occupied hex, prohibited
    terrain or across a river; it must end no farther from home (Basra for the British,
    Baghdad for the Turks) than it began (our reading of "always retreat towards").  Entering
    an enemy ZOC costs a step each time (not for OOS or support units: they exert none); an
    over-stacked end hex means retreating on, one hex at a time, for one more step lost."""
    start = state["units"][units[0]]["at"]
    side = side_of(units[0])
    home = board.HOME[side]
    zoc = board.zoc_map(state, side)
    foe = enemy(side)
    load = sum(counters.stack_size(u) for u in units)
    results: dict[str, tuple[list[str], int]] = {}

    def ok(a: str, b: str) -> bool:
        if board.occupied_by(state, b) == foe or b in attackers:
            return False
        return all(enter_cost(charts, state, u, a, b) is not None for u in units)

    def walk(path: list[str], losses: int, left: int, extra: bool) -> None:
        here = path[-1]
        if left == 0:
            if hexmap.distance(here, home) > hexmap.distance(start, home):
                return
            others = board.stack_load(state, here, side) if here != start else 0
            if others + load > counters.STACK_LIMIT:
                walk(path, losses + (0 if extra else 1), 1, True)  # 8.0: on until not over-stacked
                return
            if here not in results or losses < results[here][1]:
                results[here] = (path, losses)
            return
        for nxt in hexmap.neighbours(here):
            if hexmap.distance(nxt, start) != len(path) or not ok(here, nxt) or nxt in path:
                continue
            walk(path + [nxt], losses + (1 if nxt in zoc else 0), left - 1, extra)

    walk([start], 0, n, False)
    return [results[h] for h in sorted(results)]


def advance_hexes(state: dict[str, Any], uid: str, path: list[str]) -> list[str]:
    """8.1: where an attacker may advance: infantry along the retreat path up to 2 hexes;
    armoured cars and cavalry up to 3, leaving the path after its first hex, stopping at the
    first enemy ZOC.  Not into prohibited terrain (rivers included, 8.1 added)."""
    side = side_of(uid)
    zoc = board.zoc_map(state, side)
    foe = enemy(side)
    at = state["units"][uid]["at"]
    reach_: list[str] = []
    if not path:
        return reach_
    first = path[0]
    if not hexmap.adjacent(at, first) or hexmap.crossing(at, first, board.rain(state)) == "river":
        return reach_
    if board.occupied_by(state, first) == foe:
        return reach_
    reach_.append(first)
    if fast(uid):
        frontier = [first] if first not in zoc else []
        for _ in range(2):
            nxt = []
            for h in frontier:
                for n in hexmap.neighbours(h):
                    if n in reach_ or n == at or board.occupied_by(state, n) == foe or hexmap.terrain(n) == "lake":
                        continue
                    if hexmap.crossing(h, n, board.rain(state)) == "river":
                        continue
                    reach_.append(n)
                    if n not in zoc:
                        nxt.append(n)
            frontier = nxt
    else:
        for h in path[1:2]:
            prev = reach_[-1]
            if prev in zoc or board.occupied_by(state, h) == foe or hexmap.crossing(prev, h, board.rain(state)) == "river":
                break
            reach_.append(h)
    return sorted(reach_)

"""The board and the units: geometry (range, line of sight, movement costs), area control (7),
stacking (5), Remnants (9.4) and the counters' current values (2.1, 2.3)."""

from __future__ import annotations

from collections import deque
from typing import Any

from .data import AREAS, EDGES, LEADERS, REMNANTS, SIDES, TYPES, UNITS

LAND_LIMIT, SEA_LIMIT = 6, 3  # 5.1, 5.2


def _edges() -> dict[str, dict[str, set[str]]]:
    out: dict[str, dict[str, set[str]]] = {a: {} for a in AREAS}
    for line in EDGES.strip().splitlines():
        a, b, *flags = line.split()
        out[a][b] = out[b][a] = set(flags)
    return out


ADJ = _edges()


def _bfs(start: str, passable) -> dict[str, int]:
    dist, todo = {start: 0}, deque([start])
    while todo:
        a = todo.popleft()
        for b in ADJ[a]:
            if b not in dist and passable(a, b):
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


# 8.2.3: range counts areas through any edge (red lines do not stop fire, 6.1.4), sea included
DIST = {a: _bfs(a, lambda x, y: True) for a in AREAS}


def is_sea(area: str) -> bool:
    return "sea" in AREAS[area][3]


def walkable(a: str, b: str) -> bool:
    return not is_sea(a) and not is_sea(b) and "red" not in ADJ[a][b]


# 12.4: a retreat ends closer to the friendly edge: ANZAC Cove, or the east edge areas
EDGE_DIST = {s: {} for s in SIDES}
for _side, _tag in (("anzac", "edge-anzac"), ("turkish", "edge-turkish")):
    for _a in AREAS:
        if _tag in AREAS[_a][3]:
            for _b, _d in _bfs(_a, walkable).items():
                EDGE_DIST[_side][_b] = min(_d, EDGE_DIST[_side].get(_b, 99))


def name(area: str) -> str:
    return AREAS[area][0]


def elevation(area: str) -> int:
    return AREAS[area][1]


def move_cost(a: str, b: str) -> int:
    """6.2: 1 MF, +1 climbing to a higher elevation, +1 across a river; a road ignores both."""
    flags = ADJ[a][b]
    if "road" in flags:
        return 1
    return 1 + (elevation(b) > elevation(a)) + ("river" in flags)


def line_of_sight(frm: str, to: str) -> bool:
    """8.3.2 at two areas: some area between them no higher than the firer's (provisional reading)."""
    if DIST[frm][to] < 2:
        return True
    return any(to in ADJ[m] and elevation(m) <= elevation(frm) for m in ADJ[frm])


# ------------------------------------------------------------------ counters
def side_of(uid: str) -> str:
    return LEADERS[uid][1] if uid in LEADERS else UNITS[uid][1]


def kind(uid: str) -> str:
    return "leader" if uid in LEADERS else TYPES[UNITS[uid][2]][0]


def unit_name(uid: str) -> str:
    if uid in LEADERS:
        return LEADERS[uid][0]
    if kind(uid) == "remnant":
        return f"{'ANZAC' if side_of(uid) == 'anzac' else 'Turkish'} Remnant {uid.rsplit('-', 1)[1]}"
    return UNITS[uid][0]


def firepower(uid: str, fresh: bool) -> int:
    return 0 if uid in LEADERS else TYPES[UNITS[uid][2]][1][0 if fresh else 1]


def fire_range(uid: str) -> int:
    return 0 if uid in LEADERS else TYPES[UNITS[uid][2]][2]


def strength(uid: str, fresh: bool) -> int:
    return 1 if uid in LEADERS else TYPES[UNITS[uid][2]][3][0 if fresh else 1]


def mf(uid: str) -> int:
    return 7 if uid in LEADERS else TYPES[UNITS[uid][2]][4]  # 6.3: all Leaders 7 MF


def fp_bonus(uid: str) -> int:
    return LEADERS[uid][2]


def move_bonus(uid: str) -> int:
    return LEADERS[uid][3]


def rank(uid: str) -> int:
    return LEADERS[uid][4] if uid in LEADERS else 1


def loss_value(uid: str) -> int:
    """18.4: casualties count every unit, ship and leader, not Remnants; Divisional 2, C-in-C 3."""
    return 0 if kind(uid) == "remnant" else rank(uid)


def label(state: dict[str, Any], uid: str) -> str:
    return f"{unit_name(uid)}{'' if state['units'][uid]['fresh'] else ' (exhausted)'}"


# ------------------------------------------------------------------ the state's units
def units_at(state: dict[str, Any], area: str, side: str | None = None) -> list[str]:
    # sorted: a state read back from its canonical JSON has its units in another order than one built
    # in memory, and choices listed in dict order would differ between the author and a replay
    return [u for u, v in sorted(state["units"].items()) if v["at"] == area and (side is None or side_of(u) == side)]


def enemy(side: str) -> str:
    return "turkish" if side == "anzac" else "anzac"


def has_enemy(state: dict[str, Any], area: str, side: str) -> bool:
    return any(v["at"] == area and side_of(u) != side for u, v in state["units"].items())


def enemy_areas(state: dict[str, Any], side: str) -> set[str]:
    return {v["at"] for u, v in state["units"].items() if side_of(u) != side}


def combat_units(units: list[str]) -> list[str]:
    return [u for u in units if kind(u) != "leader"]


def contested(state: dict[str, Any], area: str) -> bool:
    return all(units_at(state, area, s) for s in SIDES)


def update_control(state: dict[str, Any]) -> None:
    """7.1-7.5: only one side's units -> that side; none -> nobody; both -> unchanged."""
    for area in AREAS:
        if is_sea(area):
            continue
        present = [s for s in SIDES if units_at(state, area, s)]
        if len(present) == 1:
            state["control"][area] = present[0]
        elif not present:
            state["control"].pop(area, None)


def controller(state: dict[str, Any], area: str) -> str | None:
    return state["control"].get(area)


def pool(state: dict[str, Any], side: str) -> list[str]:
    """9.4.4: the Remnants of the side's five not in play."""
    return [r for r in REMNANTS[side] if r not in state["units"]]


def eliminate(state: dict[str, Any], uid: str, events: list) -> None:
    """2.3.4: off the board; a Remnant goes back to the pool and is no casualty (9.4.4)."""
    state["units"].pop(uid)
    side = side_of(uid)
    if kind(uid) != "remnant":
        state["lost"][side].append(uid)
    events.append({"text": f"{unit_name(uid)} is eliminated"})


def place_remnants(state: dict[str, Any], side: str, area: str, n: int) -> list[str]:
    """9.4.3: change for a larger unit, always placed exhausted."""
    made = pool(state, side)[:n]
    for r in made:
        state["units"][r] = {"at": area, "fresh": False}
    return made


def over_stacked(state: dict[str, Any], area: str, side: str) -> int:
    limit = SEA_LIMIT if is_sea(area) else LAND_LIMIT
    return max(0, len(units_at(state, area, side)) - limit)


def lone_leaders(state: dict[str, Any], events: list) -> None:
    """15.3.2: at the end of a Round, lone Leaders in an area with enemy combat units are eliminated."""
    for area in AREAS:
        for side in SIDES:
            mine = units_at(state, area, side)
            if mine and not combat_units(mine) and combat_units(units_at(state, area, enemy(side))):
                for u in mine:
                    eliminate(state, u, events)

"""The board and the units: geometry (range, line of sight, movement costs), area control (7),
stacking (5), Remnants (9.4) and the counters' current values (2.1, 2.3)."""

from __future__ import annotations

from typing import Any

from .data import REMNANTS, SIDES
from .dataset import current

LAND_LIMIT, SEA_LIMIT = 6, 3  # 5.1, 5.2


# ------------------------------------------------------------------ the map (the tables in force: dataset.py)
def areas() -> dict[str, tuple[str, int, bool, tuple[str, ...]]]:
    """Every area: (name, elevation, woods, tags), in the map's order."""
    return current().areas


def adj(area: str) -> dict[str, set[str]]:
    """The areas next to ``area``, each with its edge's flags (road, river, red)."""
    return current().adj[area]


def dist(a: str, b: str) -> int:
    """8.2.3: the range in areas, through any edge (red lines do not stop fire, 6.1.4), sea included."""
    return current().dist[a].get(b, 99)


def edge_dist(side: str, area: str, off: list[str] | tuple[str, ...] = ()) -> int:
    """12.4: how far a walk from ``area`` is from the side's friendly edge, on the board without
    the areas ``off`` (a half-board scenario's, 1.3); 99: cut off."""
    return current().edge_dist(tuple(off))[side].get(area, 99)


def tagged(tag: str) -> list[str]:
    """The areas with one of the tags the rules look up: vp, aegean, khetia, boats."""
    return current().tagged[tag]


def landing() -> tuple[tuple[int, str], ...]:
    """20.3: (highest d10, beach) rows, lowest first."""
    return current().landing


def fire_value(name: str) -> int:
    """The to-hit number (``base``) or a modifier's value (dataset.FIRE)."""
    return current().fire[name]


def is_sea(area: str) -> bool:
    return current().is_sea(area)


def walkable(a: str, b: str) -> bool:
    return current().walkable(a, b)


def name(area: str) -> str:
    return current().areas[area][0]


def elevation(area: str) -> int:
    return current().areas[area][1]


def woods(area: str) -> bool:
    return current().areas[area][2]


def move_cost(a: str, b: str) -> int:
    """6.2: 1 MF, +1 climbing to a higher elevation, +1 across a river; a road ignores both."""
    flags = adj(a)[b]
    if "road" in flags:
        return 1
    return 1 + (elevation(b) > elevation(a)) + ("river" in flags)


def line_of_sight(frm: str, to: str) -> bool:
    """8.3.2 at two areas: some area between them no higher than the firer's (provisional reading)."""
    if dist(frm, to) < 2:
        return True
    near = adj(frm)
    return any(to in adj(m) and elevation(m) <= elevation(frm) for m in near)


# ------------------------------------------------------------------ counters
def is_leader(uid: str) -> bool:
    return uid in current().leaders


def side_of(uid: str) -> str:
    ds = current()
    return ds.leaders[uid][1] if uid in ds.leaders else ds.units[uid][1]


def _type(uid: str) -> tuple[str, tuple[int, int], int, tuple[int, int], int]:
    ds = current()
    return ds.types[ds.units[uid][2]]


def kind(uid: str) -> str:
    return "leader" if is_leader(uid) else _type(uid)[0]


def unit_name(uid: str) -> str:
    ds = current()
    if uid in ds.leaders:
        return ds.leaders[uid][0]
    if kind(uid) == "remnant":
        return f"{'ANZAC' if side_of(uid) == 'anzac' else 'Turkish'} Remnant {uid.rsplit('-', 1)[1]}"
    return ds.units[uid][0]


def firepower(uid: str, fresh: bool) -> int:
    return 0 if is_leader(uid) else _type(uid)[1][0 if fresh else 1]


def fire_range(uid: str) -> int:
    return 0 if is_leader(uid) else _type(uid)[2]


def strength(uid: str, fresh: bool) -> int:
    return 1 if is_leader(uid) else _type(uid)[3][0 if fresh else 1]


def mf(uid: str) -> int:
    return 7 if is_leader(uid) else _type(uid)[4]  # 6.3: all Leaders 7 MF


def fp_bonus(uid: str) -> int:
    return current().leaders[uid][2]


def move_bonus(uid: str) -> int:
    return current().leaders[uid][3]


def rank(uid: str) -> int:
    ds = current()
    return ds.leaders[uid][4] if uid in ds.leaders else 1


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
    for area in areas():
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
    for area in areas():
        for side in SIDES:
            mine = units_at(state, area, side)
            if mine and not combat_units(mine) and combat_units(units_at(state, area, enemy(side))):
                for u in mine:
                    eliminate(state, u, events)

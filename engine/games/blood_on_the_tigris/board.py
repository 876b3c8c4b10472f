"""Questions about a game state: who is where, stacking (6.0), zones of control (5.0), unit
condition (10.0) and the halving of movement (3.21, 4.0).

State (plain JSON): ``units`` maps a unit id to {"at": hex, or a hexside for boats, or "air" for
an aeroplane (11.5: no place on the map), "steps", "oos", "ooc", "moved", "entrenched"};
``depots`` maps a depot id to {"side", "hex", "mode": mobile | static, "flipped", "moved"}.
"""

from __future__ import annotations

from typing import Any

from . import counters, hexmap
from .counters import UNITS

SIDES = ("british", "turkish")
HOME = {"british": "1345", "turkish": "1201"}  # 8.0: retreat toward Basra / Baghdad; 10.0 LOC


def enemy(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def side_of(uid: str) -> str:
    return UNITS[uid]["side"]


def kind(uid: str) -> str:
    return UNITS[uid]["kind"]


def arm(uid: str) -> str:
    return UNITS[uid].get("arm", "")


def is_ground(uid: str) -> bool:
    return kind(uid) in ("combat", "support", "hq")


def units_at(state: dict[str, Any], where: str, side: str | None = None) -> list[str]:
    return sorted(u for u, v in state["units"].items()
                  if v["at"] == where and (side is None or side_of(u) == side))


def ground_at(state: dict[str, Any], h: str, side: str | None = None) -> list[str]:
    return [u for u in units_at(state, h, side) if is_ground(u)]


def occupied_by(state: dict[str, Any], h: str) -> str | None:
    """The side with ground units in a hex (4.3), or None."""
    for u in ground_at(state, h):
        return side_of(u)
    return None


def occupants(state: dict[str, Any]) -> dict[str, str]:
    """``occupied_by`` of every hex at once: the side of each hex's first ground unit (by id)."""
    out: dict[str, str] = {}
    for u in sorted(state["units"]):
        if is_ground(u):
            out.setdefault(state["units"][u]["at"], side_of(u))
    return out


def ground_index(state: dict[str, Any]) -> dict[str, list[str]]:
    """``ground_at`` of every hex at once: each hex's ground units, by id."""
    out: dict[str, list[str]] = {}
    for u in sorted(state["units"]):
        if is_ground(u):
            out.setdefault(state["units"][u]["at"], []).append(u)
    return out


def depots_at(state: dict[str, Any], h: str, side: str | None = None) -> list[str]:
    return sorted(d for d, v in state["depots"].items() if v["hex"] == h and (side is None or v["side"] == side))


def rain(state: dict[str, Any]) -> bool:
    """14.0: the rainy season runs from March through June (turn 1 = November 1914)."""
    month = (state["turn"] + 9) % 12 + 1  # turn 1 -> 11 (November)
    return 3 <= month <= 6


# -- 6.0 stacking ----------------------------------------------------------------------------

def stack_load(state: dict[str, Any], h: str, side: str) -> int:
    """Combat units in a hex in thirds of a brigade (6.0: three battalions make a brigade)."""
    return sum(counters.stack_size(u) for u in ground_at(state, h, side))


def over_stacked(state: dict[str, Any], h: str, side: str) -> bool:
    return stack_load(state, h, side) > counters.STACK_LIMIT


def over_stacked_hexes(state: dict[str, Any], side: str) -> list[str]:
    """The side's hexes over the limit (``over_stacked``), every hex's load summed in one pass."""
    load: dict[str, int] = {}
    for u, v in state["units"].items():
        if side_of(u) == side and is_ground(u):
            load[v["at"]] = load.get(v["at"], 0) + counters.stack_size(u)
    return [h for h in sorted(load) if load[h] > counters.STACK_LIMIT]


# -- 10.0 condition and 5.0 zones of control -------------------------------------------------

def exerts_zoc(state: dict[str, Any], uid: str) -> bool:
    """5.0: only combat units in supply exert a ZOC (not OOS units, depots, air, support units)."""
    v = state["units"][uid]
    return kind(uid) == "combat" and not v["oos"] and not v.get("aboard")


def zoc_sources(state: dict[str, Any], h: str, side: str) -> list[str]:
    """Hexes next to ``h`` holding units of ``side``'s enemy that exert a ZOC into it."""
    foe = enemy(side)
    out = []
    for n in hexmap.neighbours(h):
        if any(exerts_zoc(state, u) for u in ground_at(state, n, foe)):
            out.append(n)
    return out


def in_enemy_zoc(state: dict[str, Any], h: str, side: str) -> bool:
    return bool(zoc_sources(state, h, side))


def zoc_map(state: dict[str, Any], side: str) -> set[str]:
    """Every hex in the ZOC of ``side``'s enemy."""
    out: set[str] = set()
    foe = enemy(side)
    for u, v in state["units"].items():
        if side_of(u) == foe and exerts_zoc(state, u) and v["at"] in hexmap.ALL_HEXES_SET:
            out.update(hexmap.neighbours(v["at"]))
    return out


def friendly_zoc(state: dict[str, Any], side: str) -> set[str]:
    return zoc_map(state, enemy(side))


def exempt_from_supply_on_move(uid: str) -> bool:
    """4.0: British aircraft, steamers, gunboats, Ford vans and armoured cars move regardless of supply."""
    return kind(uid) in ("gunboat", "steamer", "air") or arm(uid) in ("van", "armoured-car")


def movement_allowance(state: dict[str, Any], uid: str) -> int:
    """3.21, 4.0: the printed MA, halved if out of supply or of communication, quartered if
    both; rounded down (the text is silent; provisional), at least 1.  An HQ must be in supply
    to move at all (4.0)."""
    u, v = UNITS[uid], state["units"][uid]
    if u["kind"] == "hq" and v["oos"]:
        return 0
    halvings = 0
    if v["oos"] and not exempt_from_supply_on_move(uid):
        halvings += 1
    if v["ooc"] and u["kind"] in ("combat", "hq"):
        halvings += 1
    return max(1, u["ma"] >> halvings)


def steps_max(uid: str) -> int:
    return UNITS[uid]["steps"]


def label(uid: str) -> str:
    return f"{uid.split('-', 1)[1]}"

"""Where a reinforcement may be placed on its turn of arrival (13.1, 16.3): the free order
"place UNIT at HEX" moves a ground unit that arrived this turn, before it moves, anywhere in
its arrival area (arrival costs nothing and leaves the full movement allowance, 13.1 added).

* British units due at Basra, once Basra is British: "at or adjacent to Basra" (13.1).
* Turkish units due at 1601 or 2944: "within 5 hexes of 1601 or 2944" (13.1).
* 1/37, 2/37 and the German Volunteer Regiment (16.3 turn 4): "any city controlled by the Turks".
* Others: the one hex they arrive at (Baghdad's four hexes for the Turks).

Never into an enemy-occupied hex or the lake, nor marsh for motorized units; over-stacking is
allowed until the end of movement (6.0).  The pipeline of 16.3 turn 4 is not on our map: the
Arab cavalry use 13.1's five hexes of 2944.
"""

from __future__ import annotations

from typing import Any

from . import board, counters, hexmap, movement
from .board import enemy, side_of
from .counters import UNITS

AREA_RANGE = 5  # 13.1
ANY_CITY = ("tk-1-37", "tk-2-37", "tk-german-vol-rgt")  # 16.3 turn 4


def area(state: dict[str, Any], uid: str) -> list[str]:
    """The hexes ``uid`` may be placed in this turn, or [] if it did not arrive this turn."""
    v = state["units"].get(uid)
    if v is None or v.get("entered") != state["turn"] or v["moved"] or v.get("aboard") or not board.is_ground(uid):
        return []
    side, enters = side_of(uid), UNITS[uid].get("enters", "baghdad")
    if uid in ANY_CITY:
        hexes = [h for h in hexmap.ALL_HEXES if hexmap.terrain(h) == "city" and state["control"].get(h) == side]
    elif enters in ("entry-1601", "entry-2944"):
        centre = hexmap.PLACE_HEX[enters]
        hexes = [h for h in hexmap.ALL_HEXES if hexmap.distance(h, centre) <= AREA_RANGE]
    elif enters == "basra" and side == "british" and state["control"].get(hexmap.PLACE_HEX["basra"]) == "british":
        b = hexmap.PLACE_HEX["basra"]
        hexes = [b, *hexmap.neighbours(b)]
    elif enters == "baghdad":
        hexes = list(hexmap.BAGHDAD)
    else:
        hexes = []
    return [h for h in hexes if h != v["at"] and board.occupied_by(state, h) != enemy(side)
            and hexmap.terrain(h) != "lake" and not (movement.motorized(uid) and hexmap.terrain(h) == "marsh")]


def why_not_place(state: dict[str, Any], side: str, uid: Any, dest: Any) -> str:
    if uid not in state["units"] or side_of(uid) != side:
        return f"{uid!r} is not a {side} unit"
    hexes = area(state, uid)
    if not hexes:
        return f"{counters.name(uid)} did not arrive this turn, or has moved (13.1)"
    if dest not in hexes:
        return f"{counters.name(uid)} may be placed only in its arrival area ({len(hexes)} hexes), not {dest} (13.1, 16.3)"
    return ""


def place(state: dict[str, Any], uid: str, dest: str, events: list[dict[str, Any]]) -> None:
    state["units"][uid]["at"] = dest
    events.append({"text": f"{counters.name(uid)} is placed at {hexmap.label(dest)} on arrival (13.1)"})

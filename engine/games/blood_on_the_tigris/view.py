"""What a report's map shows of Blood on the Tigris (``board``) and where its hexes are drawn
(``locations``): display only, never read by the rules.

The map is a hex grid numbered column-row (CCRR), EVEN columns half a hex lower (map_data.py
says why), so the board says ``offset = "even"`` as the shipped table-top pack does
(packs/blood-on-the-tigris, [pack] offset): the pack's coordinates are the hex numbers, and
every place the pack gives a hex agrees with ours (tests/games/blood_on_the_tigris/test_view.py).
The places the pack names without a hex (Fao, Qurna, Amara, ...) and every other hex are ours,
PROVISIONAL like the rest of the map.  Every hex is a location; the unnamed ones are ``quiet``:
drawn only where something stands or happened, so a report stays small.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import board, counters, hexmap, railroad, sequence
from .board import kind, side_of
from .counters import UNITS

AIR = "air"  # 11.5: aeroplanes have no place on the map
TERRAIN = {"clear": "desert", "marsh": "marsh", "grove": "grove", "lake": "lake", "town": "town", "city": "city"}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
AREAS = {"marsh": "marsh (TEC; prohibited to armoured cars and vans, 9.6)",
         "lake": "lake (Hammar: no ground unit; boats along its hexsides, 15.0 added)"}
STATUSES = {"OOS": "out of supply (3.4, 12.0)", "OOC": "out of communication (10.0)"}


def month(turn: int) -> str:
    """The turn's month (3.0, 16.3: turn 1 is November 1914, one month a turn)."""
    return f"{MONTHS[(turn + 9) % 12]} {1914 + (turn + 9) // 12}"


def locations(pack_locations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every hex of the map at its hex number (the pack's coordinates are the same numbers),
    named where the map names it; the air box without a place on the map.  The same for every
    game: built once, each report given its own copies (of the entries: the coordinates are
    read, never written)."""
    return [dict(loc) for loc in _locations()]


@cache
def _locations() -> tuple[dict[str, Any], ...]:
    out = []
    for h in hexmap.ALL_HEXES:
        c, r = hexmap.col_row(h)
        name = hexmap.place_name(h)
        loc = {"id": h, "name": f"{name} {h}" if name else f"hex {h}", "kind": "hex", "coords": [c, r],
               "terrain": TERRAIN[hexmap.terrain(h)], "provisional": True}
        if not name:
            loc["quiet"], loc["short"] = True, h
        if h in hexmap.AERODROMES:
            loc["note"] = "aerodrome"
        out.append(loc)
    out.append({"id": AIR, "name": "in the air (11.5: no place on the map)", "kind": "box", "provisional": False})
    return tuple(out)


def _where(at: str) -> str:
    """The hex a counter is drawn in: its own, a boat's first hex of its hexside, or the air box."""
    if at == AIR:
        return AIR
    if "|" in at:
        return min(hexmap.side_hexes(at))
    return at


def unit_text(state: dict[str, Any], uid: str) -> str:
    """A counter with its values now: steps, strength, supply and communication, what it does."""
    u, v = UNITS[uid], state["units"][uid]
    steps = u.get("steps", 1)
    what = u.get("arm") or u["kind"]
    parts = [f"{counters.name(uid)} ({what})", f"{v['steps']} of {steps} step{'s' if steps > 1 else ''}"]
    if u["kind"] != "air":
        from .fight import strength

        parts.append(f"strength {strength(state, uid)}")
    if u.get("ma"):
        parts.append(f"MA {board.movement_allowance(state, uid) if u['kind'] != 'air' else u['ma']}")
    if board.is_ground(uid) or u["kind"] in ("gunboat", "steamer"):
        parts.append("OUT OF SUPPLY" if v.get("oos") else "in supply")
        if v.get("ooc"):
            parts.append("OUT OF COMMUNICATION")
    if "|" in v["at"]:
        parts.append(f"on the water hexside {v['at']}" + (", aground" if v.get("aground") else ""))
    if v.get("aboard"):
        parts.append(f"aboard {counters.name(v['aboard'])}")
    if v.get("entrenched"):
        parts.append("entrenched")
    if v.get("moved"):
        parts.append("has moved")
    return ", ".join(parts)


def water_lines(rain: bool) -> list[dict[str, Any]]:
    """The rivers, the Euphrates's seasonal channel and the Shatt al Hai along their hexsides
    (map_data.py, PROVISIONAL), each as the map names it; the Shatt al Hai is a river in rain
    (14.0)."""
    out = []
    for key, w in hexmap.DATA["water"].items():
        kind_ = "river" if w["kind"] == "wadi" and rain else w["kind"]
        name = w["name"] + (" (a river this turn: rain, 14.0)" if kind_ != w["kind"] else f" ({w['kind']})")
        out.append({"kind": kind_, "name": name, "sides": [list(hexmap.side_hexes(x)) for x in hexmap.LINES[key]]})
    return out


def areas() -> list[dict[str, Any]]:
    """Marsh and lake hexes, tiled whether or not anything stands there."""
    return [{"terrain": t, "name": what, "at": list(_AREA_HEXES[t])} for t, what in AREAS.items()]


_AREA_HEXES = {t: tuple(h for h in hexmap.ALL_HEXES if hexmap.terrain(h) == t) for t in AREAS}  # the map's, fixed


def map_view(state: dict[str, Any]) -> dict[str, Any]:
    """Units where they are (the number: steps left; a bar: out of supply or of communication),
    depots, the hexes attacked this phase, forts, the objectives, and the tracks: turn, month and
    weather, phase, supply points, victory points."""
    pieces = []
    for uid, v in sorted(state["units"].items()):
        status = [s for s, key in (("OOS", "oos"), ("OOC", "ooc")) if v.get(key)] \
            if board.is_ground(uid) or kind(uid) in ("gunboat", "steamer") else []
        pieces.append({"at": _where(v["at"]), "side": side_of(uid), "label": unit_text(state, uid),
                       "badge": str(v["steps"]), "concealed": False, "status": status, "id": uid})
    markers = []
    for d, dv in sorted(state["depots"].items()):
        aboard = dv.get("aboard")
        markers.append({"at": _where(dv["hex"]),
                        "side": dv["side"], "badge": "M" if dv["mode"] == "mobile" else "S",
                        "label": f"{dv['side']} {dv['mode']} depot {d} at {hexmap.label(dv['hex'])}"
                                 + (" (flipped this turn)" if dv.get("flipped") else "")
                                 + (f", aboard {counters.name(aboard)}" if aboard in UNITS else "") + " (12.0-12.6)"})
    marks: dict[str, list[str]] = {}
    for h in state.get("attacked", []):
        if not h.startswith("@"):
            marks.setdefault(h, []).append("attacked this combat phase (7.4)")
    notes = {h: "fort (9.2)" for h in state.get("forts", [])}
    objectives = sorted({hexmap.PLACE_HEX[p] for p in sequence.VP} | set(hexmap.BAGHDAD))
    rain = board.rain(state)
    turn = state["turn"]
    tracks = [("Turn", f"{turn} of {state['last']} ({month(turn)})" if turn else "set-up"),
              ("Weather", "rain (14.0: +1 MP, no grounding)" if rain else "dry"),
              ("Phase", f"{state['active']} {state['phase']}" if state["phase"] != "over" else "over"),
              ("Supply points", f"british {state['supply']['british']}, turkish {state['supply']['turkish']}"),
              ("VP (17.0)", str(sequence.victory_points(state)))]
    lines = water_lines(rain) + [{"kind": "rail", "name": "railroad (20.1)", "through": line}
                                 for line in railroad.track(state)]
    if state.get("blocked"):
        tracks.append(("Channel", f"{state['blocked']['side']} blocked until turn {state['blocked']['until']}"))
    return {"pieces": pieces, "markers": markers, "marks": marks, "notes": notes, "objectives": objectives,
            "offset": "even", "statuses": dict(STATUSES), "tracks": tracks, "lines": lines, "areas": areas(),
            "legend": ["number on a counter: steps left", "no bar under a counter: in supply and in communication",
                       "diamond: depot (M mobile, S static)"]}


def supply_line(state: dict[str, Any], side: str) -> str:
    """How many of a side's ground units are in supply, out of supply, out of communication."""
    units = [u for u in state["units"] if side_of(u) == side and board.is_ground(u)]
    oos = sum(1 for u in units if state["units"][u].get("oos"))
    ooc = sum(1 for u in units if state["units"][u].get("ooc"))
    depots = sum(1 for d in state["depots"].values() if d["side"] == side)
    return (f"{side}: {len(units) - oos} of {len(units)} ground units in supply, {oos} OOS, {ooc} OOC (their markers, "
            f"in force until the supply phase, 3.4, 10.0); {depots} depot(s)")


def supply_ahead(state: dict[str, Any], side: str) -> str:
    """What the supply phase (3.4) would find now: the same function marks the units then
    (supply.check), so the report and the phase agree."""
    from .supply import check

    _, found = check(state, side)
    marked = [u for u, oos in found.items() if oos and not state["units"][u]["oos"]]
    cleared = [u for u, oos in found.items() if not oos and state["units"][u]["oos"]]
    head = f"{side} at the supply phase (3.4), as things stand: "
    if not marked and not cleared:
        return head + "no OOS marker changes"
    where: dict[str, list[str]] = {}
    for u in marked:
        where.setdefault(state["units"][u]["at"], []).append(counters.name(u))
    out = [f"{len(marked)} of {len(found)} ground units cannot trace a line of supply (12.2: at most 6 hexes to a "
           f"depot with room or a major source) and would be marked OOS: "
           + "; ".join(f"{hexmap.label(h)} {', '.join(names)}" for h, names in sorted(where.items()))] if marked else []
    out += [f"{len(cleared)} would lose their OOS marker"] if cleared else []
    return head + "; ".join(out)


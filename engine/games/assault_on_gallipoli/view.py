"""What a report's map shows of Assault on Gallipoli (``board``) and where its areas are drawn
(``locations``): display only, never read by the rules.

The geometry is the shipped table-top pack's schematic grid (packs/assault-on-gallipoli, passed
in by the product: the engine reads no file) for the 24 areas it places; the 13 areas the rules
module adds to the map (data.py) get coordinates of ours beside them, PROVISIONAL like the rest.
Connections are the rules' own (board.adj), with roads, rivers and red lines marked.
"""

from __future__ import annotations

from typing import Any

from . import board, cards, closecombat
from .data import SIDES
from .dataset import current

# x east, y north, in the pack's units; placed between the pack's areas they border (provisional)
MORE_COORDS = {
    "no-1-outpost": [3, 13], "chailak-dere": [5, 13], "rhododendron-spur": [7, 13], "hill-971": [11, 14],
    "plugges-plateau": [4, 9], "monash-valley": [5, 8], "the-nek": [7, 10], "baby-700": [8, 11],
    "battleship-hill": [8, 12], "the-400-plateau": [7, 7], "pine-ridge": [8, 5], "legge-valley": [9, 6],
    "scrubby-knoll": [10, 10],
}
TERRAIN = {0: "beach", 1: "open", 2: "hill", 3: "hill"}  # the map's colours by elevation


def locations(pack_locations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every area of the rules' map, drawn where the pack puts it (ours where it has no place)."""
    placed = {loc["id"]: loc["coords"] for loc in pack_locations if isinstance(loc.get("coords"), list)}
    own = current().coords  # a player's own map: his coordinates first
    out = []
    for area, (name, level, woods, tags) in board.areas().items():
        coords = own.get(area) or placed.get(area, MORE_COORDS.get(area))
        sea = "sea" in tags
        out.append({"id": area, "name": name, "kind": "area", "coords": coords, "provisional": "map" not in current().supplied,
                    "terrain": "sea" if sea else ("beach" if "beach" in tags else TERRAIN[level]),
                    "adjacent": sorted(board.adj(area)),
                    "links": {b: sorted(f)[0] for b, f in sorted(board.adj(area).items()) if f},
                    "note": ", ".join(([f"level {level}"] if not sea else []) + (["woods"] if woods else []))})
    return out


def unit_text(view: dict[str, Any], uid: str) -> str:
    """A counter and its current values (2.1, 2.3), for the map's tooltip and table."""
    fresh = view["units"][uid]["fresh"]
    state = "fresh" if fresh else "exhausted"
    if board.kind(uid) == "leader":
        return (f"{board.unit_name(uid)} ({state}): Leader, +{board.fp_bonus(uid)} Firepower, "
                f"+{board.move_bonus(uid)} movement")
    return (f"{board.unit_name(uid)} ({state}): Firepower {board.firepower(uid, fresh)}, range "
            f"{board.fire_range(uid)}, strength {board.strength(uid, fresh)}, MF {board.mf(uid)}")


def map_view(view: dict[str, Any]) -> dict[str, Any]:
    """Units where they are (badge: current strength; exhausted ones marked), the contested areas
    (close combat to come), the VP cubes, trenches and wire, the tracks, the close combat hands."""
    pieces = []
    for area in board.areas():
        for uid in board.units_at(view, area):
            leader = board.kind(uid) == "leader"
            pieces.append({"at": area, "side": board.side_of(uid), "label": unit_text(view, uid),
                           "badge": "L" if leader else str(board.strength(uid, view["units"][uid]["fresh"])),
                           "concealed": False, "exhausted": not view["units"][uid]["fresh"], "id": uid})
    marks = {a: ["close combat (10.1)"] for a in board.areas() if not board.is_sea(a) and board.contested(view, a)}
    notes = {}
    for area in board.areas():
        extra = ([f"{'deep' if view['trenches'][area] == 2 else 'shallow'} trench"] if area in view["trenches"] else [])
        extra += ["wire"] if area in view["wire"] else []
        if extra:
            notes[area] = ", ".join(extra)
    vp = {s: sum(1 for c in view["cubes"].values() if c == s) for s in SIDES}
    hands = {s: [closecombat.card_name(c) for c in view["ccdeck"][s]["hand"]] for s in SIDES
             if view["ccdeck"][s]["hand"]}
    hands.update({f"{s} Action Card": [cards.label(e) for e in view["ac"]["hands"][s]] for s in SIDES
                  if view["ac"]["hands"][s]})  # 17.1: each card's uses shown to its holder (item_values)
    return {"pieces": pieces, "marks": marks, "cubes": dict(sorted(view["cubes"].items())), "notes": notes,
            "objectives": sorted(view["cubes"]), "off": list(view["off"]), "hands": hands,
            "tracks": [("Turn", f"{view['turn']} of {view['turns']}"), ("Killing Time", str(view["kt"])),
                       ("Morale Advantage", view["ma"]), ("VP", f"anzac {vp['anzac']}, turkish {vp['turkish']}")]}

"""Hill 60's map for a report and the play page: the four spaces of rule 1.2 in their line, west
to east, with the units on them.  Positions are ours (the game is our own design, RULES.md 1.4):
a schematic line, nothing taken from a printed map."""

from __future__ import annotations

from typing import Any

from . import data

# a schematic line, stepping north-east as the ground rises to the hill (x east, y north)
COORDS = {"Damakjelik Bair": [0, 0], "Kabak Kuyu": [2, 1], "Hill 60": [4, 2], "Susuk Kuyu": [6, 2]}
TERRAIN = {"Damakjelik Bair": "hill", "Kabak Kuyu": "open", "Hill 60": "hill", "Susuk Kuyu": "open"}
KIND = {"nzmr": "cavalry"}  # mounted rifles; the rest are infantry battalions and regiments


def locations() -> list[dict[str, Any]]:
    """The spaces, each adjacent to its neighbours in the line (1.2); bases and the objective tagged."""
    out = []
    for i, space in enumerate(data.SPACES):
        near = [data.SPACES[j] for j in (i - 1, i + 1) if 0 <= j < len(data.SPACES)]
        tags = (["objective"] if space == data.OBJECTIVE else []) + \
            [f"{side}-base" for side in data.SIDES if data.BASES[side] == space]
        base = next((data.SIDE_NAMES[s] for s in data.SIDES if data.BASES[s] == space), None)
        out.append({"id": space, "name": space, "kind": "space", "coords": COORDS[space], "terrain": TERRAIN[space],
                    "adjacent": near, "tags": tags, "provisional": False,
                    "note": f"{base} base (no stacking limit)" if base else "stacking limit 3"})
    return out


def board(view: dict[str, Any]) -> dict[str, Any]:
    """The units where they are (steps as pips), the trenches, the turn and who acts."""
    pieces = []
    for unit in data.UNITS:
        seen = view["units"].get(unit.id)  # a view that hides a unit (fog of war) leaves it off the map
        at, steps = (seen["space"], seen["steps"]) if seen else (None, 0)
        if at in data.SPACES:
            pieces.append({"at": at, "side": unit.side, "id": unit.id, "kind": KIND.get(unit.id, "infantry"),
                           "label": f"{unit.name} ({steps} of {unit.steps} steps)", "badge": str(steps), "concealed": False})
    return {"pieces": pieces, "notes": {s: "entrenched" for s in view["entrenched"]},
            "objectives": [data.OBJECTIVE],
            "tracks": [("Turn", f"{view['turn']} of {data.TURNS}"), ("Player", data.SIDE_NAMES[view["side"]]),
                       ("Operations left", str(view["ops"])),
                       ("Naval bombardment", "used" if view["bombarded"] else "not used")]}

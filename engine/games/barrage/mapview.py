"""Barrage's map for a report and the play page: the two batteries facing each other across no
man's land, each with the hits it has scored, and the round.  Positions are ours (the game is our
own design): a schematic line, nothing taken from a printed map."""

from __future__ import annotations

from typing import Any

PLACES = (("red-battery", "Red battery", [0, 0]), ("no-mans-land", "No man's land", [3, 0]),
          ("blue-battery", "Blue battery", [6, 0]))


def locations() -> list[dict[str, Any]]:
    """The two batteries and the ground between them, each next to its neighbour."""
    ids = [p[0] for p in PLACES]
    return [{"id": pid, "name": name, "kind": "space", "coords": xy, "terrain": "open" if pid == "no-mans-land" else "hill",
             "adjacent": [ids[j] for j in (i - 1, i + 1) if 0 <= j < len(ids)], "tags": [], "provisional": False,
             "note": "where the barrages fall" if pid == "no-mans-land" else f"{name}: its barrages hit on 5 or 6"}
            for i, (pid, name, xy) in enumerate(PLACES)]


def board(view: dict[str, Any]) -> dict[str, Any]:
    """Each side's battery with its hits so far in its label; the side to fire marked."""
    pieces = [{"at": f"{side}-battery", "side": side, "id": f"{side}-guns", "kind": "artillery",
               "label": f"{side} guns ({view['hits'][side]} hits)", "badge": "", "concealed": False}
              for side in ("red", "blue")]
    rounds = view["rounds"]
    return {"pieces": pieces, "colours": {"red": "#b3261e", "blue": "#1f5fa8"},  # the sides are named for them
            "notes": {f"{view['turn']}-battery": "to fire"} if view["round"] <= rounds else {},
            "objectives": [],
            "tracks": [("Round", f"{min(view['round'], rounds)} of {rounds}"), ("Dice a barrage", str(view["dice"])),
                       ("Hits", f"red {view['hits']['red']}, blue {view['hits']['blue']}")]}

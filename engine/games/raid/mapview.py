"""Trench Raid's map for a report and the play page: the two trenches across no man's land; in each
trench the side's hand as one face-down counter (the cards are private draws, named only
to their owner), and the cards played this round face up in no man's land.  Positions are ours
(the game is our own design): a schematic line, nothing taken from a printed map."""

from __future__ import annotations

from typing import Any

PLACES = (("allied-trench", "Allied trench", [0, 0]), ("no-mans-land", "No man's land", [3, 0]),
          ("ottoman-trench", "Ottoman trench", [6, 0]))


def locations() -> list[dict[str, Any]]:
    """The two trenches and the ground between them, each next to its neighbour."""
    ids = [p[0] for p in PLACES]
    return [{"id": pid, "name": name, "kind": "space", "coords": xy, "terrain": "open" if pid == "no-mans-land" else "trench",
             "adjacent": [ids[j] for j in (i - 1, i + 1) if 0 <= j < len(ids)], "tags": [], "provisional": False,
             "note": "the raid cards played this round" if pid == "no-mans-land" else f"{name}: the hand, face down"}
            for i, (pid, name, xy) in enumerate(PLACES)]


def board(view: dict[str, Any], rounds: int, value: Any) -> dict[str, Any]:
    """Each side's hand, face down (its cards named by their tokens, which the report opens for
    their owner only) and the cards played this round by their value; the
    score and the round as tracks."""
    pieces = []
    for side in ("allied", "ottoman"):
        held = len(view["hands"][side])
        if held:
            pieces.append({"at": f"{side}-trench", "side": side, "id": f"{side}-hand", "kind": "",
                           "label": f"{side} hand of {held}: " + ", ".join(f"[[{t}]]" for t in view["hands"][side]),
                           "badge": "",  # a report's text reads a badge as steps: the label says how many
                           "concealed": True})
        played = view["played"][side]
        if played is not None:
            pieces.append({"at": "no-mans-land", "side": side, "id": f"{side}-played", "kind": "",
                           "label": f"{side} plays raid card {value(played)}", "badge": "",
                           "concealed": False})
    return {"pieces": pieces, "notes": {}, "objectives": [],
            "tracks": [("Round", f"{min(view['round'], rounds)} of {rounds}"),
                       ("Score", f"allied {view['score']['allied']}, ottoman {view['score']['ottoman']}"),
                       ("To play", view["turn"] if view["round"] <= rounds else "nobody")]}

"""What the report's map shows: the shipped pack's places at the book's hex numbers
(column.row, Sedd el Bahr 8.2), every hex a piece stands on, the pieces the players moved
(table-top), and the turn track with the turn's date, hours and light."""

from __future__ import annotations

from typing import Any

from . import data


def hex_of(at: str) -> tuple[int, int] | None:
    col, dot, row = at.partition(".")
    return (int(col), int(row)) if dot and col.isdigit() and row.isdigit() else None


def locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The pack's places, each at its hex number as its id (a piece moved to 8.2 stands in Sedd el
    Bahr), and a hex for each piece that stands where the pack names no place."""
    out, placed = [], set()
    for loc in pack_locations:
        c_r = tuple(loc.get("coords") or ())
        if len(c_r) == 2 and c_r not in placed:
            placed.add(c_r)
            loc = {**loc, "id": f"{c_r[0]}.{c_r[1]}"}
        out.append(loc)
    for at in sorted({at for pieces in (view or {}).get("pieces", {}).values() for at in pieces.values()}):
        c_r = hex_of(at)
        if c_r and c_r not in placed:
            placed.add(c_r)
            out.append({"id": at, "name": f"hex {at}", "kind": "hex", "coords": list(c_r), "quiet": True,
                        "short": at, "provisional": False})
    return out


def board(view: dict[str, Any]) -> dict[str, Any]:
    pieces = []
    for side, placed in sorted(view["pieces"].items()):
        for piece, at in sorted(placed.items()):
            if hex_of(at):
                pieces.append({"at": at, "side": side, "label": f"{piece} ({at})", "badge": "", "concealed": False})
    turn = view["turn"]
    tracks = [("Turn", f"{turn} of {view['last']}"), ("Date", f"{data.hour(turn)}, {data.date(turn)} April"),
              ("Light", data.light(turn)), ("Phase", data.PHASE_NAMES[view["phase"]]),
              ("To act", view["active"])]
    tracks += [(f"{cup.title()} naval gunfire", "chit held" if tok else "no chit")
               for cup, tok in view["ngf"]["held"].items()]
    return {"pieces": pieces, "tracks": tracks}

"""A pack overlay from a player's VASSAL module: each of our pack's locations at its pixel on his
board (``pbem pack vassal``), written into his home, never into a pack or the repository.

``<home>/overlays/<pack id>/overlay.toml`` names the board image beside it (``board-<hash>.EXT``),
its pixel size, the module's hex grid (so the map can place any hex it draws, not only the
pack's) and, for every location matched, its pixel; then what did not match. A hex location is
placed by its hex number (its ``coords``, the printed column and row) through the module's own
numbering; any other by name, compared without case, spaces or punctuation (``Anzac Cove``,
``anzac-cove`` and ``ANZAC cove!`` are one name; ``Basra (hex 1345)`` is also ``Basra``).

The image is written first under a name of its content, then the TOML that names it, each
atomically: a reader sees the old overlay or the new one, never half of one.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PbemError
from ..store.files import atomic_write
from .gamedata import read_file
from .vassal import Board, HexGrid

OVERLAYS = "overlays"
FILE = "overlay.toml"
GRID_KEYS = ("x0", "y0", "dx", "dy", "sideways", "first", "sep", "h_type", "v_type", "h_leading", "v_leading",
             "h_off", "v_off", "h_descend", "v_descend", "stagger")


def norm(text: str) -> str:
    """A name as compared: letters and digits only, without case or accents."""
    text = unicodedata.normalize("NFKD", text).casefold()
    return "".join(ch for ch in text if ch.isalnum())


def names_of(loc: dict[str, Any]) -> list[str]:
    """The forms of one of our locations' names that may match one of theirs."""
    name = str(loc.get("name", ""))
    forms = [name, re.sub(r"\s*\([^)]*\)", "", name), str(loc.get("id", ""))]
    return [f for f in dict.fromkeys(norm(x) for x in forms) if f]


@dataclass
class Result:
    directory: Path
    image: str
    size: tuple[int, int]
    kind: str
    matched: list[tuple[str, str, tuple[int, int]]] = field(default_factory=list)  # our id, how, pixel
    ours_unmatched: list[tuple[str, str]] = field(default_factory=list)  # our id, why
    theirs_unmatched: list[str] = field(default_factory=list)  # their region or zone names
    their_hexes: int = 0  # hexes of their board; how many of ours were found among them
    pieces: int = 0


def match(board: Board, locations: list[dict[str, Any]]) -> Result:
    """Our locations on their board: by hex number, else by name."""
    out = Result(Path(), board.image_name, board.size, board.kind)
    width, height = board.size
    theirs: dict[str, str] = {}
    for name in board.places:
        theirs.setdefault(norm(name), name)
    used: set[str] = set()
    for loc in locations:
        if not isinstance(loc, dict) or not isinstance(loc.get("id"), str):
            continue
        lid, coords = loc["id"], loc.get("coords")
        hexed = isinstance(coords, list) and len(coords) == 2 and all(type(v) is int for v in coords)
        if board.grid is not None and loc.get("kind") == "hex" and hexed:
            x, y = board.grid.at(coords[0], coords[1], board.size)
            label = board.grid.name(coords[0] - board.grid.h_off, coords[1] - board.grid.v_off)
            if 0 <= x < width and 0 <= y < height:
                out.matched.append((lid, f"hex {label}", (x, y)))
            else:
                out.ours_unmatched.append((lid, f"hex {label} is off their board"))
            continue
        found = next((theirs[n] for n in names_of(loc) if n in theirs), None)
        if found is not None:
            used.add(found)
            out.matched.append((lid, f"named {found!r}", board.places[found]))
        else:
            why = "no hex number (coords) and no place of that name" if board.grid is not None else \
                "no place of that name"
            out.ours_unmatched.append((lid, why))
    out.theirs_unmatched = sorted(n for n in board.places if n not in used)
    if board.grid is not None:
        out.their_hexes = count_hexes(board.grid, board.size)
    out.pieces = len(board.pieces)
    return out


def count_hexes(grid: HexGrid, size: tuple[int, int]) -> int:
    """The hexes whose centres lie on the board (bounded: a board of a million hexes is counted so)."""
    width, height = size
    span_x, span_y = (height, width) if grid.sideways else (width, height)
    cols = int(span_x / grid.dx) + 2
    rows = int(span_y / grid.dy) + 2
    if cols * rows > 1_000_000:
        return cols * rows
    n = 0
    for i in range(-1, cols):
        for j in range(-1, rows):
            a = grid.x0 + i * grid.dx
            b = grid.y0 + j * grid.dy + (grid.dy / 2 if i % 2 else 0)
            x, y = (b, a) if grid.sideways else (a, b)
            n += 0 <= x < width and 0 <= y < height
    return n


def write(home: Path, pack_id: str, titles: list[str], module_name: str, board: Board, result: Result) -> Result:
    """The overlay under ``home`` (image, then the TOML that names it); older images removed."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", pack_id):
        raise PbemError("the pack id cannot name an overlay folder", repr(pack_id[:80]), code="bad-pack")
    folder = Path(home) / OVERLAYS / pack_id
    try:
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(board.image).hexdigest()[:16]
        image = f"board-{digest}{Path(board.image_name).suffix.lower()}"
        atomic_write(folder / image, board.image)
        atomic_write(folder / FILE, _toml(pack_id, titles, module_name, board, result, image))
        for old in folder.glob("board-*"):
            if old.name != image and old.is_file():
                old.unlink()
    except OSError as e:
        raise PbemError("the overlay cannot be written", f"{folder}: {e.strerror or e}", code="unwritable") from None
    result.directory, result.image = folder, image
    return result


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's; DEL too, which JSON leaves raw)."""
    clean = "".join(ch for ch in text if unicodedata.category(ch) != "Cs")
    return json.dumps(clean, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml(pack_id: str, titles: list[str], module_name: str, board: Board, result: Result, image: str) -> str:
    lines = ["# written by 'pbem pack vassal' from the player's own VASSAL module; it stays on this machine",
             "[overlay]", f"pack = {_q(pack_id)}", f"titles = [{', '.join(_q(t) for t in titles)}]",
             f"module = {_q(module_name)}", f"board = {_q(board.name)}", f"image = {_q(image)}",
             f"width = {board.size[0]}", f"height = {board.size[1]}", f"kind = {_q(board.kind)}", ""]
    if board.grid is not None:
        lines.append("[grid]")
        for key in GRID_KEYS:
            value = getattr(board.grid, key)
            lines.append(f"{key} = " + (("true" if value else "false") if isinstance(value, bool) else
                                        _q(value) if isinstance(value, str) else repr(value)))
        lines.append("")
    lines.append("[positions]  # our location id = [x, y], pixels of the board image")
    lines += [f"{_q(lid)} = [{x}, {y}]" for lid, _, (x, y) in result.matched]
    lines += ["", "[matched]  # how each was found"]
    lines += [f"{_q(lid)} = {_q(how)}" for lid, how, _ in result.matched]
    lines += ["", "[unmatched]", f"ours = [{', '.join(_q(lid) for lid, _ in result.ours_unmatched)}]",
              f"theirs = [{', '.join(_q(n) for n in result.theirs_unmatched)}]", ""]
    return "\n".join(lines)


def grid_of(spec: dict[str, Any]) -> HexGrid | None:
    """The hex grid an overlay's ``[grid]`` describes, checked (it is read back from a file)."""
    kinds = {f: type(getattr(HexGrid(), f)) for f in GRID_KEYS}
    values = {}
    for key, kind in kinds.items():
        value = spec.get(key)
        if kind is float and type(value) is int:
            value = float(value)
        if type(value) is not kind:
            return None
        values[key] = value
    if not (1 <= values["dx"] <= 10_000 and 1 <= values["dy"] <= 10_000):
        return None
    return HexGrid(**values, numbered=True)


def read(folder: Path) -> dict[str, Any]:
    """An overlay's TOML, bounded (``gamedata.read_file``).  :raises OSError, ValueError."""
    data = read_file(folder / FILE)
    if not isinstance(data, dict) or not isinstance(data.get("overlay"), dict):
        raise ValueError("no [overlay] table")
    return data

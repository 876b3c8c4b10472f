"""The player's own board under the report's map: the overlay ``pbem pack vassal`` wrote into his
home (``$PBEM_HOME`` or ``~/.pbem``, ``overlays/<pack>/``) from a VASSAL module he owns.

``find`` picks the overlay made for the game drawn (by the titles it records: the pack's, its
table-top game's and the rules module's of the same name). The map then places each location at
the overlay's pixel (a hex the pack does not name, at its hex number through the module's grid),
draws the board image under everything, and leaves out what the image shows already (our grid,
terrain, coast). The image goes into the SVG as a ``data:`` URI: the report stays one file that
opens offline on any machine, ``pbem serve``'s page (http) could not load a ``file:`` path, and the
replay stores a line repeated at every step once. The image never leaves the player's files: it is
in the report he writes, never in a turn file.
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from ..chain import vassal_overlay
from ..chain.vassal import IMAGE_TYPES, MAX_IMAGE, HexGrid
from ..wire.keys import default_home
from . import map_hex

MAX_OVERLAYS = 64  # overlay folders looked at in a home
SHAPES = ".pbem-map .loc circle,.pbem-map .loc rect{fill-opacity:.25}"  # the board shows through our spaces


@dataclass(frozen=True)
class Overlay:
    pack: str
    module: str
    uri: str  # the board image, as a data: URI
    size: tuple[int, int]
    positions: dict[str, tuple[int, int]]
    grid: HexGrid | None

    def place(self, locations: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
        """Each location's pixel on the board: the overlay's, else (a hex) its number through the grid."""
        out: dict[str, tuple[float, float]] = {}
        width, height = self.size
        for loc in locations:
            lid, coords = loc.get("id"), loc.get("coords")
            if lid in self.positions:
                out[lid] = self.positions[lid]
            elif self.grid is not None and loc.get("kind") == "hex" and isinstance(coords, list) and \
                    len(coords) == 2 and all(type(v) is int for v in coords):
                x, y = self.grid.at(coords[0], coords[1], self.size)
                if 0 <= x < width and 0 <= y < height:
                    out[lid] = (x, y)
        return out

    def near(self, points: dict[str, tuple[float, float]]) -> float:
        """The pixels between neighbours on his board, which the map draws as ours (a hex's height,
        so counters fit his hexes): the grid's, else the nearest two places', else a tenth of it."""
        if self.grid is not None:  # a column's hexes 52 apart, as our grid's: the play page counts on it
            return self.grid.dy
        pts = sorted(points.values())
        best = float("inf")
        for i, (ax, ay) in enumerate(pts):
            for bx, by in pts[i + 1:]:
                if bx - ax >= best:
                    break
                d = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
                best = d if 0 < d < best else best
        return best if best != float("inf") else max(self.size) / 10

    def corners(self) -> list[tuple[float, float]]:
        return [(0.0, 0.0), (float(self.size[0]), float(self.size[1]))]

    def drawing(self, xy: Any, hexes: list[dict[str, Any]]) -> str:
        """The board image, its corners where ``xy`` puts the board's pixels; on a hex map, his grid
        unseen and unnumbered (the board shows both): the play page finds a plain hex clicked by it."""
        (x0, y0), (x1, y1) = xy(0.0, 0.0), xy(float(self.size[0]), float(self.size[1]))
        out = (f'<style>{SHAPES}</style><image class="background own-board" data-pack="{escape(self.pack)}" '
               f'x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
               f'preserveAspectRatio="none" href="{self.uri}"/>')
        grid = self.grid
        if grid is None or grid.sideways or grid.v_descend or not hexes:  # its rows do not run down the page
            return out
        defs, drawn, _ = map_hex.grid(hexes, lambda c, r: xy(*grid.at(c, r, self.size)), True, "none")
        return out + f"<defs>{defs}</defs>" + drawn.replace('<g class="hexgrid" ',
                                                            '<g class="hexgrid" data-numbered="yes" visibility="hidden" ', 1)

    def legend(self, placed: int, total: int) -> str:
        return (f"board: your own, from {self.module} (pbem pack vassal); {placed} of {total} places on it"
                + ("" if placed == total else ", the others only in the table below"))


def find(title: str, home: Path | None = None) -> Overlay | None:
    """The overlay for the game titled ``title`` in the player's home, or None (none, or unreadable:
    a broken overlay never stops a report; the map is drawn as without one)."""
    root = (home or default_home()) / vassal_overlay.OVERLAYS
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir())[:MAX_OVERLAYS]
    except OSError:
        return None
    for folder in folders:
        try:
            stamp = (folder / vassal_overlay.FILE).stat().st_mtime_ns
        except OSError:
            continue
        found = _load(folder, stamp)
        if found is not None and title in found[0]:
            return found[1]
    return None


@functools.lru_cache(maxsize=2)  # a replay draws the map at every step: the image is read once (and kept for two boards at most)
def _load(folder: Path, stamp: int) -> tuple[tuple[str, ...], Overlay] | None:
    try:
        data = vassal_overlay.read(folder)
    except (OSError, ValueError):
        return None
    head, positions = data["overlay"], data.get("positions", {})
    titles, image = head.get("titles"), head.get("image")
    width, height = head.get("width"), head.get("height")
    if not (isinstance(titles, list) and all(isinstance(t, str) for t in titles) and isinstance(image, str)
            and Path(image).name == image and Path(image).suffix.lower() in IMAGE_TYPES
            and type(width) is int and type(height) is int and 0 < width <= 65_535 and 0 < height <= 65_535
            and isinstance(positions, dict)):
        return None
    placed = {k: (v[0], v[1]) for k, v in positions.items()
              if isinstance(v, list) and len(v) == 2 and all(type(n) is int and abs(n) <= 10**6 for n in v)}
    try:
        if (folder / image).stat().st_size > MAX_IMAGE:
            return None
        data_uri = f"data:{IMAGE_TYPES[Path(image).suffix.lower()]};base64," + \
            base64.b64encode((folder / image).read_bytes()).decode()
    except OSError:
        return None
    grid = vassal_overlay.grid_of(data["grid"]) if isinstance(data.get("grid"), dict) else None
    module = head.get("module") if isinstance(head.get("module"), str) else "a VASSAL module"
    return tuple(titles), Overlay(str(head.get("pack", folder.name)), module[:80], data_uri, (width, height), placed,
                                  grid)

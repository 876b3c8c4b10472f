"""A hex map's grid, terrain and hex numbers, drawn compactly.

Every hex of the map's extent (the columns and rows its hexes span) is drawn: one ``<path>`` of
a column of hexes in ``<defs>`` (each hex a closed sub-path, flat-topped, relative commands), and
one ``<use class="hexcol">`` of it a column, so a grid of 1,620 hexes costs a few KB. The grid
says how to number its hexes (``data-fmt``: "ccrr" as 1345, "c.r" as 19.15) and each column its
first hex (``data-c``, ``data-r``) and length (``data-n``): the page's script (map.js) writes the
numbers in small print, at the top of each hex that has no label of its own. Terrain is the
grid's fill where most hexes share one, and one path of whole hexes for each other terrain.
"""

from __future__ import annotations

import re
from collections import Counter
from html import escape
from typing import Any, Callable

R, H = 30, 52  # a hexagon's corner radius and its height (flat-topped): columns 45 apart, rows 52
HEX = "h30l15 26l-15 26h-30l-15-26z"  # a hexagon drawn from its top-left corner


def hexagon(x: float, y: float) -> str:
    """A hexagon's points around (x, y), for a location's ``polygon``."""
    return " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in ((-15, -26), (15, -26), (30, 0), (15, 26),
                                                                  (-15, 26), (-30, 0)))


def tiles_path(centres: list[tuple[float, float]]) -> str:
    return "".join(f"M{x - 15:.1f} {y - 26:.1f}{HEX}" for x, y in centres)


def number_format(ids: list[str]) -> str:
    return "ccrr" if any(re.fullmatch(r"\d{4}", i) for i in ids) else "c.r"


def grid(hexes: list[dict[str, Any]], place: Callable[[int, int], tuple[float, float]], rows_down: bool,
         fill: str) -> tuple[str, str, int]:
    """(the defs, the grid, how many hexes) for hex locations ``hexes`` (each with coords);
    ``place(c, r)``: a hex's centre on the map."""
    cols = [loc["coords"][0] for loc in hexes]
    rows = [loc["coords"][1] for loc in hexes]
    r0, r1 = min(rows), max(rows)
    n = r1 - r0 + 1
    path = "M-15 -26" + HEX + ("m0 52" + HEX) * (n - 1)
    defs = f'<path id="hexcol{n}" d="{path}"/>'
    first = r0 if rows_down else r1
    uses = []
    for c in range(min(cols), max(cols) + 1):
        x, y = place(c, first)
        uses.append(f'<use class="hexcol" href="#hexcol{n}" x="{x:.1f}" y="{y:.1f}" data-c="{c}" data-r="{first}" '
                    f'data-n="{n}"/>')
    count = n * len(uses)
    fmt = number_format([str(loc["id"]) for loc in hexes])
    out = (f'<g class="hexgrid" data-hexes="{count}" data-fmt="{fmt}" data-dr="{1 if rows_down else -1}" '
           f'data-h="{H}" fill="{fill}" stroke="#9a9a8a" stroke-width="1">' + "".join(uses) + "</g>")
    return defs, out, count


def base_terrain(hexes: list[dict[str, Any]]) -> str | None:
    """The terrain most hexes share, if most hexes say one."""
    found = Counter(loc.get("terrain") for loc in hexes)
    terrain, n = found.most_common(1)[0]
    return terrain if terrain is not None and n * 2 > len(hexes) else None


def terrain_tiles(hexes: list[dict[str, Any]], at: Callable[[str], tuple[float, float]], base: str | None,
                  covered: set[str], colours: dict[Any, str]) -> list[str]:
    """One path of whole hexes for each terrain other than the base (and not tiled already)."""
    by: dict[str, list[tuple[float, float]]] = {}
    for loc in sorted(hexes, key=lambda loc: loc["id"]):
        t = loc.get("terrain")
        if t is not None and t != base and loc["id"] not in covered:
            by.setdefault(t, []).append(at(loc["id"]))
    return [f'<path class="hex terrain" data-terrain="{escape(t)}" d="{tiles_path(c)}" fill="{colours.get(t, colours[None])}"/>'
            for t, c in sorted(by.items())]

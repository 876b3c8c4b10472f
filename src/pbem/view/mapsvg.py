"""The map in a report: an SVG drawn from a pack's locations and a game's ``board(view)``.

Hand-built SVG, inline in the HTML: no library, no external file, no network, and the same
bytes on every machine for the same game (a report is compared and searched in tests). A pack
gives each location its ``coords``: a schematic grid with y north for spaces and areas, a
column-row hex number for hexes (odd columns half a hex down). Pieces come from the game's
``board(view)`` with their labels already shown for the viewer: his own concealed blocks by
name, the enemy's as blanks. Pieces are drawn as small blocks in their side's colour above
their location, with the steps when the rules have made them public; every block's full label
is its tooltip, and the table under the map lists them in words.

A board may also give (all optional): ``objectives`` (the locations that count, outlined in
gold, in place of the pack's ``objective`` tags), ``cubes`` (location -> side: a victory cube
in that side's colour), ``notes`` (location -> a few words under its name: trenches, wire),
``off`` (locations not in play, drawn faded) and pieces with ``exhausted`` (drawn pale). A
location may give ``links`` (neighbour -> "road" | "river" | "red") to draw its connections.

Hex grids: a hex's column-row coordinates put every other column half a hex lower; which ones
is a map setting, ``offset`` = "odd" (the default) or "even", from the pack (``[pack] offset``)
or the board.  A location marked ``quiet`` (a plain hex of a large map) is drawn only where a
piece, marker or mark stands on it, so a report of a map of a thousand hexes stays small (its
``short`` name, the hex number, in small print); the map's extent is still every location's.  A board may give ``markers`` (small diamonds in a side's
colour with a letter: depots), ``statuses`` (a short code -> what it means; a piece's ``status``
lists its codes, each drawn as a coloured bar under it) and ``legend`` (more lines of legend).

A hex board may also give ``areas`` (``{"terrain", "name", "at": [hex ids]}``: whole hexes
tiled in the terrain's colour, drawn whether or not anything stands there: marshes, lakes) and
``lines`` (``{"kind", "name", "sides": [[hex, hex], ...]}``: a path along the hexsides between
those pairs of adjacent hexes, such as a river; or ``"through": [ids]``: a path through their
centres, such as a railway).  A line's ``kind`` picks its style (LINE_STYLES: river, seasonal,
wadi, rail; another kind is grey) and its legend entry; both lie under the locations.
"""

from __future__ import annotations

import functools
import math
import re
from html import escape
from typing import Any

from . import map_areas, map_counters, map_hex, map_labels, map_overlay

WIDTH = 960  # the width a map is laid out for on a page (the legend keeps within it)
MIN_WIDTH = 1000  # a small map (Hill 60's four spaces) still has room for its legend
SIDE_COLOURS = ("#2f5d9e", "#a8322d", "#4a7d3a", "#8a5a1c", "#6b3f8f", "#2d7f80")
TERRAIN = {"beach": "#efe0b0", "hill": "#c8b08a", "fort": "#a9a9a9", "open": "#dde8cf", "hq": "#f5f5f5",
           "town": "#e3d3c3", "city": "#d9c2ad", "sea": "#cfe3f3", "desert": "#f3ecd9", "marsh": "#c9dcc9",
           "grove": "#b9d6a0", "lake": "#cfe3f3", None: "#ececec"}
STATUS_COLOURS = map_counters.STATUS_COLOURS  # a piece's status codes, in the board's order
LINKS = {"road": ' stroke="#8a5a1c" stroke-width="2.5"', "river": ' stroke="#3b7fc4" stroke-width="2.5"',
         "red": ' stroke="#d00" stroke-width="2" stroke-dasharray="2 3"'}  # red: a red line, no movement
LINE_STYLES = {"river": ("#3b7fc4", "3", ""), "seasonal": ("#3b7fc4", "2.5", "6 3"),
               "wadi": ("#a0703a", "2", "4 3"), "rail": ("#333", "2", "1 3")}  # colour, width, dashes
LINE_LEGEND = {"river": "blue line: river (along hexsides)", "seasonal": "dashed blue line: seasonal water",
               "wadi": "dashed brown line: wadi", "rail": "dotted black line: railway"}
AREA_LEGEND = {"marsh": "green tiles: marsh", "lake": "blue tiles: lake"}
CHIP = 14  # the legend's swatches
SPACING = 64  # spaces and areas: the nearest two this far apart (two stacks side by side)
SPACE_R = 24  # a space's or an area's circle
LABEL, NOTE = 14, 14  # a location's name and the note under it, in map units (CSS px at zoom 1)
MIN_ZOOM = 0.82  # the page's default view never shows less: counters 24.6 px, labels 11.5 px
MOVED = "changed since your last turn"  # the report marks these; a game's own marks are battles


NATION_COLOURS = {  # a side named for a nation takes its colour in every game and pack, whatever its seat
    "ottoman": "#a8322d", "turkish": "#a8322d", "turk": "#a8322d", "german": "#5b5b5b", "central": "#5b5b5b",
    "allied": "#2f5d9e", "entente": "#2f5d9e", "british": "#2f5d9e", "anzac": "#2f5d9e", "french": "#4a6fb5",
    "indian": "#2f5d9e", "russian": "#4a7d3a"}


def colours(sides: tuple[str, ...], given: dict[str, str] | None = None) -> dict[str, str]:
    """Each side's colour: the board's (a pack's own colours), else its nation's (so the Ottomans are
    red in every game and pack, never blue), else by seat, never one another side has."""
    out: dict[str, str] = {}
    for side in sides:
        colour = (given or {}).get(side) or NATION_COLOURS.get(str(side).lower())
        if colour and colour not in out.values() and re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            out[side] = colour
    spare = [c for c in SIDE_COLOURS if c not in out.values()]
    for side in sides:
        if side not in out:
            out[side] = spare.pop(0) if spare else SIDE_COLOURS[len(out) % len(SIDE_COLOURS)]
    return {side: out[side] for side in sides}


def _points(locations: list[dict[str, Any]], rows: str | None, offset: str | None = None) -> dict[str, tuple[float, float]]:
    """Unit-spaced positions, y down, for every location the pack places. ``rows``: which way
    the second coordinate grows ("north" or "south"; default north for spaces, south for hexes);
    ``offset``: which hex columns sit half a hex along ("odd", the default, or "even")."""
    out = {}
    shifted = 0 if offset == "even" else 1
    for loc in locations:
        c = loc.get("coords")
        if not (isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) for v in c)):
            continue
        hex_ = loc.get("kind") == "hex"
        down = (rows or ("south" if hex_ else "north")) == "south"
        y = c[1] + (0.5 * (c[0] % 2 == shifted) if hex_ else 0.0)  # every other hex column half a hex along
        out[loc["id"]] = (c[0] * (0.866 if hex_ else 1.0), y if down else -y)
    return out


@functools.lru_cache(maxsize=4)  # the same map drawn again (a replay's every step) is measured once
def _nearest(points: tuple[tuple[float, float], ...]) -> float:
    """The smallest distance between two points (a sweep along x: a large hex map stays quick)."""
    pts = sorted(points)
    best = math.inf
    for i, a in enumerate(pts):
        for b in pts[i + 1:]:
            if b[0] - a[0] >= best:
                break
            best = min(best, math.dist(a, b))
    return 1.0 if best == math.inf else best


def hexside(a: tuple[float, float], b: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The ends of the hexside between two adjacent hex centres: across the midpoint, at right
    angles to the line joining them, as long as a side of the hex (centre distance / sqrt 3)."""
    (ax, ay), (bx, by) = a, b
    mx, my = (ax + bx) / 2, (ay + by) / 2
    d = math.dist(a, b) or 1.0
    half = d / math.sqrt(3) / 2
    ux, uy = -(by - ay) / d, (bx - ax) / d
    return (round(mx - ux * half, 1), round(my - uy * half, 1)), (round(mx + ux * half, 1), round(my + uy * half, 1))


def _tiles(board: dict[str, Any], at: Any, points: dict[str, Any]) -> list[str]:
    """``areas``: each a path of whole hexagons in its terrain's colour."""
    out = []
    for area in board.get("areas", []):
        cells = [at(lid) for lid in sorted(set(area.get("at", []))) if lid in points]
        if cells:
            terrain = area.get("terrain")
            fill = TERRAIN.get(terrain, TERRAIN[None])
            out.append(f'<path class="area hex" data-terrain="{escape(str(terrain))}" d="{map_hex.tiles_path(cells)}" '
                       f'fill="{fill}"><title>{escape(str(area.get("name", terrain)))}</title></path>')
    return out


def _lines(board: dict[str, Any], at: Any, points: dict[str, Any]) -> list[str]:
    """``lines``: along hexsides (``sides``) or through location centres (``through``)."""
    out = []
    for line in board.get("lines", []):
        parts = []
        for a, b in line.get("sides", []):
            if a in points and b in points:
                (x1, y1), (x2, y2) = hexside(at(a), at(b))
                parts.append(f"M{x1} {y1} L{x2} {y2}")
        through = [lid for lid in line.get("through", []) if lid in points]
        if len(through) > 1:
            parts.append("M" + " L".join(f"{x} {y}" for x, y in map(at, through)))
        if not parts:
            continue
        colour, width_px, dash = LINE_STYLES.get(line.get("kind"), ("#888", "2", ""))
        out.append(f'<path class="line" data-kind="{escape(str(line.get("kind")))}" d="{" ".join(parts)}" fill="none" '
                   f'stroke="{colour}" stroke-width="{width_px}" stroke-linecap="round"'
                   + (f' stroke-dasharray="{dash}"' if dash else "")
                   + f'><title>{escape(str(line.get("name", line.get("kind"))))}</title></path>')
    return out


def draw(locations: list[dict[str, Any]], board: dict[str, Any], sides: tuple[str, ...], title: str,
         rows: str | None = None, background: tuple[bytes, str, list[int]] | None = None,
         provisional: bool = False, offset: str | None = None) -> str:
    """The SVG, or "" when the pack places no location (then the report keeps its tables).
    ``background``: a map image the player owns (bytes, MIME type, extent in coordinates).
    ``provisional``: the pack says its geometry is reconstructed (``[map] provisional``).
    ``offset``: the hex columns drawn half a hex lower, "odd" (default) or "even" (the pack's;
    else the board's)."""
    offset = offset or board.get("offset")
    points = _points(locations, rows, offset)
    own = map_overlay.find(title)  # the player's board from his VASSAL module (pbem pack vassal): its pixels
    placed = own.place(locations) if own is not None else {}
    if own is not None and placed:
        points, background = placed, None
        board = {**board, "legend": [*board.get("legend", []), own.legend(len(points), len(locations))]}
    else:
        own = None
    if not points:
        return ""
    by_id = {loc["id"]: loc for loc in locations}
    hexes = [by_id[lid] for lid in points if by_id[lid].get("kind") == "hex"]
    hexmap = len(hexes) * 2 > len(points)
    spread = [*points.values(), *(own.corners() if own else [])]  # the whole of his board in view
    xs, ys = [p[0] for p in spread], [p[1] for p in spread]
    near = own.near(points) if own else _nearest(tuple(points.values()))
    scale = (map_hex.H if hexmap else SPACING) / max(near, 1e-9)
    radius = map_hex.R if hexmap else SPACE_R
    links = any(loc.get("links") for loc in locations)
    reconstructed = provisional or any(loc.get("provisional") for loc in locations)
    outline = own is None and not hexmap and background is None and reconstructed and sum(1 for lid in points if _is_land(by_id[lid])) >= 3
    legend_lines = len(_more_legend(board, links, outline))
    legend_bottom = 100 + 22 * max(0, legend_lines - 1)
    pad_x, pad_top = 110, legend_bottom + 2 * map_counters.RISE + 16 + radius  # a stack of three clears the legend
    pad_x += max(0.0, MIN_WIDTH - ((max(xs) - min(xs)) * scale + 2 * pad_x)) / 2  # room for the legend
    width = (max(xs) - min(xs)) * scale + 2 * pad_x
    height = (max(ys) - min(ys)) * scale + pad_top + radius + 60
    left, top = min(xs), min(ys)

    def xy(x: float, y: float) -> tuple[float, float]:
        return round((x - left) * scale + pad_x, 1), round((y - top) * scale + pad_top, 1)

    def at(lid: str) -> tuple[float, float]:
        return xy(*points[lid])

    palette = colours(sides, board.get("colours"))
    pieces = [p for p in board.get("pieces", []) if p["at"] in points]
    kinds = {k for k in (map_counters.kind_of(p) for p in pieces) if k}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="pbem-map" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'width="100%" style="max-width:{width:.0f}px;height:auto" data-width="{width:.0f}" '
           f'data-height="{height:.0f}" data-counter="{map_counters.SIZE}" data-label="{LABEL}" '
           f'data-minzoom="{MIN_ZOOM}" role="img" aria-label="{escape(title)}">',
           f'<style>text{{font-family:system-ui,sans-serif}}.n{{font-size:{LABEL}px;fill:#111;paint-order:stroke;'
           'stroke:#fff;stroke-width:3px;stroke-opacity:.8}.t{font-size:14px;fill:#222}'
           '.c{font-size:9px;fill:#fff;font-weight:bold}.hn{font-size:8px;fill:#6b6b60}'
           '.cd{font-size:8px;text-anchor:middle;font-weight:bold}.cv{font-size:9px;text-anchor:middle;font-weight:bold}'
           '.cs{font-size:6px;fill:#fff;text-anchor:middle;font-weight:bold}'
           '.cc{font-size:8px;fill:#fff;text-anchor:middle;font-weight:bold}</style>']
    hex_defs, grid, base = "", "", None
    if hexmap and own is None:  # his board has its own grid and terrain
        down = (rows or "south") == "south"

        def place(c: int, r: int) -> tuple[float, float]:
            p = _points([{"id": "h", "kind": "hex", "coords": [c, r]}], rows, offset)["h"]
            return xy(*p)

        base = map_hex.base_terrain(hexes)
        hex_defs, grid, _ = map_hex.grid(hexes, place, down, TERRAIN.get(base, "#f4f1e6"))
    # spaces and areas on no map of the player's: sea, and land around the land locations (provisional)
    cells: dict[str, list[tuple[float, float]]] = {}
    land_defs = land_drawing = ""
    if outline:
        box = (0.0, float(legend_bottom), float(width), float(height))
        ground = {lid: at(lid) for lid in points if _is_land(by_id[lid])}
        adjacent = {lid: list(by_id[lid].get("adjacent", [])) for lid in ground}
        land_defs, land_drawing = map_areas.land(ground, map_areas.nearest_links(ground, adjacent, 2.3 * SPACING),
                                                 SPACING * 0.62, box)
        areas = {lid: at(lid) for lid in points if by_id[lid].get("kind") == "area"}
        if len(areas) >= 3:
            cells = map_areas.cells(areas, box)
    out.append(f'<defs>{hex_defs}{land_defs}{map_counters.defs(kinds)}</defs>')
    out.append(land_drawing)
    out += [own.drawing(xy, hexes if hexmap else [])] if own else []  # his board image, under everything
    if background is not None:  # the owner's own map under everything, its corners at their coordinates
        import base64

        data, mime, (b_left, b_bottom, b_right, b_top) = background
        corners = _points([{"id": "a", "coords": [b_left, b_bottom]}, {"id": "b", "coords": [b_right, b_top]}], rows,
                          offset)
        (ax, ay), (bx, by) = corners["a"], corners["b"]
        x0, y0 = (min(ax, bx) - left) * scale + pad_x, (min(ay, by) - top) * scale + pad_top
        out.append(f'<image class="background" x="{x0:.1f}" y="{y0:.1f}" width="{abs(bx - ax) * scale:.1f}" '
                   f'height="{abs(by - ay) * scale:.1f}" preserveAspectRatio="none" opacity="0.85" '
                   f'href="data:{mime};base64,{base64.b64encode(data).decode()}"/>')
    if grid:
        out.append(grid)
        covered = {lid for area in board.get("areas", []) for lid in area.get("at", [])}
        out += map_hex.terrain_tiles(hexes, at, base, covered, TERRAIN)
    out += _tiles(board, at, points) if own is None else []  # whole-hex areas (marsh, lake), then lines along hexsides
    out += _lines(board, at, points) if own is None else []
    if cells:  # the areas' colours, under every label (a label may stand over a neighbour's area)
        out.append('<g class="cells">' + "".join(
            f'<polygon points="{map_areas.points(cells[lid])}" fill="{_fill(by_id[lid])}"'
            + ("" if by_id[lid].get("terrain") == "sea" else ' clip-path="url(#land)"')
            + (' opacity="0.35"' if lid in board.get("off", []) else "") + "/>"
            for lid in sorted(cells)) + "</g>")
    for lid in sorted(points) if own is None else ():  # connections, each once (his board draws its own)
        for other in sorted(by_id[lid].get("adjacent", [])):
            if other in points and lid < other:
                (x1, y1), (x2, y2) = at(lid), at(other)
                style = LINKS.get(by_id[lid].get("links", {}).get(other), ' stroke="#b5b5b5" stroke-width="1.5"')
                if lid in cells and other in cells and by_id[lid].get("links", {}).get(other) not in LINKS:
                    continue  # areas that tile the land show that they touch by their outlines
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"{style}/>')
    marks = board.get("marks", {})
    objectives = set(board["objectives"]) if "objectives" in board else None
    off, cubes, notes = set(board.get("off", [])), board.get("cubes", {}), board.get("notes", {})
    markers = [m for m in board.get("markers", []) if m.get("at") in points]
    stacks: dict[str, list[dict[str, Any]]] = {}
    for piece in pieces:
        stacks.setdefault(piece["at"], []).append(piece)
    busy = set(stacks) | {m["at"] for m in markers} | set(marks) | set(notes) | set(cubes)
    shown = [lid for lid in sorted(points) if not (by_id[lid].get("quiet") and lid not in busy)]
    # what labels must not cover: every stack, marker and cube, and (spaces, areas) every shape
    obstacles = []
    for lid, stack in stacks.items():
        x, y = map_counters.stack_centre(*at(lid), len(stack))
        w, h = map_counters.stack_box(len(stack))
        obstacles.append((x - w / 2 - 2, y - h / 2 - 9, x + w / 2 + 8, y + h / 2 + 9))  # the count, the status tabs
    for lid in {m["at"] for m in markers}:
        x, y = at(lid)
        obstacles.append((x + 17, y - 2, x + 36, y + 30))
    if not hexmap:
        obstacles += [(x - radius, y - radius, x + radius, y + radius) for x, y in map(at, shown)]
    items = []
    for lid in sorted(shown, key=lambda i: (at(i)[1], at(i)[0], i)):
        loc = by_id[lid]
        text = loc["short"] if loc.get("quiet") and loc.get("short") else str(loc.get("name", lid))
        lines = [(text, float(LABEL))] + ([(str(notes[lid]), float(NOTE))] if lid in notes else [])
        half = radius * (0.55 if hexmap else 1.0)
        x, y = at(lid)
        if lid in stacks:  # around the location and its stack
            w, h = map_counters.stack_box(len(stacks[lid]))
            upper = min(y - half, y + map_counters.LIFT - h - 9)
            lower = max(y + half, y + map_counters.LIFT + 9)
            items.append((lid, x, (upper + lower) / 2, max(half, w / 2 + 8), (lower - upper) / 2, lines))
            continue
        items.append((lid, x, y, half, half, lines))
    labels = map_labels.place(items, obstacles, (2, legend_bottom + 4, width - 2, height - 2))
    for lid in shown:
        loc, (x, y) = by_id[lid], at(lid)
        tags = set(loc.get("tags", []))
        if objectives is not None:
            tags = (tags - {"objective"}) | ({"objective"} if lid in objectives else set())
        terrain = "hq" if "hq" in tags else loc.get("terrain")
        fill = TERRAIN.get(terrain, TERRAIN[None])
        stroke = "#c89b00" if "objective" in tags else "#555"
        width_px = 3 if "objective" in tags else 1
        dash = ' stroke-dasharray="3 2"' if loc.get("provisional") and not hexmap else ""
        tip = f"{loc.get('name', lid)}" + (f" ({terrain})" if terrain else "") + \
            (f" · {loc['note']}" if loc.get("note") else "") + (" · objective" if "objective" in tags else "") + \
            (f" · {notes[lid]}" if lid in notes else "") + (" · not in play" if lid in off else "")
        cr = ""
        if loc.get("kind") == "hex" and hexmap:
            cr = f' data-cr="{loc["coords"][0]},{loc["coords"][1]}"'
            objective = "objective" in tags
            shape = (f'<polygon class="hex" points="{map_hex.hexagon(x, y)}" fill="#fff" fill-opacity="0" '
                     + (f'stroke="#c89b00" stroke-width="3"' if objective else 'stroke="none"') + "/>")
        elif lid in cells:  # the area's outline: its cell of the land (or of the sea)
            clip = "" if terrain == "sea" else ' clip-path="url(#land)"'
            shape = (f'<polygon class="area" points="{map_areas.points(cells[lid])}" fill="{fill}" fill-opacity="0"'
                     f'{clip} stroke="{stroke}" stroke-width="{width_px + 0.5}" stroke-linejoin="round"{dash}/>')
        elif "hq" in tags:
            shape = (f'<rect x="{x - radius}" y="{y - radius}" width="{2 * radius}" height="{2 * radius}" '
                     f'fill="{fill}" stroke="{stroke}" stroke-width="{width_px}"{dash}/>')
        else:
            shape = (f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="{width_px}"{dash}/>')
        faded = ' opacity="0.35"' if lid in off else ""
        lx, ly, anchor = labels[lid]
        text = loc["short"] if loc.get("quiet") and loc.get("short") else str(loc.get("name", lid))
        named = f'<text class="n" x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}">{escape(text)}</text>'
        under = (f'<text class="n" x="{lx:.1f}" y="{ly + LABEL * 1.15:.1f}" text-anchor="{anchor}" fill="#7a4a00" '
                 f'style="font-size:{NOTE}px;fill:#7a4a00">{escape(notes[lid])}</text>' if lid in notes else "")
        cube = ""
        if lid in cubes:
            c = palette.get(cubes[lid], "#666")
            cube = (f'<rect class="cube" data-side="{escape(str(cubes[lid]))}" x="{x - radius + 2:.1f}" '
                    f'y="{y - 5:.1f}" width="10" height="10" fill="{c}" stroke="#fff" stroke-width="1">'
                    f'<title>VP cube: {escape(str(cubes[lid]))}</title></rect>')
        about = f' data-terrain="{escape(str(terrain))}" data-centre="{x},{y}"'  # on the shape: the tag stays as it was
        shape = shape[:-2] + about + "/>"
        out.append(f'<g class="loc" data-id="{escape(lid)}"{cr}{faded}><title>{escape(tip)}</title>{shape}'
                   f'{named}{under}{cube}</g>')
        if lid in marks:
            moved = all(m == MOVED for m in marks[lid])  # only changed: blue; a battle or landing: red
            out.append(f'<circle class="mark" data-at="{escape(lid)}" cx="{x}" cy="{y}" r="{radius + 4}" fill="none" '
                       f'stroke="{"#1f77b4" if moved else "#d00"}" stroke-width="2.5" stroke-dasharray="5 3">'
                       f'<title>{escape(", ".join(marks[lid]))}</title></circle>')
    by_place: dict[str, list[dict[str, Any]]] = {}
    for m in markers:
        by_place.setdefault(m["at"], []).append(m)
    for lid, here in sorted(by_place.items()):
        x, y = at(lid)
        for i, m in enumerate(here):
            mx, my, h = x + 24, y + 6 + i * 14, 7
            colour = palette.get(m.get("side"), "#666")
            out.append(f'<g class="marker" data-at="{escape(lid)}" data-side="{escape(str(m.get("side")))}">'
                       f'<title>{escape(m.get("label", ""))}</title>'
                       f'<path d="M{mx:.1f} {my - h:.1f} L{mx + h:.1f} {my:.1f} L{mx:.1f} {my + h:.1f} '
                       f'L{mx - h:.1f} {my:.1f} Z" fill="{colour}" stroke="#fff" stroke-width="1"/>'
                       + (f'<text class="c" x="{mx:.1f}" y="{my + 3.2:.1f}" text-anchor="middle">'
                          f'{escape(m["badge"])}</text>' if m.get("badge") else "") + "</g>")
    status_colour = {code: STATUS_COLOURS[i % len(STATUS_COLOURS)] for i, code in enumerate(board.get("statuses", {}))}
    for lid, stack in sorted(stacks.items()):
        out += map_counters.stack(stack, *at(lid), palette, status_colour)
    out.append(_legend(board, palette, provisional or any(loc.get("provisional") for loc in locations), links,
                       outline))
    out.append("</svg>")
    return "\n".join(out)


def _fill(loc: dict[str, Any]) -> str:
    """A location's colour: its terrain's (an HQ's white)."""
    return TERRAIN.get("hq" if "hq" in loc.get("tags", []) else loc.get("terrain"), TERRAIN[None])


def _is_land(loc: dict[str, Any]) -> bool:
    """Land for the coastline: not sea, not an HQ box off the map."""
    return loc.get("terrain") not in ("sea", "hq") and "hq" not in loc.get("tags", []) and "coords" in loc


def _more_legend(board: dict[str, Any], links: bool, outline: bool = False) -> list[str]:
    """The legend's further lines (what this board uses), joined by " · " up to about 120 characters a line."""
    more = (["coast and outlines PROVISIONAL: computed from the places, not the printed map"] if outline else []) + \
        (["pale counter, grey EXH tab: exhausted"] if any(p.get("exhausted") for p in board.get("pieces", [])) else []) + \
        (["small square: the VP cube's colour"] if board.get("cubes") else []) + \
        (["faded area: not in play"] if board.get("off") else []) + \
        (["lines: brown road, blue river, red dashed no movement"] if links else []) + \
        [AREA_LEGEND.get(t, f"tiles: {t}") for t in dict.fromkeys(a.get("terrain") for a in board.get("areas", []))] + \
        [LINE_LEGEND.get(k, f"grey line: {k}") for k in dict.fromkeys(x.get("kind") for x in board.get("lines", []))] + \
        [f"{('orange', 'violet', 'teal', 'pink')[i % len(STATUS_COLOURS)]} bar: {code}, {what}"
         for i, (code, what) in enumerate(board.get("statuses", {}).items())] + \
        [str(line) for line in board.get("legend", [])]
    lines: list[str] = []
    for item in more:
        if lines and len(lines[-1]) + 3 + len(item) <= 110:
            lines[-1] += " · " + item
        else:
            lines.append(item)
    return lines


def _legend(board: dict[str, Any], palette: dict[str, str], provisional: bool, links: bool = False,
            outline: bool = False) -> str:
    parts = ['<g class="legend">']
    x = 10
    for side, colour in palette.items():
        parts.append(f'<rect x="{x}" y="10" width="{CHIP}" height="{CHIP}" fill="{colour}"/>'
                     f'<text class="t" x="{x + 18}" y="22">{escape(side)}</text>')
        x += 34 + 9 * len(side)
    parts.append(f'<rect x="{x}" y="10" width="{CHIP}" height="{CHIP}" fill="#777"/><rect x="{x + 3}" y="13" '
                 f'width="{CHIP - 6}" height="{CHIP - 6}" fill="none" stroke="#fff"/>'
                 f'<text class="t" x="{x + 18}" y="22">face down</text>')
    x += 110
    parts.append(f'<circle cx="{x + 7}" cy="17" r="7" fill="#fff" stroke="#c89b00" stroke-width="3"/>'
                 f'<text class="t" x="{x + 19}" y="22">objective</text>')
    x += 100
    parts.append(f'<circle cx="{x + 7}" cy="17" r="8" fill="none" stroke="#d00" stroke-width="2" '
                 f'stroke-dasharray="4 3"/><text class="t" x="{x + 20}" y="22">battle</text>')
    x += 78
    parts.append(f'<circle cx="{x + 7}" cy="17" r="8" fill="none" stroke="#1f77b4" stroke-width="2" '
                 f'stroke-dasharray="4 3"/><text class="t" x="{x + 20}" y="22">changed since your last turn</text>')
    tracks = " · ".join(f"{name}: {value}" for name, value in board.get("tracks", []))
    parts.append(f'<text class="t" x="10" y="46">{escape(tracks)}</text>')
    for i, line in enumerate(_more_legend(board, links, outline)):
        parts.append(f'<text class="t" x="10" y="{92 + 22 * i}">{escape(line)}</text>')
    if provisional:
        parts.append('<text class="t" x="10" y="69" fill="#8a6100">Map geometry is PROVISIONAL: reconstructed, '
                     'not from the rulebook (dashed outlines); a pack of your own can give better coordinates.</text>')
    parts.append("</g>")
    return "".join(parts)

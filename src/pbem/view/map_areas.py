"""Land, sea and area outlines for maps whose pack gives only points (spaces and areas), computed
by our code and labelled provisional on the map: no printed map is copied.

* The land is the union of a disc around every land location and a band along every link
  between two of them: a coastline that follows the places the rules name, drawn as a sand
  shape with a darker edge on a sea background.
* Areas (Assault on Gallipoli) tile the land: each area's outline is its Voronoi cell among all
  the areas' centres (the part of the map nearer its centre than any other's), clipped to the
  land for a land area; a sea area's cell is sea.  Cells are convex, so each is the map's box cut
  by one half-plane per other centre (Sutherland-Hodgman), exact and the same on every machine.
"""

from __future__ import annotations

import math
from typing import Iterable

Point = tuple[float, float]
LAND, COAST, SEA = "#efe6c8", "#a8956a", "#cfe3f3"


def _cut(poly: list[Point], a: float, b: float, c: float) -> list[Point]:
    """The part of a convex polygon where a*x + b*y <= c."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def cells(centres: dict[str, Point], box: tuple[float, float, float, float]) -> dict[str, list[Point]]:
    """Each centre's Voronoi cell inside ``box`` (left, top, right, bottom), as polygon corners."""
    left, top, right, bottom = box
    out = {}
    items = sorted(centres.items())
    for lid, (x, y) in items:
        poly = [(left, top), (right, top), (right, bottom), (left, bottom)]
        for other, (ox, oy) in items:
            if other == lid or (ox, oy) == (x, y):
                continue
            # nearer (x, y) than (ox, oy): 2(ox-x)X + 2(oy-y)Y <= ox^2+oy^2-x^2-y^2
            poly = _cut(poly, 2 * (ox - x), 2 * (oy - y), ox * ox + oy * oy - x * x - y * y)
            if not poly:
                break
        out[lid] = poly
    return out


def points(poly: Iterable[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in poly)


def land_shapes(centres: dict[str, Point], links: list[tuple[str, str]], radius: float, grow: float = 0.0) -> str:
    """The land as SVG shapes (discs and bands; their union is the land), ``grow`` wider."""
    r = radius + grow
    parts = [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>' for _, (x, y) in sorted(centres.items())]
    for a, b in links:  # a band as a filled polygon: a clip path takes shapes' fills, never their strokes
        (x1, y1), (x2, y2) = centres[a], centres[b]
        d = math.dist((x1, y1), (x2, y2))
        nx, ny = -(y2 - y1) / d * r * 0.8, (x2 - x1) / d * r * 0.8
        parts.append(f'<polygon points="{points([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)])}"/>')
    return "".join(parts)


def hull(pts: list[Point]) -> list[Point]:
    """The convex hull (Andrew's monotone chain), counter-clockwise in SVG's y-down frame."""
    pts = sorted(set(pts))
    if len(pts) < 3:
        return pts

    def half(seq: list[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return lower[:-1] + upper[:-1]


def _connected(centres: dict[str, Point], links: list[tuple[str, str]]) -> bool:
    seen, todo = set(), [min(centres)]
    near: dict[str, set[str]] = {}
    for a, b in links:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    while todo:
        a = todo.pop()
        if a not in seen:
            seen.add(a)
            todo += sorted(near.get(a, set()) - seen)
    return len(seen) == len(centres)


def _shapes(centres: dict[str, Point], links: list[tuple[str, str]], radius: float, grow: float = 0.0) -> str:
    """The land: discs and bands where they make one land; else (places far apart on a schematic
    map) the hull around every place, rounded by the same radius, so the land stays one piece."""
    if _connected(centres, links):
        return land_shapes(centres, links, radius, grow)
    r = radius + grow
    ring = [(x + r * math.cos(k * math.pi / 12), y + r * math.sin(k * math.pi / 12))
            for x, y in centres.values() for k in range(24)]
    return f'<polygon points="{points(hull(ring))}"/>'


def land(centres: dict[str, Point], links: list[tuple[str, str]], radius: float,
         box: tuple[float, float, float, float]) -> tuple[str, str]:
    """(defs: the land as a clip path ``#land``; the drawing: sea, then the land with its coast)."""
    left, top, right, bottom = box
    defs = f'<clipPath id="land">{_shapes(centres, links, radius)}</clipPath>'
    drawing = (f'<rect class="sea" x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" height="{bottom - top:.1f}" '
               f'fill="{SEA}"/>'
               f'<g class="coast" fill="{COAST}" stroke="{COAST}">{_shapes(centres, links, radius, 2.5)}</g>'
               f'<g class="land" fill="{LAND}" stroke="{LAND}">{_shapes(centres, links, radius)}</g>')
    return defs, drawing


def nearest_links(centres: dict[str, Point], adjacent: dict[str, list[str]], longest: float) -> list[tuple[str, str]]:
    """The links between land locations, each once: the pack's adjacencies among them no longer
    than ``longest`` (a long link of a schematic map would lay a band of land across the sea)."""
    out = []
    for a in sorted(centres):
        for b in sorted(adjacent.get(a, [])):
            if b in centres and a < b and 0 < math.dist(centres[a], centres[b]) <= longest:
                out.append((a, b))
    return out

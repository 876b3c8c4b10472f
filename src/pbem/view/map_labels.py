"""Where the map's location labels go: near their location, never over another label, a stack
of counters, a marker or another location's shape (greedy, in a fixed order: the same bytes on
every machine).

A label's box is estimated from its characters (LABEL px a line, ``WIDE`` of the size per
character: wider than the fonts a browser picks for system-ui, so the drawn text fits inside);
the browser tests measure the drawn boxes and find no overlap.
"""

from __future__ import annotations

Box = tuple[float, float, float, float]  # left, top, right, bottom
WIDE = 0.64  # an average character's width, in font sizes (DejaVu Sans is about 0.6)


def text_box(x: float, y: float, lines: list[tuple[str, float]], anchor: str) -> Box:
    """The box of ``lines`` (text, font size) whose first baseline is at y, anchored at x."""
    w = max(len(t) * WIDE * fs for t, fs in lines) + 2
    top = y - lines[0][1] * 1.0
    bottom = y + sum(fs * 1.15 for _, fs in lines[1:]) + lines[-1][1] * 0.45
    left = x - w / 2 if anchor == "middle" else (x if anchor == "start" else x - w)
    return left, top, left + w, bottom


def overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def candidates(x: float, y: float, half_w: float, half_h: float, fs: float) -> list[tuple[float, float, str]]:
    """Places for a label around a thing of half-size (half_w, half_h) at (x, y), the best first:
    below, above, right, left, the four corners, then the same farther out."""
    out = []
    for ring in (0, fs * 1.2, fs * 2.6, fs * 4.2, fs * 6, fs * 8):
        bw, bh = half_w + ring, half_h + ring
        out += [(x, y + bh + fs, "middle"), (x, y - bh - 0.35 * fs, "middle"), (x + bw + 3, y + fs * 0.35, "start"),
                (x - bw - 3, y + fs * 0.35, "end"), (x + bw * 0.7, y + bh + fs, "start"),
                (x - bw * 0.7, y + bh + fs, "end"), (x + bw * 0.7, y - bh - 0.35 * fs, "start"),
                (x - bw * 0.7, y - bh - 0.35 * fs, "end")]
    return out


def place(items: list[tuple[str, float, float, float, float, list[tuple[str, float]]]], obstacles: list[Box],
          bounds: Box) -> dict[str, tuple[float, float, str]]:
    """``items``: (id, x, y, half width, half height, lines) in the order to place them; each gets
    the first candidate that overlaps nothing placed and no obstacle and stays in ``bounds``, else
    the one overlapping least. Returns id -> (x, first baseline y, text-anchor)."""
    placed: list[Box] = []
    out = {}
    for lid, x, y, hw, hh, lines in items:
        fs = lines[0][1]
        best, best_cost = None, None
        for cx, cy, anchor in candidates(x, y, hw, hh, fs):
            box = text_box(cx, cy, lines, anchor)
            outside = max(0.0, bounds[0] - box[0]) + max(0.0, box[2] - bounds[2]) + \
                max(0.0, bounds[1] - box[1]) + max(0.0, box[3] - bounds[3])
            cost = sum(overlap(box, o) for o in placed) * 4 + sum(overlap(box, o) for o in obstacles) + outside * 50
            if best_cost is None or cost < best_cost:
                best, best_cost = (cx, cy, anchor, box), cost
            if cost == 0:
                break
        assert best is not None
        out[lid] = best[:3]
        placed.append(best[3])
    return out

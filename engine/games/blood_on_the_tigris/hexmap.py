"""The hex map (PROVISIONAL, map_data.py): geometry, terrain, places and the water hexsides.

A hex is its four-digit number as text ("1345": column 13, row 45).  A hexside is the two hex
numbers joined in order ("1344|1444").  Even columns sit half a hex lower than odd ones (map_data.py
says why).  Rivers, seasonal water and the wadi run along hexsides; each is stored as waypoint
hexsides and joined here by the shortest line of hexsides, a fixed computation at import.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Set as AbstractSet
from functools import cache
from itertools import compress
from typing import Any

from .map_data import DATA

PROVISIONAL = DATA["map"]["provisional"]
COLS = tuple(DATA["map"]["columns"])
ROWS = tuple(DATA["map"]["rows"])


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def col_row(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def on_map(h: str) -> bool:
    c, r = col_row(h)
    return COLS[0] <= c <= COLS[1] and ROWS[0] <= r <= ROWS[1]


def _grid_neighbours(c: int, r: int) -> list[tuple[int, int]]:
    """The six hexes round (c, r), even columns half a hex lower."""
    if c % 2 == 0:
        side = [(c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:
        side = [(c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [(c, r - 1), (c, r + 1), *side]


@cache
def neighbours(h: str) -> tuple[str, ...]:
    """The adjacent hexes on the map, in a fixed order."""
    c, r = col_row(h)
    out = [hex_id(a, b) for a, b in _grid_neighbours(c, r) if a >= 0 and b >= 0]
    return tuple(sorted(n for n in out if on_map(n)))


def distance(a: str, b: str) -> int:
    """Hexes between a and b on an empty map."""
    (q1, r1), (q2, r2) = _CUBE.get(a) or _cube(a), _CUBE.get(b) or _cube(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def _cube(h: str) -> tuple[int, int]:
    c, r = col_row(h)
    return c, r - (c + 1) // 2  # even columns lower: axial r = row - ceil(col / 2)


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)


def hexside(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def side_hexes(side: str) -> tuple[str, str]:
    a, b = side.split("|")
    return a, b


# -- terrain ----------------------------------------------------------------------------------

def _runs(items: list[str]) -> set[str]:
    out: set[str] = set()
    for item in items:
        first, _, last = item.partition("-")
        last = last or first
        c1, r1 = col_row(first)
        c2, r2 = col_row(last)
        if c1 != c2:
            raise ValueError(f"map data: run {item} must stay in one column")
        out.update(hex_id(c1, r) for r in range(r1, r2 + 1))
    return out


PLACES: dict[str, dict[str, Any]] = DATA["places"]
PLACE_HEX: dict[str, str] = {pid: p["hex"] for pid, p in PLACES.items()}
BAGHDAD = tuple(sorted(p["hex"] for pid, p in PLACES.items() if pid.startswith("baghdad")))
AERODROMES = tuple(sorted({p["hex"] for p in PLACES.values() if p.get("aerodrome")}))
_TERRAIN: dict[str, str] = {}
for _kind in ("marsh", "grove", "lake"):
    for _h in _runs(DATA["terrain"].get(_kind, [])):
        _TERRAIN[_h] = _kind
for _p in PLACES.values():
    if _p["terrain"] != "clear":
        _TERRAIN[_p["hex"]] = _p["terrain"]


DEPOT_TERRAIN_HEXES = tuple(sorted(h for h, t in _TERRAIN.items() if t in ("city", "grove", "marsh")))  # 12.1 errata


def terrain(h: str) -> str:
    """A hex's terrain: clear, marsh, grove, lake, town or city (a TEC entry)."""
    return _TERRAIN.get(h, "clear")


_NAMES: dict[str, str] = {}
for _p in PLACES.values():  # a hex's first named place
    if not _p["name"].startswith("hex "):
        _NAMES.setdefault(_p["hex"], _p["name"])


def place_name(h: str) -> str:
    return _NAMES.get(h, "")


def label(h: str) -> str:
    name = place_name(h)
    return f"{h} ({name})" if name else h


_GRID = [(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]
ALL_HEXES = tuple(f"{c:02d}{r:02d}" for c, r in _GRID)  # hex_id's
ALL_HEXES_SET = frozenset(ALL_HEXES)
_CUBE = {h: (c, r - (c + 1) // 2) for h, (c, r) in zip(ALL_HEXES, _GRID)}  # _cube's, for distance()
LAKE_HEXES = frozenset(h for h in ALL_HEXES if terrain(h) == "lake")


# -- the grid as bits: a set of hexes as one int, bit i for ALL_HEXES[i] (column by column), so a
# search for lines (supply.py) spreads a whole front of hexes in a few operations -------------

FULL = (1 << len(ALL_HEXES)) - 1
BIT = {h: 1 << i for i, h in enumerate(ALL_HEXES)}
_NR = ROWS[1] - ROWS[0] + 1  # a column's hexes: the next column's same row is _NR bits up
_COLUMN = (1 << _NR) - 1  # one column's bits
_TOPS = sum(1 << (k * _NR) for k in range(COLS[1] - COLS[0] + 1))  # each column's first row
_NOT_FIRST = FULL ^ _TOPS
_NOT_LAST = FULL ^ (_TOPS << (_NR - 1))
_EVEN = sum(_COLUMN << (k * _NR) for k, c in enumerate(range(COLS[0], COLS[1] + 1)) if c % 2 == 0)
_ODD = FULL ^ _EVEN
_BITS_TO_BYTES = bytes.maketrans(b"01", b"\x00\x01")


def bits(hexes: Any) -> int:
    """The hexes of the map among ``hexes``, as bits (each once: a sum would carry)."""
    return sum(BIT[h] for h in set(hexes) if h in BIT)


def spread(x: int) -> int:
    """The hexes ``x`` and every neighbour of them (as ``neighbours`` gives them), as bits."""
    up, down = x & _NOT_FIRST, x & _NOT_LAST
    side = x | ((down & _EVEN) << 1) | ((up & _ODD) >> 1)  # what the columns beside see: even columns
    return (x | (down << 1) | (up >> 1) | (side << _NR) | (side >> _NR)) & FULL  # one row down, odd up


def hexes_of(x: int) -> list[str]:
    """The hexes of the bits ``x``, in ALL_HEXES order."""
    return list(compress(ALL_HEXES, bin(x)[:1:-1].encode().translate(_BITS_TO_BYTES)))


def few_hexes(x: int) -> list[str]:
    """``hexes_of`` for bits of a few hexes: bit by bit."""
    out = []
    while x:
        low = x & -x
        out.append(ALL_HEXES[low.bit_length() - 1])
        x ^= low
    return out


class HexSet(AbstractSet[str]):
    """A set of hexes of the map held as bits (and any others by name), read-only: asking
    whether a hex is in it costs no set of 1,620 strings built first."""

    __slots__ = ("bits", "others")

    def __init__(self, bits_: int, others: frozenset[str] = frozenset()) -> None:
        self.bits, self.others = bits_, others

    def __contains__(self, h: object) -> bool:
        bit = BIT.get(h) if isinstance(h, str) else None
        return bool(self.bits & bit) if bit is not None else h in self.others

    def __iter__(self) -> Iterator[str]:
        return iter([*hexes_of(self.bits), *sorted(self.others)])

    def __len__(self) -> int:
        return self.bits.bit_count() + len(self.others)


# -- hexsides: rivers, seasonal water, wadi ---------------------------------------------------

@cache  # the river joins at import visit each hexside many times: computed once each
def _vertices(side: str) -> tuple[tuple[str, str, str], ...]:
    """The two corners of a hexside, each named by its three hexes (off the map included)."""
    a, b = side_hexes(side)
    ca, cb = col_row(a), col_row(b)
    common = sorted(set(_grid_neighbours(*ca)) & set(_grid_neighbours(*cb)))
    return tuple(tuple(sorted((a, b, hex_id(*c)))) for c in common if min(c) >= 0)  # type: ignore[misc]


@cache
def _corner_sides(v: tuple[str, str, str]) -> tuple[str, str, str]:
    return hexside(v[0], v[1]), hexside(v[0], v[2]), hexside(v[1], v[2])


@cache
def _side_on_map(side: str) -> bool:
    return all(on_map(x) for x in side_hexes(side))


def _join(start: str, end: str) -> list[str]:
    """The fewest hexsides from ``start`` to ``end`` (both included), corner to corner."""
    goal = set(_vertices(end))
    first = _vertices(start)
    prev: dict[tuple[str, str, str], tuple[tuple[str, str, str], str] | None] = {v: None for v in first}
    queue = deque(first)
    while queue:
        v = queue.popleft()
        if v in goal:
            path = [end]
            while prev[v] is not None:
                v, side = prev[v]  # type: ignore[misc]
                path.append(side)
            path.append(start)
            out = list(reversed(path))
            return [s for i, s in enumerate(out) if i == 0 or s != out[i - 1]]
        for side in _corner_sides(v):
            for w in _vertices(side):
                if w not in prev and _side_on_map(side):
                    prev[w] = (v, side)
                    queue.append(w)
    raise ValueError(f"map data: no line of hexsides from {start} to {end}")


def _water() -> tuple[dict[str, str], dict[str, list[str]]]:
    kinds: dict[str, str] = {}
    lines: dict[str, list[str]] = {}
    for name, w in DATA["water"].items():
        points = w["waypoints"]
        line: list[str] = []
        for a, b in zip(points, points[1:]):
            part = _join(hexside(*side_hexes(a)), hexside(*side_hexes(b)))
            line.extend(part if not line else part[1:])
        lines[name] = line
        for side in line:
            kinds.setdefault(side, w["kind"])
    lake = _runs(DATA["terrain"].get("lake", []))
    for h in sorted(lake):  # 15.0 added: boats move along lake hexsides too
        for n in _grid_neighbours(*col_row(h)):
            side = hexside(h, hex_id(*n))
            if hex_id(*n) not in lake:
                kinds.setdefault(side, "lake")
    return kinds, lines


@cache  # joined on first use, once: a command that asks no water question (a status) skips it
def _water_map() -> tuple[dict[str, str], dict[str, list[str]]]:
    return _water()


def __getattr__(name: str) -> Any:
    """``WATER`` (hexside -> river | seasonal | wadi | lake) and ``LINES`` (each water line's
    hexsides, in order), joined on first use."""
    if name == "WATER":
        return _water_map()[0]
    if name == "LINES":
        return _water_map()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def water(side: str) -> str:
    return _water_map()[0].get(side, "")


def crossing(a: str, b: str, rain: bool) -> str:
    """What the hexside between two adjacent hexes is for a ground unit: "" (nothing), river,
    wadi or seasonal_water (TEC names; 14.0: the Shatt al Hai wadi is a river in rain turns)."""
    kind = _water_map()[0].get(hexside(a, b), "")
    if kind == "wadi" and rain:
        return "river"
    if kind == "lake":
        return "river"
    return "seasonal_water" if kind == "seasonal" else kind


@cache
def _side_links() -> dict[str, tuple[str, ...]]:
    """Water hexsides meeting at a corner: where a boat may go next."""
    sides = _water_map()[0]
    links: dict[str, set[str]] = {s: set() for s in sides}
    for s in sides:
        for v in _vertices(s):
            for t in _corner_sides(v):
                if t != s and t in sides:
                    links[s].add(t)
    return {s: tuple(sorted(v)) for s, v in links.items()}


def boat_links(side: str, rain: bool) -> tuple[str, ...]:
    """The water hexsides a boat may move to next (15.2); the wadi only in rain (14.0)."""
    return tuple(t for t in _side_links().get(side, ()) if _water_map()[0][t] != "wadi" or rain)


def bordering(side: str) -> tuple[str, str]:
    """The two hexes a boat on this hexside is adjacent to (15.0)."""
    return side_hexes(side)


def sides_of(h: str) -> tuple[str, ...]:
    """Water hexsides along a hex."""
    sides = _water_map()[0]
    return tuple(sorted(s for s in (hexside(h, n) for n in neighbours(h)) if s in sides))

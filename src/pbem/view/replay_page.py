"""The replay's page: one map, and each step's changes, which the page's own script applies to
show step N.

What the file holds, in this order:

* every step's events, messages and rolls in words, one ``<section class="step">`` each;
* the game as it stood after the last envelope, in words: its tracks, its situation lines and
  its result;
* the data the script draws every step's map and situation from, packed: one table of every
  distinct text (an element of the map's SVG, a piece drawn at the origin, a situation line, a
  result, the tracks) and, per step, only what changed from the step before: the ranges of the
  map's elements, of its pieces (each a text of the table and where it stands) and of the
  situation lines that were replaced (``difflib`` opcodes), and the result and tracks where they
  changed; with a map, the report's map script (``map.js``: zoom, pan, hex numbers) and its
  style. The table is sorted (texts alike lie together), the JSON deflated (zlib) and written
  in base64; the browser's own ``DecompressionStream`` unpacks it. Packed, a step costs a few
  dozen bytes beside its events, and the whole page stays under 4 KB per envelope even for a
  short game on a large map (the golden Blood on the Tigris: a map of about 50 KB for 11
  envelopes, the tightest of the golden games at about 3.8 KB per envelope).

With script, the page shows one step at a time: its events and rolls, the map as that side knew
it after that envelope (what changed in it marked) and the situation; first, previous, next,
last, a jump to an envelope's number, the arrow keys (Home and End too; while the map has the
focus its own keys pan and zoom it, as in the report, and its zoom stays from step to step).
Without script (or in a browser without ``DecompressionStream``), it shows every step's events
and rolls one under the other, then the tracks, situation lines and result after the last
envelope: the whole story and where it ended, in words. The map is drawn only by the script:
drawing the last step's map in plain SVG as well would cost that short game more than its
4 KB per envelope.

No external file, no network. Nothing in the data is more than the steps show (what the side
could know at each step, ``replay``): the hidden-information tests search it unpacked.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterable
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any, NamedTuple

from ..play.witness import name_of as witness_name
from .report import dice_text, environment, template_dir

if TYPE_CHECKING:  # only for annotations
    from ..play.campaign import Campaign
    from .replay import Frame

PIECE = '<g class="piece'  # mapsvg draws each piece as one line starting so
LEGEND = '<g class="legend"'  # and the legend right after the pieces
PIECES = -1  # in a step's list of map elements: where its pieces are drawn
ORIGIN = re.compile(r'<rect x="(-?\d+(?:\.\d+)?)" y="(-?\d+(?:\.\d+)?)"')
COORD = re.compile(r' ([xy])="(-?\d+(?:\.\d+)?)"')
MAP_STYLE = """.mapview { overflow: auto; max-height: 80vh; touch-action: none; overscroll-behavior: contain; }
.mapview:focus-visible { outline: 3px solid #1a5fb4; outline-offset: -3px; }
.mapview svg { display: block; }
.mapzoom { position: absolute; top: 4px; right: 18px; z-index: 2; display: flex; gap: 4px; }
.mapzoom button { width: 34px; height: 34px; font: 20px/1 system-ui, sans-serif; border: 1px solid #888;
  border-radius: 4px; background: #fff; cursor: pointer; }"""  # map.js's, as the report has it (report.html.j2)
MATCHED = 250_000  # at most this many pairs compared by SequenceMatcher; past it, one range replaced


def _number(text: str) -> float | int:
    value = float(text)
    return int(value) if value.is_integer() else value


def _short(value: float) -> str:
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def opcodes(old: list[Any], new: list[Any]) -> tuple[tuple[Any, ...], ...]:
    """The ranges of ``old`` to replace to make ``new``: ``(start, end, items)`` in order (the
    page applies them from the last, so that each start is still where it was).

    Tuples, not lists: every step's changes are kept until the page is written, and tuples of
    numbers are soon left alone by Python's cycle collector, where lists (a dozen a step) were
    walked by each of its full collections: in a page of 10,000 steps, the four it made took 0.25
    to 0.8 s (a 1,000-step page makes none), a cost that grows faster than the history (more
    collections, each walking more)."""
    if old == new:
        return ()
    lo, most = 0, min(len(old), len(new))
    while lo < most and old[lo] == new[lo]:
        lo += 1
    hi = 0
    while hi < most - lo and old[-1 - hi] == new[-1 - hi]:
        hi += 1
    a, b = old[lo:len(old) - hi], new[lo:len(new) - hi]
    if not a or not b or len(a) * len(b) > MATCHED:
        return ((lo, len(old) - hi, tuple(b)),)
    return tuple((lo + i1, lo + i2, tuple(b[j1:j2])) for tag, i1, i2, j1, j2
                 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if tag != "equal")


class Packer:
    """The steps' changes and their table of texts, built one step at a time (only the step
    before is kept)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.pieces: dict[str, tuple[int, float | int, float | int]] = {}  # a piece's line -> ``piece``
        self.changes: list[tuple[tuple[str, Any], ...]] = []  # each step's (key, change) pairs: tuples, as ``opcodes``
        self.last: dict[str, Any] = {"s": [], "p": [], "l": [], "o": -1, "k": -1}
        self.drawn = False  # whether any step has a map

    def text(self, text: str) -> int:
        found = self.ids.get(text)
        if found is None:
            found = self.ids[text] = len(self.ids)
        return found

    def piece(self, line: str) -> tuple[int, float | int, float | int]:
        """A piece as (its drawing at the origin, x, y): the same block at another place is the
        same text. A line met before (most pieces stand still from one step to the next) is
        looked up, not parsed again."""
        found = self.pieces.get(line)
        if found is None:
            found = self.pieces[line] = self._piece(line)
        return found

    def _piece(self, line: str) -> tuple[int, float | int, float | int]:
        origin = ORIGIN.search(line)
        if origin is None:  # not drawn as mapsvg draws a piece: kept as it is
            return self.text(line), 0, 0
        x, y = float(origin.group(1)), float(origin.group(2))

        def moved(m: re.Match) -> str:
            return f' {m.group(1)}="{_short(float(m.group(2)) - (x if m.group(1) == "x" else y))}"'

        return self.text(COORD.sub(moved, line)), _number(origin.group(1)), _number(origin.group(2))

    def board(self, svg: str) -> tuple[list[int], list[tuple[int, float | int, float | int]]]:
        """A map as its elements (texts of the table, ``PIECES`` where its pieces go) and its pieces."""
        if not svg:
            return [], []
        elements: list[int] = []
        pieces = []
        for line in svg.split("\n"):
            if line.startswith(PIECE):
                pieces.append(self.piece(line))
                continue
            if (line.startswith(LEGEND) or line == "</svg>") and PIECES not in elements:
                elements.append(PIECES)
            elements.append(self.text(line))
        self.drawn = True
        return elements, pieces

    def add(self, frame: Frame) -> None:
        elements, pieces = self.board(frame.svg)
        now = {"s": elements, "p": pieces, "l": [self.text(line) for line in frame.lines],
               "o": self.text(frame.outcome) if frame.outcome else -1,
               "k": self.text(frame.tracks) if frame.tracks else -1}
        change: dict[str, Any] = {}
        for key in ("s", "p", "l"):
            ops = opcodes(self.last[key], now[key])
            if ops:
                change[key] = ops
        for key in ("o", "k"):
            if now[key] != self.last[key]:
                change[key] = now[key]
        self.changes.append(tuple(change.items()))
        self.last = now

    def packed(self) -> str:
        """The table (sorted: texts alike lie together, and deflate finds more of them) and the
        changes as JSON, deflated, in base64; with a map, the report's map script (zoom, pan,
        hex numbers: ``map.js``) and its style packed with them."""
        order = sorted(self.ids)
        new = {text: i for i, text in enumerate(order)}
        old = [new[text] for text in self.ids]  # an id as it was given -> its place in the sorted table
        changes = [_renumbered(change, old) for change in self.changes]
        data: dict[str, Any] = {"t": order, "c": changes}
        script = template_dir() / "map.js"
        if self.drawn and script.is_file():
            data.update(js=script.read_text(encoding="utf-8"), css=MAP_STYLE)
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def _renumbered(change: tuple[tuple[str, Any], ...], new: list[int]) -> dict[str, Any]:
    """A step's change with each text's id its place in the sorted table (tuples, as ``opcodes``)."""
    out: dict[str, Any] = {}
    for key, value in change:
        if key in ("o", "k"):
            out[key] = value if value < 0 else new[value]
        elif key == "p":
            out[key] = tuple((start, end, tuple((new[t], x, y) for t, x, y in items)) for start, end, items in value)
        else:
            out[key] = tuple((start, end, tuple(i if i < 0 else new[i] for i in items)) for start, end, items in value)
    return out


def unpacked(page: str) -> dict[str, Any]:
    """The data of a replay page, unpacked (for tests and tools: what the script reads)."""
    found = re.search(r'<script id="replay-data" type="application/octet-stream">([^<]*)</script>', page)
    if found is None:
        raise ValueError("not a replay page: no replay data")
    return json.loads(zlib.decompress(base64.b64decode(found.group(1))).decode("utf-8"))


class Step(NamedTuple):
    """A step as the page lists it in words. A tuple of tuples of texts, kept to the end: Python's
    cycle collector soon leaves it alone (see ``opcodes``)."""

    seq: int
    author: str
    kind: str
    events: tuple[str, ...]
    said: tuple[str, ...]  # table talk signed in this envelope
    rolls: tuple[str, ...]  # "roll: purpose: dice"


def page(campaign: Campaign, frames: Iterable[Frame], full: bool, side: str) -> str:
    """The page of ``frames`` (``replay.frames``), read once, in order."""
    game, genesis = campaign.game, campaign.genesis
    packer = Packer()
    steps = []
    last = None
    for frame in frames:
        packer.add(frame)
        steps.append(Step(frame.seq, frame.author, frame.kind, tuple(frame.events), tuple(frame.messages),
                          tuple(f"roll: {r['purpose']}: {dice_text(r)}" for r in frame.rolls)))
        last = frame
    assert last is not None
    players = {s: genesis["body"]["sides"][s]["name"] for s in game.sides}
    if campaign.refereed:
        players["referee"] = genesis["body"]["referee"]["name"]
    if witness_name(campaign):  # a witness copy: the side of no one (pbem.play.witness)
        players[side] = f"witness {witness_name(campaign)}"
    return environment().get_template("replay.html.j2").render(
        steps=steps, last=last, full=full, title=game.title, side=side, players=players, game_id=genesis["game"],
        has_map=packer.drawn, data=packer.packed())

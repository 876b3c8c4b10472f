"""Data packs: what a rulebook gives about its game, plus what we reconstructed, in TOML.

The format is in docs/packs.md.  ``load`` reads a pack directory (every
``*.toml`` in name order, tables of arrays concatenated); ``check`` lists every
problem at once, so a pack author fixes them in one pass.  The packs we ship
live in ``packs/`` (installed as ``pbem.packs``); a player who owns a game can
point at a pack of their own instead.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import packs as _packs  # the data folder installed as pbem.packs (no code: a place)
from ..errors import PbemError
from .gamedata import read_file

ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
KINDS = ("location", "piece", "deck", "card", "scenario")
LOCATION_KINDS = ("space", "area", "hex", "box", "track")
SIDE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
MAX_ENTRIES = 5000  # locations, pieces, decks, cards or scenarios in one pack
MAX_COUNT = 1000  # copies of one piece or card


@dataclass(frozen=True)
class Problem:
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def shipped() -> dict[str, Path]:
    """The packs that come with pbem: id -> directory.  Found from the package's own folder, not
    through importlib.resources, whose first call cost a map-drawing command (``pbem play``'s mail)
    2.6 ms of its 120."""
    root = Path(next(iter(_packs.__path__)))
    return {entry.name: entry for entry in sorted(root.iterdir()) if (entry / "pack.toml").is_file()}


def find(name_or_dir: str) -> Path:
    path = Path(name_or_dir)
    if path.is_dir():
        return path
    packs = shipped()
    if name_or_dir in packs:
        return packs[name_or_dir]
    raise PbemError(f"no pack '{name_or_dir}'", f"shipped packs: {', '.join(packs) or 'none'}; or give a directory",
                    code="no-pack")


def load(directory: Path) -> dict[str, Any]:
    """The merged pack.  :raises PbemError: no pack.toml, or a file that is not TOML."""
    files = sorted(directory.glob("*.toml"))
    if not (directory / "pack.toml").is_file():
        raise PbemError("not a pack", f"{directory} has no pack.toml", code="bad-pack")
    merged: dict[str, Any] = {}
    for path in files:
        try:
            data = read_file(path)
        except (OSError, ValueError) as e:
            raise PbemError("a pack file is not TOML within bounds", f"{path.name}: {str(e)[:200]}",
                            code="bad-pack") from None
        for key, value in data.items():
            if isinstance(value, list) and isinstance(merged.get(key), list):
                merged[key] += value
            elif key in merged and isinstance(value, dict) and isinstance(merged[key], dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
    return merged


def check(pack: dict[str, Any]) -> list[Problem]:
    """Every problem in the pack, in a stable order."""
    problems: list[Problem] = []
    add = lambda where, what: problems.append(Problem(where, what))  # noqa: E731
    if not isinstance(pack, dict):
        return [Problem("pack", "must be a table of tables")]
    for where in _floats(pack, ""):  # a pack travels in a signed genesis: canonical JSON has whole numbers only
        add(where, "numbers must be whole (write 2.5 as a string)")
    head = pack.get("pack")
    if not isinstance(head, dict):
        return [Problem("[pack]", "missing: id, title, sides")]
    for key in ("id", "title", "sides"):
        if key not in head:
            add("[pack]", f"missing '{key}'")
    sides = head.get("sides", [])
    if not (isinstance(sides, list) and all(isinstance(x, str) and SIDE.match(x) for x in sides)):
        add("[pack]", "sides must be a list of names: lowercase letters, digits, '-' or '_', starting with a letter")
        sides = []
    if len(sides) < 2 or len(set(sides)) != len(sides):
        add("[pack]", f"sides must be two or more distinct names, got {sides}")
    colours = head.get("colours", {})  # optional: each side's colour as the game's own counters have it
    if not (isinstance(colours, dict) and all(k in sides and isinstance(v, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", v)
                                              for k, v in colours.items())):
        add("[pack]", "colours must map sides to colours written #rrggbb, e.g. {ottoman = \"#a8322d\"}")
    if head.get("rows", "north") not in ("north", "south"):
        add("[pack]", f"rows {head.get('rows')!r} is not 'north' or 'south'")
    if head.get("offset", "odd") not in ("odd", "even"):
        add("[pack]", f"offset {head.get('offset')!r} is not 'odd' or 'even' (the hex columns drawn half a hex lower)")
    if head.get("dice", "d6") not in ("d6", "d10", "d100"):
        add("[pack]", f"dice {head.get('dice')!r} is not d6, d10 or d100")

    tables: dict[str, list[dict[str, Any]]] = {kind: pack.get(kind, []) for kind in KINDS}
    ids: dict[str, set[str]] = {}
    for kind, entries in tables.items():
        if not isinstance(entries, list):
            add(f"[[{kind}]]", "must be an array of tables")
            tables[kind] = []
            continue
        if len(entries) > MAX_ENTRIES:
            add(f"[[{kind}]]", f"{len(entries)} entries; at most {MAX_ENTRIES}")
            entries = tables[kind] = entries[:MAX_ENTRIES]
        if not all(isinstance(e, dict) for e in entries):
            add(f"[[{kind}]]", "every entry must be a table")
            entries = tables[kind] = [e for e in entries if isinstance(e, dict)]
        seen = Counter(e.get("id") if isinstance(e.get("id"), str) else None for e in entries)
        for entry_id, n in sorted(seen.items(), key=lambda x: str(x[0])):
            if n > 1:
                add(f"{kind} {entry_id}", f"duplicate id ({n} entries)")
        for i, entry in enumerate(entries):
            entry_id = entry.get("id")
            where = f"{kind} {entry_id or '#' + str(i + 1)}"
            if not isinstance(entry_id, str) or not ID.match(entry_id):
                add(where, "id must be lowercase letters, digits and '-'")
            if kind != "card" and kind != "scenario" and not entry.get("name") and kind != "piece":
                add(where, "missing 'name'")
            if entry.get("provisional") and not entry.get("source"):
                add(where, "provisional but says no source")
            if "provisional" not in entry:
                add(where, "must say provisional = true or false")
        ids[kind] = {e.get("id") for e in entries if isinstance(e.get("id"), str)}

    locations = {e["id"]: e for e in tables["location"] if isinstance(e.get("id"), str)}
    for loc in tables["location"]:
        where = f"location {loc.get('id')}"
        if loc.get("kind", "space") not in LOCATION_KINDS:
            add(where, f"kind {loc.get('kind')!r} is not one of {', '.join(LOCATION_KINDS)}")
        adjacent = loc.get("adjacent", [])
        if not (isinstance(adjacent, list) and all(isinstance(x, str) for x in adjacent)):
            add(where, "adjacent must be a list of location ids")
            adjacent = []
        for other in adjacent:
            if other not in locations:
                add(where, f"adjacent to unknown location '{other}'")
            elif not isinstance(back := locations[other].get("adjacent", []), list) or loc.get("id") not in back:
                add(where, f"one-way adjacency: lists '{other}', which does not list it back")

    for piece in tables["piece"]:
        where = f"piece {piece.get('id')}"
        if piece.get("side") not in sides and piece.get("side") != "neutral":
            add(where, f"side {piece.get('side')!r} is not one of {sides}")
        count = piece.get("count", 1)
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            add(where, f"count {count!r} is not a whole number from 1 to {MAX_COUNT}")
        start = piece.get("start")
        if not isinstance(start, str):
            add(where, "set up nowhere: no 'start'")
        elif not (start in locations or start == "off-map" or re.fullmatch(r"turn:\d+", start)):
            add(where, f"starts at unknown location '{start}'")

    decks = {d["id"]: d for d in tables["deck"] if isinstance(d.get("id"), str)}
    for deck in tables["deck"]:
        owner = deck.get("owner")
        if owner not in sides and owner != "shared":
            add(f"deck {deck.get('id')}", f"owner {owner!r} is neither a side nor 'shared'")
        dealt = deck.get("dealt", "face-up")
        if dealt not in ("face-up", "private"):
            add(f"deck {deck.get('id')}", f"dealt {dealt!r} is neither 'private' nor 'face-up'")
        elif dealt == "private" and owner != "shared":
            add(f"deck {deck.get('id')}", "dealt = \"private\" is for a shared deck (owner = \"shared\"): "
                "a side's own deck is private already")
        elif dealt == "private" and len(sides) != 2:
            add(f"deck {deck.get('id')}", f"a deck dealt to private hands needs exactly two sides, the pack has "
                f"{len(sides)}")
        if dealt == "private" and deck.get("kind", "deck") != "deck":
            add(f"deck {deck.get('id')}", "only a deck of cards (kind = \"deck\") can be dealt to private hands")
    counts: Counter[str] = Counter()
    for card in tables["card"]:
        where = f"card {card.get('id')}"
        if not isinstance(card.get("deck"), str) or card["deck"] not in decks:
            add(where, f"in unknown deck {card.get('deck')!r}")
            continue
        count = card.get("count", 1)
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            add(where, f"count {count!r} is not a whole number from 1 to {MAX_COUNT}")
            continue
        counts[card["deck"]] += count
    for deck_id, deck in sorted(decks.items()):
        if "size" in deck and deck["size"] != counts[deck_id]:
            add(f"deck {deck_id}", f"card count mismatch: size {deck['size']}, cards add up to {counts[deck_id]}")
    return problems


def _floats(value: Any, path: str) -> list[str]:
    if isinstance(value, float):
        return [path or "pack"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _floats(v, f"{path}.{k}" if path else k)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _floats(v, f"{path}[{i}]")]
    return []


def provisional_notes(pack: dict[str, Any]) -> list[str]:
    """One line per kind of reconstructed data, for reports."""
    notes = list(pack.get("pack", {}).get("notes", []))
    for kind in KINDS:
        n = sum(1 for e in pack.get(kind, []) if e.get("provisional"))
        if n:
            notes.append(f"{n} {kind} entr{'y' if n == 1 else 'ies'} reconstructed (provisional): see the pack's sources")
    return notes


IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}
MAX_IMAGE_BYTES = 20 * 1024 * 1024


def background(directory: Path, pack: dict[str, Any]) -> tuple[bytes, str, list[int]] | None:
    """A map image the pack's owner supplies (``[map] image = "FILE"``, ``extent = [x0, y0, x1, y1]``:
    the coordinates of its left, bottom, right and top edges), read from the pack's folder; never shipped.

    :raises PbemError: a named image that is missing, of another type, too large, or a bad extent.
    """
    spec = pack.get("map")
    if not isinstance(spec, dict) or "image" not in spec:
        return None
    name, extent = spec.get("image"), spec.get("extent")
    if not isinstance(name, str) or Path(name).name != name or Path(name).suffix.lower() not in IMAGE_TYPES:
        raise PbemError("the pack's map image must be a PNG, JPEG or WebP file in its folder", f"image = {name!r}",
                        code="bad-pack")
    if not (isinstance(extent, list) and len(extent) == 4 and all(type(v) is int for v in extent)
            and extent[0] < extent[2] and extent[1] < extent[3]):
        raise PbemError("the pack's map image needs its extent", "extent = [left, bottom, right, top] in the "
                        "coordinates of its locations", code="bad-pack")
    path = directory / name
    try:
        if path.stat().st_size > MAX_IMAGE_BYTES:
            raise PbemError("the pack's map image is too large", f"{name}: at most {MAX_IMAGE_BYTES // 2**20} MiB",
                            code="bad-pack")
        data = path.read_bytes()
    except OSError as e:
        raise PbemError("the pack's map image cannot be read", f"{path}: {e.strerror or e}", code="bad-pack") from None
    return data, IMAGE_TYPES[path.suffix.lower()], extent

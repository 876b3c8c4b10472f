"""A VASSAL module (.vmod) the player owns, read as hostile input: its main map's board image and
where its places are on it (``pbem pack vassal``, ``chain.vassal_overlay``).

A .vmod is a zip of ``buildFile.xml`` (``buildFile`` before VASSAL 3.6) and ``images/``. The
build file nests ``Map`` > ``BoardPicker`` > ``Board image=...`` > a grid: ``HexGrid`` (x0, y0,
dx, dy, sideways) with its ``HexGridNumbering`` (hOff, vOff, first, sep, hType, vType, hLeading,
vLeading, stagger, hDescend, vDescend), a ``RegionGrid`` of named ``Region`` points (originx,
originy), or a ``ZonedGrid`` of named ``Zone`` polygons (path "x,y;x,y;..."), which may hold a
background grid of its own. The hex arithmetic is VASSAL's own (HexGridNumbering.getCenterPoint,
getRow/getColumn, RegularGridNumbering.getName), so a hex number lands where VASSAL puts it.

Nothing is extracted by name onto the disk: the zip is read in memory, entry by entry, under the
bounds below; the XML is refused if it declares a DOCTYPE or an entity (no expansion, no external
fetch), and parsed incrementally so that a deep or huge tree stops early.
"""

from __future__ import annotations

import math
import re
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

from ..errors import PbemError

MAX_MODULE = 2 * 1024**3  # the .vmod file itself
MAX_ENTRIES = 20_000  # entries in the zip
MAX_ENTRY = 64 * 1024**2  # the declared uncompressed size of one entry
MAX_TOTAL = 1024**3  # the declared uncompressed size of them all
MAX_XML = 16 * 1024**2  # the build file
MAX_DEPTH = 64  # nesting of the build file's elements
MAX_ELEMENTS = 200_000
MAX_IMAGE = 20 * 1024**2  # the board image (it is embedded in reports)
MAX_PLACES = 20_000  # regions and zones
BUILD_FILES = ("buildFile.xml", "buildFile", "buildfile")
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif"}
CHUNK = 64 * 1024


def refuse(reason: str, detail: str = "") -> PbemError:
    return PbemError(reason, detail, code="bad-module")


@dataclass(frozen=True)
class HexGrid:
    """A VASSAL HexGrid with its numbering (the attributes as the build file names them)."""

    x0: int = 0
    y0: int = 32
    dx: float = 0.0
    dy: float = 64.0
    sideways: bool = False
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    numbered: bool = False  # whether the grid had a HexGridNumbering at all

    def centre(self, col: int, row: int, size: tuple[int, int]) -> tuple[int, int]:
        """The pixel centre of the hex VASSAL numbers (col + hOff, row + vOff): getCenterPoint."""
        width, height = size
        max_rows = math.floor(height / self.dx + 0.5)  # VASSAL's own (getMaxRows divides by the width)
        max_cols = math.floor(width / self.dy + 0.5)
        if self.stagger and col % 2 != 0:
            row += 1 if (self.h_descend if self.sideways else self.v_descend) else -1
        if self.sideways:
            col = max_rows - col if self.v_descend else col
            row = max_cols - row if self.h_descend else row
        else:
            col = max_cols - col if self.h_descend else col
            row = max_rows - row if self.v_descend else row
        x = _trunc(col * self.dx) + self.x0
        y = (_trunc(row * self.dy) if col % 2 == 0 else _trunc(row * self.dy + self.dy / 2)) + self.y0
        return (y, x) if self.sideways else (x, y)

    def at(self, number_col: int, number_row: int, size: tuple[int, int]) -> tuple[int, int]:
        """The centre of the hex whose printed numbers are (column, row): VASSAL's getCenterPoint,
        checked against the numbers VASSAL labels the board with (getColumn, getRow); where the two
        disagree (a staggered sideways grid numbered downwards, on a board of an odd size) the
        labels win, being what the module's author matched to the printed map."""
        guess = self.centre(number_col - self.h_off, number_row - self.v_off, size)
        if self.numbers(*guess, size) == (number_col, number_row):
            return guess
        gx, gy = (guess[1], guess[0]) if self.sideways else guess
        i0, j0 = round((gx - self.x0) / self.dx), round((gy - self.y0) / self.dy)
        for i in range(i0 - 2, i0 + 3):
            for j in range(j0 - 2, j0 + 3):
                a = _trunc(i * self.dx) + self.x0
                b = (_trunc(j * self.dy) if i % 2 == 0 else _trunc(j * self.dy + self.dy / 2)) + self.y0
                point = (b, a) if self.sideways else (a, b)
                if self.numbers(*point, size) == (number_col, number_row):
                    return point
        return guess

    def name(self, col: int, row: int) -> str:
        """The hex's name as VASSAL writes it (RegularGridNumbering.getName)."""
        c, r = _label(col + self.h_off, self.h_type, self.h_leading), _label(row + self.v_off, self.v_type, self.v_leading)
        return c + self.sep + r if self.first == "H" else r + self.sep + c

    def numbers(self, x: int, y: int, size: tuple[int, int]) -> tuple[int, int]:
        """The printed (column, row) numbers of the hex at pixel (x, y): getColumn, getRow."""
        width, height = size
        max_rows = math.floor(height / self.dx + 0.5)
        max_cols = math.floor(width / self.dy + 0.5)
        px, py = (y, x) if self.sideways else (x, y)
        raw_col = math.floor((px - self.x0) / self.dx + 0.5)
        nx = _round(px - self.x0, self.dx)
        raw_row = _round(py - self.y0, self.dy) if nx % 2 == 0 else _round(py - self.y0 - self.dy / 2, self.dy)
        col = raw_col
        if self.v_descend and self.sideways:
            col = max_rows - col
        if self.h_descend and not self.sideways:
            col = max_cols - col
        row = raw_row
        if self.v_descend and not self.sideways:
            row = max_rows - row
        if self.h_descend and self.sideways:
            row = max_cols - row
        if self.stagger and raw_col % 2 != 0:
            row += -1 if (self.h_descend if self.sideways else self.v_descend) else 1
        return col + self.h_off, row + self.v_off


def _trunc(v: float) -> int:
    return int(v)  # Java's (int) cast: towards zero


def _round(num: float, den: float) -> int:
    return math.floor(num / den + 0.5)  # Java's Math.round


def _label(n: int, kind: str, leading: int) -> str:
    sign, n = ("-" if n < 0 else ""), abs(n)
    if kind == "A":
        out = sign
        while True:
            out += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 26]
            n -= 26
            if n < 0:
                return out
    pad = ""
    while leading > 0 and n < 10 ** leading:
        pad += "0"
        leading -= 1
    return sign + pad + str(n)


@dataclass
class Board:
    """The main map's board: its image (bytes, file name, pixel size) and its places."""

    name: str
    image_name: str
    image: bytes
    size: tuple[int, int]
    grid: HexGrid | None = None
    places: dict[str, tuple[int, int]] = field(default_factory=dict)  # region or zone name -> pixel
    kind: str = "hex"  # hex, regions or zones: what located the places
    pieces: list[tuple[str, str]] = field(default_factory=list)  # PieceSlot (name, image)


def read(path: Path, board_name: str | None = None) -> Board:
    """The board of a module (``board_name``, else the first main map's first board with an image).

    :raises PbemError: ``bad-module`` with a one-line reason, for anything unsafe or unusable.
    """
    try:
        if path.stat().st_size > MAX_MODULE:
            raise refuse("the module is too large", f"{path.name}: at most {MAX_MODULE // 1024**3} GiB")
        archive = zipfile.ZipFile(path)
    except PbemError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
        raise refuse("not a VASSAL module: not a zip file", f"{path.name}: {str(e)[:160]}") from None
    with archive:
        entries = _check_entries(archive)
        build = next((entries[n] for n in BUILD_FILES if n in entries), None)
        if build is None:
            raise refuse("not a VASSAL module: no buildFile.xml", f"{path.name} holds no buildFile.xml or buildfile")
        root = parse_xml(_read(archive, build, MAX_XML, "the build file"))
        return _board(archive, entries, root, board_name)


def _check_entries(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise refuse("the module has too many entries", f"{len(infos)}; at most {MAX_ENTRIES}")
    total = 0
    out = {}
    for info in infos:
        name = info.filename
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or re.match(r"^[A-Za-z]:", name) or "\0" in name:
            raise refuse("the module has an unsafe entry name (path traversal)", repr(name[:120]))
        if info.file_size > MAX_ENTRY:
            raise refuse("the module has an entry too large (zip bomb?)",
                          f"{name[:120]}: declares {info.file_size} bytes; at most {MAX_ENTRY}")
        total += info.file_size
        if total > MAX_TOTAL:
            raise refuse("the module is too large uncompressed (zip bomb?)", f"over {MAX_TOTAL} bytes declared")
        out[name] = info
    return out


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, most: int, what: str) -> bytes:
    """An entry's bytes, never more than ``most`` whatever its header declares."""
    if info.file_size > most:
        raise refuse(f"{what} is too large", f"{info.filename[:120]}: {info.file_size} bytes; at most {most}")
    try:
        with archive.open(info) as f:
            data = f.read(most + 1)
    except Exception as e:  # noqa: BLE001 - whatever a decompressor or a password check raises on hostile bytes
        raise refuse(f"{what} cannot be read from the module", f"{info.filename[:120]}: {str(e)[:160]}") from None
    if len(data) > most:
        raise refuse(f"{what} is too large", f"{info.filename[:120]}: over {most} bytes")
    return data


def parse_xml(data: bytes) -> ET.Element:
    """The build file's tree: UTF-8 only, no DOCTYPE or entity declaration, bounded depth and size."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\0" in data:
        raise refuse("the build file is not UTF-8 XML")
    lowered = data.lower()
    if b"<!doctype" in lowered or b"<!entity" in lowered:
        raise refuse("the build file declares a DOCTYPE or an entity: refused (entity expansion)")
    parser = ET.XMLPullParser(events=("start", "end"))
    depth = count = 0
    root = None
    try:
        for i in range(0, len(data), CHUNK):
            parser.feed(data[i:i + CHUNK])
            for event, elem in parser.read_events():
                if event == "start":
                    depth += 1
                    count += 1
                    root = elem if root is None else root
                    if depth > MAX_DEPTH:
                        raise refuse("the build file is nested too deeply", f"over {MAX_DEPTH} levels")
                    if count > MAX_ELEMENTS:
                        raise refuse("the build file has too many elements", f"over {MAX_ELEMENTS}")
                else:
                    depth -= 1
        parser.close()
    except ET.ParseError as e:
        raise refuse("the build file is not well-formed XML", str(e)[:160]) from None
    if root is None:
        raise refuse("the build file is empty")
    return root


def _kind(elem: ET.Element) -> str:
    """An element's class name without its package (VASSAL writes the Java class as the tag)."""
    return elem.tag.rsplit(".", 1)[-1]


def _board(archive: zipfile.ZipFile, entries: dict[str, zipfile.ZipInfo], root: ET.Element,
           board_name: str | None) -> Board:
    maps = [m for m in root.iter() if _kind(m) == "Map"] or [m for m in root.iter() if _kind(m) == "PrivateMap"]
    boards = [b for m in maps for b in m.iter() if _kind(b) == "Board"]
    if board_name is not None:
        named = [b for b in boards if b.get("name") == board_name]
        if not named:
            raise refuse(f"the module has no board named {board_name!r}",
                         "its boards: " + ", ".join(repr(b.get("name", "")) for b in boards[:20]))
        boards = named
    board = next((b for b in boards if b.get("image")), None)
    if board is None:
        raise refuse("the module's map has no board with an image", f"{len(boards)} board(s) without one")
    name = board.get("image", "")
    info = entries.get(f"images/{name}") or entries.get(name)
    if info is None or Path(name).name != name:
        raise refuse("the board's image is not in the module", f"images/{name[:120]}")
    suffix = Path(name).suffix.lower()
    if suffix not in IMAGE_TYPES:
        raise refuse("the board's image is not a PNG, JPEG or GIF", name[:120])
    image = _read(archive, info, MAX_IMAGE, "the board's image")
    size = image_size(image, suffix)
    if size is None:
        raise refuse("the board's image is not a readable PNG, JPEG or GIF", name[:120])
    out = Board(board.get("name", ""), name, image, size)
    hexgrid = next((g for g in _outside_zones(board) if _kind(g) == "HexGrid"), None)
    if hexgrid is not None:
        out.grid = hex_grid(hexgrid)
    for region in (r for r in board.iter() if _kind(r) == "Region"):
        point = (_int(region.get("originx")), _int(region.get("originy")))
        if region.get("name") and None not in point and len(out.places) < MAX_PLACES:
            out.places.setdefault(region.get("name", ""), point)  # type: ignore[arg-type]
            out.kind = "regions" if out.grid is None else out.kind
    for zone in (z for z in board.iter() if _kind(z) == "Zone"):
        centre = _centroid(zone.get("path", ""))
        if zone.get("name") and centre is not None and len(out.places) < MAX_PLACES:
            out.places.setdefault(zone.get("name", ""), centre)
            out.kind = "zones" if out.grid is None and out.kind != "regions" else out.kind
    if out.grid is None and not out.places:
        raise refuse("the board has no hex grid, regions or zones", f"board {out.name!r}: nothing to place on it")
    out.pieces = [(s.get("entryName") or s.get("name") or "", _piece_image(s.text or ""))
                  for s in root.iter() if _kind(s) == "PieceSlot"][:MAX_PLACES]
    return out


def _outside_zones(elem: ET.Element):
    """The descendants of ``elem`` that are not inside a Zone (a zone's own grid is local to it)."""
    for child in elem:
        yield child
        if _kind(child) != "Zone":
            yield from _outside_zones(child)


def hex_grid(elem: ET.Element) -> HexGrid:
    dy = _float(elem.get("dy"), 64.0)
    dx = _float(elem.get("dx"), math.sqrt(3) / 2 * dy)
    if not (1 <= dx <= 10_000 and 1 <= dy <= 10_000):
        raise refuse("the hex grid's size is not usable", f"dx={elem.get('dx')!r} dy={elem.get('dy')!r}")
    numbering = next((n for n in elem if _kind(n) == "HexGridNumbering"), None)
    n = numbering if numbering is not None else ET.Element("none")
    return HexGrid(
        x0=_int(elem.get("x0")) or 0, y0=_int(elem.get("y0"), 32) or 0, dx=dx, dy=dy,
        sideways=elem.get("sideways") == "true",
        first="V" if n.get("first", "H")[:1] == "V" else "H", sep=n.get("sep", "")[:8],
        h_type="A" if n.get("hType", "N")[:1] == "A" else "N", v_type="A" if n.get("vType", "N")[:1] == "A" else "N",
        h_leading=_small(n.get("hLeading"), 1), v_leading=_small(n.get("vLeading"), 1),
        h_off=_int(n.get("hOff"), 1) or 0, v_off=_int(n.get("vOff"), 1) or 0,
        h_descend=n.get("hDescend") == "true", v_descend=n.get("vDescend") == "true",
        stagger=n.get("stagger", "true") != "false", numbered=numbering is not None)


def _int(text: str | None, default: int | None = None) -> int | None:
    try:
        value = int(str(text).strip())
    except ValueError:
        return default
    return value if abs(value) <= 10**7 else default


def _small(text: str | None, default: int) -> int:
    value = _int(text, default)
    return value if value is not None and 0 <= value <= 6 else default


def _float(text: str | None, default: float) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:
        return default
    return value if math.isfinite(value) else default


def _centroid(path: str) -> tuple[int, int] | None:
    """A zone's centre: its polygon's centroid (the mean of its corners if it has no area)."""
    points = []
    for part in path.split(";")[:10_000]:
        xy = part.split(",")
        if len(xy) == 2 and _int(xy[0]) is not None and _int(xy[1]) is not None:
            points.append((_int(xy[0]) or 0, _int(xy[1]) or 0))
    if not points:
        return None
    area = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        cross = x1 * y2 - x2 * y1
        area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if abs(area) < 1e-9:
        return round(sum(p[0] for p in points) / len(points)), round(sum(p[1] for p in points) / len(points))
    return round(cx / (3 * area)), round(cy / (3 * area))


def _piece_image(definition: str) -> str:
    """The image a PieceSlot's basic piece names (``piece;...;IMAGE;NAME``), or ""."""
    found = re.search(r"piece;[^;]*;[^;]*;([^;/\\]+\.(?:png|jpe?g|gif|svg));", definition[:4096], re.I)
    return found.group(1) if found else ""


def image_size(data: bytes, suffix: str) -> tuple[int, int] | None:
    """(width, height) in pixels from the image's header, or None if it is not what it says."""
    size: tuple[int, int] | None = None
    if suffix == ".png" and len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        size = struct.unpack(">II", data[16:24])
    elif suffix == ".gif" and len(data) >= 10 and data[:6] in (b"GIF87a", b"GIF89a"):
        size = struct.unpack("<HH", data[6:10])
    elif suffix in (".jpg", ".jpeg") and data[:2] == b"\xff\xd8":
        size = _jpeg_size(data)
    if size is None or not (0 < size[0] <= 65_535 and 0 < size[1] <= 65_535):
        return None
    return size


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None

"""`pbem pack vassal`: a player's own board from a VASSAL module, as an overlay in his home.

Every module here is built by the test itself (a zip of a buildFile.xml and a tiny PNG drawn
here): no published module or art is used. The installed `pbem` runs from a home of its own.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tomllib
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.chain.vassal import HexGrid
from pbem.wire.keys import KeyStore

PBEM = shutil.which("pbem", path=str(Path(__file__).resolve().parent.parent / ".venv" / "bin")) or "pbem"
PKG = "VASSAL.build.module"
BOARD = f"{PKG}.map.boardPicker.Board"
GRID = f"{PKG}.map.boardPicker.board"
BOARD_RGB = (200, 180, 140)  # the colour of the boards drawn here


def png(width: int, height: int, rgb: tuple[int, int, int] = BOARD_RGB) -> bytes:
    """A plain PNG of one colour, made here."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height, 9)) + chunk(b"IEND", b""))


def build_file(board: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<{PKG}.GameModule name="Test" version="1">'
            f'<{PKG}.Map mapName="Main Map"><{PKG}.map.BoardPicker>{board}</{PKG}.map.BoardPicker></{PKG}.Map>'
            f'<{PKG}.PieceWindow><{PKG}.widget.PieceSlot entryName="1st Brigade" gpid="1">'
            f'+/null/piece;;;unit1.png;1st Brigade/\t</{PKG}.widget.PieceSlot></{PKG}.PieceWindow>'
            f'</{PKG}.GameModule>')


def vmod(path: Path, xml: str, image: bytes, image_name: str = "board.png", build: str = "buildFile.xml") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(build, xml)
        z.writestr(f"images/{image_name}", image)
        z.writestr("moduledata", "<data/>")
    return path


# the Blood on the Tigris test board: hexes numbered CCRR, 20 px apart, columns unstaggered
HEX = dict(x0=10, y0=12, dx=20, dy=22)
HEX_W, HEX_H = 640, 800


def hex_module(path: Path) -> Path:
    numbering = (f'<{GRID}.mapgrid.HexGridNumbering first="H" sep="" hType="N" vType="N" hLeading="1" '
                 'vLeading="1" hOff="0" vOff="0" stagger="false" hDescend="false" vDescend="false" visible="true"/>')
    grid = (f'<{GRID}.HexGrid x0="{HEX["x0"]}" y0="{HEX["y0"]}" dx="{HEX["dx"]}.0" dy="{HEX["dy"]}.0" '
            f'sideways="false" snapTo="true" visible="false">{numbering}</{GRID}.HexGrid>')
    return vmod(path, build_file(f'<{BOARD} name="Mesopotamia" image="meso.png" reversible="false">{grid}</{BOARD}>'),
                png(HEX_W, HEX_H), "meso.png")


def expected_hex(c: int, r: int) -> tuple[int, int]:
    """Where VASSAL puts hex CCRR on that board (no stagger: odd columns half a hex down)."""
    return HEX["x0"] + c * HEX["dx"], HEX["y0"] + r * HEX["dy"] + (HEX["dy"] // 2 if c % 2 else 0)


# the block game's test board: named regions, in another spelling than the pack's
REGIONS = {"KRITHIA": (300, 200), "Achi-Baba!": (420, 260), "sedd el bahr": (500, 520), "Nowhere Ridge": (60, 60)}


def region_module(path: Path, build: str = "buildFile.xml") -> Path:
    regions = "".join(f'<{GRID}.Region name="{name}" originx="{x}" originy="{y}"/>' for name, (x, y) in REGIONS.items())
    board = f'<{BOARD} name="Peninsula" image="pen.png"><{GRID}.RegionGrid snapto="true">{regions}</{GRID}.RegionGrid></{BOARD}>'
    return vmod(path, build_file(board), png(600, 600, (120, 160, 200)), "pen.png", build)


def run(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""}
    return subprocess.run([PBEM, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def new_game(tmp: Path, home: Path, module: str, side: str) -> Path:
    assert run(home, "keys", "new", "alice").returncode == 0
    other = tmp / "other-home"
    assert run(other, "keys", "new", "bob").returncode == 0
    pub = tmp / "bob.pub"
    pub.write_text(run(other, "keys", "export", "bob").stdout)
    game = tmp / "game"
    done = run(home, "new", module, "--as", side, "--key", "alice", "--opponent", str(pub), "--campaign", str(game))
    assert done.returncode == 0, done.stderr
    return game


def overlay(home: Path, pack: str) -> dict:
    return tomllib.loads((home / "overlays" / pack / "overlay.toml").read_text())


def test_hex_module_places_the_pack_by_hex_number_and_the_report_draws_the_board(tmp_path: Path) -> None:
    home = tmp_path / "home"
    module = hex_module(tmp_path / "bot.vmod")
    done = run(home, "pack", "vassal", str(module), "--pack", "blood-on-the-tigris")
    assert done.returncode == 0, done.stderr
    data = overlay(home, "blood-on-the-tigris")
    assert (data["overlay"]["width"], data["overlay"]["height"]) == (HEX_W, HEX_H)
    image = home / "overlays" / "blood-on-the-tigris" / data["overlay"]["image"]
    assert image.read_bytes() == png(HEX_W, HEX_H)
    # Kut is hex 1518, Ali Garbi 2324: on this board; Basra 1345 is off its bottom edge
    assert data["positions"]["kut"] == list(expected_hex(15, 18))
    assert data["positions"]["ali-garbi"] == list(expected_hex(23, 24))
    assert data["matched"]["kut"] == "hex 1518"
    assert "basra" not in data["positions"] and "basra" in data["unmatched"]["ours"]
    assert "fao" in data["unmatched"]["ours"]  # no hex number in the pack, no named place on their board
    assert f"kut: hex 1518 at {expected_hex(15, 18)}" in done.stdout
    assert re.search(r"basra: hex 1345 is off their board", done.stdout)
    assert re.search(r"theirs without a match: \d+ hexes", done.stdout)
    assert not list(Path(__file__).resolve().parent.parent.glob("overlays"))  # nothing in the repository

    game = new_game(tmp_path, home, "blood-on-the-tigris", "british")
    report = tmp_path / "report.html"
    done = run(home, "report", "--html", "-o", str(report), "--campaign", str(game))
    assert done.returncode == 0, done.stderr
    html = report.read_text()
    found = re.search(r'<image class="background own-board"[^>]* x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                      r'height="([\d.]+)"[^>]*href="data:image/png;base64,', html)
    assert found, "the board image is not in the map"
    x0, y0, w, h = map(float, found.groups())
    scale = w / HEX_W
    assert abs(h / HEX_H - scale) < 1e-3
    # the map's every hex is drawn by its number: hex 1518 (Kut) where the overlay puts it
    centre = re.search(r'<g class="loc" data-id="1518"[^>]*>.*?data-centre="([\d.]+),([\d.]+)"', html)
    assert centre, "hex 1518 is not drawn"
    px, py = expected_hex(15, 18)
    assert abs(float(centre.group(1)) - (x0 + px * scale)) < 0.2
    assert abs(float(centre.group(2)) - (y0 + py * scale)) < 0.2
    assert "board: your own, from bot.vmod" in html
    # his grid, unseen, for the play page's clicks on a plain hex: each column where his board has it,
    # its hexes one of our rows (52 units) apart, as the page's script counts them
    grid = re.search(r'<g class="hexgrid" data-numbered="yes" visibility="hidden" [^>]*data-h="(\d+)"', html)
    assert grid and abs(HEX["dy"] * scale - int(grid.group(1))) < 0.01
    columns = re.findall(r'<use class="hexcol" href="#hexcol\d+" x="([\d.]+)" y="([\d.]+)" data-c="(\d+)" '
                         r'data-r="(\d+)"', html)
    assert len(columns) > 20
    for x, y, c, r in columns:
        px, py = expected_hex(int(c), int(r))
        assert abs(float(x) - (x0 + px * scale)) < 0.2 and abs(float(y) - (y0 + py * scale)) < 0.2, (c, r)
    # without the overlay the same report draws our own grid and no image
    shutil.rmtree(home / "overlays")
    assert run(home, "report", "--html", "-o", str(report), "--campaign", str(game)).returncode == 0
    assert "own-board" not in report.read_text() and 'class="hexgrid"' in report.read_text()


def test_region_module_matches_names_and_lists_both_sides_unmatched(tmp_path: Path) -> None:
    home = tmp_path / "home"
    module = region_module(tmp_path / "blocks.vmod", build="buildfile")  # the build file's name before 3.6
    done = run(home, "pack", "vassal", str(module), "--pack", "gallipoli-blocks")
    assert done.returncode == 0, done.stderr
    data = overlay(home, "gallipoli-blocks")
    assert data["positions"]["krithia"] == list(REGIONS["KRITHIA"])
    assert data["positions"]["achi-baba"] == list(REGIONS["Achi-Baba!"])
    assert data["positions"]["sedd-el-bahr"] == list(REGIONS["sedd el bahr"])
    assert data["unmatched"]["theirs"] == ["Nowhere Ridge"]
    assert "gully-ravine" in data["unmatched"]["ours"] and "krithia" not in data["unmatched"]["ours"]
    assert "theirs without a match (1): Nowhere Ridge" in done.stdout
    assert "krithia: named 'KRITHIA' at (300, 200)" in done.stdout
    assert "their pieces: 1 (PieceSlot)" in done.stdout

    game = new_game(tmp_path, home, "gallipoli-blocks", "allied")
    report = tmp_path / "report.html"
    assert run(home, "report", "--html", "-o", str(report), "--campaign", str(game)).returncode == 0
    html = report.read_text()
    found = re.search(r'<image class="background own-board"[^>]* x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', html)
    assert found
    x0, y0, w = map(float, found.groups())
    scale = w / 600
    for lid, (px, py) in (("krithia", REGIONS["KRITHIA"]), ("achi-baba", REGIONS["Achi-Baba!"])):
        centre = re.search(rf'<g class="loc" data-id="{lid}"[^>]*>.*?data-centre="([\d.]+),([\d.]+)"', html)
        assert centre, lid
        assert abs(float(centre.group(1)) - (x0 + px * scale)) < 0.2
        assert abs(float(centre.group(2)) - (y0 + py * scale)) < 0.2
    assert 'data-id="gully-ravine"' not in html.split("<svg", 1)[1].split("</svg>", 1)[0]  # not on his board
    # the image sits under the locations and the pieces
    svg = html.split("<svg", 1)[1]
    assert svg.index("own-board") < svg.index('class="loc"')


def hostile(tmp: Path, name: str) -> Path:
    path = tmp / f"{name}.vmod"
    if name == "not-a-zip":
        path.write_bytes(b"PK but not really a zip" * 10)
    elif name == "traversal":
        region_module(path)
        with zipfile.ZipFile(path, "a") as z:
            z.writestr("../../evil.png", b"x")
    elif name == "bomb":  # an entry that declares 4 GiB uncompressed
        region_module(path)
        data = bytearray(path.read_bytes())
        central = data.find(b"PK\x01\x02")  # the first entry's central record: its uncompressed size at +24
        data[central + 24:central + 28] = struct.pack("<I", 0xFFFFFFFE)
        path.write_bytes(bytes(data))
    elif name == "doctype":
        xml = ('<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
               + build_file(f'<{BOARD} name="B" image="b.png"/>').split("?>", 1)[1].replace('name="Test"', 'name="&b;"'))
        vmod(path, xml, png(10, 10), "b.png")
    elif name == "deep":
        vmod(path, "<a>" * 500 + "</a>" * 500, png(10, 10), "b.png")
    elif name == "huge-xml":  # 17 MiB of build file, a few KB zipped
        vmod(path, build_file(" " * (17 * 1024 * 1024) + f'<{BOARD} name="B" image="b.png"/>'), png(10, 10), "b.png")
    elif name == "many-entries":
        region_module(path)
        with zipfile.ZipFile(path, "a") as z:
            for i in range(20_001):
                z.writestr(f"images/{i}.png", b"")
    elif name == "no-build-file":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("images/b.png", png(10, 10))
    return path


@pytest.mark.parametrize("name, reason", [
    ("not-a-zip", "not a VASSAL module: not a zip file"),
    ("traversal", "unsafe entry name (path traversal)"),
    ("bomb", "entry too large (zip bomb?)"),
    ("doctype", "declares a DOCTYPE or an entity"),
    ("deep", "nested too deeply"),
    ("huge-xml", "the build file is too large"),
    ("many-entries", "too many entries"),
    ("no-build-file", "no buildFile.xml"),
])
def test_a_hostile_module_is_refused_in_one_line(tmp_path: Path, name: str, reason: str) -> None:
    home = tmp_path / "home"
    done = run(home, "pack", "vassal", str(hostile(tmp_path, name)), "--pack", "gallipoli-blocks")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: bad-module: ") and reason in done.stderr.splitlines()[0]
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 2
    assert not (home / "overlays").exists()  # nothing half-written


@settings(max_examples=200, deadline=None)
@given(st.integers(5, 60), st.integers(5, 60), st.integers(-50, 50), st.integers(-50, 50), st.booleans(),
       st.booleans(), st.booleans(), st.booleans(), st.integers(0, 2), st.integers(0, 2),
       st.integers(0, 30), st.integers(0, 30))
def test_a_hex_number_placed_by_the_grid_reads_back_as_that_number(dx, dy, x0, y0, sideways, stagger, h_desc, v_desc,
                                                                  h_off, v_off, col, row) -> None:
    """VASSAL's getCenterPoint and its getColumn/getRow are inverse: a hex we place by its number
    is the hex VASSAL names so (whatever the stagger, direction and offsets)."""
    grid = HexGrid(x0=x0, y0=y0, dx=float(dx), dy=float(dy), sideways=sideways, stagger=stagger, h_descend=h_desc,
                   v_descend=v_desc, h_off=h_off, v_off=v_off)
    size = (40 * max(dx, dy), 40 * max(dx, dy))
    x, y = grid.at(col + h_off, row + v_off, size)
    assert grid.numbers(x, y, size) == (col + h_off, row + v_off)



def test_in_a_browser_the_board_is_drawn_under_the_counters(chromium, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Chromium (Playwright) opens the report: the board image is decoded and shown, a counter is
    the topmost thing at its own centre, the board at an empty place of it."""
    from pbem.web.serve import Server
    from pbem.web.serve_game import Seat

    home = tmp_path / "home"
    assert run(home, "pack", "vassal", str(hex_module(tmp_path / "bot.vmod")), "--pack",
               "blood-on-the-tigris").returncode == 0
    game = new_game(tmp_path, home, "blood-on-the-tigris", "british")
    report = tmp_path / "report.html"
    assert run(home, "report", "--html", "-o", str(report), "--campaign", str(game)).returncode == 0
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(report.as_uri())
        page.wait_for_timeout(300)
        seen = page.evaluate("""async () => {
          const img = document.querySelector('svg.pbem-map image.own-board');
          const piece = document.querySelector('svg.pbem-map g.piece');
          piece.scrollIntoView({block: 'center', inline: 'center'});
          await new Promise(r => setTimeout(r, 100));
          const c = document.createElement('canvas'); c.width = 4; c.height = 4;
          const ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0, 4, 4);
          const rgb = Array.from(ctx.getImageData(1, 1, 1, 1).data.slice(0, 3));
          const r = piece.getBoundingClientRect();
          const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          const ib = img.getBoundingClientRect();
          let empty = null;  // a point of the board where nothing of ours is drawn
          for (let y = Math.max(ib.top, 0) + 5; y < Math.min(ib.bottom, innerHeight) && !empty; y += 7) {
            for (let x = Math.max(ib.left, 0) + 5; x < Math.min(ib.right, innerWidth); x += 7) {
              const e = document.elementFromPoint(x, y);
              if (e === img) { empty = [x, y]; break; }
            }
          }
          return {rgb, pieceOnTop: !!(top && top.closest('g.piece')), boardSeen: !!empty,
                  width: ib.width, pieceWidth: r.width};
        }""")
        # pbem serve's play page (http, its own CSP) draws the same board under the same pieces
        monkeypatch.setenv("PBEM_HOME", str(home))
        server = Server(Seat(game, KeyStore(home).load("alice"))).start()
        try:
            page.goto(server.url)
            page.wait_for_selector("#map svg.pbem-map g.piece")
            served = page.evaluate("""() => {
              const svg = document.querySelector('#map svg.pbem-map'), img = svg.querySelector('image.own-board');
              if (!img) return null;
              const c = document.createElement('canvas'); c.width = 4; c.height = 4;
              c.getContext('2d').drawImage(img, 0, 0, 4, 4);
              const all = Array.from(svg.querySelectorAll('*'));
              return {rgb: Array.from(c.getContext('2d').getImageData(1, 1, 1, 1).data.slice(0, 3)),
                      under: all.indexOf(img) < all.indexOf(svg.querySelector('g.piece'))};
            }""")
        finally:
            server.stop()
    finally:
        page.close()
    assert served == {"rgb": list(BOARD_RGB), "under": True}, served
    assert seen["rgb"] == list(BOARD_RGB), "the board image is not decoded as the module's"
    assert seen["pieceOnTop"], "a counter is hidden under the board"
    assert seen["boardSeen"], "the board is nowhere visible"
    assert seen["width"] > 300 and seen["pieceWidth"] >= 24


def test_zone_module_places_each_area_at_its_zone_centre(tmp_path: Path) -> None:
    """Zones (named polygons, VASSAL's "x,y;x,y;..." paths) place an area at the polygon's centre;
    a zone's own grid is local to it and is not the board's."""
    local = f'<{GRID}.HexGrid x0="0" y0="0" dx="10.0" dy="12.0"/>'
    zones = (f'<{GRID}.mapgrid.Zone name="Gully  Ravine" path="100,100;200,100;200,200;100,200">{local}'
             f'</{GRID}.mapgrid.Zone>'
             f'<{GRID}.mapgrid.Zone name="the quadrilateral" path="300,300;360,300;300,390"/>'
             f'<{GRID}.mapgrid.Zone name="Off the map" path="1,1;2,1;2,2"/>')
    board = f'<{BOARD} name="Zones" image="z.gif"><{GRID}.ZonedGrid>{zones}</{GRID}.ZonedGrid></{BOARD}>'
    gif = b"GIF89a" + struct.pack("<HH", 500, 450) + b"\x00\x00\x00;"  # a header is all the size needs
    home = tmp_path / "home"
    done = run(home, "pack", "vassal", str(vmod(tmp_path / "z.vmod", build_file(board), gif, "z.gif")),
               "--pack", "gallipoli-blocks")
    assert done.returncode == 0, done.stderr
    data = overlay(home, "gallipoli-blocks")
    assert data["overlay"]["kind"] == "zones" and (data["overlay"]["width"], data["overlay"]["height"]) == (500, 450)
    assert "grid" not in data
    assert data["positions"]["gully-ravine"] == [150, 150]
    assert data["positions"]["the-quadrilateral"] == [320, 330]  # a triangle's centroid: its corners' mean
    assert data["unmatched"]["theirs"] == ["Off the map"]
    assert data["overlay"]["image"].endswith(".gif")


def test_board_chosen_by_name_and_a_second_run_replaces_the_overlay(tmp_path: Path) -> None:
    def regions(name: str, image: str, x: int) -> str:
        return (f'<{BOARD} name="{name}" image="{image}"><{GRID}.RegionGrid><{GRID}.Region name="Krithia" '
                f'originx="{x}" originy="7"/></{GRID}.RegionGrid></{BOARD}>')
    xml = build_file(regions("Track", "track.png", 11) + regions("Peninsula", "pen.png", 222))
    module = tmp_path / "two.vmod"
    with zipfile.ZipFile(module, "w") as z:
        z.writestr("buildFile.xml", xml)
        z.writestr("images/track.png", png(300, 40, (10, 10, 10)))
        z.writestr("images/pen.png", png(400, 400))
    home = tmp_path / "home"
    assert run(home, "pack", "vassal", str(module), "--pack", "gallipoli-blocks").returncode == 0
    first = overlay(home, "gallipoli-blocks")
    assert first["positions"]["krithia"] == [11, 7] and first["overlay"]["board"] == "Track"
    done = run(home, "pack", "vassal", str(module), "--pack", "gallipoli-blocks", "--board", "Peninsula")
    assert done.returncode == 0, done.stderr
    second = overlay(home, "gallipoli-blocks")
    assert second["positions"]["krithia"] == [222, 7] and (second["overlay"]["width"], second["overlay"]["height"]) == (400, 400)
    folder = home / "overlays" / "gallipoli-blocks"
    assert sorted(p.name for p in folder.iterdir()) == sorted(["overlay.toml", second["overlay"]["image"]])
    done = run(home, "pack", "vassal", str(module), "--pack", "gallipoli-blocks", "--board", "Nope")
    assert done.returncode == 1 and "no board named 'Nope'" in done.stderr and "'Peninsula'" in done.stderr
    assert overlay(home, "gallipoli-blocks") == second  # a refused run leaves the overlay as it was

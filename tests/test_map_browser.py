"""The map as a player sees it, measured in a real browser (Playwright driving Debian's chromium;
skipped, saying why, without them): for each game with a map, its golden campaign's reports at
1280 px and in phone emulation (390 px): every counter at least 24 CSS px and every location
label at least 11 px at the default view, no two location labels overlapping and no counter over
one, every hex of the Blood on the Tigris map drawn and numbered, zoom changing a counter's size
on screen, no horizontal overflow of the page, and the enemy's concealed blocks still absent from
the bytes."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests import browser
from tests.conftest import pbem

GAMES = {"gallipoli-blocks": "test_golden_blocks", "assault-on-gallipoli": "test_golden_assault",
         "blood-on-the-tigris": "test_golden_tigris", "hill60": None, "raid": None,
         "barrage": None}  # Hill 60, Trench Raid and Barrage: their demos
VIEWS = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                   "device_scale_factor": 2}}
MEASURE = """() => {
  const box = x => { const b = x.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const over = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;
  const svg = document.querySelector('svg.pbem-map');
  const scale = svg.getBoundingClientRect().width / Number(svg.dataset.width);
  const faces = [...document.querySelectorAll('svg g.piece rect.face')].map(r => r.getBoundingClientRect());
  const labels = [...document.querySelectorAll('svg g.loc > text')].map(t => ({id: t.parentNode.dataset.id, text: t.textContent,
      box: box(t), size: parseFloat(getComputedStyle(t).fontSize) * scale}));
  const pieces = [...document.querySelectorAll('svg g.piece > rect')].map(box);
  const pairs = [], hidden = [];
  labels.forEach((a, i) => labels.slice(i + 1).forEach(b => { if (a.id !== b.id && over(a.box, b.box)) pairs.push([a.text, b.text]); }));
  labels.forEach(l => { if (pieces.some(p => over(l.box, p))) hidden.push(l.text); });
  const grid = document.querySelector('svg g.hexgrid');
  return {pieces: faces.length, counter: Math.min(...faces.map(b => Math.min(b.width, b.height))),
          labels: labels.length, label: Math.min(...labels.map(l => l.size)), overlaps: pairs, hidden: hidden,
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          hexes: grid ? Number(grid.dataset.hexes) : 0,
          columns: grid ? [...grid.querySelectorAll('use.hexcol')].reduce((n, u) => n + Number(u.dataset.n), 0) : 0,
          numbers: document.querySelectorAll('svg g.hexnums text').length,
          numbered: document.querySelectorAll('svg g.loc[data-cr]').length,
          viewport: !!document.querySelector('meta[name=viewport]')};
}"""


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict[str, Path]]:
    """Both sides' reports of each game's golden campaign, at its end."""
    import importlib

    browser.chromium()
    out = {}
    for game, module in GAMES.items():
        root = tmp_path_factory.mktemp(game)
        if module is None:
            pbem(CliRunner(), "demo", "--game", game, "--dir", root)
        else:
            importlib.import_module(f"tests.{module}").play_golden(root)
        out[game] = {}
        for who in ("alice", "bob"):
            page = root / f"report-{who}.html"
            pbem(CliRunner(), "report", "--campaign", root / who, "--html", "-o", page)
            out[game][who] = page
    return out


def _open(chromium, page: Path, view: str):
    context = chromium.new_context(**VIEWS[view])
    tab = context.new_page()
    requests = []
    tab.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    tab.goto(page.as_uri())
    return context, tab, requests


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_map_reads_at_play_size(chromium, reports, game, view):
    for who, page in reports[game].items():
        context, tab, requests = _open(chromium, page, view)
        try:
            got = tab.evaluate(MEASURE)
            shots = os.environ.get("PBEM_SCREENSHOTS")
            if shots and who == "bob":  # the README's pictures, at play size (the second side: the block game's Ottoman)
                tab.evaluate("() => { document.querySelector('.map').scrollIntoView(); window.scrollBy(0, -40); }")
                tab.screenshot(path=str(Path(shots) / f"map-{game}{'-phone' if view == 'phone' else ''}.png"))
        finally:
            context.close()
        assert got["viewport"] and not requests, (who, requests)
        assert got["pieces"] > 0 and got["counter"] >= 24, (game, who, view, got["counter"])
        assert got["labels"] > 0 and got["label"] >= 11, (game, who, view, got["label"])
        assert got["overlaps"] == [], (game, who, view, got["overlaps"])
        assert got["hidden"] == [], f"{game} {who} {view}: counters over labels {got['hidden']}"
        assert got["overflow"] <= 0, (game, who, view, got["overflow"])
        if game == "blood-on-the-tigris":
            from pbem_engine.games.blood_on_the_tigris import hexmap

            assert got["hexes"] == got["columns"] == len(hexmap.ALL_HEXES) == 1620
            assert got["numbers"] + got["numbered"] == got["hexes"]  # each hex its number, or its own label


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_zoom_changes_a_counters_size_on_screen(chromium, reports, view):
    context, tab, _ = _open(chromium, reports["blood-on-the-tigris"]["alice"], view)
    try:
        size = "() => document.querySelector('svg g.piece rect.face').getBoundingClientRect().width"
        before = tab.evaluate(size)
        tab.click(".mapzoom button[data-zoom=in]")
        bigger = tab.evaluate(size)
        tab.focus(".mapview")
        tab.keyboard.press("-")
        tab.keyboard.press("-")
        smaller = tab.evaluate(size)
        tab.click(".mapzoom button[data-zoom=reset]")
        again = tab.evaluate(size)
        box = tab.query_selector(".mapview").bounding_box()
        tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        tab.mouse.wheel(0, -400)
        wheeled = tab.evaluate(size)
        overflow = tab.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    finally:
        context.close()
    assert bigger > before * 1.2 and smaller < bigger / 1.5 and abs(again - before) < 0.1, (before, bigger, smaller, again)
    assert wheeled > again * 1.2 and overflow <= 0


def test_the_enemys_concealed_blocks_are_not_in_the_bytes(reports):
    """The block game's map names alice's own concealed blocks to her only (searched in bob's bytes)."""
    from pbem.play.campaign import Campaign
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    page = reports["gallipoli-blocks"]["bob"]
    camp = Campaign.open(page.parent / "alice", readonly=True)
    try:
        head = camp.ledger.head()[0]
        named = []
        for seq in range(head // 3, head):
            _, match = camp.ledger.state(seq)
            known = camp.knowledge(match)
            toks = [t for t, b in match["game"]["blocks"].items() if b["army"] == "allied" and b["id"] is None]
            names = sorted({BLOCKS[known[t].split(":")[0]][0] for t in toks if t in known})
            if len(names) >= 3:
                named = (seq, names)
                break
    finally:
        camp.ledger.close()
    assert named, "no envelope with alice's blocks concealed"
    seq, names = named
    out = page.parent / "bob-mid.html"
    pbem(CliRunner(), "report", "--campaign", page.parent / "bob", "--html", "--at", str(seq), "-o", out)
    theirs = out.read_text()
    for name in names:
        assert name not in theirs and html.escape(name) not in theirs, name
    assert 'data-face="down"' in theirs


CONTRACT = """() => {
  const locs = [...document.querySelectorAll('svg.pbem-map g.loc')];
  const bad = locs.filter(g => !g.dataset.id || !g.querySelector(':scope > polygon, :scope > path, :scope > circle, :scope > rect')
                               || !g.querySelector(':scope > text')).map(g => g.dataset.id || '?');
  const hexes = locs.filter(g => g.dataset.cr).filter(g => !g.querySelector(':scope > polygon.hex')).map(g => g.dataset.id);
  const areas = [...document.querySelectorAll('svg.pbem-map g.loc > polygon.area')].length;
  const pieces = document.querySelectorAll('svg.pbem-map g.piece').length;
  const faces = document.querySelectorAll('svg.pbem-map g.piece > rect.face').length;
  const tired = [...document.querySelectorAll('svg.pbem-map g.piece.exhausted')];
  return {locs: locs.length, bad: bad, hexes: hexes, areas: areas, pieces: pieces, faces: faces, exhausted: tired.length,
          unmarked: tired.filter(g => !g.querySelector('rect.status[data-status=EXH]')).length,
          loose: document.querySelectorAll('svg.pbem-map > text.n').length};
}"""


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_markup_every_location_and_piece_can_be_found_by(chromium, reports, game):
    """Point 7: every location a g.loc with data-id, its shape (outline, hexagon or space) and its
    label inside it; every hex location a hexagon; every area an outline; every piece a g.piece;
    every exhausted counter marked EXH."""
    context, tab, _ = _open(chromium, reports[game]["alice"], "desktop")
    try:
        got = tab.evaluate(CONTRACT)
    finally:
        context.close()
    assert got["locs"] > 0 and got["bad"] == [] and got["hexes"] == [] and got["loose"] == 0, got
    assert got["pieces"] == got["faces"] > 0, got
    assert got["unmarked"] == 0, got  # an exhausted counter: pale, and an EXH marker
    if game == "assault-on-gallipoli":
        assert got["areas"] == got["locs"], got  # every area an outline, none a circle
        assert got["exhausted"] > 0, got


TILES = """() => {
  const svg = document.querySelector('svg.pbem-map');
  const polys = [...svg.querySelectorAll('g.loc > polygon.area')];
  const shape = g => g.querySelector(':scope > [data-centre]');
  const centre = g => { const c = shape(g).dataset.centre.split(',').map(Number); const p = svg.createSVGPoint(); p.x = c[0]; p.y = c[1]; return p; };
  const wrong = [];
  polys.forEach(poly => {
    const p = centre(poly.parentNode);
    if (!poly.isPointInFill(p)) wrong.push(poly.parentNode.dataset.id + ' not in its own outline');
    polys.forEach(other => { if (other !== poly && other.isPointInFill(p)) wrong.push(poly.parentNode.dataset.id + ' in ' + other.parentNode.dataset.id); });
  });
  const land = [...svg.querySelectorAll('g.land > *')];
  const ashore = g => land.some(s => s.isPointInFill(centre(g)));
  const terrain = g => shape(g).dataset.terrain;
  const sea = polys.filter(p => terrain(p.parentNode) === 'sea');
  return {areas: polys.length, wrong: wrong, sea: sea.length,
          seaFill: sea.map(p => p.getAttribute('fill')), seaClipped: sea.filter(p => p.getAttribute('clip-path')).length,
          landClipped: polys.filter(p => terrain(p.parentNode) !== 'sea' && p.getAttribute('clip-path') === 'url(#land)').length,
          ashore: [...svg.querySelectorAll('g.loc')].filter(g => terrain(g) !== 'sea' && terrain(g) !== 'hq').map(ashore),
          provisional: [...svg.querySelectorAll('g.legend text')].some(t => /coast and outlines PROVISIONAL: computed/.test(t.textContent)),
          seaDrawn: !!svg.querySelector('rect.sea')};
}"""


def test_assault_on_gallipolis_areas_tile_the_land_and_the_sea_areas_are_sea(chromium, reports):
    """Each area's outline holds its own centre and no other area's holds it (the cells tile, none
    overlaps); land areas are cut to the land, sea areas drawn as sea; the legend says provisional."""
    context, tab, _ = _open(chromium, reports["assault-on-gallipoli"]["alice"], "desktop")
    try:
        got = tab.evaluate(TILES)
    finally:
        context.close()
    assert got["areas"] >= 20 and got["wrong"] == [], got["wrong"]
    assert got["sea"] >= 1 and set(got["seaFill"]) == {"#cfe3f3"} and got["seaClipped"] == 0, got
    assert got["landClipped"] == got["areas"] - got["sea"] and all(got["ashore"]) and got["provisional"], got


def test_the_block_games_spaces_stand_on_a_land_outline_in_the_sea(chromium, reports):
    context, tab, _ = _open(chromium, reports["gallipoli-blocks"]["alice"], "desktop")
    try:
        got = tab.evaluate(TILES)
    finally:
        context.close()
    assert got["seaDrawn"] and got["provisional"] and len(got["ashore"]) >= 25 and all(got["ashore"]), got


STACK = """(at) => {
  at = at || [...document.querySelectorAll('svg g.piece rect.count')].map(r => r.parentNode.dataset.at)[0];
  const pieces = [...document.querySelectorAll('svg g.piece')].filter(g => g.dataset.at === at);
  const boxes = () => pieces.map(g => g.querySelector('rect.face').getBoundingClientRect());
  const overlapping = bs => bs.some((a, i) => bs.slice(i + 1).some(b => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
                                                                      && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1));
  return {at: at, n: pieces.length, before: overlapping(boxes())};
}"""


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_a_stack_opens_at_a_click_into_whole_counters(chromium, reports, view):
    """A fanned stack (its count on top) opens at a click: every counter whole, none over another,
    each at least 24 px; Escape closes it."""
    context, tab, _ = _open(chromium, reports["assault-on-gallipoli"]["alice"], view)
    try:
        got = tab.evaluate(STACK, None)
        assert got["n"] > 1 and got["before"], got  # fanned: each counter partly under the next
        top = tab.locator(f"svg g.piece[data-at='{got['at']}']").last
        top.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        top.click()
        opened = tab.eval_on_selector_all("svg g.piece.opened rect.face", "rs => rs.map(r => r.getBoundingClientRect())")
        again = tab.evaluate(STACK, got["at"])
        tab.keyboard.press("Escape")
        closed = tab.eval_on_selector_all("svg g.piece.opened", "gs => gs.length")
    finally:
        context.close()
    assert len(opened) == got["n"] and not again["before"], (opened, again)
    assert min(min(b["width"], b["height"]) for b in opened) >= 24 and closed == 0


def _legend_colour(page: str, side: str) -> str:
    m = re.search(r'<rect x="\d+" y="10" width="14" height="14" fill="(#[0-9a-f]{6})"/><text class="t" x="\d+" y="22">'
                  + re.escape(side) + "</text>", page)
    assert m, side
    return m.group(1)


def test_the_ottomans_are_never_blue(chromium, reports, tmp_path):
    """Side colours by nation: the Ottoman (Turkish) side is red in every game and in every pack,
    the gallipoli-1915 pack too, where it sits first (it was drawn blue)."""
    from tests.test_tabletop import Table

    red, blue = "#a8322d", "#2f5d9e"
    for game, side in (("gallipoli-blocks", "ottoman"), ("assault-on-gallipoli", "turkish"),
                       ("blood-on-the-tigris", "turkish"), ("hill60", "ottoman")):
        page = reports[game]["alice"].read_text()
        assert _legend_colour(page, side) == red, game
        faces = re.findall(rf'<g class="piece[^"]*" data-at="[^"]+" data-side="{side}"[^>]*>.*?class="face"[^>]* fill="([^"]+)"',
                           page)
        assert (faces or game == "hill60") and blue not in faces, (game, set(faces))  # Hill 60's demo: no Ottoman left
    shots = os.environ.get("PBEM_SCREENSHOTS")
    for pack, sides in (("gallipoli-1915", ("ottoman", "entente")), ("gallipoli-blocks", ("allied", "ottoman")),
                        ("assault-on-gallipoli", ("anzac", "turkish")), ("blood-on-the-tigris", ("british", "turkish"))):
        t = Table(tmp_path / pack, pack, sides)
        out = tmp_path / f"{pack}.html"
        pbem(t.runner, "report", "--campaign", t.a.dir, "--html", "-o", out, env=t.a.env)
        enemy = "ottoman" if "ottoman" in sides else "turkish"
        assert _legend_colour(out.read_text(), enemy) == red, pack
        assert _legend_colour(out.read_text(), next(s for s in sides if s != enemy)) != red, pack
        if shots and pack != "gallipoli-blocks":  # the README's pictures of a table-top game's report
            context, tab, _ = _open(chromium, out, "desktop")
            tab.evaluate("() => { document.querySelector('.map').scrollIntoView(); window.scrollBy(0, -40); }")
            tab.screenshot(path=str(Path(shots) / f"report-tabletop-{pack}.png"), full_page=False)
            context.close()


def test_a_stack_in_a_replay_opens_and_goes_back_where_it_stood(chromium, reports, tmp_path):
    """The replay draws each piece at the origin and moves it by a translate: a stack opened there
    and closed again stands where it stood."""
    out = tmp_path / "replay.html"
    pbem(CliRunner(), "replay", "--campaign", reports["assault-on-gallipoli"]["alice"].parent / "alice", "-o", out)
    context, tab, _ = _open(chromium, out, "desktop")
    where = "at => [...document.querySelectorAll('#map svg g.piece')].filter(g => g.dataset.at === at)" \
            ".map(g => { const b = g.querySelector('rect.face').getBoundingClientRect(); return [b.x, b.y]; })"
    try:
        tab.wait_for_selector("#map svg g.piece rect.count")
        got = tab.evaluate(STACK, None)
        top = tab.locator(f"#map svg g.piece[data-at='{got['at']}']").last
        top.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        before = tab.evaluate(where, got["at"])
        top.click()
        opened = tab.evaluate(STACK, got["at"])
        tab.keyboard.press("Escape")
        after = tab.evaluate(where, got["at"])
    finally:
        context.close()
    assert got["n"] > 1 and not opened["before"], (got, opened)
    assert all(abs(a - b) < 0.5 for p, q in zip(before, after) for a, b in zip(p, q)), (before, after)

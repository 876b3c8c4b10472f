"""The map as a player sees it, measured in a real browser (Playwright driving Debian's chromium;
skipped, saying why, without them): for each game with a map, its golden campaign's reports at
1280 px and in phone emulation (390 px): every counter at least 24 CSS px and every location
label at least 11 px at the default view, no two location labels overlapping and no counter over
one, every hex of the Blood on the Tigris map drawn and numbered, zoom changing a counter's size
on screen, no horizontal overflow of the page, and the enemy's concealed blocks still absent from
the bytes."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests import browser
from tests.conftest import pbem

GAMES = {"gallipoli-blocks": "test_golden_blocks", "assault-on-gallipoli": "test_golden_assault",
         "blood-on-the-tigris": "test_golden_tigris"}  # Hill 60, Raid and Barrage have no map yet
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
def chromium():
    executable = browser.chromium()
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install '.[test]')")
    with sync_api.sync_playwright() as p:
        try:
            instance = p.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        except Exception as e:  # noqa: BLE001 - a browser that cannot start is a skip, with its reason
            pytest.skip(f"Playwright cannot start {executable}: {str(e).splitlines()[0]}")
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict[str, Path]]:
    """Both sides' reports of each game's golden campaign, at its end."""
    import importlib

    browser.chromium()
    out = {}
    for game, module in GAMES.items():
        root = tmp_path_factory.mktemp(game)
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

"""The replay of the golden block game in a real browser (Debian's headless chromium, driven by
Playwright): the page unpacks its data and steps (jump to a number, first, previous, next, last,
the arrow keys); at each step shown, the map's pieces stand in the same spaces, for the same
sides, as on the map of ``pbem report --all --at N --html``, each drawn on its space, and the
step's events and rolls are that report's for envelope N (the replay of a finished game names
what the report of a step still conceals: a concealed item there matches any name here).
Without script, every step's events and the game at its end are on the page.

Skipped, with the reason shown, where chromium or Playwright cannot be had (``.ci/run`` installs
chromium best effort).  Set PBEM_SCREENSHOTS=DIR to keep a screenshot of a few steps.
"""

from __future__ import annotations

import html
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import pbem
from tests.test_replay import golden_campaign

CONCEALED = re.compile(r"a concealed (?:item|[a-z]+|[A-Z][a-z]+(?: [A-Z][a-z]+)*)")
REPORT_PIECE = re.compile(r'<g class="piece[^"]*" data-at="([^"]*)" data-side="([^"]*)"><title>([^<]*)</title>')
PIECES_JS = """() => Array.from(document.querySelectorAll('#map svg g.piece')).map(function (g) {
    var box = g.getBoundingClientRect();
    var loc = document.querySelector('#map svg g.loc[data-id="' + g.dataset.at + '"]');
    var spot = loc ? loc.querySelector('circle, rect').getBoundingClientRect() : null;
    return {at: g.dataset.at, side: g.dataset.side, label: g.querySelector('title').textContent,
            x: box.x + box.width / 2, y: box.y + box.height / 2, w: box.width,
            spot: spot && {x: spot.x + spot.width / 2, y: spot.y + spot.height / 2, r: spot.width / 2}};
})"""
SHOWN_JS = """() => {
    var s = document.querySelectorAll('section.step.shown');
    return {count: s.length, seq: s.length ? Number(s[0].dataset.seq) : -1,
            items: s.length ? Array.from(s[0].querySelectorAll('li')).map(function (li) {
                return li.textContent; }) : [],
            situation: document.getElementById('situation').textContent,
            title: document.getElementById('board-title').textContent};
}"""


@pytest.fixture(scope="module")
def golden(tmp_path_factory) -> tuple[Path, Path, int]:
    """The golden block game (alice, allied), its replay page and its last envelope's number."""
    root = tmp_path_factory.mktemp("replay-browser")
    camp = golden_campaign("gallipoli-blocks", root / "alice")
    last = camp.ledger.head()[0]
    camp.ledger.close()
    page = root / "replay.html"
    pbem(CliRunner(), "replay", "--campaign", root / "alice", "-o", page)
    return root / "alice", page, last


def _report(campaign: Path, n: int, where: Path) -> tuple[Counter, dict, list[str]]:
    """What ``pbem report --all --at N --html`` shows: pieces by (space, side), their labels, and
    the events and rolls of envelope N (a roll without its 'declared in' note)."""
    out = where / f"report-{n}.html"
    pbem(CliRunner(), "report", "--campaign", campaign, "--all", "--at", str(n), "--html", "-o", out)
    page = out.read_text()
    found = [(at, side, html.unescape(label)) for at, side, label in REPORT_PIECE.findall(page)]
    labels: dict[tuple[str, str], list[str]] = {}
    for at, side, label in found:
        labels.setdefault((at, side), []).append(label)
    entry = re.search(rf"<h3>#{n} [^<]*</h3>\n<ul>\n(.*?)</ul>", page, re.S)
    items = [html.unescape(i) for i in re.findall(r"<li[^>]*>(.*?)</li>", entry.group(1), re.S)] if entry else []
    items = [re.sub(r" \((?:a forced roll, sealed|declared in) [^()]*\)$", "", i) if i.startswith("roll: ") else i
             for i in items]
    return Counter((at, side) for at, side, _ in found), labels, items


def _matches(told: str, shown: str) -> bool:
    """Whether ``shown`` (the replay, everything the end opened) is ``told`` (the report at that
    step) with each concealed item named."""
    pattern = ".+?".join(re.escape(part) for part in CONCEALED.split(told))
    return re.fullmatch(pattern, shown, re.S) is not None


def _check_step(page, campaign: Path, n: int, where: Path) -> tuple[int, int]:
    """Step ``n`` is shown, as the report shows it; (pieces, events and rolls) drawn."""
    page.wait_for_function(f"() => document.body.dataset.drawn === '{n}'", timeout=30_000)
    shown = page.evaluate(SHOWN_JS)
    assert shown["count"] == 1 and shown["seq"] == n, shown
    assert shown["title"].startswith(f"After envelope #{n}")
    drawn = page.evaluate(PIECES_JS)
    spaces, labels, items = _report(campaign, n, where)
    assert Counter((p["at"], p["side"]) for p in drawn) == spaces, f"step {n}: other pieces than the report's"
    for (at, side), told in labels.items():  # the report's named pieces are the replay's there
        here = Counter(p["label"] for p in drawn if p["at"] == at and p["side"] == side)
        assert not Counter(t for t in told if not CONCEALED.search(t)) - here, (n, at, side, told, here)
    for p in drawn:  # each piece drawn just above its space
        assert p["w"] > 5 and p["spot"], p
        assert abs(p["x"] - p["spot"]["x"]) < 40 and 0 < p["spot"]["y"] - p["y"] < 80, (n, p)
    assert len(shown["items"]) == len(items) and all(_matches(t, s) for t, s in zip(items, shown["items"])), \
        (n, items, shown["items"])
    return len(drawn), len(items)


def test_the_replay_steps_and_draws_the_reports_pieces_at_each_step(chromium, golden, tmp_path):
    campaign, replay, last = golden
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(replay.as_uri())
        seen = [_check_step(page, campaign, last, tmp_path)]  # it opens on the last step
        for n in (5, 17, 26):  # a number typed in the box
            page.fill("#jump", str(n))
            page.dispatch_event("#jump", "change")
            seen.append(_check_step(page, campaign, n, tmp_path))
        page.click("#next")
        seen.append(_check_step(page, campaign, 27, tmp_path))
        page.click("#prev")
        page.click("#prev")
        seen.append(_check_step(page, campaign, 25, tmp_path))
        page.click("h1")  # the arrow keys step the replay, unless the map has the focus (then they pan it)
        page.keyboard.press("ArrowRight")
        seen.append(_check_step(page, campaign, 26, tmp_path))
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        seen.append(_check_step(page, campaign, 24, tmp_path))
        page.click("#first")
        seen.append(_check_step(page, campaign, 0, tmp_path))
        page.click("#next")
        seen.append(_check_step(page, campaign, 1, tmp_path))
        page.click("#last")
        seen.append(_check_step(page, campaign, last, tmp_path))
        assert min(n for n, _ in seen[:4]) >= 20 and sum(k for _, k in seen) >= 10, seen  # not an empty map or list
        if os.environ.get("PBEM_SCREENSHOTS"):
            for n in (12, last):
                page.fill("#jump", str(n))
                page.dispatch_event("#jump", "change")
                page.wait_for_function(f"() => document.body.dataset.drawn === '{n}'")
                page.screenshot(path=str(Path(os.environ["PBEM_SCREENSHOTS"]) / f"replay-{n}.png"), full_page=True)
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"horizontal overflow at 1280 px: {width}"
        assert not errors, errors
    finally:
        context.close()


def test_the_map_keeps_its_zoom_and_hex_numbers_from_step_to_step(chromium, tmp_path):
    """Blood on the Tigris (a hex map): the report's map script comes with the page, so each
    step's map has its zoom buttons and hex numbers; a zoom chosen stays as the steps go by, and
    the arrow keys pan the map that has the focus instead of stepping."""
    camp = golden_campaign("blood-on-the-tigris", tmp_path / "alice")
    camp.ledger.close()
    replay = tmp_path / "replay.html"
    pbem(CliRunner(), "replay", "--campaign", tmp_path / "alice", "-o", replay)
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    state = """() => ({drawn: document.body.dataset.drawn, zoom: document.getElementById('map').dataset.zoom,
                     numbers: document.querySelectorAll('#map g.hexnums text').length,
                     buttons: document.querySelectorAll('#map .mapzoom button').length,
                     pieces: document.querySelectorAll('#map g.piece').length})"""
    try:
        page.goto(replay.as_uri())
        page.wait_for_function("() => document.body.dataset.drawn === '10'")
        first = page.evaluate(state)
        assert first["numbers"] > 1000 and first["buttons"] == 3 and first["pieces"] > 10, first
        page.click("#map .mapzoom button[data-zoom=in]")
        page.click("#map .mapzoom button[data-zoom=in]")
        zoomed = page.evaluate(state)["zoom"]
        assert float(zoomed) > float(first["zoom"]) * 1.5
        page.click("#first")
        page.wait_for_function("() => document.body.dataset.drawn === '0'")
        page.click("#next")
        page.wait_for_function("() => document.body.dataset.drawn === '1'")
        now = page.evaluate(state)
        assert now["zoom"] == zoomed and now["numbers"] > 1000 and now["buttons"] == 3, now
        page.focus("#map .mapview")
        left = page.evaluate("() => document.querySelector('#map .mapview').scrollLeft")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.body.dataset.shown") == "1"  # the map panned, the step stayed
        assert page.evaluate("() => document.querySelector('#map .mapview').scrollLeft") > left
        if os.environ.get("PBEM_SCREENSHOTS"):
            page.screenshot(path=str(Path(os.environ["PBEM_SCREENSHOTS"]) / "replay-tigris-1.png"))
        assert not errors, errors
    finally:
        context.close()


def test_without_script_every_step_and_the_end_are_on_the_page(chromium, golden):
    _, replay, last = golden
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(replay.as_uri())
        sections = page.query_selector_all("section.step")
        assert len(sections) == last + 1 and all(s.is_visible() for s in sections)
        assert page.is_visible("#situation") and "Turn 3" in page.inner_text("#situation")
        assert page.inner_text("#board-title") == f"After envelope #{last}, the last"
        assert "need script" in page.content()
    finally:
        context.close()

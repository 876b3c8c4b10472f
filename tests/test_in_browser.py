"""The report and the replay in a real browser (headless chromium): the map is drawn with every
space, the pieces are where the state says, nothing overflows at 1280 px, and the replay's
buttons step through every envelope."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests import browser
from tests.conftest import pbem

@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The golden block game (fixed keys and randomness): alice (allied) and bob (ottoman)."""
    from tests.test_golden_blocks import play_golden

    browser.chromium()  # skip early, with the reason, where there is none
    root = tmp_path_factory.mktemp("browser")
    play_golden(root)
    return root


@pytest.mark.parametrize("who,at", [("alice", ["--at", "30"]), ("bob", ["--at", "30"]), ("bob", [])])
def test_the_report_map_in_a_browser(demo, who, at):
    page = demo / f"report-{who}-{len(at)}.html"
    pbem(CliRunner(), "report", "--campaign", demo / who, "--html", *at, "-o", page)
    got = browser.run(page, """
        var locs = document.querySelectorAll('svg g.loc');
        var drawn = Array.prototype.filter.call(locs, function (g) { var b = g.getBBox(); return b.width > 0 && b.height > 0; });
        var pieces = Array.prototype.map.call(document.querySelectorAll('svg g.piece'), function (g) { return g.dataset.at; });
        return {locations: locs.length, drawn: drawn.length, pieces: pieces.length,
                width: document.documentElement.scrollWidth, view: window.innerWidth};
    """)
    assert got["locations"] == got["drawn"] == 31, got
    assert got["pieces"] == len(re.findall(r'<g class="piece"', page.read_text())) > 0, got
    assert got["width"] <= got["view"], f"horizontal overflow at 1280 px: {got}"


def test_the_replay_buttons_step_through_every_envelope(demo):
    page = demo / "replay.html"
    pbem(CliRunner(), "replay", "--campaign", demo / "bob", "-o", page)
    expected = [int(s) for s in re.findall(r'<section class="step" id="step-(\d+)"', page.read_text())]
    got = browser.run(page, """
        var seen = [];
        document.getElementById('first').click();
        for (var i = 0; i < 500; i++) {
            var shown = document.querySelectorAll('section.step.shown');
            if (shown.length !== 1) { return {error: 'shown ' + shown.length}; }
            seen.push(Number(shown[0].dataset.seq));
            var before = document.body.dataset.shown;
            document.getElementById('next').click();
            if (document.body.dataset.shown === before) { break; }
        }
        document.getElementById('prev').click();
        var back = Number(document.body.dataset.shown);
        document.getElementById('last').click();
        return {seen: seen, back: back, last: Number(document.body.dataset.shown),
                width: document.documentElement.scrollWidth, view: window.innerWidth};
    """)
    assert "error" not in got, got
    assert got["seen"] == expected and len(expected) > 20
    assert got["back"] == expected[-2] and got["last"] == expected[-1]
    assert got["width"] <= got["view"], got


def test_a_table_top_report_in_a_browser(tmp_path):
    browser.chromium()
    from tests.test_tabletop import Table

    t = Table(tmp_path, "blood-on-the-tigris", ("british", "turkish"))
    page = tmp_path / "tt.html"
    pbem(t.runner, "report", "--campaign", t.a.dir, "--html", "-o", page, env=t.a.env)
    got = browser.run(page, "return {locations: document.querySelectorAll('svg g.loc').length, "
                            "width: document.documentElement.scrollWidth, view: window.innerWidth};")
    assert got["locations"] == len(re.findall(r'<g class="loc"', page.read_text())) > 20
    assert got["width"] <= got["view"], got

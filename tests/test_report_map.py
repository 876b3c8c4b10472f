"""The map in the HTML report: every location of the pack at its place, every piece where the
state has it, in its side's colour, and nothing the viewer may not know (searched in the bytes)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.chain import datapack
from tests.conftest import pbem
from tests.test_tabletop import Table

@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The golden block game (fixed keys and randomness): alice (allied) and bob (ottoman)."""
    from tests.test_golden_blocks import play_golden

    root = tmp_path_factory.mktemp("map")
    play_golden(root)
    return root


def _middle(demo: Path) -> int:
    """An envelope after which alice still has at least five blocks concealed (mid-game)."""
    from pbem.play.campaign import Campaign

    camp = Campaign.open(demo / "alice", readonly=True)
    try:
        head = camp.ledger.head()[0]
    finally:
        camp.ledger.close()
    return max(s for s in range(head // 3, head) if len(_hidden_allied_names(demo, s)) >= 5)


def _report(demo: Path, who: str, *args: str) -> str:
    out = demo / f"{who}-{abs(hash(args))}.html"
    pbem(CliRunner(), "report", "--campaign", demo / who, "--html", "-o", out, *args)
    return out.read_text()


def _hidden_allied_names(demo: Path, seq: int) -> list[str]:
    """Alice's own blocks still concealed after envelope ``seq``, by name (her tool knows them)."""
    from pbem.play.campaign import Campaign
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    camp = Campaign.open(demo / "alice", readonly=True)
    try:
        _, match = camp.ledger.state(seq)
        known = camp.knowledge(match)
        toks = [t for t, b in match["game"]["blocks"].items() if b["army"] == "allied" and b["id"] is None]
        return sorted({BLOCKS[known[t].split(":")[0]][0] for t in toks if t in known})
    finally:
        camp.ledger.close()


def test_every_space_of_the_pack_is_drawn_and_every_block_where_the_state_has_it(demo):
    at = _middle(demo)
    page = _report(demo, "alice", "--at", str(at))
    pack = datapack.load(datapack.shipped()["gallipoli-blocks"])
    placed = [loc["id"] for loc in pack["location"] if "coords" in loc]
    drawn = re.findall(r'<g class="loc" data-id="([^"]+)"', page)
    assert sorted(drawn) == sorted(placed)
    from pbem.play.campaign import Campaign

    camp = Campaign.open(demo / "alice", readonly=True)
    try:
        blocks = camp.ledger.state(at)[1]["game"]["blocks"]
    finally:
        camp.ledger.close()
    expected = sorted((b["at"], b["army"]) for b in blocks.values())
    pieces = sorted(re.findall(r'<g class="piece" data-at="([^"]+)" data-side="([^"]+)"', page))
    assert pieces == expected
    assert "Map geometry is PROVISIONAL" in page  # the reconstructed map says so


def test_the_map_shows_own_concealed_blocks_to_their_owner_only(demo):
    at = _middle(demo)
    names = _hidden_allied_names(demo, at)
    assert len(names) >= 5
    mine = _report(demo, "alice", "--at", str(at))
    theirs = _report(demo, "bob", "--at", str(at))
    for name in names:
        assert html.escape(name) in mine, name
        assert html.escape(name) not in theirs and name not in theirs, f"bob's report names {name}"
    assert theirs.count("a concealed block") >= len(names)


def test_the_plain_text_report_is_unchanged_by_the_map(demo):
    text = CliRunner().invoke(__import__("pbem.cli", fromlist=["cli"]).cli,
                              ["report", "--campaign", str(demo / "alice")])
    assert text.exit_code == 0 and "<svg" not in text.output


def test_a_table_top_hex_pack_is_drawn_at_its_coordinates(tmp_path):
    t = Table(tmp_path, "gallipoli-1915", ("ottoman", "entente"))
    out = tmp_path / "r.html"
    pbem(t.runner, "report", "--campaign", t.a.dir, "--html", "-o", out, env=t.a.env)
    page = out.read_text()
    pack = datapack.load(datapack.shipped()["gallipoli-1915"])
    placed = sorted(loc["id"] for loc in pack["location"] if "coords" in loc)
    assert sorted(re.findall(r'<g class="loc" data-id="([^"]+)"', page)) == placed
    assert "<svg" in page and "Turn" in page


def test_the_hand_table_shows_own_card_values_and_the_enemy_hand_concealed(demo):
    at = _middle(demo)
    from pbem.play.campaign import Campaign

    camp = Campaign.open(demo / "bob", readonly=True)
    try:
        hands = camp.ledger.state(at)[1]["game"]["hands"]
    finally:
        camp.ledger.close()
    page = _report(demo, "bob", "--at", str(at))
    table = page.split("<th>Hand</th>")[1].split("</table>")[0]
    allied = table.split("<td>allied</td>")[1].split("</tr>")[0]
    ottoman = table.split("<td>ottoman</td>")[1].split("</tr>")[0]
    assert allied.count("a concealed card") == len(hands["allied"]) and "OPS" not in allied
    assert ottoman.count("OPS ") == len(hands["ottoman"]) > 0 and "(provisional)" in ottoman


def test_locations_whose_pieces_changed_since_the_viewer_last_acted_are_marked(demo):
    from collections import Counter

    from pbem.play.campaign import Campaign

    camp = Campaign.open(demo / "bob", readonly=True)
    try:
        rows = [(s, author) for s, _, author, *_ in camp.ledger.envelopes()]
        count = lambda s: Counter((b["at"], b["army"]) for b in camp.ledger.state(s)[1]["game"]["blocks"].values())  # noqa: E731
        for at, author in rows[len(rows) // 3:]:  # an allied envelope after which something moved
            own = [s for s, a in rows if a == "ottoman" and s < at]
            if author == "allied" and own:
                changed = sorted({a for a, _ in (count(own[-1]) - count(at)) + (count(at) - count(own[-1]))})
                if changed:
                    break
    finally:
        camp.ledger.close()
    assert changed, "nothing moved in the golden game: the test shows nothing"
    page = _report(demo, "bob", "--at", str(at))
    marked = set(re.findall(r'<circle class="mark" data-at="([^"]+)"[^>]*stroke="#1f77b4"', page))
    battles = set(re.findall(r'<circle class="mark" data-at="([^"]+)"[^>]*stroke="#d00"', page))
    assert marked <= set(changed) and set(changed) <= marked | battles, (changed, marked, battles)


def test_a_pack_of_your_own_draws_the_map_with_its_coordinates_and_your_map_image(demo, tmp_path):
    import shutil
    import struct
    import zlib

    mine = tmp_path / "my-pack"
    shutil.copytree(datapack.shipped()["gallipoli-blocks"], mine)
    text = (mine / "pack.toml").read_text().replace("coords = [5, 1]", "coords = [6, 0]", 1)
    png = b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
        for t, d in ((b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)), (b"IDAT", zlib.compress(b"\x00\xff\x00\x00")),
                     (b"IEND", b"")))
    (mine / "board.png").write_bytes(png)
    (mine / "pack.toml").write_text(text + '\n[map]\nimage = "board.png"\nextent = [0, 0, 28, 31]\n')
    page = _report(demo, "alice", "--pack", str(mine))
    assert '<image class="background"' in page and "data:image/png;base64," in page
    ours = _report(demo, "alice")
    assert '<image class="background"' not in ours
    moved = lambda p: re.search(r'<g class="loc" data-id="sedd-el-bahr">.*?<circle cx="([\d.]+)" cy="([\d.]+)"', p, re.S).groups()  # noqa: E731
    assert moved(page) != moved(ours)
    (mine / "pack.toml").write_text(text + '\n[map]\nimage = "../secret.png"\nextent = [0, 0, 28, 31]\n')
    from click.testing import CliRunner

    from tests.conftest import assert_refused, invoke
    assert_refused(invoke(CliRunner(), "report", "--campaign", demo / "alice", "--html", "--pack", mine), "bad-pack")


def test_assault_on_gallipoli_is_drawn_on_a_schematic_map_that_says_it_is_provisional(tmp_path):
    t = Table(tmp_path, "assault-on-gallipoli", ("anzac", "turkish"))
    out = tmp_path / "aog.html"
    pbem(t.runner, "report", "--campaign", t.a.dir, "--html", "-o", out, env=t.a.env)
    page = out.read_text()
    pack = datapack.load(datapack.shipped()["assault-on-gallipoli"])
    assert pack["map"]["provisional"] is True
    assert sorted(re.findall(r'<g class="loc" data-id="([^"]+)"', page)) == sorted(loc["id"] for loc in pack["location"])
    assert "Map geometry is PROVISIONAL" in page


def test_a_packs_side_colours_paint_its_sides_and_a_bad_colour_is_refused(demo, tmp_path):
    import shutil

    from click.testing import CliRunner

    from tests.conftest import assert_refused, invoke

    mine = tmp_path / "coloured-pack"
    shutil.copytree(datapack.shipped()["gallipoli-blocks"], mine)
    text = (mine / "pack.toml").read_text()
    head = re.search(r"^\[pack\]\n", text, re.M).end()
    (mine / "pack.toml").write_text(text[:head] + 'colours = {allied = "#2e8b57", ottoman = "#6a0dad"}\n' + text[head:])
    page = _report(demo, "alice", "--pack", str(mine))
    ours = _report(demo, "alice")
    for colour in ("#2e8b57", "#6a0dad"):  # the legend's chips and the counters take the pack's colours
        assert page.count(colour) >= 2 and colour not in ours
    (mine / "pack.toml").write_text(text[:head] + 'colours = {allied = "green"}\n' + text[head:])
    assert_refused(invoke(CliRunner(), "report", "--campaign", demo / "alice", "--html", "--pack", mine), "bad-pack")

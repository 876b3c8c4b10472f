"""``pbem replay``: every envelope is a step, each step shows what ``pbem report`` shows of it
(``report.context`` after that envelope: its events and rolls, the situation, the map's pieces),
a side's replay of a game in progress holds nothing the rules still hide from it (searched in
the file's bytes and in its data unpacked), the golden games' pages stay under 4 KB per
envelope, and a long replay shows progress on a terminal only."""

from __future__ import annotations

import html
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.view.replay_page import PIECES, unpacked
from tests.conftest import pbem

GOLDEN = Path(__file__).resolve().parent / "golden"
OWN_TESTS = {"gallipoli-blocks": "tests.test_golden_blocks", "assault-on-gallipoli": "tests.test_golden_assault",
             "blood-on-the-tigris": "tests.test_golden_tigris", "tabletop": "tests.test_golden_tabletop"}
PER_ENVELOPE = 4096


def golden_campaign(module: str, root: Path, player: str = "alice"):
    """A campaign of ``player`` (alice: the first side; bob: the second) that has ingested the
    committed turn files of ``module``'s golden game, as the golden tests build theirs."""
    from pbem.play.campaign import Campaign
    from pbem.wire.envelope import read_envelopes
    from tests import golden_play
    from tests.test_golden import campaign_of, identities, identity

    files = [(p.name, p.read_text()) for p in sorted((GOLDEN / module / "turns").glob("*.pbem"))]
    if module not in OWN_TESTS:  # tests/test_golden.py's games: the golden secrets, then every file
        from pbem_engine.registry import get_game

        [genesis] = read_envelopes(files[0][1])
        side = [s for s, who in identities(get_game(module)).items() if who.name == f"TEST-ONLY-{player}"][0]
        camp = campaign_of(root, module, side, genesis)
        camp.ingest(files[1:])
        return camp
    own = importlib.import_module(OWN_TESTS[module])
    if module == "tabletop":
        from pbem.chain.datapack import load

        first, scenario, options, entropy = "red", None, {"pack": load(own.GOLDEN)}, own.entropy(player)
    elif module == "gallipoli-blocks":
        first, scenario, options, entropy = "allied", None, own.OPTIONS, own.entropy(player)
    else:
        first, scenario, options = {"assault-on-gallipoli": "anzac", "blood-on-the-tigris": "british"}[module], \
            own.SCENARIO, own.OPTIONS
        entropy = golden_play.entropy(module, player)
    alice, bob = identity("alice"), identity("bob")
    if player == "alice":
        camp, genesis = Campaign.new(root, module, first, alice, bob.public, bob.name, scenario, options,
                                     entropy=entropy)
        assert genesis.raw == files[0][1]
        camp.ingest(files[1:])
    else:
        camp, joined = Campaign.join(root, files[0][1], bob, entropy=entropy)
        assert joined.raw == files[1][1]
        camp.ingest(files[2:])
    return camp


def rebuilt(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step as the page's script draws it from the packed data (the same patching, in Python):
    the map's SVG, the situation lines, the result and the tracks."""
    table, now, out = data["t"], {"s": [], "p": [], "l": [], "o": -1, "k": -1}, []
    for change in data["c"]:
        for key in ("s", "p", "l"):
            for start, end, items in reversed(change.get(key, [])):
                now[key][start:end] = items
        now.update({k: change[k] for k in ("o", "k") if k in change})
        svg = []
        for i in now["s"]:
            if i == PIECES:
                svg += [f'<g transform="translate({x} {y})"' + table[t][2:] for t, x, y in now["p"]]
            else:
                svg.append(table[i])
        text = (lambda i: "" if i < 0 else table[i])
        out.append({"svg": "\n".join(svg), "lines": [table[i] for i in now["l"]], "outcome": text(now["o"]),
                    "tracks": text(now["k"])})
    return out


PIECE = re.compile(r'<g (?:transform="translate\(([\d.-]+) ([\d.-]+)\)" )?class="piece[^"]*" data-at="([^"]*)" '
                   r'data-side="([^"]*)"[^>]*><title>([^<]*)</title><rect x="([\d.-]+)" y="([\d.-]+)"')


def pieces(svg: str) -> list[tuple[str, str, str, float, float]]:
    """(location, side, label, x, y) of every piece on a map, sorted."""
    out = []
    for m in PIECE.finditer(svg):
        dx, dy = float(m.group(1) or 0), float(m.group(2) or 0)
        out.append((m.group(3), m.group(4), html.unescape(m.group(5)), round(dx + float(m.group(6)), 1),
                    round(dy + float(m.group(7)), 1)))
    return sorted(out)


def without_pieces(svg: str) -> list[str]:
    return [line for line in svg.split("\n") if not PIECE.match(line)]


def steps_of(page: str) -> list[dict[str, Any]]:
    """Each step's section: its number, heading and the items of its list, in words."""
    out = []
    for m in re.finditer(r'<section class="step" id="step-(\d+)" data-seq="\d+">\n<h2>(.*?)</h2>\n(.*?)</section>',
                         page, re.S):
        out.append({"seq": int(m.group(1)), "head": html.unescape(m.group(2)),
                    "items": [html.unescape(i) for i in re.findall(r"<li[^>]*>(.*?)</li>", m.group(3))]})
    return out


def same_as_the_report(camp, page: str, full: bool) -> None:
    """Every step of ``page`` shows what ``report.context`` shows after that envelope (since the one
    before it; with everything the end opened where ``full``): the events and rolls, the situation,
    the result, the tracks, and the same map, each piece where it stands."""
    from pbem.view.report import context, dice_text

    head = camp.ledger.head()[0]
    drawn, sections = rebuilt(unpacked(page)), steps_of(page)
    assert len(drawn) == len(sections) == head + 1
    for seq, (step, section) in enumerate(zip(drawn, sections)):
        c = context(camp, since=seq - 1, at=seq, known_after=head if full else None, image=False)
        [entry] = c["entries"]
        assert section["seq"] == seq and section["head"] == f"#{seq} — {entry['author']} ({entry['kind']})"
        assert section["items"] == entry["events"] + [f"roll: {r['purpose']}: {dice_text(r)}" for r in entry["rolls"]]
        assert step["lines"] == c["lines"], seq
        outcome = c["outcome"] and (dict(c["outcome"]) if isinstance(c["outcome"], dict) else c["outcome"]._asdict())
        assert step["outcome"] == (f"Result: {outcome['result']}" + (f" — {outcome['reason']}" if outcome["reason"]
                                                                      else "") if outcome else "")
        assert step["tracks"] == " · ".join(f"{n}: {v}" for n, v in c["tracks"])
        assert pieces(step["svg"]) == pieces(c["map_svg"]), seq
        assert without_pieces(step["svg"]) == without_pieces(c["map_svg"]), seq


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory) -> Path:
    """The golden block game's set-up, played by the game's own players for 24 envelopes (it ends at 34)."""
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from tests.test_golden import identity
    from tests.test_golden_blocks import OPTIONS, entropy

    root = tmp_path_factory.mktemp("replay")
    alice, bob = identity("alice"), identity("bob")
    allied, genesis = Campaign.new(root / "alice", "gallipoli-blocks", "allied", alice, bob.public, bob.name, None,
                                   OPTIONS, entropy=entropy("alice"))
    ottoman, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    allied.ingest([("join", joined.raw)])
    camps, who = {"allied": allied, "ottoman": ottoman}, {"allied": alice, "ottoman": bob}
    while allied.ledger.head()[0] < 24:
        side = allied.waiting()["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        camps["ottoman" if side == "allied" else "allied"].ingest([("x", result.envelope.raw)])
    return root


def _never_opened_allied_names(root: Path) -> list[str]:
    from pbem.play.campaign import Campaign
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    camp = Campaign.open(root / "alice", readonly=True)
    try:
        match = camp.match()
        known = camp.knowledge(match)
        opened = set(match["private"]["allied"]["opened"])
        names = {BLOCKS[known[t].split(":")[0]][0] for t, b in match["game"]["blocks"].items()
                 if b["army"] == "allied" and t in known and t not in opened}
        shown = {BLOCKS[item.split(":")[0]][0] for item in match["private"]["allied"]["opened"].values()
                 if item.split(":")[0] in BLOCKS}
        return sorted(names - shown)
    finally:
        camp.ledger.close()


def test_a_replay_has_a_step_per_envelope_and_hides_what_the_rules_hide(unfinished):
    import json

    runner = CliRunner()
    out = {}
    for who in ("alice", "bob"):
        path = unfinished / f"{who}-replay.html"
        result = pbem(runner, "replay", "--campaign", unfinished / who, "-o", path)
        assert "25 steps" in result.output
        page = path.read_text()
        assert [int(s) for s in re.findall(r'<section class="step" id="step-(\d+)"', page)] == list(range(25))
        data = unpacked(page)
        assert len(data["c"]) == 25 and all("<svg" in step["svg"] for step in rebuilt(data))
        out[who] = page + json.dumps(data, ensure_ascii=False)  # the bytes and the data unpacked
    names = _never_opened_allied_names(unfinished)
    assert len(names) >= 3
    for name in names:
        assert html.escape(name) in out["alice"]
        assert html.escape(name) not in out["bob"] and name not in out["bob"], f"bob's replay names {name}"


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_every_step_shows_what_the_report_shows_after_that_envelope(unfinished, who):
    from pbem.play.campaign import Campaign
    from pbem.view.replay import render

    camp = Campaign.open(unfinished / who, readonly=True)
    try:
        same_as_the_report(camp, render(camp), full=False)
    finally:
        camp.ledger.close()


def test_a_finished_game_replays_with_everything_the_end_opened(tmp_path):
    from pbem.play.campaign import Campaign
    from pbem.view.replay import render
    from tests.test_golden_blocks import play_golden

    play_golden(tmp_path)
    page = tmp_path / "r.html"
    pbem(CliRunner(), "replay", "--campaign", tmp_path / "bob", "-o", page)
    text = page.read_text()
    assert "every side has revealed its secret" in text
    assert "a concealed block" not in text.split('id="step-5"')[1].split("</section>")[0]
    assert "a concealed block" not in text and "a concealed block" not in str(unpacked(text))
    camp = Campaign.open(tmp_path / "bob", readonly=True)
    try:
        assert render(camp) == text
        same_as_the_report(camp, text, full=True)
    finally:
        camp.ledger.close()


def test_a_refereed_game_replays_as_each_party_saw_it(tmp_path):
    """The referee's replay shows the full state, each player's what the referee sealed to it
    (its own blocks by name): every step as ``report.context`` shows it to that party."""
    from pbem.cli import cli
    from pbem.play.campaign import Campaign
    from pbem.view.replay import render

    result = CliRunner().invoke(cli, ["demo", "--referee", "--game", "gallipoli-blocks", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    parties = sorted(d for d in tmp_path.iterdir() if (d / "campaign.db").is_file())
    assert len(parties) == 3
    for where in parties:
        camp = Campaign.open(where, readonly=True)
        try:
            assert camp.refereed and camp.ledger.head()[0] > 20
            same_as_the_report(camp, render(camp), full=False)
        finally:
            camp.ledger.close()


@pytest.mark.parametrize("module", sorted(p.name for p in GOLDEN.iterdir() if (p / "turns").is_dir()))
def test_a_golden_game_replays_as_its_reports_in_at_most_4_kb_per_envelope(module, tmp_path):
    from pbem.view.replay import render

    camp = golden_campaign(module, tmp_path / "alice")
    try:
        assert camp.outcome() is not None
        envelopes = camp.ledger.head()[0] + 1
        page = render(camp)
        size = len(page.encode())
        assert size <= PER_ENVELOPE * envelopes, f"{size / envelopes:.0f} bytes per envelope"
        same_as_the_report(camp, page, full=True)  # every step: a finished two-player game, all opened
    finally:
        camp.ledger.close()


def test_without_script_the_page_tells_every_step_and_where_the_game_ended(unfinished):
    from pbem.play.campaign import Campaign
    from pbem.view.replay import frames, render

    camp = Campaign.open(unfinished / "alice", readonly=True)
    try:
        page, last = render(camp), list(frames(camp))[-1]
    finally:
        camp.ledger.close()
    plain = page.split('<script id="replay-data"')[0]
    assert len(steps_of(plain)) == 25
    assert f"After envelope #{last.seq}, the last" in plain
    assert last.tracks and html.unescape(plain.split('<p id="tracks">')[1].split("</p>")[0]) == last.tracks
    assert html.unescape(plain.split('<pre id="situation">')[1].split("</pre>")[0]) == "\n".join(last.lines)
    assert "<noscript>" in plain and "the map, and a step at a time, need script" in plain


@pytest.fixture(scope="module")
def long_history(tmp_path_factory) -> Path:
    from pbem.bench import build

    db, _ = build(tmp_path_factory.mktemp("long"), 400, 400)
    return db.parent


def test_a_long_replay_shows_a_bar_on_a_terminal_and_nothing_in_a_script(long_history, tmp_path):
    import subprocess

    from tests.test_progress import PBEM, _on_a_terminal

    shown = _on_a_terminal("replay", "--campaign", str(long_history), "-o", str(tmp_path / "tty.html"))
    assert "replaying" in shown and "100%" in shown
    quiet = subprocess.run([PBEM, "replay", "--campaign", str(long_history), "-o", str(tmp_path / "quiet.html")],
                           capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout.startswith("wrote ")
    for name in ("tty.html", "quiet.html"):
        page = (tmp_path / name).read_text()
        assert "replaying" not in page and "100%" not in page
        assert len(steps_of(page)) == 400
    assert (tmp_path / "tty.html").read_text() == (tmp_path / "quiet.html").read_text()

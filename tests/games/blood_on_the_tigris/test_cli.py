"""Blood on the Tigris through the command line, as two players run it: new (with a player's own
charts: `--charts FILE`, checked whole), join, play (each attack listed with its odds column and
the chance of each result), report (text and HTML with the hex map: even columns lower, supply
states, depots, turn and weather, units with their steps), verify, audit and replay; a bad order
or a bad chart file is refused with a reason, exit 1, no traceback and nothing changed."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from pbem_engine.games.blood_on_the_tigris import charts as tigris_charts
from tests.conftest import assert_refused, db_bytes, invoke, new_player, pbem

MODULE = "blood-on-the-tigris"
CHARTS = Path(__file__).resolve().parent / "charts"
OWNER, BROKEN = CHARTS / "test-owner-charts.toml", CHARTS / "test-broken-charts.toml"
ODDS = re.compile(r"(\d+) against (\d+), column (\d+-\d+), DRM ([+-]\d+): (.+?)(?:; if the defender|$)")


def newest(player):
    return max((player.dir / "sent").glob("*.pbem"))


def start(runner, tmp_path, *extra):
    alice = new_player(runner, tmp_path, "alice", "british")
    bob = new_player(runner, tmp_path, "bob", "turkish")
    pbem(runner, "new", MODULE, "--as", "british", "--key", "alice", "--opponent", bob.pub,
         "--scenario", "turning-point", "--option", "turns=14", *extra, "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", newest(alice), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob), env=alice.env)
    return alice, bob


@pytest.fixture
def game(tmp_path, runner, home):
    return (runner, *start(runner, tmp_path))


def attack_lines(listing: str) -> list[str]:
    return [line for line in listing.splitlines() if re.match(r"\s*\d+\.\s+attack ", line)]


def shares(text: str) -> Fraction:
    """The chances listed after an attack, added up (they must make exactly one)."""
    return sum((Fraction(int(p), 100) for p in re.findall(r" (\d+)%", text)), Fraction(0))


def test_games_lists_the_module_its_scenarios_and_options(runner, home):
    out = pbem(runner, "games").output
    assert MODULE in out
    for text in ("campaign", "turning-point", "lightning", "charts", "losses", "fit"):
        assert text in out, text


def test_play_lists_each_attack_with_its_odds_column_and_the_chance_of_each_result(game):
    runner, alice, _ = game
    listed = pbem(runner, "play", "--campaign", alice.dir, "--no-interactive", env=alice.env).output
    attacks = attack_lines(listed)
    assert len(attacks) >= 4, listed
    for line in attacks:
        m = ODDS.search(line)
        assert m, line
        # rounding aside (whole percents), each reading lists results that make the whole die
        for reading in line.split(" — ", 1)[1].split("; if the defender expends its depot: "):
            assert abs(shares(reading) - 1) <= Fraction(3, 100), reading
    # the same odds the engine computes from the charts in use (here ours)
    assert "if the defender expends its depot" in attacks[0]
    report = pbem(runner, "report", "--campaign", alice.dir, env=alice.env).output
    assert "charts: PROVISIONAL, ours" in report and "ground units in supply" in report


def test_a_bad_order_is_refused_and_changes_nothing(game):
    runner, alice, _ = game
    before = db_bytes(alice.dir)
    result = invoke(runner, "play", "--campaign", alice.dir, "march on baghdad", env=alice.env)
    assert_refused(result)
    assert "march on baghdad" in result.stderr
    assert db_bytes(alice.dir) == before


def test_a_broken_chart_file_is_refused_listing_every_problem_and_nothing_is_written(tmp_path, runner, home):
    alice = new_player(runner, tmp_path, "alice", "british")
    bob = new_player(runner, tmp_path, "bob", "turkish")
    result = invoke(runner, "new", MODULE, "--as", "british", "--key", "alice", "--opponent", bob.pub,
                    "--charts", BROKEN, "--campaign", alice.dir, env=alice.env)
    assert_refused(result, "bad-charts")
    with pytest.raises(tigris_charts.ChartError) as err:
        tigris_charts.load_charts(tomllib.loads(BROKEN.read_text()))
    problems = err.value.problems
    first, *detail = result.stderr.splitlines()
    assert f"have {len(problems)} problem(s)" in first and "nothing was written" in first
    assert [line.strip() for line in detail] == problems  # every problem, one a line
    assert not alice.dir.exists()
    # a file that is not TOML at all, and a module that takes no charts
    junk = tmp_path / "junk.toml"
    junk.write_text("crt = [unclosed")
    assert_refused(invoke(runner, "new", MODULE, "--as", "british", "--key", "alice", "--opponent", bob.pub,
                          "--charts", junk, "--campaign", alice.dir, env=alice.env), "bad-charts")
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps([1, 2, 3]))
    assert_refused(invoke(runner, "new", MODULE, "--as", "british", "--key", "alice", "--opponent", bob.pub,
                          "--charts", hostile, "--campaign", alice.dir, env=alice.env), "bad-charts")
    fractional = tmp_path / "fractional.toml"  # the chart check allows 1.5 MP; the signed invitation does not
    fractional.write_text(OWNER.read_text().replace("mp = 2\n", "mp = 1.5\n"))
    result = invoke(runner, "new", MODULE, "--as", "british", "--key", "alice", "--opponent", bob.pub,
                    "--charts", fractional, "--campaign", alice.dir, env=alice.env)
    assert_refused(result, "bad-charts")
    assert "terrain_effects.marsh.mp: not a whole number" in result.stderr
    result = invoke(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
                    "--charts", OWNER, "--campaign", alice.dir, env=alice.env)
    assert result.exit_code == 2 and "takes no --charts" in result.stderr
    assert not alice.dir.exists()


@pytest.mark.parametrize("form", ["toml", "json"])
def test_a_players_own_charts_travel_in_the_invitation_and_change_the_odds(tmp_path, runner, home, form):
    path = OWNER
    if form == "json":
        path = tmp_path / "owner.json"
        path.write_text(json.dumps(tomllib.loads(OWNER.read_text())))
    alice, bob = start(runner, tmp_path / "theirs", "--charts", path)
    ours_alice, _ = start(runner, tmp_path / "ours")
    theirs = attack_lines(pbem(runner, "play", "--campaign", alice.dir, "--no-interactive", env=alice.env).output)
    ours = attack_lines(pbem(runner, "play", "--campaign", ours_alice.dir, "--no-interactive",
                             env=ours_alice.env).output)
    assert len(theirs) == len(ours)
    assert [line.split(" — ")[0] for line in theirs] == [line.split(" — ")[0] for line in ours]  # the same attacks
    assert theirs != ours  # at other odds: their CRT, advantages and terrain
    assert any(ODDS.search(line).group(3) == "3-2" for line in theirs)  # a column only their CRT has
    assert not any(ODDS.search(line).group(3) == "3-2" for line in ours)
    for who in (alice, bob):  # the joiner's tool uses them too: they came in the signed invitation
        report = pbem(runner, "report", "--campaign", who.dir, env=who.env).output
        assert "charts: supplied by a player who owns the game (test charts (made-up values))" in report
        assert "charts: PROVISIONAL, ours" not in report
        notes = report.split("PROVISIONAL DATA")[1].split("What happened")[0]  # the map and counters are still ours
        assert "- map:" in notes and "- charts:" not in notes, notes


def entropy(party: str):
    counter = iter(range(10**6))
    return lambda n: hashlib.sha256(f"pbem/tests/{MODULE}/{party}/{next(counter)}".encode()).digest()[:n]


def play_whole(root, scenario: str, options: dict):
    """Both sides played to the end by the game's own player through real turn files."""
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from tests.test_golden import identity

    alice, bob = identity("alice"), identity("bob")
    british, genesis = Campaign.new(root / "alice", MODULE, "british", alice, bob.public, bob.name,
                                    scenario, options, entropy=entropy("alice"))
    turkish, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    british.ingest([("join", joined.raw)])
    camps, who = {"british": british, "turkish": turkish}, {"british": alice, "turkish": bob}
    sent = []
    while (waiting := british.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        sent.append((side, result))
        camps["turkish" if side == "british" else "british"].ingest([("f", result.envelope.raw)])
        assert len(sent) < 300, "the game does not end"
    for camp in camps.values():
        camp.ledger.close()
    return sent


def events(sent) -> list[str]:
    return [e["text"] for _, r in sent for e in r.events]


def test_their_charts_change_the_result_of_the_same_attack_with_the_same_dice(tmp_path):
    """The same game with the same randomness, once on our charts and once on theirs: the first
    attack (the same units, the same die) is read on another column and gives another result."""
    owner = tomllib.loads(OWNER.read_text())
    ours = [t for t in events(play_whole(tmp_path / "ours", "turning-point", {"turns": 13}))
            if t.startswith("british attack 1308")]
    theirs = [t for t in events(play_whole(tmp_path / "theirs", "turning-point", {"turns": 13, "charts": owner}))
              if t.startswith("british attack 1308")]
    assert ours and theirs
    die = re.compile(r"die (\d)")
    assert die.search(ours[0]).group(1) == die.search(theirs[0]).group(1)  # the same roll
    assert ours[0].rsplit(": ", 1)[1] != theirs[0].rsplit(": ", 1)[1], (ours[0], theirs[0])  # another result


def test_a_whole_game_reports_verifies_audits_and_replays(runner, home, tmp_path):
    sent = play_whole(tmp_path, "turning-point", {"turns": 14})
    text = "\n".join(events(sent))
    for what in ("british attack", "turkish attack", "survives", "out of supply (3.4)", "expended (12.4)"):
        assert what in text, what
    alice = tmp_path / "alice"
    html = tmp_path / "report.html"
    pbem(runner, "report", "--html", "-o", html, "--campaign", alice)
    page = html.read_text()
    for what in ("Turn: 14 of 14 (Dec 1915)", "Weather: dry", "Supply points", 'class="marker"',
                 "depot (M mobile, S static)", "bar: OOS, out of supply", "steps left", "Kut 1518", "Baghdad 1201"):
        assert what in page, what
    assert re.search(r'class="status" data-status="OO[SC]"', page)  # some unit out of supply or communication
    # the hex grid: even columns half a hex lower than the odd ones beside them (map_data.py)
    # (a hex location is its hexagon, whose first corner is half a side left of and above its centre)
    centres = {m.group(1): (float(m.group(2)) + 15, float(m.group(3)) + 26) for m in re.finditer(
        r'<g class="loc" data-id="(\d{4})"[^>]*><title>[^<]*</title><polygon class="hex" points="([\d.-]+),([\d.-]+) ',
        page)}
    assert {"1201", "1202", "1301", "1302", "1518", "1345"} <= set(centres)  # Baghdad, Kut, Basra
    (x12, y1201), (x13, y1301) = centres["1201"], centres["1301"]
    assert x13 > x12 and y1301 < y1201  # column 13 (odd) sits half a hex higher than 12 (even)
    assert abs((y1201 - y1301) * 2 - (centres["1202"][1] - y1201)) < 0.5  # by half a hex
    assert len(centres) < 200  # plain hexes are drawn only where something stands
    assert pbem(runner, "verify", alice).output.startswith("OK")
    assert "chi" in pbem(runner, "audit", alice).output.lower()
    replay = tmp_path / "replay.html"
    pbem(runner, "replay", "-o", replay, "--campaign", alice)
    assert "Weather" in replay.read_text()

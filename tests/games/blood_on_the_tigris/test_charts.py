"""The charts: our provisional ones are marked and valid; a player's chart file is checked with
every problem listed at once; a supplied file with different values changes results as it
should; the outcome distribution is exact and matches the table."""

from __future__ import annotations

import copy
import itertools
import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import charts, combat
from pbem_engine.games.blood_on_the_tigris.charts_provisional import CHARTS

HERE = Path(__file__).parent
OWNER = tomllib.loads((HERE / "charts" / "test-owner-charts.toml").read_text())
BROKEN = tomllib.loads((HERE / "charts" / "test-broken-charts.toml").read_text())


def attack(att: int, dfd: int, **kw) -> combat.Attack:
    return combat.Attack(attackers=[combat.Unit("att", att, hex="a")], defenders=[combat.Unit("def", dfd)], **kw)


def test_the_provisional_charts_are_marked_with_their_reasons():
    c = charts.PROVISIONAL
    assert not c.supplied
    assert "PROVISIONAL" in c.label and "not the publisher's" in c.label
    assert set(c.provisional) == set(charts.TABLES)
    assert all(len(reason) > 40 for reason in c.provisional.values())
    assert charts.load_charts(None) == c


def test_the_provisional_crt_never_gets_worse_for_the_attacker_right_or_down():
    crt = charts.PROVISIONAL.crt

    def score(r: charts.CrtResult) -> int:
        return r.defender_steps * 2 - r.attacker_steps * 2 + (6 if r.breakthrough else 0) - (1 if r.engaged else 0)

    for row in crt.rows.values():
        assert all(score(a) <= score(b) + 1 for a, b in itertools.pairwise(row))
    for col in range(len(crt.columns)):
        scores = [score(crt.rows[f][col]) for f in range(1, 7)]
        assert all(a <= b + 1 for a, b in itertools.pairwise(scores))


def test_a_broken_chart_file_lists_every_problem_at_once():
    with pytest.raises(charts.ChartError) as err:
        charts.load_charts(BROKEN)
    problems = err.value.problems
    expected = [
        "air_to_air: missing",  # a missing table
        "crt.columns[3]: 'three to one' is not an odds column",  # a wrong column
        "crt.columns: must rise strictly",  # 2-1 twice
        "crt.rows.2: has 3 results for 4 columns",  # a short row
        "crt.rows.3[2]: 'X/9' is not a known result",  # an unknown result
        "crt.rows: no row for die value 6",  # a missing die face
        "tactical_advantages.trench.value: must be a whole number",  # non-numeric
        "tactical_advantages.trench.counts: must be one of",
        "terrain_effects.clear.mp: must be a number of movement points",  # non-numeric
        "terrain_effects.clear.ta: 'hill' is not an entry of tactical_advantages",
        "unknown table 'weather'",
        "tactical_advantages: missing river, wadi, fort, combined_arms, hq",  # what the rules look up
        "terrain_effects: missing river, wadi, seasonal_water",
    ]
    for text in expected:
        assert any(text in p for p in problems), (text, problems)
    assert len(problems) == len(expected)
    assert f"{len(expected)} problems" in str(err.value)


def test_every_missing_table_is_named():
    with pytest.raises(charts.ChartError) as err:
        charts.load_charts({})
    assert [p.split(":")[0] for p in err.value.problems] == list(charts.TABLES)
    with pytest.raises(charts.ChartError):
        charts.load_charts(["not", "a", "table"])  # type: ignore[arg-type]


def test_non_numeric_drm_and_bad_air_results_are_listed():
    data = copy.deepcopy(CHARTS)
    data["air_to_air"]["turkish_intercept_drm"] = "minus one"
    data["air_to_air"]["rows"]["2"][1] = "shot down"
    data["crt"]["rows"]["4"][0] = 3
    with pytest.raises(charts.ChartError) as err:
        charts.load_charts(data)
    assert len(err.value.problems) == 3, err.value.problems


def test_results_in_the_texts_own_notation_are_known():
    assert charts.parse_crt_result("/-2") == charts.CrtResult("/-2", 0, 2)  # 7.61's example
    assert charts.parse_crt_result("1/1E").engaged
    assert charts.parse_crt_result("-/BT").breakthrough
    for bad in ("", "2", "1/9", "A/1", "1/2/3", "-/BTE", None, 3):
        assert charts.parse_crt_result(bad) is None, bad


def test_a_supplied_chart_file_is_used_whole_and_changes_results():
    owner = charts.load_charts(OWNER)
    assert owner.supplied and owner.provisional == {} and owner.label == "test charts (made-up values)"
    # the same attack, 7 against 4 (1.75), the same die 4
    a = attack(7, 4)
    ours = combat.resolve(charts.PROVISIONAL, a, ScriptedDice([4]))
    theirs = combat.resolve(owner, a, ScriptedDice([4]))
    assert (ours.setup.column_label, ours.result.text) == ("1-1", "1/1E")
    assert (theirs.setup.column_label, theirs.result.text) == ("3-2", "-/1")  # a 3-2 column exists there
    # their trench is worth 2 shifts, ours 1
    t = attack(7, 4, defender_tas={"trench": 1})
    assert combat.prepare(charts.PROVISIONAL, t).shift == -1
    assert combat.prepare(owner, t).shift == -2
    # their CRT has rows 0-7: a DRM of +1 on a 6 reads row 7, where ours stops at 6
    c = attack(7, 4, attacker_commands=[combat.Command("II Corps", 1, "corps")])
    assert combat.resolve(owner, c, ScriptedDice([6])).row == 7
    assert combat.resolve(charts.PROVISIONAL, c, ScriptedDice([6])).row == 6
    # and their Turkish interception modifier is +1, ours -1
    assert combat.resolve_air(owner, [2], [1], True, ScriptedDice([3])).row == 4
    assert combat.resolve_air(charts.PROVISIONAL, [2], [1], True, ScriptedDice([3])).row == 2


def test_a_chart_file_without_an_entry_the_rules_look_up_is_refused_before_play():
    """A file that parsed but lacks the river advantage or the wadi hexside would fail in the
    middle of a combat or a move: it is refused whole instead."""
    data = json.loads(json.dumps(OWNER))
    del data["tactical_advantages"]["river"], data["terrain_effects"]["seasonal_water"]
    with pytest.raises(charts.ChartError) as err:
        charts.load_charts(data)
    assert err.value.problems == [
        "tactical_advantages: missing river (the rules look these entries up by id)",
        "terrain_effects: missing seasonal_water (the rules look these entries up by id)",
        "terrain_effects.river.ta: 'river' is not an entry of tactical_advantages"]


def test_a_json_chart_file_is_read_the_same():
    assert charts.load_charts(json.loads(json.dumps(OWNER))) == charts.load_charts(OWNER)


def test_an_unknown_tactical_advantage_is_refused():
    with pytest.raises(ValueError, match="not on the Tactical Advantages Chart"):
        combat.prepare(charts.load_charts(OWNER), attack(7, 4, defender_tas={"grove": 1}))
    with pytest.raises(ValueError, match="defender's advantage"):
        combat.prepare(charts.PROVISIONAL, attack(7, 4, attacker_tas={"fort": 1}))


@pytest.mark.parametrize("chart", [charts.PROVISIONAL, charts.load_charts(OWNER)], ids=["provisional", "owner"])
@pytest.mark.parametrize("att,dfd,drm", [(1, 5, 0), (7, 4, 0), (13, 5, -2), (30, 3, 3), (6, 6, 1)])
def test_the_distribution_sums_to_one_and_matches_the_table(chart, att, dfd, drm):
    cmds = [combat.Command("HQ", abs(drm), "corps")] if drm else []
    a = attack(att, dfd, **({"attacker_commands": cmds} if drm > 0 else {"defender_commands": cmds}))
    dist = combat.outcome_distribution(chart, a)
    assert sum(dist.values()) == 1
    assert all(isinstance(p, Fraction) and p.denominator in (1, 2, 3, 6) for p in dist.values())
    # each face, scripted, gives a result the distribution counts: tally them
    tally: dict[str, Fraction] = {}
    for face in range(1, 7):
        text = combat.resolve(chart, a, ScriptedDice([face])).result.text
        tally[text] = tally.get(text, Fraction(0)) + Fraction(1, 6)
    assert tally == dist
    setup = combat.prepare(chart, a)
    assert setup.drm == drm
    column = [chart.crt.rows[combat.row_for(chart.crt, f, drm)][setup.column].text for f in range(1, 7)]
    assert dist == {t: Fraction(column.count(t), 6) for t in column}


def test_the_air_to_air_table():
    c = charts.PROVISIONAL
    # 7.1: the interceptor is the attacker; two Shorts rate 1 (2.1); 2 against 1 is 2-1
    res = combat.resolve_air(c, [1, 1], [Fraction(1, 2), Fraction(1, 2)], False, ScriptedDice([5]))
    assert (res.interceptor, res.bomber, res.column_label, res.drm, res.row) == (2, 1, "2-1", 0, 5)
    assert (res.result.interceptor, res.result.bomber) == ("-", "D")
    # 11.4: Turkish interceptors take -1 on the die (ours)
    turk = combat.resolve_air(c, [1, 1], [1], True, ScriptedDice([5]))
    assert (turk.drm, turk.row, turk.result.text) == (-1, 4, "-/A")
    dist = combat.air_distribution(c, [1], [1], True)
    assert sum(dist.values()) == 1 and dist["D/-"] == Fraction(1, 3)  # faces 1 and 2 both read row 1


def test_options_are_checked():
    with pytest.raises(ValueError, match="rounding"):
        combat.prepare(charts.PROVISIONAL, attack(3, 1), {"rounding": "nearest"})
    with pytest.raises(ValueError, match="unknown combat option"):
        combat.prepare(charts.PROVISIONAL, attack(3, 1), {"halving": "up"})

"""The bench's floors do what the measured command does and no more (bench/floors.py, bench/replay.py),
and Rally the Troops' replay is timed by running its rules, never printed as a constant (bench/rally.py)."""

import json
import re
import shutil
import sys

import pytest

from pbem.bench import build
from pbem.bench.floors import floor_command, imports_of
from pbem.bench.rally import measure as rally_measure


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    root = tmp_path_factory.mktemp("floors")
    build(root, 30, 60)
    return root / "red"


def test_a_commands_floor_imports_what_that_command_imports_outside_pbem(campaign):
    status = imports_of(["status", "--campaign", str(campaign)])
    assert "click" in status and "sqlite3" in status
    assert not any(m.split(".")[0] in ("pbem", "pbem_engine") for m in status)  # our own start-up is the command's
    assert "jinja2" not in status  # status renders no page: a floor importing jinja2 would hide ~30 ms of ours
    floor = floor_command(status)
    assert floor[:2] == [sys.executable, "-c"] and "import " in floor[2]
    for name in ("click", "sqlite3"):
        assert name in floor[2].replace(",", " ").split()
    play_ish = imports_of(["verify", str(campaign)])
    assert set(status) != set(play_ish)  # each command its own floor, not one list for all


def test_the_replay_floor_hashes_each_envelope_with_the_projects_canonical_json():
    from pbem.bench.replay import measure

    m = measure(games=1, repeat=1)
    assert m["envelopes"] > 10 and m["actions"] > m["envelopes"] / 2
    assert m["replay_ratio"] > 1  # the replay hashes the same states and applies the rules too
    assert m["state_last"] > 0 and m["state_first"] > 0
    # what grows with the history is kept beside the hashed state (protocol 4): its second half is
    # no larger than its first (it was twice as large when the items shown and eliminated blocks grew it)
    assert m["state_late"] < 1.2 * m["state_early"]


TOY_RULES = """
exports.roles = ["Red", "Blue"]
exports.setup = function (seed, scenario, options) { return { seed, state: "play", active: "Red", n: 0, log: [] } }
exports.view = function (state, role) {
    if (state.state === "game_over" || state.active !== role) return {}
    return { actions: { add: [1, 2], pass: 1, undo: 0 } }
}
exports.action = function (state, role, action, arg) {
    if (action === "add") state.n += arg
    state.log.push(role + " " + action)
    state.active = state.active === "Red" ? "Blue" : "Red"
    if (state.n >= 40) state.state = "game_over"
    return state
}
"""


@pytest.mark.skipif(shutil.which("node") is None and shutil.which("nodejs") is None, reason="Node is not installed")
def test_rallys_replay_is_timed_by_running_its_rules_under_node(tmp_path):
    (tmp_path / "rules.js").write_text(TOY_RULES)
    r = rally_measure(tmp_path, games=2, rounds=3, scenario="Toy")
    assert isinstance(r, dict), r
    assert r["games"] == 2 and r["actions"] >= 2 * 20 and r["warm_us"] > 0 and r["cold_us"] > 0
    json.dumps(r)


def test_without_a_copy_of_rallys_rules_the_bench_says_so(tmp_path):
    assert rally_measure(None).startswith("not timed: give a copy")
    assert rally_measure(tmp_path) == f"not timed: no rules.js in {tmp_path}"
    (tmp_path / "rules.js").write_text("throw new Error('broken copy')")
    if shutil.which("node") or shutil.which("nodejs"):
        assert "its rules failed under Node (Error: broken copy)" in rally_measure(tmp_path)


def test_every_games_page_click_and_cold_command_are_timed_beside_the_block_games():
    from pbem.bench.pages import report

    lines = []
    games = {"gallipoli-blocks": {"turns": 1}, "blood-on-the-tigris": None}
    m = report(lines.append, samples=1, games=games)
    assert lines[0].startswith("play page, a click and a cold pbem status per game")
    for module in games:
        line = next(x for x in lines if x.startswith(f"  {module}: "))
        assert re.search(r"page \d+ ms, click \d+ ms, cold status \d+ ms \(1 decisions\)", line), line
    assert re.search(r"Blood on the Tigris to the block game: page [\d.]+x \(target <= 1.5\) (OK|MISSED), click "
                     r"[\d.]+x .* cold status [\d.]+x \(target <= 1.3\)", lines[-1]), lines[-1]
    assert m["tigris_page_ratio"] > 0

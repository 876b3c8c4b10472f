"""The block game's replay benchmark runs and reports ratios to its floor (never a timed assertion)."""

from pbem.bench.replay import report


def test_the_replay_benchmark_reports_ratios_and_microseconds():
    lines = []
    m = report(lines.append, games=1)
    assert m["actions"] > 50 and m["replay_ratio"] > 0 and m["verify_ratio"] > m["replay_ratio"] * 0.5
    assert len(lines) == 1 and "x the stdlib floor" in lines[0] and "µs per action" in lines[0]
    assert "Rally the Troops" in lines[0]

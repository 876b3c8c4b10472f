"""The block game's replay benchmark runs and reports ratios to its floor, and the ``pbem replay``
page's times at two history lengths and its bytes per envelope (never a timed assertion: the
ratio's target is the bench's to judge, on histories long enough to mean something)."""

from pbem.bench.replay import report


def test_the_replay_benchmark_reports_ratios_and_microseconds():
    lines = []
    m = report(lines.append, games=1, lengths=(30, 90))
    assert m["actions"] > 50 and m["replay_ratio"] > 0 and m["verify_ratio"] > 0 and m["floor_us"] > 0
    assert len(lines) == 3 and "x its floor (the project's canonical JSON" in lines[0] and "per action: replay" in lines[0]
    assert lines[1].startswith("  Rally the Troops' replay: not timed")  # no copy of its rules given: no figure at all
    assert lines[2].startswith("pbem replay (a process each, best of 3), barrage 30 and 90 envelopes: ")
    assert "for 3x the envelopes (target < 3)" in lines[2] and "peak memory" in lines[2]
    assert m["page_small_s"] > 0 and m["page_big_s"] > 0 and m["page_big_mib"] > 0
    assert "the golden block game's page" in lines[2]
    assert "bytes per envelope (33 envelopes; target <= 4096)" in lines[2]
    assert 0 < m["page_golden_bytes"] <= 4096  # a size, not a time: the page's own bound

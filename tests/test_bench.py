"""`pbem bench` runs end to end (at a small size: the targets themselves are judged on the full run,
as ratios to floors measured in the same run, never by a timed test)."""

import re

from click.testing import CliRunner

from pbem.cli import cli


def test_the_benchmark_runs_and_reports_ratios_to_its_floors():
    result = CliRunner().invoke(cli, ["bench", "--envelopes", "120", "--dice", "1200", "--small", "12"])
    assert result.exit_code == 0, result.output
    assert re.search(r"verify \(one process\): 120 envelopes, \d+ dice in [\d.]+ s; floor .* ratio [\d.]+", result.output)
    assert re.search(r"with its signature worker on a second core \(needs a free core", result.output)
    parts = re.search(r"where one-process verify's (\d+) µs an envelope go .*: signature (\d+) and HMAC (\d+) \(the "
                      r"floor\), reading and armor (\d+), parsing and the canonical check (\d+), the rules, the "
                      r"protocol's checks and the state hash (\d+), the rest (-?\d+)", result.output)
    assert parts, result.output
    total, *each = map(int, parts.groups())
    assert abs(sum(each) - total) <= 4 and min(each[:-1]) >= 0  # the parts (each rounded) make up the whole
    for command, history in (("report", 120), ("status", 120), ("play", 120), ("ingest", 12), ("ingest", 120)):
        assert re.search(rf"pbem {command} \(cold process, median of \d+ taken in turn with its floor\), history "
                         rf"{history}: \d+ ms, ratio [\d.]+ to its import floor \(\d+ ms: python importing the \d+ "
                         r"modules it imports from outside pbem \(click, .*; target <= 1\.3\)", result.output), result.output
    assert re.search(r"ingest growth, 120 vs 12 envelopes: [\d.]+x", result.output)
    assert re.search(r"shared deck, turn files .*: a draw followed by a hand-over 0 extra, a draw whose drawer "
                     r"keeps the decision 1 extra, .* a fresh shuffle 3 messages riding on 3 files sent anyway "
                     r"\(0 extra\)", result.output.replace("\n", " ")), result.output
    assert re.search(r"verify of a game with a shared deck: \d+ exponentiations, ratio [\d.]+ to their bare cost "
                     r"\(target 1\.5\)", result.output), result.output
    assert re.search(r"block game, \d+ games by its own player, \d+ actions in \d+ envelopes: replay [\d.]+x its "
                     r"floor .* verify in one process [\d.]+x its floor", result.output.replace("\n", " ")), result.output


def test_parts_of_the_benchmark_run_alone():
    result = CliRunner().invoke(cli, ["bench", "--envelopes", "60", "--dice", "600", "--small", "12", "--only", "report"])
    assert result.exit_code == 0, result.output
    assert "pbem report (cold process" in result.output and "verify:" not in result.output
    assert "pbem play (cold process" in result.output  # signs red's next turn file and writes its mail
    assert "block game" not in result.output and "pbem ingest" not in result.output
    refused = CliRunner().invoke(cli, ["bench", "--only", "replay,speed"])
    assert refused.exit_code != 0 and "no part 'speed'" in refused.output

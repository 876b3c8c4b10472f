"""`pbem bench` runs end to end (at a small size: the targets themselves are judged on the full run,
as ratios to floors measured in the same run, never by a timed test)."""

import re

from click.testing import CliRunner

from pbem.cli import cli


def test_the_benchmark_runs_and_reports_ratios_to_its_floors():
    result = CliRunner().invoke(cli, ["bench", "--envelopes", "120", "--dice", "1200", "--small", "12"])
    assert result.exit_code == 0, result.output
    assert re.search(r"verify: 120 envelopes, \d+ dice in [\d.]+ s; floor .* ratio [\d.]+", result.output)
    assert re.search(r"ingest \(cold process.*\n\s+ratios [\d.]+ and [\d.]+", result.output)
    for command in ("report", "status", "play"):
        assert re.search(rf"pbem {command} \(cold process, median of \d+ taken in turn with the floor\), history 120: "
                         r"\d+ ms, ratio [\d.]+ to the import floor \(\d+ ms; target <= 1\.3\)", result.output), result.output
    assert re.search(r"shared deck, turn files .*: a draw followed by a hand-over 0 extra, a draw whose drawer "
                     r"keeps the decision 1 extra, .* a fresh shuffle 3 messages riding on 3 files sent anyway "
                     r"\(0 extra\)", result.output.replace("\n", " ")), result.output
    assert re.search(r"verify of a game with a shared deck: \d+ exponentiations, ratio [\d.]+ to their bare cost "
                     r"\(target 1\.5\)", result.output), result.output
    assert re.search(r"block game, \d+ games by its own player, \d+ actions: replay [\d.]+x the stdlib floor .* "
                     r"verify [\d.]+x", result.output.replace("\n", " ")), result.output


def test_parts_of_the_benchmark_run_alone():
    result = CliRunner().invoke(cli, ["bench", "--envelopes", "60", "--dice", "600", "--small", "12", "--only", "report"])
    assert result.exit_code == 0, result.output
    assert "pbem report (cold process" in result.output and "verify:" not in result.output
    assert "pbem play (cold process" in result.output  # signs red's next turn file and writes its mail
    assert "block game" not in result.output and "ingest" not in result.output
    refused = CliRunner().invoke(cli, ["bench", "--only", "replay,speed"])
    assert refused.exit_code != 0 and "no part 'speed'" in refused.output

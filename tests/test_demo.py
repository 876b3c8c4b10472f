"""`pbem demo`: a new user's first command plays a whole game by real turn files."""

import re
import subprocess
import sys

from click.testing import CliRunner

from pbem.cli import cli
from pbem.check.verify import verify_path
from tests.conftest import assert_no_traceback, assert_refused


def test_demo_plays_a_game_by_files_and_verifies_both_sides(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    out = result.output
    verified = [line for line in out.splitlines() if line.startswith("verify ")]
    assert len(verified) == 2 and all(": OK: " in line for line in verified)
    assert "RESULT:" in out and "Everything is in" in out
    alice, bob = tmp_path / "demo" / "alice", tmp_path / "demo" / "bob"
    sent_by_alice = sorted((alice / "sent").iterdir())
    received_by_bob = sorted((bob / "received").iterdir())
    assert len(sent_by_alice) >= 5
    # What bob holds is exactly what alice wrote: the files are the only channel.
    for mine in sent_by_alice[1:]:
        assert (bob / "received" / mine.name).read_text() == mine.read_text()
    assert {p.name for p in received_by_bob} >= {p.name for p in sent_by_alice}
    assert verify_path(alice).state_hash == verify_path(bob).state_hash
    assert (alice / "report.html").read_text().startswith("<!doctype html>")
    # the default game is the block game: a landing, a battle and a supply check, all by files
    assert "Gallipoli, a block and card game" in out and "battle for" in out
    from pbem.play.campaign import Campaign

    camp = Campaign.open(alice, readonly=True)
    try:
        log = "\n".join(e["text"] for e in camp.ledger.events())
    finally:
        camp.ledger.close()
    assert "landing fire at" in log and "battle for" in log and "supply check" in log
    # what the game cost by e-mail, per game turn (the demo's entropy is fresh: a different game each
    # run). With battle plans and forced rolls sealed at once a game turn of the block game, battles
    # and landings included, takes about 7 files on average (2 to 22 seen); it took about 25 before
    import re
    import statistics

    [line] = [line for line in out.splitlines() if line.startswith("turn files per game turn")]
    counts = [int(n) for n in re.findall(r"turn \d+: (\d+)", line)]
    assert len(counts) >= 2 and statistics.median(counts) <= 10 and statistics.mean(counts) <= 12, line


def test_demo_of_assault_on_gallipoli(tmp_path):
    """Its own players, two turns: the landing, fire (with its odds), a close combat from private
    hands; both sides verify; the turn files of each game turn are counted."""
    import re

    from pbem.play.campaign import Campaign

    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path / "d"), "--game", "assault-on-gallipoli"])
    assert result.exit_code == 0, result.output
    out = result.output
    verified = [line for line in out.splitlines() if line.startswith("verify ")]
    assert len(verified) == 2 and all(": OK: " in line for line in verified), verified
    assert "hidden draws checked against its secret" in out
    camp = Campaign.open(tmp_path / "d" / "alice", readonly=True)
    try:
        log = "\n".join(e["text"] for e in camp.ledger.events())
    finally:
        camp.ledger.close()
    for what in ("landing roll", " fire from ", "close combat at", "wins the close combat", "Killing Time"):
        assert what in log, what
    [line] = [line for line in out.splitlines() if line.startswith("turn files per game turn")]
    counts = [int(n) for n in re.findall(r"turn \d+: (\d+)", line)]
    assert len(counts) == 2 and all(n >= 10 for n in counts), line


def test_demo_of_blood_on_the_tigris(tmp_path):
    """Its own players, Scenario 2's turns 13 and 14: attacks (air-to-air, depots expended, a
    breakthrough) and the supply survival rolls; both sides verify to one state; the turn files of
    each game turn are counted: two a full turn, plus a round trip for each attack's roll and for
    the survival rolls the Turks' Mutual Operations wait on; none only confirms a forced choice."""
    import re

    from pbem.play.campaign import Campaign
    from pbem.wire.envelope import read_envelopes

    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path / "d"), "--game", "blood-on-the-tigris"])
    assert result.exit_code == 0, result.output
    out = result.output
    verified = [line for line in out.splitlines() if line.startswith("verify ")]
    assert len(verified) == 2 and all(": OK: " in line for line in verified), verified
    assert len({line.rsplit("state ", 1)[1] for line in verified}) == 1  # both sides reach the same state
    camp = Campaign.open(tmp_path / "d" / "alice", readonly=True)
    try:
        log = "\n".join(e["text"] for e in camp.ledger.events())
        sent = {seq: read_envelopes(raw)[0].content["body"].get("actions", [])
                for seq, _, _, kind, raw, _ in camp.ledger.envelopes() if kind == "turn"}
        seeded = {r["seq"] for r in camp.ledger.rolls()}
    finally:
        camp.ledger.close()
    for what in ("british attack", "turkish attack", "air-to-air", "expended (12.4)", "out of supply (3.4)",
                 "survives", "turn 14 begins"):
        assert what in log, what
    [line] = [line for line in out.splitlines() if line.startswith("turn files per game turn")]
    counts = {int(t): int(n) for t, n in re.findall(r"turn (\d+): (\d+)", line)}
    assert sorted(counts) == [13, 14] and sum(counts.values()) == len(sent), line
    assert counts[14] <= 4, line
    assert all(actions or seq in seeded for seq, actions in sent.items())  # a file without orders resolves rolls
    assert "column" in (tmp_path / "d" / "alice" / "report.html").read_text()  # the map's report, with odds


def test_demo_of_the_small_game_by_name(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "--game", "hill60", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Hill 60" in result.output and result.output.count(": OK: ") == 2


def test_demo_of_the_dice_duel_by_name(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "--game", "barrage", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Barrage" in result.output and result.output.count(": OK: ") == 2


def test_python_dash_m_pbem():
    out = subprocess.run([sys.executable, "-m", "pbem", "--help"], capture_output=True, text=True, check=True)
    assert "Play board wargames by e-mail" in out.stdout


def test_every_command_has_help():
    import click

    runner = CliRunner()
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        sub = getattr(command, "commands", {})
        for path in [[name]] + [[name, s] for s in sub]:
            r = runner.invoke(cli, [*path, "--help"])
            assert r.exit_code == 0 and len(r.output) > 80, path


def test_refereed_demo_verifies_all_three_databases(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "--referee", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    verified = [line for line in result.output.splitlines() if line.startswith("verify ")]
    assert len(verified) == 3 and all(": OK: " in line for line in verified)
    assert sum("views you received match" in line for line in verified) == 2


def test_refereed_blood_on_the_tigris_gives_several_orders_a_file(tmp_path):
    """A game whose view is the whole state and has no hidden items (Blood on the Tigris): the
    player's tool runs the rules on its view, so a file holds every order up to the referee's
    part (it took one order a file, hundreds of files a turn); Hill 60's partial view keeps one."""
    result = CliRunner().invoke(cli, ["demo", "--referee", "--game", "blood-on-the-tigris", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    orders = [int(m) for m in re.findall(r"^  #\d+ \w+: (\d+) order\(s\) sealed", result.output, re.M)]
    assert orders and max(orders) > 1, result.output
    per_turn = [int(n) for n in re.findall(r"turn \d+: (\d+)", result.output.split("turn files per game turn")[1]
                                           .splitlines()[0])]
    assert per_turn and max(per_turn) <= 30, result.output
    verified = [line for line in result.output.splitlines() if line.startswith("verify ")]
    assert len(verified) == 3 and all(": OK: " in line for line in verified)
    hill = CliRunner().invoke(cli, ["demo", "--referee", "--game", "hill60", "--dir", str(tmp_path / "h")])
    assert hill.exit_code == 0, hill.output
    assert set(re.findall(r"^  #\d+ \w+: (\d+) order\(s\) sealed", hill.output, re.M)) == {"1"}


def test_demo_of_an_unknown_game_is_a_usage_error_naming_the_known_ones(tmp_path):
    for extra in ([], ["--referee"]):
        result = CliRunner().invoke(cli, ["demo", *extra, "--game", "hill61", "--dir", str(tmp_path / "d")])
        assert_no_traceback(result)
        assert result.exit_code == 2, result.output
        assert "no game module 'hill61'" in result.stderr
        assert "known: assault-on-gallipoli, barrage, blood-on-the-tigris, gallipoli-1915, gallipoli-blocks, hill60, raid" \
            in result.stderr
        assert not (tmp_path / "d").exists()  # refused before anything is written


def test_demo_of_table_top_mode_is_refused_with_a_reason(tmp_path):
    for extra in ([], ["--referee"]):
        result = CliRunner().invoke(cli, ["demo", *extra, "--game", "tabletop", "--dir", str(tmp_path / "d")])
        assert_refused(result, "bad-module")
        assert "played by people" in result.stderr
        assert not (tmp_path / "d").exists()

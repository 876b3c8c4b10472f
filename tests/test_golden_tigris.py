"""The golden game of Blood on the Tigris: the real tool, fixed keys and fixed randomness, both
sides played by the game's own player (as `pbem demo --game blood-on-the-tigris` plays it),
Scenario 2 (turning-point) cut to its first two turns, 13 and 14: the British attack with their
aeroplanes and the Turkish interception, the depots expended, step losses and a retreat, the
Turkish movement and attack with a breakthrough (the British stack, with no retreat path,
eliminated), supply survival rolls, and the victory check.  Every turn file is compared byte for byte with the committed one, both sides' final
reports line for line, and a replay of the committed files by a fresh campaign verifies.

After a deliberate change to the rules, the charts or the counters, regenerate with
  pytest tests/test_golden_tigris.py --update-golden
and read `git diff tests/golden/blood-on-the-tigris`: it shows which envelope changed.
"""

from pathlib import Path

from pbem.play.campaign import Campaign
from pbem.check.verify import verify_path
from tests import golden_play
from tests.test_golden import identity
from tests.test_golden_tabletop import compare_or_update

MODULE = "blood-on-the-tigris"
GOLDEN = Path(__file__).resolve().parent / "golden" / MODULE
SCENARIO, OPTIONS = "turning-point", {"turns": 14}


def play_golden(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    return golden_play.play_golden(root, MODULE, ("british", "turkish"), SCENARIO, OPTIONS, 100)


def test_blood_on_the_tigris_golden_game(tmp_path, request):
    if compare_or_update(GOLDEN, *play_golden(tmp_path), request):
        for side in ("alice", "bob"):
            assert verify_path(tmp_path / side).summary().startswith("OK: ")


def test_the_golden_game_holds_every_part_of_a_turn():
    report = (GOLDEN / "report-british.txt").read_text()
    for text in ("air-to-air", "is expended (12.4)", "british attack", "turkish attack", "loses a step",
                 "cannot retreat 4 hexes and is eliminated (8.0)", "breaks through", "out of supply (3.4)", "survives", "turn 14 begins",
                 "charts: PROVISIONAL, ours", "RESULT"):
        assert text in report, text


def test_the_committed_files_replay_in_a_fresh_campaign(tmp_path):
    """The committed turn files, ingested as mail by a fresh campaign, rebuild the game and verify."""
    alice, bob = identity("alice"), identity("bob")
    camp, genesis = Campaign.new(tmp_path / "a", MODULE, "british", alice, bob.public, bob.name, SCENARIO, OPTIONS,
                                 entropy=golden_play.entropy(MODULE, "alice"))
    turns = sorted((GOLDEN / "turns").glob("*.pbem"))
    assert genesis.raw == turns[0].read_text()
    try:
        camp.ingest([(p.name, p.read_text()) for p in turns[1:]])
        assert camp.outcome() is not None
    finally:
        camp.ledger.close()
    assert verify_path(tmp_path / "a").summary().startswith("OK: ")

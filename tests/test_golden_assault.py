"""The golden game of Assault on Gallipoli: the real tool, fixed keys and fixed randomness, both
sides played by the game's own player (as `pbem demo --game assault-on-gallipoli` plays it),
Scenario 1 cut to its first turn: the Action Cards dealt, the ships placed, the landing boat by
boat with the Turks' fire, the close combats from private hands, the victory check and the final
openings.  Every turn file is compared byte for byte with the committed one, both sides' final
reports line for line, and a replay of the committed files by a fresh campaign verifies.

The module is still growing (the Action Cards are a first cut): after a deliberate change,
regenerate with  pytest tests/test_golden_assault.py --update-golden  and read
`git diff tests/golden/assault-on-gallipoli`: it shows which envelope changed.
"""

from pathlib import Path

from pbem.play.campaign import Campaign
from pbem.check.verify import verify_path
from pbem.wire.envelope import read_envelopes
from tests import golden_play
from tests.test_golden import identity
from tests.test_golden_tabletop import compare_or_update

MODULE = "assault-on-gallipoli"
GOLDEN = Path(__file__).resolve().parent / "golden" / MODULE
SCENARIO, OPTIONS = "anzac-landing", {"turns": 1}


def play_golden(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    return golden_play.play_golden(root, MODULE, ("anzac", "turkish"), SCENARIO, OPTIONS, 400)


def test_assault_on_gallipoli_golden_game(tmp_path, request):
    if compare_or_update(GOLDEN, *play_golden(tmp_path), request):
        for side in ("alice", "bob"):
            assert verify_path(tmp_path / side).summary().startswith("OK: ")


def test_the_golden_game_holds_every_part_of_a_turn():
    report = (GOLDEN / "report-anzac.txt").read_text()
    for text in ("landing roll", "fire from", "close combat at", "wins the close combat", "Morale Advantage",
                 "Killing Time", "VP anzac", "RESULT"):
        assert text in report, text


def test_the_committed_files_replay_in_a_fresh_campaign(tmp_path):
    """The committed turn files, ingested as mail by a fresh campaign, rebuild the game and verify."""
    alice, bob = identity("alice"), identity("bob")
    camp, genesis = Campaign.new(tmp_path / "a", MODULE, "anzac", alice, bob.public, bob.name, SCENARIO, OPTIONS,
                                 entropy=golden_play.entropy(MODULE, "alice"))
    turns = sorted((GOLDEN / "turns").glob("*.pbem"))
    assert genesis.raw == turns[0].read_text()
    try:
        camp.ingest([(p.name, p.read_text()) for p in turns[1:]])
        assert camp.outcome() is not None
    finally:
        camp.ledger.close()
    assert verify_path(tmp_path / "a").summary().startswith("OK: ")


def test_a_lead_order_is_sealed_unread_and_its_tool_leads_by_it():
    """leadorder.py: the file that seals a side's lead order names none of the order's cards (the
    other side reads a token); later files of that side lead by it (``ordered``), an ordinary lead."""
    envelopes = [read_envelopes(p.read_text())[0] for p in sorted((GOLDEN / "turns").glob("*.pbem"))]
    actions = [(e, a) for e in envelopes for a in e.content["body"].get("actions", [])]
    sealing = [e for e, a in actions if a.get("do") == "seal" and "order" in a]
    ordered = [a for _, a in actions if a.get("do") == "ordered"]
    assert sealing and ordered
    for e in sealing:
        assert b"creeping-barrage" not in e.payload and b"reserve-trench:" not in e.payload
    assert "leads by its sealed lead order" in (GOLDEN / "report-turkish.txt").read_text()

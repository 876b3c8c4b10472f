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

import hashlib
from pathlib import Path

from pbem.campaign import Campaign
from pbem.demo import policy
from pbem.report import render
from pbem.verify import verify_path
from tests.test_golden import identity
from tests.test_golden_tabletop import compare_or_update

MODULE = "blood-on-the-tigris"
GOLDEN = Path(__file__).resolve().parent / "golden" / MODULE
SCENARIO, OPTIONS = "turning-point", {"turns": 14}


def entropy(party: str):
    counter = iter(range(10**6))
    return lambda n: hashlib.sha256(f"pbem/golden/{MODULE}/{party}/{next(counter)}".encode()).digest()[:n]


def play_golden(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    alice, bob = identity("alice"), identity("bob")
    british, genesis = Campaign.new(root / "alice", MODULE, "british", alice, bob.public, bob.name, SCENARIO, OPTIONS,
                                    entropy=entropy("alice"))
    turkish, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    british.ingest([("join", joined.raw)])
    camps, who = {"british": british, "turkish": turkish}, {"british": alice, "turkish": bob}
    files = {f"{env.seq:04d}-{env.author}-{env.kind}.pbem": env.raw for env in (genesis, joined)}
    while (waiting := british.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        camps["turkish" if side == "british" else "british"].ingest([("golden", result.envelope.raw)])
        files[f"{result.envelope.seq:04d}-{side}-turn.pbem"] = result.envelope.raw
        assert len(files) < 100, "the golden game does not end"
    reports = {side: render(camp, "text", since=-1) for side, camp in camps.items()}
    for camp in camps.values():
        camp.ledger.close()
    return dict(sorted(files.items())), reports


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
                                 entropy=entropy("alice"))
    turns = sorted((GOLDEN / "turns").glob("*.pbem"))
    assert genesis.raw == turns[0].read_text()
    try:
        camp.ingest([(p.name, p.read_text()) for p in turns[1:]])
        assert camp.outcome() is not None
    finally:
        camp.ledger.close()
    assert verify_path(tmp_path / "a").summary().startswith("OK: ")

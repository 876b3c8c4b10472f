"""The golden game of the block game: the real tool, fixed keys and fixed randomness, both sides
played by the game's own simple player (as `pbem demo` plays it) for a few full turns.  Every turn
file is compared byte for byte with the committed one, both sides' final reports line for line,
and a replay of the committed files by fresh campaigns verifies.

Regenerate after a deliberate change: pytest tests/test_golden_blocks.py --update-golden
(then read `git diff tests/golden/gallipoli-blocks`: it shows exactly which envelope changed).
"""

import hashlib
from pathlib import Path

from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.view.report import render
from pbem.check.verify import verify_path
from tests.test_golden import identity
from tests.test_golden_tabletop import compare_or_update

GOLDEN = Path(__file__).resolve().parent / "golden" / "gallipoli-blocks"
OPTIONS = {"turns": 3}


def entropy(party: str):
    counter = iter(range(1000))
    return lambda n: hashlib.sha256(f"pbem/golden/gallipoli-blocks/{party}/{next(counter)}".encode()).digest()[:n]


def play_golden(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    alice, bob = identity("alice"), identity("bob")
    allied, genesis = Campaign.new(root / "alice", "gallipoli-blocks", "allied", alice, bob.public, bob.name, None,
                                   OPTIONS, entropy=entropy("alice"))
    ottoman, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    allied.ingest([("join", joined.raw)])
    camps = {"allied": allied, "ottoman": ottoman}
    who = {"allied": alice, "ottoman": bob}
    files = {f"{env.seq:04d}-{env.author}-{env.kind}.pbem": env.raw for env in (genesis, joined)}
    while (waiting := allied.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        assert result.envelope is not None
        other = camps["ottoman" if side == "allied" else "allied"]
        other.ingest([("golden", result.envelope.raw)])
        files[f"{result.envelope.seq:04d}-{side}-turn.pbem"] = result.envelope.raw
        assert len(files) < 400, "the golden game does not end"
    reports = {side: render(camp, "text", since=-1) for side, camp in camps.items()}
    return dict(sorted(files.items())), reports


def test_block_game_golden_game(tmp_path, request):
    if compare_or_update(GOLDEN, *play_golden(tmp_path), request):
        for side in ("alice", "bob"):
            assert verify_path(tmp_path / side).summary().startswith("OK: ")


def test_the_golden_game_holds_every_part_of_a_turn():
    """The committed game is worth its bytes: set-up, a landing with its fire, a battle with
    sealed leading blocks, a supply check, the victory check, and the final openings."""
    report = (GOLDEN / "report-allied.txt").read_text()
    for text in ("ottoman deploys", "allied group A", "landing fire at", "chooses its leading blocks",
                 "leading defender:", "supply check", "victory check", "at the end:", "reveals its private secret"):
        assert text in report, text


def test_the_committed_files_replay_in_a_fresh_campaign(tmp_path):
    """The committed turn files, ingested as mail by a fresh campaign (the path a player's tool
    takes, not the generator's), rebuild the game and verify from genesis."""
    alice, bob = identity("alice"), identity("bob")
    camp, genesis = Campaign.new(tmp_path / "a", "gallipoli-blocks", "allied", alice, bob.public, bob.name, None,
                                 OPTIONS, entropy=entropy("alice"))
    turns = sorted((GOLDEN / "turns").glob("*.pbem"))
    assert genesis.raw == turns[0].read_text()
    try:
        camp.ingest([(p.name, p.read_text()) for p in turns[1:]])
        assert camp.outcome() is not None
    finally:
        camp.ledger.close()
    assert verify_path(tmp_path / "a").summary().startswith("OK: ")


def test_the_golden_game_costs_few_turn_files():
    """The same game took 63 turn files before forced rolls were sealed at once and battles
    could be planned (RULES.md, "Hand-overs")."""
    turns = sorted((GOLDEN / "turns").glob("*-turn.pbem"))
    assert 20 <= len(turns) <= 40, len(turns)

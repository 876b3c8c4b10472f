"""The golden game of Gallipoli 1915: the real tool, fixed keys and fixed randomness, both sides
played by the module's own player (as `pbem demo --game gallipoli-1915` plays it), Cape Helles
(104.4) cut to its first seven turns (the first with a fire chit revealed): the set-up in order,
the twilight turn with no chit, the daylight Naval Gunfire draws and a revealed fire chit
replaced before it returns, the landings within beach capacity and the River Clyde's two steps,
the Ottoman's Coastal Defense fire, table-top rolls for the series rules, the chits back at the
end of each turn, and the victory agreed at the end; each game turn in four files (the phases
wait only for the sides the book gives them to, and the players' standing orders carry the rest:
cadence.py).  Every
turn file is compared byte for byte with the committed one, both sides' final reports line for
line, and a replay of the committed files by a fresh campaign verifies.  The Ottoman's files
never hold a chit the Entente has not revealed.

After a deliberate change to the procedures, regenerate with
  pytest tests/test_golden_gallipoli_1915.py --update-golden
and read `git diff tests/golden/gallipoli-1915`: it shows which envelope changed.
"""

from pathlib import Path

from pbem.check.verify import verify_path
from pbem.play.campaign import Campaign
from pbem.wire.envelope import read_envelopes
from tests import golden_play
from tests.test_golden import identity
from tests.test_golden_tabletop import compare_or_update

MODULE = "gallipoli-1915"
GOLDEN = Path(__file__).resolve().parent / "golden" / MODULE
SCENARIO, OPTIONS = "helles", {"last_turn": 7}


def play_golden(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    return golden_play.play_golden(root, MODULE, ("entente", "ottoman"), SCENARIO, OPTIONS, 200)


def test_gallipoli_1915_golden_game(tmp_path, request):
    if compare_or_update(GOLDEN, *play_golden(tmp_path), request):
        for side in ("alice", "bob"):
            assert verify_path(tmp_path / side).summary().startswith("OK: ")


def test_a_golden_game_turn_is_four_files():
    """Turns 2-6 (the set-up's files fall in turn 1, the claims in turn 7): the Entente's file with
    its landings, the Ottoman's CD fire, the Entente's activations, the Ottoman's."""
    turns = [read_envelopes(p.read_text())[0].content for p in sorted((GOLDEN / "turns").glob("*-turn.pbem"))]
    starts = [i for i, c in enumerate(turns) if any(a.get("do") == "draw-ngf" for a in c["body"].get("actions", []))]
    assert len(starts) == 6 and {b - a for a, b in zip(starts, starts[1:])} == {4}  # a draw every fourth file


def test_the_golden_game_holds_every_procedure_of_its_turns():
    report = " ".join((GOLDEN / "report-entente.txt").read_text().split())  # the report wraps its lines
    for text in ("turn 1, 4-6 am 25 April (twilight)", "draws a Naval Gunfire chit from the helles cup",
                 "reveals the helles chit", "a new chit is drawn face down", "SS River Clyde's troops",
                 "2 steps of capacity whatever it lands", "Coastal Defense fire", "return to their cups unseen",
                 "rolls 2d10", "victory is judged now", "RESULT"):
        assert text in report, text


def test_the_ottoman_never_receives_a_chit_still_face_down():
    """The Entente's files carry its chits as tokens; an item is opened only by the order that
    reveals it (a fire chit), never a No Fire, and nothing else names a chit until its secret
    opens every draw in its last file."""
    envelopes = [read_envelopes(p.read_text())[0] for p in sorted((GOLDEN / "turns").glob("*.pbem"))]
    entente = [e.content for e in envelopes if e.content["author"] == "entente"]
    draws = opened = fired = 0
    for content in entente[:-1]:
        body = content["body"]
        actions = [a.get("do") for a in body.get("actions", [])]
        fired += actions.count("fire-ngf")
        draws += len(body.get("private", {}).get("draws", []))
        openings = body.get("private", {}).get("open", {})
        plans = [o for o in openings.values() if "#" not in o["item"]]  # its planned orders (plans.py), opened
        assert len(plans) == actions.count("open-plan") and all(o["item"].startswith("land ") for o in plans)
        openings = {t: o for t, o in openings.items() if "#" in o["item"]}
        opened += len(openings)
        assert all(o["item"].split("#")[0] in ("commanded-fire", "counter-battery", "opportunity-fire")
                   for o in openings.values())
        assert len(openings) == actions.count("fire-ngf")
    assert fired >= 1 and draws > fired, "the golden game draws chits it never reveals"
    assert opened == fired
    payloads = b"".join(e.payload for e in envelopes[:-1])
    assert b"no-fire" not in payloads


def test_the_committed_files_replay_in_a_fresh_campaign(tmp_path):
    alice, bob = identity("alice"), identity("bob")
    camp, genesis = Campaign.new(tmp_path / "a", MODULE, "entente", alice, bob.public, bob.name, SCENARIO, OPTIONS,
                                 entropy=golden_play.entropy(MODULE, "alice"))
    turns = sorted((GOLDEN / "turns").glob("*.pbem"))
    assert genesis.raw == turns[0].read_text()
    try:
        camp.ingest([(p.name, p.read_text()) for p in turns[1:]])
        assert camp.outcome() is not None
    finally:
        camp.ledger.close()
    assert verify_path(tmp_path / "a").summary().startswith("OK: ")


def test_a_planned_landing_is_unreadable_until_the_entente_tool_opens_it():
    """plans.py: the file that seals the next turn's landings names no beach; the file that opens
    them carries the orders, and they are the landings made."""
    envelopes = [read_envelopes(p.read_text())[0] for p in sorted((GOLDEN / "turns").glob("*.pbem"))]
    sealing = [e for e in envelopes if any(a.get("do") == "plan" for a in e.content["body"].get("actions", []))]
    opening = [e for e in envelopes if any(a.get("do") == "open-plan" for a in e.content["body"].get("actions", []))]
    assert sealing and opening
    for e in sealing:
        assert b"Beach" not in e.payload and b"clyde" not in e.payload.lower()
    for e in opening:
        assert b"land " in e.payload

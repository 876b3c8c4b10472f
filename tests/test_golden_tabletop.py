"""The golden game of table-top mode: the real tool, fixed keys and fixed randomness, scripted
orders over a small pack (tests/golden/tabletop/pack.toml); every turn file is compared byte for
byte with the committed one, and both sides' final reports line for line.

Regenerate after a deliberate change: pytest tests/test_golden_tabletop.py --update-golden
"""

import difflib
import hashlib
from pathlib import Path


from pbem.play.campaign import Campaign
from pbem.chain.datapack import load
from pbem.view.report import render
from tests.test_golden import identity

GOLDEN = Path(__file__).resolve().parent / "golden" / "tabletop"

SCRIPT = [  # (side, orders): one 'pbem play' each; an empty list answers what is owed (a reveal, a secret)
    ("red", ["move red guard to ford", "mark ford with smoke", "step red guard -1", "roll 3d6 for fire"]),
    ("blue", []),
    ("red", ["draw 2 from red orders", "play charge", "note hold the ford at all costs", "pass"]),
    ("blue", ["deploy spy one to hill", "flip blue lancers", "draw 1 from events"]),
    ("red", []),
    ("blue", ["move spy one to ford", "reveal spy one", "say the spy is out", "pass"]),
    ("red", ["open note 1", "roll 7d6>=4 for the assault"]),
    ("blue", []),
    ("red", ["next turn", "end red holds the ford"]),
]


def entropy(party: str):
    counter = iter(range(1000))
    return lambda n: hashlib.sha256(f"pbem/golden/tabletop/{party}/{next(counter)}".encode()).digest()[:n]


def play_golden(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The game, played by two real campaigns in ``root``: (turn files by name, final reports by side)."""
    pack = load(GOLDEN)
    alice, bob = identity("alice"), identity("bob")
    red, genesis = Campaign.new(root / "alice", "tabletop", "red", alice, bob.public, bob.name, None,
                                {"pack": pack}, entropy=entropy("alice"))
    blue, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    red.ingest([("join", joined.raw)])
    camps = {"red": red, "blue": blue}
    who = {"red": alice, "blue": bob}
    files = {f"{env.seq:04d}-{env.author}-{env.kind}.pbem": env.raw for env in (genesis, joined)}

    def play(side, orders):
        result = camps[side].play(who[side], list(orders))
        assert result.envelope is not None, f"{side} {orders}: only drafted"
        other = camps["blue" if side == "red" else "red"]
        other.ingest([("golden", result.envelope.raw)])
        files[f"{result.envelope.seq:04d}-{side}-turn.pbem"] = result.envelope.raw

    for side, orders in SCRIPT:
        play(side, orders)
    while (waiting := red.waiting()) is not None:  # the end: each side opens its hidden items
        assert waiting["why"] == "secret", waiting
        play(waiting["side"], [])
    reports = {side: render(camp, "text", since=-1) for side, camp in camps.items()}
    return dict(sorted(files.items())), reports


def _diff(expected: str, actual: str, name: str) -> str:
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), f"committed/{name}",
                                        f"now/{name}"))


def compare_or_update(golden: Path, files: dict[str, str], reports: dict[str, str], request) -> bool:
    """Compare a played game with the one committed under ``golden`` (turn files byte for byte,
    reports line for line), or rewrite it with --update-golden (then False: nothing compared)."""
    outputs = {f"turns/{name}": text for name, text in files.items()}
    outputs.update({f"report-{side}.txt": text for side, text in reports.items()})
    if request.config.getoption("--update-golden"):
        for old in golden.glob("turns/*.pbem"):
            old.unlink()
        for name, text in outputs.items():
            (golden / name).parent.mkdir(parents=True, exist_ok=True)
            (golden / name).write_text(text)
        return False
    committed = {f"turns/{p.name}": p.read_text() for p in sorted((golden / "turns").glob("*.pbem"))}
    committed.update({p.name: p.read_text() for p in sorted(golden.glob("report-*.txt"))})
    assert sorted(committed) == sorted(outputs), "a different set of turn files or reports"
    for name, text in outputs.items():
        assert text == committed[name], _diff(committed[name], text, name)
    return True


def test_table_top_golden_game(tmp_path, request):
    if compare_or_update(GOLDEN, *play_golden(tmp_path), request):
        for side in ("alice", "bob"):
            from pbem.check.verify import verify_path

            assert verify_path(tmp_path / side).summary().startswith("OK: ")


def test_the_golden_script_exercises_every_kind_of_order():
    from pbem_engine.games.tabletop.orders import HANDLERS

    used = {order.split()[0] for _, orders in SCRIPT for order in orders}
    assert {"move", "mark", "step", "roll", "draw", "play", "note", "deploy", "flip", "reveal", "say", "pass",
            "open", "next", "end"} <= used
    assert len(HANDLERS) >= 15

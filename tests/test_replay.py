"""``pbem replay``: every envelope is a step, and a side's replay of a game in progress holds
nothing the rules still hide from it (searched in the file's bytes)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import pbem


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory) -> Path:
    """The golden block game's set-up, played by the game's own players for 24 envelopes (it ends at 34)."""
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from tests.test_golden import identity
    from tests.test_golden_blocks import OPTIONS, entropy

    root = tmp_path_factory.mktemp("replay")
    alice, bob = identity("alice"), identity("bob")
    allied, genesis = Campaign.new(root / "alice", "gallipoli-blocks", "allied", alice, bob.public, bob.name, None,
                                   OPTIONS, entropy=entropy("alice"))
    ottoman, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    allied.ingest([("join", joined.raw)])
    camps, who = {"allied": allied, "ottoman": ottoman}, {"allied": alice, "ottoman": bob}
    while allied.ledger.head()[0] < 24:
        side = allied.waiting()["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        camps["ottoman" if side == "allied" else "allied"].ingest([("x", result.envelope.raw)])
    return root


def _never_opened_allied_names(root: Path) -> list[str]:
    from pbem.play.campaign import Campaign
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    camp = Campaign.open(root / "alice", readonly=True)
    try:
        match = camp.match()
        known = camp.knowledge(match)
        opened = set(match["private"]["allied"]["opened"])
        names = {BLOCKS[known[t].split(":")[0]][0] for t, b in match["game"]["blocks"].items()
                 if b["army"] == "allied" and t in known and t not in opened}
        shown = {BLOCKS[item.split(":")[0]][0] for item in match["private"]["allied"]["opened"].values()
                 if item.split(":")[0] in BLOCKS}
        return sorted(names - shown)
    finally:
        camp.ledger.close()


def test_a_replay_has_a_step_per_envelope_and_hides_what_the_rules_hide(unfinished):
    runner = CliRunner()
    out = {}
    for who in ("alice", "bob"):
        path = unfinished / f"{who}-replay.html"
        result = pbem(runner, "replay", "--campaign", unfinished / who, "-o", path)
        assert "25 steps" in result.output
        out[who] = path.read_text()
        assert [int(s) for s in re.findall(r'<section class="step" id="step-(\d+)"', out[who])] == list(range(25))
        assert out[who].count("<svg") == 25
    names = _never_opened_allied_names(unfinished)
    assert len(names) >= 3
    for name in names:
        assert html.escape(name) in out["alice"]
        assert html.escape(name) not in out["bob"] and name not in out["bob"], f"bob's replay names {name}"


def test_a_finished_game_replays_with_everything_the_end_opened(tmp_path):
    from tests.test_golden_blocks import play_golden

    play_golden(tmp_path)
    page = tmp_path / "r.html"
    pbem(CliRunner(), "replay", "--campaign", tmp_path / "bob", "-o", page)
    text = page.read_text()
    assert "every side has revealed its secret" in text
    assert "a concealed block" not in text.split('id="step-5"')[1].split("</section>")[0]

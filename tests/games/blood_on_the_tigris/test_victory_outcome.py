"""The outcome a player sees at the end (winner, result, reason: GAME.outcome), for the rule
cases in rules/ that carry an ``[outcome]`` table: 17.0's victory levels and Baghdad bonus and
18.1's Turkish major victory, one case on each side of each threshold. test_rules.py plays the
same files and checks their ``[expect]``; this adds the whole outcome.

    [outcome]   winner = "british" | "turkish" | "none" (a draw), result = "...", reason = "..."
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from pbem_engine.protocol.core import step
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME
from pbem_engine.games.blood_on_the_tigris.position import position

CASES = [p for p in sorted((Path(__file__).parent / "rules").glob("*.toml"))
         if "outcome" in tomllib.loads(p.read_text())]


def test_each_threshold_has_cases():
    names = {p.stem for p in CASES}
    assert {"17.0-5-vp-turkish-victory", "17.0-6-vp-draw", "17.0-7-vp-draw", "17.0-8-vp-british-tactical",
            "17.0-9-vp-british-tactical", "17.0-10-vp-british-victory", "17.0-11-vp-british-victory",
            "17.0-12-vp-british-decisive", "17.0-baghdad-three-hexes-one-vp-each",
            "17.0-baghdad-all-four-hexes-five-vp",
            "18.1-two-brigades-destroyed-and-kut-is-a-minor-win",
            "18.1-three-brigades-destroyed-and-kut-is-a-major-win"} <= names


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_outcome(path: Path) -> None:
    case = tomllib.loads(path.read_text())
    state = position(case["before"]).state
    dice = ScriptedDice(case.get("dice", []))
    assert GAME.outcome(state) is None
    for act in case.get("actions", []):
        side = act.get("side") or GAME.prompt(state).side
        state, _ = step(GAME, state, side, act.get("action") or GAME.parse_order(state, side, act["order"]), dice)
    assert dice.remaining == 0, "every scripted die must be used"
    want = case["outcome"]
    got = GAME.outcome(state)
    assert got is not None, "the game must be over"
    assert (got.winner or "none", got.result, got.reason) == (want["winner"], want["result"], want["reason"])
    assert GAME.prompt(state).side is None  # no one is asked anything more

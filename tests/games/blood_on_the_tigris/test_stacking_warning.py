"""6.0 and 16.1: the campaign's Turks start over-stacked at Amara, which the rules allow until their
first movement phase ends (stacking is checked only then, 4.5); the movement prompt warns of it,
with the count and the limit, until units move out."""

from __future__ import annotations

from pbem_engine.protocol.core import step
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME, board, counters, movement

AMARA = "1931"


def test_the_set_up_is_over_stacked_at_amara_as_the_rules_say():
    state = GAME.setup("campaign", {})
    assert board.over_stacked_hexes(state, "turkish") == [AMARA]
    assert board.stack_load(state, AMARA, "turkish") == 9 and counters.STACK_LIMIT == 6  # 3 against 2 (6.0)


def test_the_turkish_movement_prompt_warns_until_a_unit_moves_out():
    state = GAME.setup("campaign", {})
    assert "WARNING" not in GAME.prompt(state).text  # the British move first: not theirs
    state["active"] = "turkish"
    text = GAME.prompt(state).text
    assert ("WARNING: 1931 (Amara) holds 3 combat units (3 regiments or brigades), over the limit of 2: move some "
            "out before ending movement, or the excess is eliminated then (6.0; the campaign's set-up starts so, "
            "16.1)") in text, text
    to = sorted(movement.reach(GAME.charts_of(state), state, "tk-cav-a-rgt"))[0]
    state, _ = step(GAME, state, "turkish", {"do": "move", "unit": "tk-cav-a-rgt", "to": to}, ScriptedDice([]))
    assert "WARNING" not in GAME.prompt(state).text

"""Random games of Hill 60: whatever legal choices are made, the game stays
within its rules and ends by the end of turn 5."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem_engine.canonical import canonical_json
from pbem_engine.protocol.core import step
from pbem_engine.chance.dice import Dice, DiceNotReady, NoDice
from pbem_engine.games.hill60 import GAME, data

MAX_ACTIONS = 400
ROLLS = {"assault": 2, "bombard": 1}  # 5.2 attacker and defender fire; 7.2 the ships' two dice


def check_invariants(state: dict[str, Any]) -> None:
    canonical_json(state)  # plain JSON only: raises on floats, tuples, non-string keys
    assert 1 <= state["turn"] <= data.TURNS
    assert 0 <= state["ops"] <= data.OPERATIONS
    for unit in data.UNITS:
        where, steps = state["units"][unit.id]["space"], state["units"][unit.id]["steps"]
        if where == data.ELIMINATED:
            assert steps == 0
        else:
            assert where in data.SPACES and 1 <= steps <= unit.steps, (unit.id, where, steps)
    for space in data.SPACES:
        here = [u for u in data.UNITS if state["units"][u.id]["space"] == space]
        assert len({u.side for u in here}) <= 1, f"both sides in {space}"
        if space not in data.BASES.values():
            assert len(here) <= data.STACKING_LIMIT, f"{len(here)} units in {space}"
    # 6.3 trenches exist only where somebody is
    for space in state["entrenched"]:
        assert any(state["units"][u.id]["space"] == space for u in data.UNITS)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_play_stays_legal_and_ends(draw: st.DataObject) -> None:
    dice = Dice(draw.draw(st.binary(min_size=16, max_size=16), label="seed"))
    state = GAME.setup("standard", {})
    for _ in range(MAX_ACTIONS):
        check_invariants(state)
        report = "\n".join(GAME.describe(GAME.view(state, "allied")))
        for unit in data.UNITS:  # the e-mail report shows every unit still fighting, with its steps
            strength = f"{unit.name} {state['units'][unit.id]['steps']}/{unit.steps}"
            assert (strength in report) == (state["units"][unit.id]["space"] in data.SPACES)
        prompt = GAME.prompt(state)
        result = GAME.outcome(state)
        if prompt.side is None:
            assert result is not None and prompt.choices == ()
            return
        assert result is None
        labels = [c.label for c in prompt.choices]
        assert labels and len(set(labels)) == len(labels), labels
        if state["pending"] is None:
            assert labels[-1] == "end turn"  # 2.3 always legal
        choice = draw.draw(st.sampled_from(prompt.choices), label="choice")
        # Only fire rolls dice, and all of an operation's dice are drawn in its own apply,
        # so the protocol can hold exactly that action back until the seed is revealed.
        needs_dice = choice.action["do"] in ROLLS
        try:
            step(GAME, state, prompt.side, choice.action, NoDice())
            assert not needs_dice
        except DiceNotReady:
            assert needs_dice
        before = len(dice.rolls)
        state, events = step(GAME, state, prompt.side, choice.action, dice)
        assert len(dice.rolls) - before == ROLLS.get(choice.action["do"], 0)
        assert events and all(isinstance(e["text"], str) and e["text"] for e in events)
    raise AssertionError(f"no result after {MAX_ACTIONS} actions")

"""Random games of Assault on Gallipoli: whatever legal choices are made, nothing crashes, someone
can always act while the game goes on, every game ends within the scenario's turns, and the
invariants hold after every action: stacking (5.1-5.2, outside a pending over-stacking frame),
the Remnant pool (9.4.4), units on real areas, ships only at sea (16.1), Killing Time in 0-8."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem_engine.core import step
from pbem_engine.dice import Dice
from pbem_engine.games.assault_on_gallipoli import GAME, board
from pbem_engine.games.assault_on_gallipoli.data import REMNANTS, SIDES

MAX_ACTIONS = 6000


def invariants(state: dict[str, Any]) -> None:
    pending = {(f["side"], f["area"]) for f in state["frames"] if f["k"] == "overstack"}
    for f in state["frames"]:  # 5.3: moving through, and dropped off before the move ends (5.4)
        if f["k"] == "move":
            pending |= {(f["side"], f["at"])} | {(f["side"], state["units"][u]["at"]) for u in f["dropped"]
                                                  if u in state["units"]}
    for area in board.AREAS:
        for side in SIDES:
            if (side, area) not in pending:
                assert board.over_stacked(state, area, side) == 0, f"{side} over-stacked at {area}"
    for uid, u in state["units"].items():
        assert u["at"] in board.AREAS
        assert board.is_sea(u["at"]) == (board.kind(uid) == "ship"), f"{uid} at {u['at']}"
    for side in SIDES:
        on_board = [u for u in state["units"] if u in REMNANTS[side]]
        assert len(on_board) + len(board.pool(state, side)) == 5
        assert not set(state["lost"][side]) & set(state["units"])
    assert 0 <= state["kt"] <= 8


def play(seed: int, chooser, options: dict[str, Any] | None = None) -> dict[str, Any]:
    state = GAME.setup("anzac-landing", options or {})
    dice = Dice(seed.to_bytes(8, "big") * 4)
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            return state
        prompt = GAME.prompt(state)
        assert prompt.side in SIDES and prompt.choices, f"deadlock at {prompt.text}"
        action = chooser(state, prompt)
        state, _ = step(GAME, state, prompt.side, action, dice)
        invariants(state)
    raise AssertionError("the game did not end")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from([{}, {"casualties": "turn", "target_bounds": "1-9"},
                                                {"pickup_mf": "group", "killing_time": 7, "weir": True}]))
def test_random_games_end_and_keep_the_invariants(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = play(seed, lambda s, p: rng.choice(p.choices).action, options)
    assert state["turn"] <= state["turns"]
    assert GAME.outcome(state) is not None


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_bot_games_end(seed: int) -> None:
    def bot(state, prompt):
        from pbem_engine.core import find_choice

        return find_choice(prompt, GAME.player(state, prompt.side, prompt, {})).action

    state = play(seed, bot)
    assert GAME.outcome(state) is not None
    assert any(board.side_of(u) == "anzac" and not board.is_sea(v["at"]) for u, v in state["units"].items())

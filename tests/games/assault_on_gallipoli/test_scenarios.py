"""Scenarios 2-5 and the optional Leaders (22): every scenario's data is sound with every option,
the options that do not fit are refused in words, and random and bot games of every scenario end
within its turns, keep the invariants and never put a unit on the half of the board not in play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem_engine.protocol.core import RulesError, find_choice, step
from pbem_engine.chance.dice import Dice
from pbem_engine.games.assault_on_gallipoli import GAME, board, scenarios
from pbem_engine.games.assault_on_gallipoli.data import SCENARIOS

from .test_random_play import invariants

LEADERS_ON = {"hamilton": True, "von_sanders": True, "avni": True, "mccay": True, "maclagan": True}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@pytest.mark.parametrize("options", [{}, LEADERS_ON], ids=["standard", "optional-leaders"])
def test_scenario_data_is_sound(name: str, options: dict[str, Any]) -> None:
    assert scenarios.problems(name, options) == []
    state = GAME.setup(name, options)
    sc = SCENARIOS[name]
    assert state["turns"] == sc["turns"] and state["kt"] == sc["killing_time"] and state["ma"] == sc["morale"]
    assert len(state["cubes"]) == 11  # 1.2
    assert not [u for u, v in state["units"].items() if v["at"] in state["off"]]
    swapped = {"avni", "mccay", "maclagan"} & set(state["units"])
    assert not (options and swapped), f"the standard counters stayed: {swapped}"


def test_the_texts_fixed_points() -> None:
    """18.2: the Turk holds the Morale Advantage in Scenario 2 only; 1.3: no 6-VP sudden death in
    Scenario 2; 19.2: Killing Time starts at 7 or 8; 20.1: the landing is Scenario 1's only."""
    assert [n for n, sc in SCENARIOS.items() if sc["morale"] == "turkish"] == ["turkish-counter-attack"]
    assert [n for n, sc in SCENARIOS.items() if not sc["sudden_death_vp"]] == ["turkish-counter-attack"]
    assert {sc["killing_time"] for sc in SCENARIOS.values()} <= {7, 8}
    assert [n for n, sc in SCENARIOS.items() if sc["waves"]] == ["anzac-landing"]
    north = set(SCENARIOS["sari-bair"]["off"])
    south = set(SCENARIOS["lone-pine"]["off"])
    assert "lone-pine" in north and "chunuk-bair" in south and not SCENARIOS["august-offensive"]["off"]


def test_weir_without_the_10th_bn_is_refused() -> None:
    with pytest.raises(RulesError, match="10th Bn"):
        GAME.setup("sari-bair", {"weir": True})
    assert GAME.setup("august-offensive", {"weir": True})["units"]["weir"]["at"] == "brighton-beach"


def test_optional_commanders_from_turn_two_only() -> None:
    """22: Hamilton and von Sanders are not offered on Turn 1; from Turn 2 they are, until brought on."""
    state = GAME.setup("turkish-counter-attack", {"hamilton": True, "von_sanders": True})
    assert not any("Hamilton" in g or "Sanders" in g for s in ("anzac", "turkish") for g in state["reinforcements"][s])
    turn2 = scenarios.resolved("turkish-counter-attack", {"hamilton": True, "von_sanders": True})["reinforcements"][2]
    assert turn2["anzac"]["Hamilton at ANZAC Cove"] == ("anzac-cove", ["hamilton"])
    assert turn2["anzac"]["Hamilton at North Beach"] == ("north-beach", ["hamilton"])
    assert turn2["turkish"]["von Sanders"] == ("koja-dere", ["von-sanders"])
    assert "Hamilton at North Beach" not in scenarios.resolved("lone-pine", {"hamilton": True})["reinforcements"][2]["anzac"]
    assert board.loss_value("hamilton") == board.loss_value("von-sanders") == 4


def play(name: str, seed: int, options: dict[str, Any], bot: bool) -> dict[str, Any]:
    state = GAME.setup(name, options)
    dice = Dice(seed.to_bytes(8, "big") * 4)
    rng = random.Random(seed)
    for _ in range(8000):
        if GAME.outcome(state) is not None:
            return state
        prompt = GAME.prompt(state)
        assert prompt.side in ("anzac", "turkish") and prompt.choices, f"deadlock at {prompt.text}"
        action = (find_choice(prompt, GAME.player(state, prompt.side, prompt, {})).action if bot
                  else rng.choice(prompt.choices).action)
        state, _ = step(GAME, state, prompt.side, action, dice)
        invariants(state)
        assert not [u for u, v in state["units"].items() if v["at"] in state["off"]]
    raise AssertionError("the game did not end")


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(sorted(set(SCENARIOS) - {"anzac-landing"})),
       st.sampled_from([{}, LEADERS_ON]), st.booleans())
def test_games_of_every_scenario_end(seed: int, name: str, options: dict[str, Any], bot: bool) -> None:
    state = play(name, seed, options, bot)
    assert state["turn"] <= SCENARIOS[name]["turns"]

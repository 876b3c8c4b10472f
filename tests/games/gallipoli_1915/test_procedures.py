"""The Game Book's numbers behind the procedures, checked as a player would notice them: the
turn track's dates and light, the cups each turn draws from, the 104.5 rounding, bad input."""

from __future__ import annotations

import pytest

from pbem_engine.games.gallipoli_1915 import GAME, data
from pbem_engine.games.gallipoli_1915.position import position
from pbem_engine.games.gallipoli_1915.victory import peninsula
from pbem_engine.protocol.core import IllegalAction, RulesError


def test_the_turn_track_anchors_of_the_book():
    # p.5-7, 13-16: Turn 1 4-6am 25th, Turn 5 noon-2pm, Turn 10 midnight-4am 26th, Turn 12 6-8am 26th,
    # Turn 16 2-4pm 26th, Turn 33 8-10am 28th, Turn 39 8pm-midnight 28th
    assert data.label(1) == "turn 1, 4-6 am 25 April (twilight)"
    assert data.label(5) == "turn 5, noon-2 pm 25 April (day)"
    assert data.label(10) == "turn 10, midnight-4 am 26 April (night)"
    assert data.label(12) == "turn 12, 6-8 am 26 April (day)"
    assert data.label(16) == "turn 16, 2-4 pm 26 April (day)"
    assert data.label(33) == "turn 33, 8-10 am 28 April (day)"
    assert data.label(39) == "turn 39, 8 pm-midnight 28 April (night)"


def no_fire(pool: list[str]) -> int:
    return sum(1 for item in pool if item.startswith("no-fire"))


def test_each_daylight_turn_has_a_full_cup_and_the_no_fire_chits_leave_on_26_and_27_april():
    pools = GAME.private_pools(GAME.setup("peninsula", {}))["entente"]
    daylight = [t for t in range(1, 40) if data.light(t) == "day"]
    assert sorted(pools) == sorted(f"{c}-ngf-{t}" for c in ("anzac", "helles") for t in daylight)
    assert len(daylight) == 28 and 1 not in daylight and 9 not in daylight and 10 not in daylight
    assert [no_fire(pools[f"helles-ngf-{t}"]) for t in (2, 8, 12, 18, 22, 38)] == [12, 12, 8, 8, 4, 4]
    assert len(pools["anzac-ngf-2"]) == 15 and len(pools["helles-ngf-2"]) == 17
    assert len(pools["anzac-ngf-12"]) == 11 and len(pools["helles-ngf-22"]) == 9
    assert GAME.private_pools(GAME.setup("kemal", {}))["entente"] == {}  # 102.2: no naval gunfire
    assert GAME.private_pools(GAME.setup("helles", {"last_turn": 3}))["entente"].keys() == {"helles-ngf-2",
                                                                                             "helles-ngf-3"}


@pytest.mark.parametrize("anzac, helles, level", [
    ("ottoman-minor", "entente-major", "entente-minor"),  # the book's first example
    ("entente-major", "ottoman-minor", "draw"),  # its second
    ("ottoman-massive", "ottoman-major", "ottoman-major"),  # -2.5 toward Helles (-2)
    ("ottoman-major", "ottoman-massive", "ottoman-massive"),  # -2.5 toward Helles (-3)
    ("entente-major", "entente-major", "entente-major"),
    ("draw", "draw", "draw"),
])
def test_the_peninsula_average_rounds_toward_helles(anzac, helles, level):
    assert peninsula(anzac, helles)[0] == level


def test_bad_orders_and_options_are_one_line_reasons():
    state = position({"turn": 2, "phase": "amphibious-assault"}).state
    for text in ("land lots at W Beach", "land 2 steps at Q Beach", "cd fire many", "fly to the moon",
                 "roll 3d7", "claim victory please", "move the 86th to Krithia"):
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, "entente", GAME.parse_order(state, "entente", text), None)
        assert "\n" not in str(refused.value)
    for options in ({"d10": "2-11"}, {"last_turn": 40}, {"turns": 3}, {"capacity": {"w-beach": "six"}}):
        with pytest.raises(RulesError):
            GAME.setup("helles", options)
    with pytest.raises(ValueError, match="phase"):
        position({"phase": "lunch"})
    with pytest.raises(ValueError, match="held.anzac"):
        position({"held": {"anzac": "C1"}, "chits": {"C1": "no-fire"}})  # Helles draws from its own cup only


def test_the_printed_capacity_comes_from_the_invitation():
    state = position({"options": {"capacity": {"w-beach": 9}}, "turn": 2, "phase": "amphibious-assault"}).state
    state, events = GAME.apply(state, "entente", GAME.parse_order(state, "entente", "land 8 steps at W Beach"), None)
    assert state["landed"] == {"w-beach": 8} and "1 of 9 steps" in events[0]["text"]

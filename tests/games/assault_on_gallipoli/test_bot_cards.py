"""The game's own player (bot.py) and the newer Action Card options: Good Luck played ahead as a
conditional re-roll (luck.py) and on its own fire, Sudden Storm on the map or at once, Heroic
Act's free activation. Each is chosen at a decision the side has anyway, from its own hand and
the public board only; over a few seeded games of Scenario 1 each is used."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem_engine.protocol.core import find_choice, step
from pbem_engine.chance.dice import Dice, ScriptedDice
from pbem_engine.games.assault_on_gallipoli import GAME
from pbem_engine.games.assault_on_gallipoli.position import position


def bot_action(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    prompt = GAME.prompt(state)
    return prompt.side, find_choice(prompt, GAME.player(state, prompt.side, prompt, {})).action


def bot_plays(state: dict[str, Any], card: str) -> dict[str, Any]:
    """The bot's next two actions: play ``card``, then the use it is played for (returned)."""
    side, action = bot_action(state)
    assert action == {"do": "card", "card": card}
    state, _ = step(GAME, state, side, action, ScriptedDice([]))
    side, use = bot_action(state)
    assert use["do"] == "use"
    return use


def test_good_luck_ahead_on_the_landing_at_the_beach_next_to_the_most_enemy_units() -> None:
    state = position({"waves": [[["maclagan", "aus-9", "aus-10"]]], "frames": [{"k": "round", "side": "anzac",
                                                                                 "acted": False}],
                      "hands": {"anzac": ["good-luck#1"]},
                      "units": {"gaba-tepe": ["tur-27-mg", "tur-1-27"], "plugges-plateau": ["tur-2-27"]}}).state
    assert bot_plays(state, "good-luck#1") == {"do": "use", "use": "luck", "roll": "landing", "of": "anzac",
                                               "on": "brighton-beach"}


def test_good_luck_ahead_in_close_combat() -> None:
    """Leading with no card left in round 3: its withdrawal roll if it fails; leading with cards:
    the enemy's initiative roll (he matches) if it succeeds; matching: its own if it fails."""
    def at(step: str, rnd: int, hand: list[str]) -> dict[str, Any]:
        state = position({"turn_phase": "close", "options": {"turns": 1}, "hands": {"anzac": ["good-luck#1"]},
                          "control": {"baby-700": "turkish"}, "units": {"baby-700": ["tur-1-27", "aus-1"]}}).state
        state["frames"].append({"k": "cc", "area": "baby-700", "att": "anzac", "def": "turkish", "step": step,
                                "todo": [], "init": "anzac" if step == "lead" else "turkish", "round": rnd,
                                "played": {"anzac": 0, "turkish": 0}, "lead": "raid" if step == "match" else None,
                                "winner": None, "how": None, "last": None})
        state["ccdeck"]["anzac"]["hand"] = hand
        state["ccdeck"]["turkish"]["hand"] = ["raid"]
        return state

    assert bot_plays(at("lead", 3, []), "good-luck#1") == {"do": "use", "use": "luck", "roll": "withdrawal",
                                                             "of": "anzac", "on": "failure"}
    assert bot_plays(at("lead", 1, ["ambush"]), "good-luck#1") == {"do": "use", "use": "luck", "roll": "initiative",
                                                                    "of": "turkish", "on": "success"}
    assert bot_plays(at("match", 1, ["raid"]), "good-luck#1") == {"do": "use", "use": "luck", "roll": "initiative",
                                                                   "of": "anzac", "on": "failure"}


def test_heroic_act_on_an_exhausted_unit_next_to_the_enemy_which_then_fires() -> None:
    state = position({"frames": [{"k": "round", "side": "anzac", "acted": False}], "hands": {"anzac": ["heroic-act#1"]},
                      "units": {"the-400-plateau": ["aus-9 exhausted"], "anzac-cove": ["aus-10 exhausted"],
                                "lone-pine": ["tur-1-27"]}}).state
    use = bot_plays(state, "heroic-act#1")
    assert use == {"do": "use", "use": "heroic", "unit": "aus-9"}  # aus-10 is not next to the enemy
    state, _ = step(GAME, state, "anzac", {"do": "card", "card": "heroic-act#1"}, ScriptedDice([]))
    state, _ = step(GAME, state, "anzac", use, ScriptedDice([]))
    assert state["frames"][-1]["k"] == "heroic"
    assert bot_action(state) == ("anzac", {"do": "fire"})


def test_heroic_act_at_its_opportunity_fire_acts_after_the_enemy_round() -> None:
    state = position({"frames": [{"k": "round", "side": "turkish", "acted": False}], "hands": {"anzac": ["heroic-act#1"]},
                      "units": {"pine-ridge": ["tur-1-27"], "the-400-plateau": ["aus-9", "aus-10 exhausted"]}}).state
    for action in ({"do": "move", "from": "pine-ridge"}, {"do": "take", "unit": "tur-1-27"},
                   {"do": "go", "to": "lone-pine"}, {"do": "go", "to": "the-400-plateau"}):
        state, _ = step(GAME, state, "turkish", action, ScriptedDice([]))
    assert state["frames"][-1]["mode"] == "opportunity"
    use = bot_plays(state, "heroic-act#1")
    assert use == {"do": "use", "use": "heroic", "unit": "aus-10"}
    state, _ = step(GAME, state, "anzac", {"do": "card", "card": "heroic-act#1"}, ScriptedDice([]))
    state, _ = step(GAME, state, "anzac", use, ScriptedDice([]))
    assert state["ac"]["round"]["heroes"] == [["anzac", "aus-10"]]


def test_no_heroic_act_without_an_exhausted_unit_near_the_enemy() -> None:
    state = position({"frames": [{"k": "round", "side": "anzac", "acted": False}], "hands": {"anzac": ["heroic-act#1"]},
                      "units": {"anzac-cove": ["aus-10 exhausted"], "hill-971": ["tur-1-27"]}}).state
    assert bot_action(state)[1]["do"] != "card"


def test_sudden_storm_waits_when_the_enemy_can_close_in() -> None:
    state = position({"frames": [{"k": "round", "side": "turkish", "acted": False}],
                      "hands": {"turkish": ["sudden-storm#1"]},
                      "units": {"lone-pine": ["aus-9"], "third-ridge": ["tur-1-27"]}}).state  # 2 areas
    assert bot_plays(state, "sudden-storm#1") == {"do": "use", "use": "storm-wait"}
    far = position({"frames": [{"k": "round", "side": "turkish", "acted": False}],
                    "hands": {"turkish": ["sudden-storm#1"]},
                    "units": {"anzac-cove": ["aus-9 exhausted"], "hill-971": ["tur-1-27"]}}).state
    assert bot_action(far)[1]["do"] != "card"  # nothing fresh of the enemy near: kept


def test_sudden_storm_sends_back_the_group_that_entered_its_area() -> None:
    state = position({"frames": [{"k": "round", "side": "turkish", "acted": False}],
                      "hands": {"anzac": ["sudden-storm#1"]},
                      "units": {"pine-ridge": ["tur-1-27"], "the-400-plateau": ["aus-9"]}}).state
    for action in ({"do": "move", "from": "pine-ridge"}, {"do": "take", "unit": "tur-1-27"},
                   {"do": "go", "to": "lone-pine"}, {"do": "go", "to": "the-400-plateau"}):
        state, _ = step(GAME, state, "turkish", action, ScriptedDice([]))
    assert bot_plays(state, "sudden-storm#1") == {"do": "use", "use": "storm"}


SEEDS = range(2, 7)  # games that, at module version 8, use every option (the games move when a choice does)


def test_the_bots_games_use_the_newer_options() -> None:
    """Seeded bot games of Scenario 1 (as the random-play test plays them): each option is used."""
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        state = GAME.setup("anzac-landing", {})
        dice = Dice(seed.to_bytes(8, "big") * 4)
        while GAME.outcome(state) is None:
            side, action = bot_action(state)
            if action["do"] == "use":
                seen[action["use"]] += 1
            if state["frames"][-1]["k"] == "heroic":
                seen["free activation"] += 1
            state, _ = step(GAME, state, side, action, dice)
    assert {"luck", "lucky", "storm", "storm-wait", "heroic", "free activation"} <= set(seen), seen

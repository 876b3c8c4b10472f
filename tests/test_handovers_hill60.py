"""Hill 60 by e-mail at the rules' floor: standing orders (engine/games/hill60/RULES.md 9) given before
an assault's or bombardment's roll let the rules carry out what follows it (the hits, the advance,
the next operation), so the attacker needs no second file of his after the defender's reveal.

The words a player types are read into the orders; seeded games between two campaigns
(bench/handovers.py ``play_files``, the game's own player, bot.py) count, per game turn, the files
that needed a person against the floor (bench/handovers_floors.py)."""

from __future__ import annotations

import pytest

from pbem.bench.handovers import per_turn, play_files
from pbem.bench.handovers_floors import FLOORS
from pbem.commands.demo import choose
from pbem_engine.games.hill60 import GAME
from pbem_engine.games.hill60.position import position
from pbem_engine.protocol.core import IllegalAction, step

MODULE = "hill60"


def _start():
    return position({}).state


def test_the_operations_prompt_offers_standing_orders_and_reads_them_in_words():
    state = _start()
    prompt = GAME.prompt(state)
    assert prompt.free and "Standing orders" not in prompt.text  # the public words are as before
    shown = GAME.playable(state, prompt, {})  # what the player's tool shows adds them
    assert "'ASSAULT; advance; then OPERATION or OPERATION'" in shown.text
    assert GAME.parse_order(state, "allied", "assault hill 60 from kabak kuyu; advance; then naval bombardment of "
                                             "Hill 60 or move 18aus to Kabak Kuyu or end turn") == {
        "do": "assault", "space": "Hill 60", "from": "Kabak Kuyu",
        "orders": {"advance": True, "then": [{"do": "bombard", "space": "Hill 60"},
                                             {"do": "move", "unit": "18aus", "to": "Kabak Kuyu"}, {"do": "end"}]}}
    assert GAME.parse_order(state, "allied", "hits in order NZ Mounted, 5th Connaught Rangers") == \
        {"do": "hits", "order": ["nzmr", "5cr"]}
    assert GAME.parse_order(state, "allied", "dig in at Kabak Kuyu") == {"do": "dig", "space": "Kabak Kuyu"}
    # the declared roll's event names the order in the same words
    assert GAME.action_label({"do": "assault", "space": "Hill 60", "from": "Kabak Kuyu",
                              "orders": {"advance": False, "then": [{"do": "end"}]}}) == \
        "assault Hill 60 from Kabak Kuyu; stay; then end turn"


@pytest.mark.parametrize("words", ["assault Hill 60 from Kabak Kuyu; charge", "hits in order 1/33rd Regiment",
                                   "assault Hill 60 from Kabak Kuyu; then fly to Hill 60", "fortify Hill 60"])
def test_words_the_rules_cannot_read_are_refused(words):
    with pytest.raises(IllegalAction):
        GAME.parse_order(_start(), "allied", words)


def test_an_assault_the_rules_do_not_allow_is_refused_with_its_standing_orders():
    state = _start()
    with pytest.raises(IllegalAction):  # Susuk Kuyu is not next to Kabak Kuyu (1.2, 5.1)
        step(GAME, state, "allied", {"do": "assault", "space": "Susuk Kuyu", "from": "Kabak Kuyu",
                                     "orders": {"advance": True}}, position({}).dice([]))
    with pytest.raises(IllegalAction):  # a move carries no standing orders (9.2)
        step(GAME, state, "allied", {"do": "move", "unit": "18aus", "to": "Kabak Kuyu", "orders": {"advance": True}},
             position({}).dice([]))


def test_without_standing_orders_the_attacker_is_asked_as_before():
    pos = position({"units": {"1-33": {"space": "Susuk Kuyu"}, "2-33": {"steps": 1}}})
    state, dice = pos.state, pos.dice([6, 2, 2, 2])
    state, _ = step(GAME, state, "allied", {"do": "assault", "space": "Hill 60", "from": "Kabak Kuyu"}, dice)
    prompt = GAME.prompt(state)
    assert prompt.side == "allied" and [c.label for c in prompt.choices] == ["advance into Hill 60", "stay"]
    assert "hits" not in state and "then" not in state  # the state a game without standing orders always had


def test_the_demo_player_gives_standing_orders_with_an_assault(tmp_path):
    class Camp:  # what demo.choose reads of a campaign: the game and the situation
        game = GAME
        situation = (_start(), {})
        side = "allied"

    prompt = GAME.playable(_start(), GAME.prompt(_start()), {})
    assert choose(prompt, Camp()).startswith("hits in order 18th Australian Battalion")
    state = _start()
    state["hits"] = {"allied": ["18aus", "5cr", "nzmr", "10gr"]}
    Camp.situation = (state, {})
    words = choose(GAME.playable(state, GAME.prompt(state), {}), Camp())
    assert words.startswith("assault Hill 60 from Kabak Kuyu; advance; then assault Hill 60 from Kabak Kuyu or ")
    assert words.endswith(" or end turn")
    assert GAME.parse_order(state, "allied", words)["orders"]["then"][-1] == {"do": "end"}


@pytest.mark.parametrize("seed", range(6))
def test_each_player_files_once_a_game_turn_as_the_floor(seed, tmp_path):
    files = play_files(MODULE, {}, seed, tmp_path)
    turns = per_turn(files, FLOORS[MODULE])
    assert turns
    for t in turns:
        if t["turn"] > 1:
            assert (t["human"], t["floor"]) == (2, 2), t
        else:  # the Ottoman player has had no turn yet to give his hit order (RULES.md "Hand-overs")
            assert t["floor"] == 2 and t["human"] - t["floor"] == t["again"] <= 1, t
    first = [f for f in files if f["turn"] == 1 and f["person"]]
    if len(first) > 2:
        assert [f["side"] for f in first] == ["allied", "ottoman", "ottoman"]

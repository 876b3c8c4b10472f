"""Orders typed for the steps added to save exchanges: battle plans and standing blocks up again."""

import pytest

from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.gallipoli_blocks import GAME
from pbem_engine.games.gallipoli_blocks.position import position

BATTLE = {"frames": [{"k": "ops", "army": "allied", "left": 0},
                     {"k": "battle", "att": "allied", "from": "alexi", "to": "krithia", "step": "plan-att"}],
          "hands": {"allied": {"C1": "allied-card-05", "C2": "allied-card-09"}},
          "blocks": {"alexi": ["A1=br-29-div-86-bde:4", "A2=br-29-div-87-bde:3", "A3=br-29-div-88-bde:2"],
                     "krithia": ["T1=ott-9-div-25-rgt:2"]}}
KNOWN = {"A1": "br-29-div-86-bde:4", "A2": "br-29-div-87-bde:3", "A3": "br-29-div-88-bde:2",
         "C1": "allied-card-05", "C2": "allied-card-09"}


def test_a_plan_in_words_seals_leaders_and_battle_events():
    state = position(BATTLE).state
    action = GAME.parse_order(state, "allied", "plan lead strongest; events all", KNOWN)
    assert action == {"do": "plan", "blocks": {"$hide": "A1 A2 A3"}, "events": {"$hide": "C1"}}  # 09 is no Battle event
    named = GAME.parse_order(state, "allied", "plan lead 87, 86; no events", KNOWN)
    assert named == {"do": "plan", "blocks": {"$hide": "A2 A1"}, "events": {"$hide": ""}}
    assert GAME.parse_order(state, "allied", "decide each step", KNOWN) == {"do": "later"}


@pytest.mark.parametrize("order, says", [("plan lead 86; events card 09", "no single Battle event card"),
                                         ("plan", "plan lead strongest"),
                                         ("plan lead 86, 86", "different blocks")])
def test_a_plan_that_cannot_be_is_refused_with_the_reason(order, says):
    state = position(BATTLE).state
    with pytest.raises(IllegalAction) as e:
        GAME.parse_order(state, "allied", order, KNOWN)
    assert says in str(e.value)


@pytest.mark.parametrize("order", ["stand up", "1", "Stand  Up"])
def test_standing_up_is_the_only_order_and_takes_its_number(order):
    state = position({"standing": {"allied": ["A1", "A3"]}, "frames": [{"k": "ops", "army": "allied", "left": 1}],
                      "blocks": {"alexi": ["A1=br-29-div-86-bde:4 open", "A3=br-29-div-88-bde:2 open"]}}).state
    prompt = GAME.prompt(state)
    assert [c.label for c in prompt.choices] == ["stand up"] and "concealed again (2 at Alexi)" in prompt.text
    assert GAME.parse_order(state, "allied", order, {}) == {
        "do": "conceal", "spaces": {"alexi": [{"$hide": "br-29-div-86-bde:4"}, {"$hide": "br-29-div-88-bde:2"}]}}
    with pytest.raises(IllegalAction):
        GAME.parse_order(state, "allied", "end operations", {})


def test_a_reinforcement_plan_in_words_and_a_block_planned_twice_refused():
    from pbem_engine.protocol.core import step

    pos = position({"frames": [{"k": "phase", "army": "ottoman"}],
                    "hands": {"ottoman": {"O1": "ottoman-card-01"}, "allied": {"C1": "allied-card-09"}}})
    state, dice = pos.state, pos.dice([], [], ["K1"])
    state, _ = step(GAME, state, "ottoman", {"do": "play", "card": "O1", "as": "event"}, dice)
    prompt = GAME.prompt(state)
    assert prompt.side == "ottoman" and "a reinforcement plan?" in prompt.text
    assert [c.label for c in prompt.choices] == ["done", "deploy once the event stands"]
    assert GAME.parse_order(state, "ottoman", "Deploy once the event stands", {}) == {"do": "later"}
    order = GAME.parse_order(state, "ottoman", "deploy ott-7-div-19-rgt 4 ottoman hq", {})
    assert order == {"do": "deploy", "at": "ottoman-hq", "block": {"$hide": "ott-7-div-19-rgt:4"}}
    state, _ = step(GAME, state, "ottoman", {"do": "deploy", "at": "ottoman-hq", "block": "ott-7-div-19-rgt:4"}, dice)
    assert state["frames"][-1]["plan"] and not state["blocks"]  # sealed in the plan, not yet on the board
    with pytest.raises(IllegalAction, match="already on the board"):  # the plan's blocks count as placed
        GAME.parse_order(state, "ottoman", "deploy ott-7-div-19-rgt 4 ottoman hq", {"K1": "ott-7-div-19-rgt:4"})

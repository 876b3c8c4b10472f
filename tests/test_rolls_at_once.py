"""Protocol 2: a roll reached by forced actions only is sealed at once (pbem_engine.protocol.match.at_once).

A tiny game makes each case plain: ``pick`` is a free choice (two legal actions), ``roll``
a forced one (the only legal action), and the sides alternate after every roll.
"""

import pytest

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol.core import Choice, IllegalAction, Prompt, copy_state

GAME_ID = "cd" * 16
RED = protocol.chain_links(GAME_ID, "red", b"r" * 32, 50)
BLUE = protocol.chain_links(GAME_ID, "blue", b"b" * 32, 50)
PICK_A, ROLL = {"do": "pick", "x": "a"}, {"do": "roll"}


class PickAndRoll:
    """Each turn: the side may have to pick (free), then rolls a die (forced); then the other side."""

    name, title, version = "pick-and-roll", "test", "1"
    sides = ("red", "blue")
    scenarios = {"standard": "test"}
    provisional = ()

    def setup(self, scenario, options):
        return {"turn": "red", "picked": False, "free": bool(options.get("free")), "rolls": []}

    def prompt(self, state):
        if len(state["rolls"]) >= 6:
            return Prompt(None, "over")
        if state["free"] and not state["picked"]:
            return Prompt(state["turn"], "pick", (Choice("a", PICK_A), Choice("b", {"do": "pick", "x": "b"})))
        return Prompt(state["turn"], "roll", (Choice("roll", ROLL),))

    def apply(self, state, side, action, dice):
        if action["do"] == "pick":
            state["picked"] = True
            return state, []
        state["rolls"].append(dice.roll(6, "a die"))
        state["turn"] = "blue" if side == "red" else "red"
        state["picked"] = False
        return state, []

    def view(self, state, side):
        return copy_state(state)

    def outcome(self, state):
        return None

    def describe(self, view):
        return []


GAME = PickAndRoll()


def joined(protocol_version=2, free=False):
    body = {"mode": "sealed", "scenario": "standard", "options": {"free": free}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex(), "protocol": protocol_version}
    return protocol.join(protocol.start(GAME, GAME_ID, "red", body), "blue", {"anchor": BLUE[0].hex()})


def turn(m, seq, side, actions):
    links = RED if side == "red" else BLUE
    return protocol.advance(GAME, m, seq, side, {"reveal": links[m["chains"][side]["index"] + 1].hex(),
                                                 "actions": actions})


def test_the_first_roll_waits_then_forced_rolls_are_sealed_at_once():
    m, _, rolls = turn(joined(), 2, "red", [ROLL])  # no turn of blue's before it: only its anchor
    assert rolls == [] and m["pending"] is not None
    m, _, rolls = turn(m, 3, "blue", [ROLL])  # resolves red's roll, then its own forced roll at once
    assert [(r["declared_in"], r["resolved_in"], r["actor"]) for r in rolls] == [(2, 3, "red"), (3, 3, "blue")]
    assert m["pending"] is None and m["last"] == "blue"
    mine, theirs = rolls[1]["links"]
    assert (mine["side"], mine["index"], theirs["side"], theirs["index"]) == ("blue", 1, "red", 1)
    assert rolls[1]["seed"] == protocol.roll_seed(GAME_ID, 3, BLUE[1].hex(), RED[1].hex(),
                                                  rolls[1]["declarations"]).hex()
    m, _, rolls = turn(m, 4, "red", [ROLL])
    assert len(rolls) == 1 and rolls[0]["resolved_in"] == 4 and m["pending"] is None


def test_a_free_choice_before_the_roll_makes_it_wait():
    m, _, _ = turn(joined(free=True), 2, "red", [PICK_A, ROLL])
    m, _, rolls = turn(m, 3, "blue", [PICK_A, ROLL])  # red's roll resolves; blue picked, so blue's waits
    assert [r["actor"] for r in rolls] == ["red"]
    assert m["pending"]["side"] == "blue" and m["pending"]["declared_in"] == 3


def test_after_a_roll_sealed_at_once_the_next_roll_waits():
    """The actor knows the first result before its next action: a second roll may not use the same links."""
    class ThreeRolls(PickAndRoll):  # a side rolls three dice, one action each, then the other side
        def apply(self, state, side, action, dice):
            state["rolls"].append(dice.roll(6, "a die"))
            if len(state["rolls"]) % 3 == 0:
                state["turn"] = "blue" if side == "red" else "red"
            return state, []

    game = ThreeRolls()
    body = {"mode": "sealed", "scenario": "standard", "options": {}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex(), "protocol": 2}
    m = protocol.join(protocol.start(game, GAME_ID, "red", body), "blue", {"anchor": BLUE[0].hex()})
    m, _, _ = protocol.advance(game, m, 2, "red", {"reveal": RED[1].hex(), "actions": [ROLL]})
    m, _, rolls = protocol.advance(game, m, 3, "blue", {"reveal": BLUE[1].hex(), "actions": []})
    assert len(rolls) == 1 and m["game"]["turn"] == "red"
    with pytest.raises(protocol.ProtocolError) as e:  # the second roll is at once, the third waits
        protocol.advance(game, m, 4, "red", {"reveal": RED[2].hex(), "actions": [ROLL, ROLL, ROLL]})
    assert e.value.code == "after-roll"
    m, _, rolls = protocol.advance(game, m, 4, "red", {"reveal": RED[2].hex(), "actions": [ROLL, ROLL]})
    assert [r["resolved_in"] for r in rolls] == [4] and m["pending"]["declared_in"] == 4


def test_protocol_1_histories_keep_their_rules():
    m, _, _ = turn(joined(protocol_version=1), 2, "red", [ROLL])
    m, _, rolls = turn(m, 3, "blue", [ROLL])
    assert [r["actor"] for r in rolls] == ["red"] and m["pending"]["side"] == "blue"
    assert "last" not in m  # the state, and so every state hash, of an old history is unchanged


@pytest.mark.parametrize("version", [0, 5, "2", True, None])
def test_an_unknown_protocol_version_is_refused(version):
    body = {"mode": "sealed", "scenario": "standard", "options": {}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex(), "protocol": version}
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.start(GAME, GAME_ID, "red", body)
    assert e.value.code == "bad-genesis"


def test_unsealed_mode_is_unchanged():
    body = {"mode": "unsealed", "scenario": "standard", "options": {}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex(), "protocol": 2}
    m = protocol.join(protocol.start(GAME, GAME_ID, "red", body), "blue", {"anchor": BLUE[0].hex()})
    m, _, rolls = turn(m, 2, "red", [ROLL])
    m, _, more = turn(m, 3, "blue", [ROLL])
    assert [r["mode"] for r in rolls + more] == ["unsealed", "unsealed"]
    with pytest.raises(IllegalAction):
        turn(m, 4, "blue", [ROLL])

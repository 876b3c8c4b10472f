"""A roll resolved in the envelope that makes it (sealed at once, or unsealed dice) is applied in
one go, its dice seeded when the rules first ask for randomness (pbem_engine.protocol.match._AtOnce), where
it used to be tried without dice, the state restored and the action applied again. The checks
made at that point, their order and what is recorded are the same; these cases pin them.

A tiny game: each side in turn takes the one legal action (so a roll is sealed at once once the
other side has sent a turn), which does what the genesis option ``act`` says.
"""

import pytest

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol.core import Choice, IllegalAction, Prompt, copy_state
from pbem_engine.hidden.private import anchor

GAME_ID = "ce" * 16
RED = protocol.chain_links(GAME_ID, "red", b"r" * 32, 20)
BLUE = protocol.chain_links(GAME_ID, "blue", b"b" * 32, 20)
GO = {"do": "go"}
TOKEN = "ab" * 32


class OneAction:
    name, title, version = "one-action", "test", "1"
    sides = ("red", "blue")
    scenarios = {"standard": "test"}
    provisional = ()

    def setup(self, scenario, options):
        return {"turn": "red", "act": options.get("act", "roll"), "log": []}

    def private_pools(self, state):
        return {side: {"cup": ["a", "b", "c"]} for side in self.sides}

    def prompt(self, state):
        return Prompt(state["turn"], "go", (Choice("go", GO),))

    def apply(self, state, side, action, dice):
        act = state["act"] if side == "blue" else "roll"  # red's roll waits: no turn of blue's before it
        if act == "draw-then-roll":
            state["log"].append(dice.draw_private(side, "cup", 1)[0])
        if act == "shuffle-one":
            state["log"].append(dice.shuffle(["only"], "one item: no randomness")[0])
        else:
            state["log"].append(dice.roll(6, "a die"))
        if act == "roll-then-draw":
            state["log"].append(dice.draw_private(side, "cup", 1)[0])
        if act == "roll-then-refuse":
            raise IllegalAction("refused after the roll")
        state["turn"] = "blue" if side == "red" else "red"
        return state, []

    def view(self, state, side):
        return copy_state(state)

    def outcome(self, state):
        return None

    def describe(self, view):
        return []


GAME = OneAction()


def after_red(act, mode="sealed"):
    """Red has sent its first turn (a roll that waits in sealed play); blue is to act."""
    body = {"mode": mode, "scenario": "standard", "options": {"act": act}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex(), "protocol": 2, "private_anchor": anchor(GAME_ID, "red", b"R" * 32)}
    m = protocol.start(GAME, GAME_ID, "red", body)
    m = protocol.join(m, "blue", {"anchor": BLUE[0].hex(), "private_anchor": anchor(GAME_ID, "blue", b"B" * 32)})
    m, _, _ = protocol.advance(GAME, m, 2, "red", {"reveal": RED[1].hex(), "actions": [GO]})
    return m


def blue(m, draws=()):
    body = {"reveal": BLUE[1].hex(), "actions": [GO]}
    if draws:
        body["private"] = {"draws": [[TOKEN]]}
    return protocol.advance(GAME, m, 3, "blue", body)


def test_a_roll_sealed_at_once_is_recorded_as_resolved_in_its_envelope():
    m, _, rolls = blue(after_red("roll"))
    assert [(r["actor"], r["declared_in"], r["resolved_in"], r["mode"]) for r in rolls] == \
        [("red", 2, 3, "sealed"), ("blue", 3, 3, "sealed")]
    mine, theirs = rolls[1]["links"]
    assert rolls[1]["seed"] == protocol.roll_seed(GAME_ID, 3, mine["link"], theirs["link"],
                                                  rolls[1]["declarations"]).hex()
    assert m["pending"] is None and m["game"]["log"][-1] == rolls[1]["values"][0]


def test_private_pools_changed_before_the_roll_are_refused():
    with pytest.raises(protocol.ProtocolError) as e:
        blue(after_red("draw-then-roll"), draws=True)
    assert e.value.code == "bad-private" and "split it in two" in str(e.value)


def test_private_pools_changed_after_the_roll_are_accepted():
    m, _, rolls = blue(after_red("roll-then-draw"), draws=True)
    assert m["game"]["log"][-1] == TOKEN and rolls[-1]["actor"] == "blue"
    assert [e["tokens"] for e in m["private"]["blue"]["log"]] == [[TOKEN]]


def test_an_action_refused_after_its_roll_is_refused_unnumbered():
    with pytest.raises(IllegalAction) as e:
        blue(after_red("roll-then-refuse"))
    assert str(e.value) == "refused after the roll"  # as when it was applied again with its dice


def test_an_action_that_needs_no_randomness_records_no_roll():
    m, _, rolls = blue(after_red("shuffle-one"))  # a shuffle of one item draws nothing
    assert [r["actor"] for r in rolls] == ["red"] and m["game"]["log"][-1] == "only"


def test_unsealed_dice_on_the_creators_anchor_are_refused():
    body = {"mode": "unsealed", "scenario": "standard", "options": {"act": "roll"}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex(), "protocol": 2, "private_anchor": anchor(GAME_ID, "red", b"R" * 32)}
    m = protocol.start(GAME, GAME_ID, "red", body)
    m = protocol.join(m, "blue", {"anchor": BLUE[0].hex(), "private_anchor": anchor(GAME_ID, "blue", b"B" * 32)})
    m["game"]["turn"] = "blue"  # blue to act before red's opening reveal
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, m, 2, "blue", {"reveal": BLUE[1].hex(), "actions": [GO]})
    assert e.value.code == "too-early"
    m, _, rolls = protocol.advance(GAME, after_red("roll", mode="unsealed"), 3, "blue",
                                   {"reveal": BLUE[1].hex(), "actions": [GO]})
    assert [(r["actor"], r["mode"], r["resolved_in"]) for r in rolls] == [("blue", "unsealed", 3)]

"""The sealed-dice protocol (engine/protocol/match.py): what each side can and cannot do."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.barrage import GAME

GAME_ID = "ab" * 16
RED = protocol.chain_links(GAME_ID, "red", b"r" * 32, 50)
BLUE = protocol.chain_links(GAME_ID, "blue", b"b" * 32, 50)
FIRE = {"do": "fire"}


def joined():
    body = {"mode": "sealed", "scenario": "standard", "options": {}, "sides": {"red": {}, "blue": {}},
            "anchor": RED[0].hex()}
    return protocol.join(protocol.start(GAME, GAME_ID, "red", body), "blue", {"anchor": BLUE[0].hex()})


def test_the_actor_learns_nothing_until_the_other_side_reveals():
    m, events, rolls = protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE]})
    assert rolls == [] and m["pending"]["action"] == FIRE
    assert m["game"]["hits"] == {"red": 0, "blue": 0}
    assert protocol.waiting_for(GAME, m)["text"] == "waiting for blue's reveal since envelope #2"
    m2, _, rolls = protocol.advance(GAME, m, 3, "blue", {"reveal": BLUE[1].hex(), "actions": []})
    assert len(rolls) == 1 and rolls[0]["declared_in"] == 2 and rolls[0]["resolved_in"] == 3
    assert m2["game"]["hits"]["red"] == rolls[0]["result"]


def test_the_roll_depends_on_both_links_and_the_declaration():
    m = protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE]})[0]
    seed = protocol.roll_seed(GAME_ID, 2, RED[1].hex(), BLUE[1].hex(), m["pending"]["declarations"])
    other = protocol.roll_seed(GAME_ID, 2, RED[1].hex(), BLUE[2].hex(), m["pending"]["declarations"])
    assert seed != other
    assert protocol.roll_seed(GAME_ID, 2, RED[1].hex(), BLUE[1].hex(), "00" * 32) != seed


def test_the_actor_cannot_act_again_before_the_reveal():
    m = protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE]})[0]
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, m, 3, "red", {"reveal": RED[2].hex(), "actions": []})
    assert e.value.code == "owes-reveal"


def test_nothing_follows_a_roll_in_the_same_envelope():
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE, FIRE]})
    assert e.value.code == "after-roll"


def test_an_envelope_must_do_something():
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": []})
    assert e.value.code == "nothing-to-do"


def test_acting_out_of_turn_is_illegal():
    with pytest.raises(IllegalAction, match="red's decision"):
        protocol.advance(GAME, joined(), 2, "blue", {"reveal": BLUE[1].hex(), "actions": [FIRE]})


@given(st.binary(min_size=32, max_size=32))
@settings(max_examples=50)
def test_only_the_committed_next_link_is_accepted(link):
    m = protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE]})[0]
    if link == BLUE[1]:
        return
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, m, 3, "blue", {"reveal": link.hex(), "actions": []})
    assert e.value.code == "bad-reveal"


def test_a_link_cannot_be_skipped_or_repeated():
    m = protocol.advance(GAME, joined(), 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE]})[0]
    for wrong in (BLUE[2], BLUE[0]):
        with pytest.raises(protocol.ProtocolError):
            protocol.advance(GAME, m, 3, "blue", {"reveal": wrong.hex(), "actions": []})


def test_a_genesis_with_impossible_options_is_refused_not_crashed():
    body = {"mode": "sealed", "scenario": "standard", "options": {"dice": "many"},
            "sides": {"red": {}, "blue": {}}, "anchor": "00" * 32}
    with pytest.raises(protocol.ProtocolError, match="dice must be a whole number"):
        protocol.start(GAME, GAME_ID, "red", body)


def test_inputs_are_never_modified():
    m = joined()
    snapshot = repr(m)
    protocol.advance(GAME, m, 2, "red", {"reveal": RED[1].hex(), "actions": [FIRE]})
    assert repr(m) == snapshot

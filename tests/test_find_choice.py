"""Typed orders: a listed choice by its number, its label, a prefix, or any unambiguous part of
the names in it ("move 86 to alexi"); a misspelt space gets "did you mean"."""

from __future__ import annotations

import pytest

from pbem_engine.protocol.core import Choice, IllegalAction, Prompt, find_choice
from pbem_engine.games.gallipoli_blocks.rules import find_space

MOVES = Prompt("allied", "move", (
    Choice("move 29 Div British / 86 Bde (4 steps, strength 3) from Sedd el Bahr to Alexi", {"n": 1}),
    Choice("move 29 Div British / 88 Bde (4 steps, strength 3) from Sedd el Bahr to Alexi", {"n": 2}),
    Choice("move 29 Div British / 86 Bde (4 steps, strength 3) from Sedd el Bahr to Asmak", {"n": 3}),
    Choice("end operations", {"n": 4}),
))


@pytest.mark.parametrize("order, n", [("move 86 to alexi", 1), ("Move 88 ALEXI", 2), ("86 asmak", 3), ("2", 2),
                                      ("end", 4), ("end operations", 4)])
def test_any_unambiguous_part_of_the_names_will_do(order, n):
    assert find_choice(MOVES, order).action == {"n": n}


def test_an_ambiguous_part_lists_what_it_could_be():
    with pytest.raises(IllegalAction, match="'move 86' is ambiguous: move 29 Div British / 86 Bde .* to Alexi; "
                                            "move 29 Div British / 86 Bde .* to Asmak"):
        find_choice(MOVES, "move 86")


def test_words_must_come_in_order_and_each_must_be_there():
    with pytest.raises(IllegalAction, match="not a legal choice"):
        find_choice(MOVES, "move 87 to alexi")


def test_a_misspelt_space_gets_did_you_mean():
    with pytest.raises(IllegalAction, match="did you mean 'Krithia'"):
        find_space("krythia")
    assert find_space("krith") == "krithia"


def test_a_manual_events_note_is_kept_as_typed():
    from pbem_engine.games.gallipoli_blocks import rules

    state = {"frames": [{"k": "manual", "army": "allied"}], "seats": {"allied": "allied", "ottoman": "ottoman"}}
    action = rules.parse_order(state, "allied", "note The Turks lose 2 OPS at Krithia", {}, {})
    assert action == {"do": "note", "text": "The Turks lose 2 OPS at Krithia"}

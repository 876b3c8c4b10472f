"""A decision a game takes in its own words (``Prompt.free``) still takes every choice it lists by
its number and by its whole printed label, odds included (pbem.play.plays.free_order); other words go
to the game's own parser, and a word that only begins a label is never taken for it."""

from __future__ import annotations

import pytest

from pbem.play.plays import free_order
from pbem_engine.protocol.core import SEP, Choice, IllegalAction, Prompt


class Game:
    @staticmethod
    def parse_order(state, side, text, known):
        if text in ("done", "attack 1308 from every adjacent hex"):
            return {"do": text}
        if text.startswith("move "):
            return {"do": "move", "what": text[5:]}
        raise IllegalAction(f"'{text}' is not an order here")


PROMPT = Prompt("british", "movement: 'move UNIT to HEX' or one of these",
                (Choice("attack 1308 from every adjacent hex" + SEP + "21 against 3, column 7-1: -/1 67%",
                        {"do": "placeholder"}), Choice("done", {"do": "done"})), free=True)


@pytest.mark.parametrize("order, action", [
    ("1", {"do": "attack 1308 from every adjacent hex"}),
    ("2", {"do": "done"}),
    ("attack 1308 from every adjacent hex" + SEP + "21 against 3, column 7-1: -/1 67%",
     {"do": "attack 1308 from every adjacent hex"}),
    ("move 16/6 to 1444", {"do": "move", "what": "16/6 to 1444"}),
])
def test_a_listed_choice_by_its_number_or_its_whole_label_and_words_to_the_parser(order, action):
    assert free_order(Game, {}, "british", PROMPT, order, {}) == action


@pytest.mark.parametrize("order", ["do", "3", "attack 1308"])
def test_a_part_of_a_label_or_a_number_not_listed_is_refused(order):
    with pytest.raises(IllegalAction):
        free_order(Game, {}, "british", PROMPT, order, {})

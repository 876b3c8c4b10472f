"""Rejection sampling in the uniform draw (``Dice.uniform``, behind every shuffle and draw).

A 32-bit word ``x`` taken modulo ``n`` favours the low values when ``n`` does not divide 2**32:
the words from ``2**32 - 2**32 % n`` up are rejected and the next word is read. No honest seed
is likely to hit that zone (a chance of 2**32 % n in 2**32), so only a stubbed word stream can
show the check is there. Each test fails when the rejection is removed (see ``tools/mutate.py``);
``tests/test_dice.py`` does the same for dice faces.
"""

from __future__ import annotations

import pytest

from pbem_engine.chance.dice import Dice

SPAN = 2**32


class Stream(Dice):
    """Dice reading the given 32-bit words, first to last (the HMAC stream after them)."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(b"stubbed")
        self._words = list(reversed(words))

    @property
    def unread(self) -> int:
        return len(self._words)


@pytest.mark.parametrize("n", [3, 5, 6, 7, 10, 52, 100, 1000])
def test_a_word_in_the_biased_tail_is_skipped(n: int) -> None:
    limit = SPAN - SPAN % n
    assert limit < SPAN  # n does not divide 2**32: there is a tail to reject
    for rejected in (SPAN - 1, limit):
        stream = Stream([rejected, 11, 12])
        assert stream.uniform(n) == 11 % n, f"{rejected} is in the tail of {n} and must be skipped"
        assert stream.unread == 1  # two words read: the rejected one, then 11
    accepted = Stream([limit - 1, 11])
    assert accepted.uniform(n) == (limit - 1) % n and accepted.unread == 1


def test_a_run_of_rejected_words_is_all_skipped() -> None:
    stream = Stream([SPAN - 1, SPAN - 2, SPAN - 3, SPAN - 4, 9])
    assert stream.uniform(6) == 9 % 6  # 2**32 % 6 == 4: the top four words are all rejected


def test_a_power_of_two_rejects_nothing() -> None:
    assert Stream([SPAN - 1]).uniform(8) == (SPAN - 1) % 8


def test_a_draw_skips_the_biased_tail() -> None:
    """2**32 % 3 == 1: the top word would give 'a' (0); it is rejected and 5 gives 'c' (2)."""
    drawn, rest = Stream([SPAN - 1, 5]).draw(["a", "b", "c"], 1, "pick")
    assert drawn == ["c"] and rest == ["a", "b"]


def test_a_shuffle_skips_the_biased_tail() -> None:
    """Fisher-Yates over 3 items reads uniform(3) then uniform(2): the top word is skipped."""
    order = Stream([SPAN - 1, 5, 7]).shuffle(["a", "b", "c"], "deck")
    assert order == ["a", "b", "c"]  # j = 5 % 3 = 2 (stays), then j = 7 % 2 = 1 (stays)
    # without the rejection it would be j = (2**32-1) % 3 = 0, then 5 % 2 = 1: ['c', 'b', 'a']

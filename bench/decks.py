"""Shared decks (engine.deck): what a shuffle, a draw and a close combat's fresh deck cost.

Each is timed as both tools run it (the author builds each message, a receiver checks and
applies it) and reported as a ratio to the same number of bare built-in ``pow`` 2048-bit
exponentiations, counted during the run and timed in the same run: ``pow`` is the floor.
The floor is timed just before and just after the work and the faster of the two is kept,
so a busy machine makes the ratio look worse, never better.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pbem_engine import deck as D

SIDES = ["allied", "ottoman"]
SECRETS = {"allied": b"bench allied secret", "ottoman": b"bench ottoman secret"}


class _Counter:
    """Counts the modular exponentiations engine.deck makes (not inverses or squarings)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, base: int, exp: int, mod: int | None = None) -> int:
        if mod is not None and exp.bit_length() > 64:
            self.count += 1
        return pow(base, exp, mod)


def _timed(work: Callable[[], Any], expected: int) -> tuple[float, int, float, Any]:
    """(time, exponentiations counted, floor for that many, result); ``expected`` sizes the first floor."""
    before = _floor(expected)
    counter = _Counter()
    D.pow = counter  # shadows the built-in inside engine.deck for this run only
    try:
        start = time.perf_counter()
        result = work()
        elapsed = time.perf_counter() - start
    finally:
        del D.pow
    floor = min(before * counter.count / max(expected, 1), _floor(counter.count))
    return elapsed, counter.count, floor, result


def _floor(count: int) -> float:
    keys = D.Keys(b"bench floor", "bench", "floor", "x", 0)
    bases = [D.encode("bench", "floor", f"c{i}") for i in range(count)]
    exps = [keys.position(i) for i in range(count)]
    start = time.perf_counter()
    for b, e in zip(bases, exps):
        pow(b, e, D.P)
    return time.perf_counter() - start


def _deal(deck_id: str, count: int) -> dict[str, Any]:
    """A fresh deck of ``count`` cards, shuffled and re-keyed by both sides."""
    cards = [f"card-{i:02d}" for i in range(count)]
    state = D.new_deck("bench", deck_id, SIDES, cards)
    state = D.apply(state, D.begin(state, SIDES[0], cards))
    for _, side in D.plan(state["shuffles"][-1]):
        state = D.apply(state, D.step(state, side, SECRETS[side], "nonce"))
    return state


def _draws(state: dict[str, Any], count: int) -> dict[str, Any]:
    drawer, giver = SIDES
    for _ in range(count):
        ref = state["pile"][0]
        state = D.apply(state, D.draw(state, drawer))
        state = D.apply(state, D.release(state, giver, SECRETS[giver], [ref]))
        D.read(state, drawer, SECRETS[drawer], ref)
    return state


def report(echo: Callable[[str], None], cards: int = 54, combat: int = 36, draws: int = 5) -> dict[str, float]:
    out = {}
    t, n, floor, state = _timed(lambda: _deal("action", cards), 3 * cards)
    out["shuffle_ratio"] = t / floor
    echo(f"shared deck, {cards} cards shuffled and re-keyed by both sides (3 turn files): {t:.2f} s, "
         f"{n} exponentiations; floor ({n} x pow 2048-bit) {floor:.2f} s; ratio {t / floor:.2f}")
    draws = min(draws, cards)
    t, n, floor, _ = _timed(lambda: _draws(state, draws), draws)
    out["draw_ratio"] = t / floor
    echo(f"shared deck, one draw (the other's key checked, the card opened): {t / draws * 1000:.0f} ms, "
         f"{n // draws} exponentiation(s); floor {floor / draws * 1000:.0f} ms; ratio {t / floor:.2f}")
    t, n, floor, _ = _timed(lambda: _deal("close-combat-1", combat), 3 * combat)
    out["combat_ratio"] = t / floor
    echo(f"close combat, a fresh {combat}-card deck shuffled and re-keyed: {t:.2f} s, {n} exponentiations; "
         f"floor {floor:.2f} s; ratio {t / floor:.2f}")
    return out


if __name__ == "__main__":
    report(print)

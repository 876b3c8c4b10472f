"""Random games of Assault on Gallipoli: whatever legal choices are made, nothing crashes, someone
can always act while the game goes on, every game ends within the scenario's turns, and the
invariants hold after every action: stacking (5.1-5.2, outside a pending over-stacking frame),
the Remnant pool (9.4.4), units on real areas, ships only at sea (16.1), Killing Time in 0-8,
and each side's 36 close combat cards across its deck, its hand and the cards it played (10.2,
at most 18 in a hand), no card type more often than the deck holds it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem_engine.protocol.core import step
from pbem_engine.chance.dice import Dice
from pbem_engine.games.assault_on_gallipoli import GAME, board, cards, closecombat
from pbem_engine.games.assault_on_gallipoli.data import REMNANTS, SIDES

MAX_ACTIONS = 6000


def invariants(state: dict[str, Any]) -> None:
    pending = {(f["side"], f["area"]) for f in state["frames"] if f["k"] == "overstack"}
    for f in state["frames"]:  # 5.3: moving through, and dropped off before the move ends (5.4)
        if f["k"] == "move":
            pending |= {(f["side"], f["at"])} | {(f["side"], state["units"][u]["at"]) for u in f["dropped"]
                                                  if u in state["units"]}
    for area in board.areas():
        for side in SIDES:
            if (side, area) not in pending:
                assert board.over_stacked(state, area, side) == 0, f"{side} over-stacked at {area}"
    for uid, u in state["units"].items():
        assert u["at"] in board.areas()
        assert board.is_sea(u["at"]) == (board.kind(uid) == "ship"), f"{uid} at {u['at']}"
    for side in SIDES:
        on_board = [u for u in state["units"] if u in REMNANTS[side]]
        assert len(on_board) + len(board.pool(state, side)) == 5
        assert not set(state["lost"][side]) & set(state["units"])
    assert 0 <= state["kt"] <= 8
    ac = state["ac"]  # 17: the 54 Action Cards are always in the deck, the hands, the discards, in play or removed
    held = ac["pile"] + [c for h in ac["hands"].values() for c in h] + ac["discard"] + ac["inplay"] + ac["removed"] \
        + [f["card"] for f in state["frames"] if f["k"] == "card"]
    assert sorted(held) == sorted(cards.DECK), f"Action Cards: {Counter(held) - Counter(cards.DECK)} extra, " \
                                               f"{Counter(cards.DECK) - Counter(held)} missing"
    assert cards.count(state) == 54
    for side in SIDES:
        d = state["ccdeck"][side]
        left = len(closecombat.POOLS[d["from"]]) - d["out"]
        assert left >= 0 and left + len(d["hand"]) + len(d["table"]) == 36, f"{side}'s close combat cards: {d}"
        assert len(d["hand"]) <= closecombat.MAX_HAND
        held = Counter(d["hand"] + d["table"])
        assert all(held[c] <= n for c, n in closecombat.DECK.items()) and set(held) <= set(closecombat.DECK)


COMBATS: list[int] = []  # close combats fought per game
PLAYED: list[int] = []  # Action Cards played per game


def play(seed: int, chooser, options: dict[str, Any] | None = None) -> dict[str, Any]:
    state = GAME.setup("anzac-landing", options or {})
    dice = Dice(seed.to_bytes(8, "big") * 4)
    COMBATS.append(0)
    PLAYED.append(0)
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            return state
        prompt = GAME.prompt(state)
        assert prompt.side in SIDES and prompt.choices, f"deadlock at {prompt.text}"
        action = chooser(state, prompt)
        state, events = step(GAME, state, prompt.side, action, dice)
        COMBATS[-1] += sum(1 for e in events if "wins the close combat" in e["text"])
        PLAYED[-1] += sum(1 for e in events if e["text"].endswith(("(green)", "(brown)", "(red)")))
        invariants(state)
    raise AssertionError("the game did not end")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from([{}, {"casualties": "turn", "target_bounds": "1-9"},
                                                {"pickup_mf": "group", "killing_time": 7, "weir": True}]))
@example(68, {"pickup_mf": "group", "killing_time": 7, "weir": True})  # a card played at a landing plan's decision
def test_random_games_end_and_keep_the_invariants(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = play(seed, lambda s, p: rng.choice(p.choices).action, options)
    assert state["turn"] <= state["turns"]
    assert PLAYED[-1] > 0, "random play offers Action Cards wherever one has a use: some get played"
    assert GAME.outcome(state) is not None


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_bot_games_end(seed: int) -> None:
    def bot(state, prompt):
        from pbem_engine.protocol.core import find_choice

        return find_choice(prompt, GAME.player(state, prompt.side, prompt, {})).action

    state = play(seed, bot)
    assert GAME.outcome(state) is not None
    assert any(board.side_of(u) == "anzac" and not board.is_sea(v["at"]) for u, v in state["units"].items())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_bots_fight_close_combats(seed: int) -> None:
    """The game's own players fight two close combats to the end (10-12): someone wins each,
    the areas are no longer contested, every card goes back to its deck at the next deal."""
    from pbem_engine.protocol.core import find_choice

    from pbem_engine.games.assault_on_gallipoli.position import position

    state = position({"turn_phase": "close", "options": {"turns": 1}, "ma": "turkish",
                      "trenches": {"russells-top": 2}, "wire": ["lone-pine"],
                      "control": {"russells-top": "turkish", "lone-pine": "anzac", "baby-700": "turkish"},
                      "units": {"russells-top": ["tur-3-27", "tur-3-57 exhausted", "avni", "kemal", "nz-wellington",
                                                 "anzac-remnant-1 exhausted", "malone exhausted"],
                                "lone-pine": ["aus-1", "aus-2 exhausted", "tur-1-27", "tur-2-27"]}}).state
    dice = Dice(seed.to_bytes(8, "big") * 4)
    from pbem_engine.games.assault_on_gallipoli import rules

    rules.settle(state, dice, [])
    wins = 0
    while GAME.outcome(state) is None:
        prompt = GAME.prompt(state)
        assert prompt.side in SIDES and prompt.choices, f"deadlock at {prompt.text}"
        choice = find_choice(prompt, GAME.player(state, prompt.side, prompt, {}))
        state, events = step(GAME, state, prompt.side, choice.action, dice)
        wins += sum(1 for e in events if "wins the close combat" in e["text"])
        invariants(state)
    assert wins == 2
    assert not board.contested(state, "russells-top") and not board.contested(state, "lone-pine")

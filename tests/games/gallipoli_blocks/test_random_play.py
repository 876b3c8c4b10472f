"""Random games of the block game, played through the real protocol by two tools.

Whatever legal choices are made, nothing crashes, someone can always act while
the game goes on, and the board, the blocks and the cards stay within the
rules after every envelope.  A game with the option ``turns`` ends with an
outcome and a final reveal that checks out; the bot plays whole games too.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem_engine.canonical import canonical_json
from pbem_engine.games.gallipoli_blocks import GAME, board, bot
from pbem_engine.games.gallipoli_blocks.cards import table
from pbem_engine.games.gallipoli_blocks.data import BLOCKS, SPACES

from .driver import Table

CARDS = table()
DECK = {army: sum(1 for c in CARDS.values() if c["army"] == army) for army in board.ARMIES}
MAX_ACTIONS = 400  # actions (not envelopes) per random run
SUVLA = [s for s, v in SPACES.items() if v[1] == "suvla"]


# ------------------------------------------------------------------ choosing
def legal_for(state: dict[str, Any], action: dict[str, Any], known: dict[str, str]) -> bool:
    """False when what the side knows of its own card shows the rules would refuse the choice.

    The prompt is public, so it offers every card of the hand for every use; whether a card
    may be played as an event, in response or as a Battle event depends on what the card is.
    A card the side cannot name yet (drawn earlier in the same envelope: the driver's
    ``known`` is the knowledge at the envelope's start) is only used where any card will do.
    """
    tok = action.get("card")
    if tok is None:
        return True
    frame = state["frames"][-1]
    restricted = ((frame["k"] == "phase" and action.get("as") == "event")
                  or (frame["k"] == "response" and action["do"] == "respond")
                  or (frame["k"] == "battle" and frame["step"] in ("events-att", "events-def") and action["do"] == "card"))
    if not restricted:
        return True
    if tok not in known:
        return False
    kind = CARDS[known[tok]]["event"]["kind"]
    if frame["k"] == "phase":
        return kind not in ("battle", "response")
    return kind == ("response" if frame["k"] == "response" else "battle")


def legal_random_chooser(rng: random.Random):
    """Any legal choice at random (as the side's own tool knows it); free orders from the bot."""

    def choose(state: dict[str, Any], side: str, prompt: Any, known: dict[str, str]) -> str:
        if prompt.free:
            return bot.order(state, side, prompt, known)
        legal = [i for i, c in enumerate(prompt.choices) if legal_for(state, c.action, known)]
        assert legal, f"no legal choice for {side} at {prompt.text}"
        return str(rng.choice(legal) + 1)

    return choose


# ------------------------------------------------------------------ invariants
def cards_in_play(state: dict[str, Any], army: str) -> int:
    """Cards out of the hand and in no pile yet: face down in a battle, or an event awaiting a response."""
    n = 0
    for f in state["frames"]:
        if f["k"] == "battle":  # face down until its side's "show" step spends them
            hidden = {"att": ("bombard", "entrench", "show-def", "show-att"), "def": ("bombard", "entrench", "show-def")}
            n += sum(len(f["cards"][who]) for who in ("att", "def") if f[who] == army and f["step"] in hidden[who])
        elif f["k"] == "event" and f["army"] == army:
            n += 1
    return n


def check_invariants(t: Table) -> None:
    state = t.state
    canonical_json(state)  # plain JSON only
    knowledge = {army: t.known(board.seat(state, army)) for army in board.ARMIES}
    assert state["hand_size"] >= 0
    # blocks and spaces
    for space in SPACES:
        here = board.tokens(state, space)
        if not board.is_hq(space):
            assert len(here) <= board.STACK, f"{len(here)} blocks in {space}"
        assert len({state["blocks"][t]["army"] for t in here}) <= 1, f"both armies in {space}"
    if not state["suvla_open"]:
        assert not [t for t in state["blocks"].values() if t["at"] in SUVLA], "blocks in Suvla before its card"
    alive: dict[str, str] = {}
    for tok, b in state["blocks"].items():
        army = b["army"]
        assert b["at"] in SPACES
        if board.is_hq(b["at"]):
            assert b["at"] in board.HQ[army], f"{army} block in {b['at']}"
        if b["id"] is not None:
            assert BLOCKS[b["id"]][1] == army
            assert not board.is_dummy(b["id"]), "a revealed dummy stays on the board"
            assert b["steps"] is not None and 1 <= b["steps"] <= 4, (b["id"], b["steps"])
            block_id = b["id"]
        else:  # its owner's tool knows what it sealed: still standing after its unseen hits
            block_id, steps = board.parse_sealed(knowledge[army][tok])
            if steps is not None:
                assert 1 <= steps - b["hits"] <= 4, (block_id, steps, b["hits"])
        assert block_id not in alive, f"{block_id} is on the board twice"
        alive[block_id] = tok
    # cards: hand + deck + discards + removed (+ on the table) == the army's 27
    for army in board.ARMIES:
        deck = state["deck"][army]
        assert deck["early"] >= 0 and deck["late"] >= 0
        total = (len(state["hands"][army]) + deck["early"] + deck["late"] + len(state["discard"][army])
                 + len(state["removed"][army]) + cards_in_play(state, army))
        assert total == DECK[army] == 27, (army, total)
        for tok in state["hands"][army]:
            assert CARDS[knowledge[army][tok]]["army"] == army
        assert len(set(state["hands"][army])) == len(state["hands"][army])
        assert all(CARDS[c]["army"] == army for c in state["discard"][army] + state["removed"][army])


def check_can_act(t: Table) -> None:
    state = t.state
    if state["result"] is not None:
        return
    prompt = GAME.prompt(state)
    assert prompt.side is not None, "no one to act while the game goes on"
    assert prompt.choices or prompt.free, f"{prompt.side} has nothing to do at {prompt.text}"
    assert t.waiting() is not None


def check_final(t: Table) -> None:
    """The game is over: an outcome, every concealed block opened, both secrets checked."""
    assert t.waiting() is None
    outcome = GAME.outcome(t.state)
    assert outcome is not None and t.state["result"] is not None
    assert len(t.state["frames"]) == 1
    assert all(b["id"] is not None for b in t.state["blocks"].values()), "a block never opened at the end"
    for army in board.ARMIES:  # every block opened as what its owner sealed
        known = t.known(board.seat(t.state, army))
        for tok, b in list(t.state["blocks"].items()) + list(t.state["gone"].items()):
            if b["army"] == army:
                assert board.parse_sealed(known[tok])[0] == b["id"]
    for side in ("allied", "ottoman"):
        assert t.m["private"][side]["secret"] is not None
        assert f"{side} reveals its private secret: all its hidden draws check out" in t.events


def play(t: Table, chooser: Any, max_actions: int) -> int:
    """Play envelopes until the game is over or ``max_actions`` actions were sent; check after each."""
    check_invariants(t)
    actions = 0
    while actions < max_actions:
        if not t.step(chooser):
            break
        actions += max(1, len(t.bodies[-1][1]["actions"]))
        check_invariants(t)
        check_can_act(t)
    return actions


# ------------------------------------------------------------------ tests
@settings(max_examples=18, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["unsealed", "sealed"]))
@example(seed=2544565, mode="sealed")  # 'stand up' typed at a supply frame was read as a supply order
def test_random_play_keeps_the_rules(seed: int, mode: str) -> None:
    t = Table(seed=seed, mode=mode)
    play(t, legal_random_chooser(random.Random(seed)), MAX_ACTIONS)
    if t.waiting() is None:
        check_final(t)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(1, 6))
def test_turn_limit_ends_with_a_checked_reveal(seed: int, turns: int) -> None:
    t = Table(options={"turns": turns}, seed=seed)
    play(t, legal_random_chooser(random.Random(seed)), 10**6)
    check_final(t)
    assert t.state["turn"] <= turns
    if t.state["result"]["winner"] is None:
        assert t.state["turn"] == turns and t.state["result"]["result"] == "game stopped"


def test_bots_play_to_a_result_or_the_turn_limit() -> None:
    """Bot against bot: every game ends by the rules or at the agreed limit, and within a few
    seeds one is decided by the rules (the simple Allied player can take four objectives)."""
    results = []
    for seed in range(1, 9):
        t = Table(options={"turns": 36}, seed=seed)
        play(t, None, 10**6)  # None: the driver's bot for both sides
        check_final(t)
        result = t.state["result"]
        if result["result"] == "game stopped":
            assert t.state["turn"] == 36
        else:
            assert result["result"] in ("Allied victory", "Ottoman victory") and t.state["turn"] <= 36
        results.append(result["result"])
        if len(results) >= 2 and set(results) != {"game stopped"}:
            break
    assert set(results) != {"game stopped"}, "no bot game was decided by the rules"

"""The Action Cards dealt from the shared deck (pbem_engine.hidden.deck_table), both sides' secrets in play:
each envelope's deck messages are built by its author and checked by a copy that replays them
(as pbem_engine.protocol.match does); a hand holds deck positions only its holder reads; a played card is named
face up; a hidden card played out of its time is refused after it is opened, changing nothing."""

from __future__ import annotations

import copy
import json

import pytest

from pbem_engine.hidden import deck_table
from pbem_engine.protocol.core import IllegalAction, step
from pbem_engine.chance.dice import Dice
from pbem_engine.games.assault_on_gallipoli import GAME, cards

GAME_ID = "aog-deck-test"
SECRETS = {"anzac": bytes(range(32)), "turkish": bytes(range(32, 64))}
LINK = {"anzac": "aa" * 32, "turkish": "bb" * 32}


class Table:
    """Both sides' copies of the decks: ``built`` (the author's tool) and ``replayed`` (the other's)."""

    def __init__(self) -> None:
        self.built = deck_table.new_record(GAME_ID, list(GAME.sides), cards.dealt_decks())
        self.replayed = copy.deepcopy(self.built)
        self.seq = 0
        self.messages = 0

    def envelope(self, side: str, state: dict, actions: list[dict]) -> dict:
        """One envelope of ``side``: what it owes first, then its actions; replayed and compared."""
        self.seq += 1
        other = "turkish" if side == "anzac" else "anzac"
        ctx = deck_table.DeckContext(GAME_ID, self.seq, side, self.built, {}, LINK[other], SECRETS[side])
        ctx.settle()
        before = copy.deepcopy(state)
        for a in actions:
            dice = Dice(bytes([self.seq]) * 32)
            dice.decks = ctx
            state, _ = step(GAME, state, side, a, dice)
        check = deck_table.DeckContext(GAME_ID, self.seq, side, self.replayed, {"decks": ctx.body()}, LINK[other])
        check.settle()
        for a in actions:
            dice = Dice(bytes([self.seq]) * 32)
            dice.decks = check
            before, _ = step(GAME, before, side, a, dice)
        check.finish()
        assert before == state, "the replaying copy reaches another state"
        assert self.built == self.replayed
        self.messages += len(ctx.out)
        return state

    def owed(self, side: str) -> bool:
        return bool(deck_table.owed(self.built, side))

    def known(self, side: str) -> dict[str, str]:
        return deck_table.known(self.built, side, SECRETS[side])


def deal() -> tuple[dict, Table]:
    state = GAME.setup("anzac-landing", {})
    table = Table()
    for _ in range(8):  # the deal: the holder shuffles, the other's step and keys ride on its files
        side = GAME.prompt(state).side
        other = "turkish" if side == "anzac" else "anzac"
        if table.owed(other):
            state = table.envelope(other, state, [])  # a file of the other's, only what it owes
            continue
        if state["frames"][-1]["k"] != "draw":
            break
        state = table.envelope(side, state, [{"do": "draw"}])
    return state, table


def test_hands_are_dealt_as_deck_positions_only_their_holder_reads():
    state, table = deal()
    assert state["frames"][-1]["k"] == "ships"
    hands = state["ac"]["hands"]
    assert len(hands["anzac"]) == 5 and len(hands["turkish"]) == 4  # 17.2, 18.1
    assert all(e.startswith("deck:action-s1:") for h in hands.values() for e in h)
    if table.owed("anzac"):  # the Turk's draw: the ANZAC keys ride on his next file
        state = table.envelope("anzac", state, [])
    mine = {s: {e: table.known(s).get(e) for e in hands[s]} for s in hands}
    assert all(c in cards.DECK and c not in cards.NOT_S1 for c in mine["anzac"].values())
    assert all(table.known("anzac").get(e) is None for e in hands["turkish"])  # the other's hand stays hidden
    assert len(set(mine["anzac"].values()) | set(mine["turkish"].values())) == 9
    text = json.dumps(state)
    assert not any(c in text for c in cards.DECK if c not in cards.NOT_S1)  # no card name in the shared state
    assert table.messages >= 6  # begin and the three steps of a shuffle, two draws, the keys


def test_a_hidden_card_is_opened_face_up_when_played_and_refused_out_of_its_time():
    state, table = deal()
    if table.owed("anzac"):
        state = table.envelope("anzac", state, [])
    while state["frames"][-1]["k"] == "ships":
        state = table.envelope("anzac", state, [GAME.prompt(state).choices[0].action])
    known = table.known("anzac")
    hand = state["ac"]["hands"]["anzac"]
    assert GAME.prompt(state).side == "anzac" and state["frames"][-1]["k"] == "round"
    offered = [c.action for c in GAME.prompt(state).choices if c.action["do"] == "card"]
    assert len(offered) == len(set(hand))  # a hidden hand: every card is offered, the rules cannot know
    # out of its time: the same hand in a Round of the Turk, at a fire damage the ANZAC allocates
    moved = copy.deepcopy(state)
    moved["frames"][-1] = {"k": "round", "side": "turkish", "acted": True}
    moved["ac"]["round"] = cards.new_round("turkish")
    moved["frames"].append({"k": "damage", "side": "anzac", "area": "anzac-cove", "left": 5, "wire": False,
                            "retreat": False, "flipped": [], "rolls": [{"t": 4, "values": [1, 1, 1, 1, 1]}]})
    moved["units"]["aus-9"] = {"at": "anzac-cove", "fresh": True}
    refused = 0
    for entry in hand:
        if cards.COLOUR[cards.kind(known[entry])] != "green":
            saved = (copy.deepcopy(moved), copy.deepcopy(table.built))
            ctx = deck_table.DeckContext(GAME_ID, 99, "anzac", table.built, {}, LINK["turkish"], SECRETS["anzac"])
            dice = Dice(b"x" * 32)
            dice.decks = ctx
            with pytest.raises(IllegalAction, match="only in your own Round"):
                step(GAME, moved, "anzac", {"do": "card", "card": entry}, dice)
            assert (moved, ) == (saved[0], )  # the rules changed nothing (the tool drops the draft's messages)
            table.built = saved[1]
            refused += 1
    assert refused == sum(1 for e in hand if cards.COLOUR[cards.kind(known[e])] != "green")
    # in its own Round a card with a use is opened face up, checked by the replaying copy
    usable = next((e for e in hand if cards.kind(known[e]) in ("keep-moving", "night-attack", "dig-in", "barbed-wire",
                                                               "hidden-gully", "sudden-storm")), None)
    if usable is None:
        pytest.skip("this deal holds no card usable at the start of a Round")
    state = table.envelope("anzac", state, [{"do": "card", "card": usable}])
    assert state["frames"][-1] == {"k": "card", "side": "anzac", "card": known[usable]}
    assert usable not in state["ac"]["hands"]["anzac"]
    use = GAME.prompt(state).choices[0].action
    state = table.envelope("anzac", state, [use])
    assert known[usable] in state["ac"]["discard"] + state["ac"]["inplay"]
    assert state["ac"]["refs"][known[usable]] == usable  # its deck position, for the next reshuffle

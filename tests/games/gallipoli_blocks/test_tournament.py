"""6.5 the tournament bid: sealed bids 1-8, the lower plays the Allies with that hand size,
a coin flip breaks a tie; the seats keep their names and the bid decides who commands whom."""

import pytest

from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.gallipoli_blocks import GAME, bot
from tests.games.gallipoli_blocks.driver import Table


def bidding(allied_seat_bid: int, ottoman_seat_bid: int):
    def chooser(state, side, prompt, known):
        if state["frames"][-1]["k"] == "bid":
            return f"bid {allied_seat_bid if side == 'allied' else ottoman_seat_bid}"
        return bot.order(state, side, prompt, known)
    return chooser


def play_bids(allied_bid: int, ottoman_bid: int, mode: str = "unsealed") -> Table:
    t = Table(options={"turns": 1, "tournament": True}, mode=mode)
    chooser = bidding(allied_bid, ottoman_bid)
    while t.state["stage"] in ("bid", "bid-result"):
        t.step(chooser)
    return t


def test_the_lower_bid_plays_the_allies_with_that_hand_size():
    t = play_bids(7, 4)
    assert t.state["seats"] == {"allied": "ottoman", "ottoman": "allied"}
    assert t.state["hand_size"] == 4
    assert any("seated as ottoman plays the Allies, with a hand size of 4" in e for e in t.events)
    # the Ottoman army, commanded by the seat 'allied', sets up first
    assert GAME.prompt(t.state).side == "allied" and t.state["frames"][-1]["k"] == "deploy"


def test_bids_stay_sealed_until_both_are_in():
    t = Table(options={"tournament": True})
    t.step(bidding(3, 3))  # the seat 'allied' bids: its file carries a token, not the number
    side, body = t.bodies[-1]
    assert side == "allied" and len(body["actions"][0]["bid"]) == 64
    assert t.state["bids"]["allied"] == body["actions"][0]["bid"]


@pytest.mark.parametrize("mode", ["unsealed", "sealed"])
def test_a_tie_is_broken_by_a_coin_flip_both_tools_agree(mode):
    t = play_bids(5, 5, mode)
    coin = [r for r in t.rolls if r["spec"] == "coin"]
    assert len(coin) == 1 and "tie" in coin[0]["purpose"]
    allies = "allied" if coin[0]["values"] == ["heads"] else "ottoman"
    assert t.state["seats"]["allied"] == allies and t.state["hand_size"] == 5


def test_a_bid_outside_1_to_8_is_refused():
    t = Table(options={"tournament": True})
    with pytest.raises(IllegalAction):
        GAME.parse_order(t.state, "allied", "bid 9", {})
    with pytest.raises(IllegalAction):
        GAME.parse_order(t.state, "allied", "bid low", {})


def test_the_winner_is_the_player_who_commands_the_winning_army():
    t = play_bids(8, 2)
    state = t.state
    state["result"] = {"winner": "allied", "result": "Allied victory", "reason": "test"}
    state["frames"] = [{"k": "sequence"}]
    assert GAME.outcome(state).winner == "ottoman"  # the seat that bid 2 commands the Allies


def test_a_sealed_bid_is_named_as_a_bid_to_its_owner():
    assert GAME.item_name("6") == "a bid of 6 (sealed)"
    assert GAME.item_name("ab" * 32 + " " + "cd" * 32) == "sealed choice of 2 leading block(s)"

"""Close combat hands held as private tokens (pbem_engine.hidden.private's draw_private / reveal /
add_private, faked here): a token is opened only when played, when its holder says it cannot
match (10.3.2 checked on the whole hand at once), or when the cards go back at its next deal."""

from __future__ import annotations

import pytest

from pbem_engine.protocol.core import IllegalAction, step
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.assault_on_gallipoli import GAME, rules
from pbem_engine.games.assault_on_gallipoli.position import position


class PrivateDice(ScriptedDice):
    def __init__(self, hands: dict[str, list[list[str]]], values: list) -> None:
        super().__init__(values)
        self.private = object()  # the rules only ask whether there is one
        self.hands = hands
        self.table: dict[str, tuple[str, str]] = {}
        self.opened: list[str] = []
        self.added: list[tuple[str, str, list[str]]] = []
        self.pools: list[tuple[str, str, int]] = []

    def draw_private(self, side: str, pool: str, count: int) -> list[str]:
        cards = self.hands[side].pop(0)
        assert len(cards) == count
        self.pools.append((side, pool, count))
        toks = [f"{side[0]}{len(self.table) + i:062d}x" for i in range(count)]
        self.table.update({t: (side, c) for t, c in zip(toks, cards)})
        return toks

    def reveal(self, side: str, token: str) -> str:
        owner, card = self.table[token]
        assert owner == side
        self.opened.append(token)
        return card

    def add_private(self, side: str, pool: str, items: list[str]) -> None:
        self.added.append((side, pool, sorted(items)))


def combat():
    state = position({"turn_phase": "close", "options": {"turns": 1}, "control": {"baby-700": "turkish"},
                      "units": {"baby-700": ["tur-1-27 exhausted", "kemal", "aus-1"]}}).state
    dice = PrivateDice({"anzac": [["ambush", "ambush", "infiltrate", "raid", "reserve-trench", "bayonet-charge"]],
                        "turkish": [["infiltrate", "reserve-trench", "raid", "creeping-barrage"]]}, [])
    rules.settle(state, dice, [])
    state, _ = step(GAME, state, "anzac", {"do": "draw"}, dice)  # the side with the initiative draws and leads
    return state, dice


def matched(state, dice, lead):
    """The ANZAC leads ``lead``; the Turk draws its hand, to match (closecombat.new_combat)."""
    state, _ = step(GAME, state, "anzac", {"do": "play", "card": lead}, dice)
    state, _ = step(GAME, state, "turkish", {"do": "draw"}, dice)
    return state


def test_hands_are_tokens_and_only_the_played_card_opens():
    state, dice = combat()
    assert dice.pools == [("anzac", "close-combat", 6)]
    hand = state["ccdeck"]["anzac"]["hand"]
    assert all(len(t) == 64 for t in hand)
    labels = [c.label for c in GAME.prompt(state).choices]
    assert any("(if it is a Reserve Trench) as Raid" in label for label in labels)
    with pytest.raises(IllegalAction, match="leads as itself"):  # an Ambush played 'as' another card
        step(GAME, state, "anzac", {"do": "play", "card": hand[0], "as": "raid"}, dice)
    state = matched(state, dice, hand[0])
    assert dice.opened[-1] == hand[0] and state["ccdeck"]["anzac"]["table"] == ["ambush"]
    assert dice.pools[-1] == ("turkish", "close-combat-kemal", 4)
    assert state["ccdeck"]["turkish"]["hand"][-1] == "bayonet-charge"  # Kemal's card, public (10.2.4)
    # the Turk holds a Reserve Trench among its tokens: claiming no match is refused (10.3.2)
    assert any(c.action["do"] == "nomatch" for c in GAME.prompt(state).choices)
    with pytest.raises(IllegalAction, match="10.3.2"):
        step(GAME, state, "turkish", {"do": "nomatch"}, dice)
    wrong = state["ccdeck"]["turkish"]["hand"][0]  # an Infiltrate
    with pytest.raises(IllegalAction, match="does not match"):
        step(GAME, state, "turkish", {"do": "play", "card": wrong}, dice)


def test_cards_go_back_to_the_right_deck_at_the_next_deal():
    state, dice = combat()
    state = matched(state, dice, state["ccdeck"]["anzac"]["hand"][0])
    d = state["ccdeck"]
    dice.opened.clear()
    from pbem_engine.games.assault_on_gallipoli import closecombat

    f = closecombat.new_combat(state, "baby-700")
    closecombat.give_back(state, "turkish", dice, [])
    assert dice.added == [("turkish", "close-combat-kemal", ["creeping-barrage", "infiltrate", "raid", "reserve-trench"])]
    assert d["turkish"]["hand"] == [] and d["turkish"]["from"] == "close-combat" and f["step"] == "deal"
    assert len(dice.opened) == 4  # opened by its holder, in its own decision

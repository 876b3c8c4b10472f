"""Trench Raid: a card duel of our own, the smallest game with hidden hands.

Each side owns a private deck of nine raid cards worth 1 to 9.  A side first
draws a hand of three (in its own envelope, so only it knows them).  Then in
each of five rounds the Allied player plays a card, face up, and draws a
replacement; the Ottoman player does the same; the higher card scores its
value (equal cards score nothing).  Most points after five rounds wins.

It exists to exercise private draws (pbem_engine.hidden.private): hands are commitment
tokens in the shared state, opened only when a card is played, and checked
against each side's secret when the game ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem_engine.protocol.core import Choice, IllegalAction, Outcome, Prompt, RulesError
from pbem_engine.chance.dice import Dice

from . import mapview

ROUNDS = 5
HAND = 3


def card(side: str, value: int) -> str:
    return f"{side}-raid-card-{value}"


def value(item: str) -> int:
    return int(item.rsplit("-", 1)[1])


class Raid:
    name: ClassVar[str] = "raid"
    title: ClassVar[str] = "Trench Raid (a card duel)"
    version: ClassVar[str] = "1"
    sides: ClassVar[tuple[str, ...]] = ("allied", "ottoman")
    scenarios: ClassVar[dict[str, str]] = {"standard": "five rounds, hands of three from private decks of 1-9"}
    provisional: ClassVar[tuple[str, ...]] = ()

    def setup(self, scenario: str, options: dict[str, Any]) -> dict[str, Any]:
        if scenario not in self.scenarios or options:
            raise RulesError("Trench Raid has one scenario and no options")
        return {"round": 1, "turn": "allied", "hands": {"allied": [], "ottoman": []},
                "played": {"allied": None, "ottoman": None}, "score": {"allied": 0, "ottoman": 0},
                "dealt": {"allied": False, "ottoman": False}}

    def private_pools(self, state: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
        return {side: {"deck": [card(side, v) for v in range(1, 10)]} for side in self.sides}

    def item_name(self, item: str) -> str:
        return f"raid card {value(item)}"

    def prompt(self, state: dict[str, Any]) -> Prompt:
        if self.outcome(state):
            return Prompt(None, "the raids are over")
        side = state["turn"]
        if not state["dealt"][side]:
            return Prompt(side, f"round {state['round']}: draw your hand of {HAND}",
                          (Choice("draw hand", {"do": "draw"}),))
        return Prompt(side, f"round {state['round']} of {ROUNDS}: play a raid card",
                      tuple(Choice(f"play [[{tok}]]", {"do": "play", "card": tok}) for tok in state["hands"][side]))

    def apply(self, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
        if action["do"] == "draw":
            state["hands"][side] = dice.draw_private(side, "deck", HAND)
            state["dealt"][side] = True
            return state, [{"text": f"{side} draws a hand of {HAND}: " + ", ".join(f"[[{t}]]" for t in state["hands"][side])}]
        tok = action["card"]
        if tok not in state["hands"][side]:
            raise IllegalAction(f"{side} does not hold that card")
        item = dice.reveal(side, tok)
        state["hands"][side].remove(tok)
        state["played"][side] = item
        events = [{"text": f"{side} plays {self.item_name(item)}"}]
        if state["round"] < ROUNDS:
            drawn = dice.draw_private(side, "deck", 1)
            state["hands"][side] += drawn
            events.append({"text": f"{side} draws [[{drawn[0]}]]"})
        if side == "allied":
            state["turn"] = "ottoman"
            return state, events
        a, o = value(state["played"]["allied"]), value(state["played"]["ottoman"])
        if a != o:
            winner = "allied" if a > o else "ottoman"
            state["score"][winner] += max(a, o)
            events.append({"text": f"round {state['round']}: {winner} wins the raid ({a} against {o}) and scores {max(a, o)}"})
        else:
            events.append({"text": f"round {state['round']}: both raids fail ({a} against {o})"})
        state["round"] += 1
        state["turn"] = "allied"
        state["played"] = {"allied": None, "ottoman": None}
        return state, events

    def view(self, state: dict[str, Any], side: str | None) -> dict[str, Any]:
        return state  # hands are commitment tokens: the display shows each side only its own

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["round"] <= ROUNDS:
            return None
        a, o = state["score"]["allied"], state["score"]["ottoman"]
        if a == o:
            return Outcome(None, "draw", f"{a} points each")
        winner = "allied" if a > o else "ottoman"
        return Outcome(winner, f"{winner} wins", f"allied {a}, ottoman {o}")

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the map shows (mapview.py): hands by their size, the cards played face up."""
        return mapview.board(view, ROUNDS, value)

    @staticmethod
    def map_locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The two trenches and no man's land, at our schematic positions (Trench Raid has no pack)."""
        return mapview.locations()

    def describe(self, view: dict[str, Any]) -> list[str]:
        lines = [f"Round {min(view['round'], ROUNDS)} of {ROUNDS}; "
                 f"score allied {view['score']['allied']}, ottoman {view['score']['ottoman']}"]
        for side in self.sides:
            hand = ", ".join(f"[[{t}]]" for t in view["hands"][side]) or "(none)"
            lines.append(f"{side} hand: {hand}")
        return lines


GAME = Raid()

"""Barrage: a dice duel of our own, the smallest game that needs sealed dice.

Each side in turn fires a barrage: ``dice`` d6, each 5 or 6 a hit.  After
``rounds`` rounds the side with more hits wins (equal hits: a draw).  Every
barrage is a decision whose dice wait for the other side's reveal, so a game
of R rounds is 2R turn envelopes with ``dice`` dice in each: the benchmark
uses it to build long histories.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem_engine.protocol.core import Choice, Outcome, Prompt, RulesError
from pbem_engine.chance.dice import Dice

from . import mapview

HIT = 5


class Barrage:
    name: ClassVar[str] = "barrage"
    title: ClassVar[str] = "Barrage (a dice duel)"
    version: ClassVar[str] = "1"
    sides: ClassVar[tuple[str, ...]] = ("red", "blue")
    scenarios: ClassVar[dict[str, str]] = {"standard": "3 rounds of 6 dice a side (options: rounds, dice)"}
    provisional: ClassVar[tuple[str, ...]] = ()

    def setup(self, scenario: str, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(options) - {"rounds", "dice"})
        if scenario not in self.scenarios or unknown:
            raise RulesError(f"unknown scenario {scenario!r} or options {unknown}")
        rounds, dice = options.get("rounds", 3), options.get("dice", 6)
        for name, value, most in (("rounds", rounds, 100_000), ("dice", dice, 100)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
                raise RulesError(f"option {name} must be a whole number from 1 to {most}")
        return {"round": 1, "rounds": rounds, "dice": dice, "turn": "red", "hits": {"red": 0, "blue": 0}}

    def prompt(self, state: dict[str, Any]) -> Prompt:
        if self.outcome(state):
            return Prompt(None, "the duel is over")
        return Prompt(state["turn"], f"round {state['round']} of {state['rounds']}: fire your barrage",
                      (Choice(f"fire {state['dice']} dice", {"do": "fire"}),))

    def playable(self, state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> Prompt:
        """The prompt as its player's tool shows it: the fire's exact odds (display only)."""
        from pbem_engine.chance.odds import pool_line

        return prompt._replace(choices=tuple(c._replace(label=f"{c.label} — {pool_line(state['dice'], 6, HIT)}")
                                             for c in prompt.choices))

    def apply(self, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
        hits = dice.pool(state["dice"], 6, HIT, f"{side} barrage, round {state['round']} (hits on {HIT}+)")
        state["hits"][side] += hits
        if side == "blue":
            state["round"] += 1
        state["turn"] = "blue" if side == "red" else "red"
        return state, [{"text": f"{side} fires {state['dice']} dice: {hits} hits (total {state['hits'][side]})"}]

    def view(self, state: dict[str, Any], side: str | None) -> dict[str, Any]:
        return state

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["round"] <= state["rounds"]:
            return None
        red, blue = state["hits"]["red"], state["hits"]["blue"]
        if red == blue:
            return Outcome(None, "draw", f"{red} hits each")
        winner = "red" if red > blue else "blue"
        return Outcome(winner, f"{winner} wins", f"red {red} hits, blue {blue}")

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the map shows (mapview.py): the batteries and their hits."""
        return mapview.board(view)

    @staticmethod
    def map_locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The two batteries and no man's land, at our schematic positions (Barrage has no pack)."""
        return mapview.locations()

    def describe(self, view: dict[str, Any]) -> list[str]:
        return [f"Round {min(view['round'], view['rounds'])} of {view['rounds']}",
                f"Hits: red {view['hits']['red']}, blue {view['hits']['blue']}"]


GAME = Barrage()

"""Hill 60, August 1915: pbem's one-page demonstration game (rules in RULES.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from pbem_engine.protocol.core import Event, Outcome, Prompt, State
from pbem_engine.chance.dice import Dice
from . import data, mapview, rules


class Hill60:
    """The game module: class attributes describe it, methods are ``rules``."""

    name: ClassVar[str] = "hill60"
    title: ClassVar[str] = "Hill 60, August 1915"
    version: ClassVar[str] = "2"  # 2: standing orders (RULES.md 9)
    sides: ClassVar[tuple[str, ...]] = data.SIDES
    scenarios: ClassVar[dict[str, str]] = data.SCENARIOS
    provisional: ClassVar[tuple[str, ...]] = ()  # our own design: nothing reconstructed (RULES.md 1.4)
    # the view hides part of the state (fog of war): a refereed player's tool cannot run the rules
    # on it, so each of its files holds one order (pbem.referee_orders.follows_rules)
    partial_view: ClassVar[bool] = True

    def setup(self, scenario: str, options: dict[str, Any]) -> State:
        return rules.setup(scenario, options)

    def prompt(self, state: State) -> Prompt:
        return rules.prompt(state)

    def apply(self, state: State, side: str, action: dict[str, Any], dice: Dice) -> tuple[State, list[Event]]:
        return rules.apply(state, side, action, dice)

    def view(self, state: State, side: str | None) -> dict[str, Any]:
        return rules.view(state, side)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def parse_order(self, state: State, side: str, text: str, known: dict[str, str] | None = None) -> dict[str, Any]:
        """An order in words at the operations prompt, standing orders with it (orders.py)."""
        from .orders import parse

        return parse(state, side, text, rules.prompt(state))

    @staticmethod
    def action_label(action: dict[str, Any]) -> str:
        """An order with standing orders in its words (a declared roll's event names it)."""
        from .orders import label

        return label(action)

    @staticmethod
    def player(state: State, side: str, prompt: Prompt, known: dict[str, str]) -> str:
        """The demo's and the bench's player, with standing orders (bot.py)."""
        from .bot import order

        return order(state, side, prompt, known)

    def playable(self, state: State, prompt: Prompt, known: dict[str, str]) -> Prompt:
        """The prompt as its player's tool shows it: each assault and bombardment with its exact
        odds (display only: what is signed and the events are unchanged)."""
        return rules.with_odds(state, prompt)

    def describe(self, view: dict[str, Any]) -> list[str]:
        return rules.describe(view)

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the map shows (mapview.py)."""
        return mapview.board(view)

    @staticmethod
    def map_locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The four spaces, at our schematic positions (Hill 60 has no pack)."""
        return mapview.locations()


GAME = Hill60()

__all__ = ["GAME", "Hill60"]

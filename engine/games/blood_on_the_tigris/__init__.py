"""Blood on the Tigris: The Iraq Campaign 1914-1917 (rules document 004): the rules module.

Registered as ``blood-on-the-tigris`` (engine/registry.py).  Rules by section: ``sequence``
(3.0 the turn, 3.1 Mutual Operations, 13.1 reinforcements, 16.2x special rules, 17.0
victory), ``scenarios`` (16.0, 18.0, 19.0), ``movement`` (4.0-5.2, 8.0-8.1, 9.4, 14.0),
``logistics`` (9.2 forts, 9.6 vans, 12.3 depots moving, 15.1 burning, 15.3-15.4 cargo and
ferries), ``supply`` (3.4, 10.0, 12.0-12.6, 13.2), ``fight``, ``results`` and ``combat`` (3.22,
7.0-7.8, 9.0, 11.0), ``naval`` (15.0-15.6, 16.24); ``rules`` holds the prompts and orders.  The
map (``hexmap``, map_data.py), the counters (``counters``, counters_data.py) and the charts
(``charts_provisional``) are PROVISIONAL reconstructions; a player's printed charts come in
as the option ``charts`` (the parsed file, checked by ``charts.load_charts``; ``pbem new
--charts FILE`` reads it and asks ``check_charts``).  What the product shows: ``board`` and
``map_locations`` (view.py: the hex map, supply states, depots, turn and weather),
``playable`` (forecast.py: the odds column and each result's chance before an attack).
RULES.md says what is enforced and what not.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pbem_engine.protocol.core import Outcome, Prompt, RulesError
from pbem_engine.chance.dice import Dice

from . import board, charts, combat, counters, hexmap, railroad, results, rules, scenarios, sequence

OPTIONS = {
    "turns": "stop after this many turns (at most the scenario's last: 29, 18 or 30, errata 2.2)",
    "fit": "Scenario 3 only: 'extended' (default: the Campaign Game with 19.0's trigger, to turn 30, errata 2.2) "
           "| 'add-on' (the trigger added to the Campaign Game as written, 29 turns)",
    "charts": "the printed charts of a player who owns the game, as the parsed chart file (charts.load_charts)",
    "combat": "combat options: {rounding = 'up' (default) | 'down'} (2.3 against 3.22, RULES.md)",
    "railroad": "20.1, optional: 'off' (default, an optional rule) | 'on' (two railheads from turn 18; Scenarios 1 and 3)",
    "losses": "who picks the unit for each step loss (7.6): 'strongest' (default: the strongest unit, no "
              "hand-over) | 'owner' (the owning player, when several units could take it)",
}


class BloodOnTheTigris:
    _loaded: ClassVar[dict[str, charts.Charts]] = {}
    name: ClassVar[str] = "blood-on-the-tigris"
    title: ClassVar[str] = "Blood on the Tigris: The Iraq Campaign 1914-1917 (rules document 004)"
    version: ClassVar[str] = "4"  # 3: standing orders for the Mutual Operations, 4: for the advance (standing.py)
    sides: ClassVar[tuple[str, ...]] = board.SIDES
    options: ClassVar[dict[str, str]] = OPTIONS
    scenarios: ClassVar[dict[str, str]] = scenarios.NAMES
    provisional: ClassVar[tuple[str, ...]] = (
        "map: " + hexmap.PROVISIONAL,
        "counters: " + counters.PROVISIONAL,
        "charts: CRT, Air-to-Air Table, Tactical Advantages Chart and TEC are ours (charts_provisional.py) "
        "unless the player supplies the printed ones (option 'charts')",
    )

    def player(self, state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
        """A simple player (bot.py), for the demo and tests."""
        from .bot import order

        return order(state, side, prompt, known, self.charts_of(state))

    @classmethod
    def provisional_in(cls, options: dict[str, Any]) -> tuple[str, ...]:
        """The provisional notes that still hold in a game: not the charts' when a player supplied his."""
        return tuple(n for n in cls.provisional if not (n.startswith("charts:") and options.get("charts") is not None))

    @staticmethod
    def check_charts(data: Any) -> list[str]:
        """Every problem of a player's parsed chart file (``pbem new --charts FILE``), or []."""
        try:
            charts.load_charts(data)
        except charts.ChartError as e:
            return list(e.problems)
        return []

    def charts_of(self, state: dict[str, Any]) -> charts.Charts:
        supplied = state["options"].get("charts")
        if supplied is None:
            return charts.PROVISIONAL
        key = json.dumps(supplied, sort_keys=True)
        if key not in self._loaded:
            self._loaded = {key: charts.load_charts(supplied)}
        return self._loaded[key]

    def setup(self, scenario: str, options: dict[str, Any]) -> dict[str, Any]:
        if scenario not in self.scenarios:
            raise RulesError(f"no scenario {scenario!r}; this game has: {', '.join(self.scenarios)}")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(f"unknown options {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
        why = scenarios.check_options(scenario, options) or railroad.check(scenario, options)
        if why:
            raise RulesError(why)
        if options.get("losses", "strongest") not in results.LOSSES:
            raise RulesError(f"option losses is one of {', '.join(results.LOSSES)}")
        try:
            combat.options_with_defaults(options.get("combat"))
            if options.get("charts") is not None:
                charts.load_charts(options["charts"])
        except ValueError as e:
            raise RulesError(str(e)) from None
        state = sequence.setup(scenario, dict(options))
        rules.settle(state, None, [], self.charts_of(state))
        return state

    def prompt(self, state: dict[str, Any]) -> Prompt:
        return rules.prompt(state, self.charts_of(state))

    def apply(self, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
        return state, rules.apply(state, side, action, dice, self.charts_of(state))

    def parse_order(self, state: dict[str, Any], side: str, text: str, known: dict[str, str] | None = None) -> dict[str, Any]:
        from .orders import parse

        return parse(state, side, text, self.prompt(state))

    def playable(self, state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> Prompt:
        """The prompt as its owner's tool shows it: each attack with its odds column and the chance
        of each CRT result (forecast.py)."""
        from .forecast import playable

        return playable(self.charts_of(state), state, prompt)

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the report's map shows (view.py)."""
        from .view import map_view

        return map_view(view)

    @staticmethod
    def map_locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None = None
                      ) -> list[dict[str, Any]]:
        """Every hex of the map at its hex number, as the shipped pack numbers them (view.py); the
        map is the same in every game, whatever the ``view``."""
        from .view import locations

        return locations(pack_locations)

    def view(self, state: dict[str, Any], side: str | None) -> dict[str, Any]:
        return state  # no hidden information in the base rules

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        r = state["result"]
        return None if r is None else Outcome(r["winner"], r["result"], r["reason"])

    def describe(self, view: dict[str, Any]) -> list[str]:
        from .orders import describe
        from .view import supply_ahead, supply_line

        used = self.charts_of(view)
        who = (f"charts: supplied by a player who owns the game ({used.label[:80]})" if used.supplied else
               "charts: PROVISIONAL, ours (charts_provisional.py), not the publisher's: supply yours with --charts FILE")
        lines = describe(view)
        supply = [line for s in self.sides for line in (supply_line(view, s), supply_ahead(view, s))]
        return [lines[0], who, *supply, *lines[1:]]


GAME = BloodOnTheTigris()

"""Gallipoli, 1915 (GMT, Rifle and Spade series): the game book's own procedures enforced, the
series rules played at the table with free orders and sealed dice (RULES.md).

May import: ``pbem_engine.chance``, ``pbem_engine.protocol``, the standard library."""

from __future__ import annotations

from typing import Any, ClassVar

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import Choice, Event, Outcome, Prompt, RulesError, State

from . import bot, cadence, data, mapview, orders, plans, show

OPTIONS = {
    "d10": "how a single d10 reads, '0-9' (the default: the book's dice have a 0 face) or '1-10'; "
           "it changes Alarums and Excursions (106.6)",
    "last_turn": "end the scenario after this turn (a shortened game; victory is judged then)",
    "counter_battery_kill": "true: play 103.14's optional rule (three d10 after a Counter-Battery chit; 000 "
                            "destroys a battery step)",
    "capacity": "the beach capacities printed on the owner's map, as JSON, e.g. capacity='{\"w-beach\": 9}' (103.1: 6 where none)",
}


class Gallipoli1915:
    name: ClassVar[str] = "gallipoli-1915"
    title: ClassVar[str] = "Gallipoli, 1915 (game book procedures; series rules at the table)"
    version: ClassVar[str] = "4"  # 2: the phases pass by the book's owners and standing orders (cadence.py); 3: the Ottoman's standing CD fire; 4: which binds (sealed at once), and planned orders
    sides: ClassVar[tuple[str, ...]] = data.SIDES
    sealed_orders: ClassVar[tuple[str, ...]] = ("open-plan",)  # a side's planned orders, opened by its tool (plans.py)
    scenarios: ClassVar[dict[str, str]] = {k: v["name"] for k, v in data.SCENARIOS.items()}
    options: ClassVar[dict[str, str]] = OPTIONS
    provisional: ClassVar[tuple[str, ...]] = (
        "Naval Gunfire chit counts (103.14 names the types, not how many): 12 No Fire and 1-2 of each fire "
        "type per cup, from packs/gallipoli-1915",
        "light of each turn (printed on the missing Game Turn Record Track): 4-6am twilight, 6am-8pm day, "
        "8pm-4am night, from 103.13, 104.4, 106.8 and 106.9",
        "the No Fire chits leave on turns 10 and 20 (the first turns dated 26 and 27 April); no draw can tell "
        "this from the first daylight turn",
    )

    def setup(self, scenario: str, options: dict[str, Any]) -> State:
        if scenario not in data.SCENARIOS:
            raise RulesError(f"no scenario {scenario!r}; the scenarios are {', '.join(data.SCENARIOS)}")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(f"unknown options {', '.join(unknown)}; the options are {', '.join(OPTIONS)}")
        s = data.SCENARIOS[scenario]
        d10 = options.get("d10", "0-9")
        if d10 not in ("0-9", "1-10"):
            raise RulesError("d10 = '0-9' or '1-10'")
        last = options.get("last_turn", s["last"])
        if not isinstance(last, int) or not s["first"] <= last <= s["last"]:
            raise RulesError(f"last_turn: a turn from {s['first']} to {s['last']}")
        capacity = options.get("capacity", {})
        if not isinstance(capacity, dict) or not all(isinstance(v, int) and 0 < v < 100 for v in capacity.values()):
            raise RulesError("capacity: a table of beach = steps")
        order = [list(step) for step in data.SETUP_ORDER.get(scenario, data.DEFAULT_SETUP)]
        kill = options.get("counter_battery_kill", False)
        if not isinstance(kill, bool):
            raise RulesError("counter_battery_kill = true or false")
        return {"scenario": scenario, "turn": s["first"], "last": last, "phase": "setup", "setup": order,
                "active": order[0][0], "done": [], "acts": [], "standing": {}, "woken": [], "cups": list(s["cups"]),
                "options": {"d10": d10, "capacity": dict(capacity), "counter_battery_kill": kill},
                "ngf": {"held": {c: None for c in s["cups"]}, "drawn": [], "fired": []},
                "landed": {}, "counter_rolls": 0, "clyde": False, "delays": {}, "delayed": {}, "alarums": [], "naval": None,
                "pieces": {}, "notes": [], "claim": None, "sudden": None, "over": None}

    def private_pools(self, state: State) -> dict[str, dict[str, list[str]]]:
        """A full cup of its own for every daylight turn the scenario may draw on (103.14)."""
        turns = [t for t in range(state["turn"], state["last"] + 1) if data.light(t) == "day"]
        return {"ottoman": {}, "entente": {data.pool_name(c, t): data.cup_items(c, t)
                                           for c in state["cups"] for t in turns}}

    def prompt(self, state: State) -> Prompt:
        if state["over"]:
            return Prompt(None, state["over"]["result"])
        head = f"{data.label(state['turn'])}, {state['phase']}: {state['active']}"
        standing = cadence.standing_cd_fire(state, state["active"])
        if standing is not None:  # the order binds: one legal choice, so its roll is sealed at once (cadence)
            return Prompt(state["active"], f"{head}: its standing Coastal Defense fire at the landing (103.13)",
                          (Choice(standing, orders.parse(state, state["active"], standing)),))
        return Prompt(state["active"], f"{head} ({orders.hint(state)})", (), free=True)

    @staticmethod
    def order_without_choice(state: State, prompt: Prompt) -> str | None:
        """What the side to act must do and its tool does alone: the Entente's Naval Gunfire draw
        on a daylight turn, before anything is asked of its player (cadence.owes); then the orders
        the side planned for this phase (plans.py), which only its tool can open.  (The Ottoman's
        standing Coastal Defense fire at a landing is the prompt's one legal choice: ``prompt``.)"""
        if prompt.side is None or state["phase"] not in data.PHASES or not prompt.free:
            return None
        return cadence.owes(state, prompt.side) or plans.due(state, prompt.side)

    def parse_order(self, state: State, side: str, text: str, known: dict[str, str] | None = None) -> dict[str, Any]:
        return orders.parse(state, side, text)

    def apply(self, state: State, side: str, action: dict[str, Any], dice: Dice) -> tuple[State, list[Event]]:
        return orders.apply(state, side, action, dice)

    def action_label(self, action: dict[str, Any]) -> str:
        return show.label(action)

    def view(self, state: State, side: str | None) -> dict[str, Any]:
        return state  # the chits held are commitment tokens: the display names only one's own

    def outcome(self, state: State) -> Outcome | None:
        over = state["over"]
        return Outcome(over["winner"], over["result"], over["reason"]) if over else None

    def describe(self, view: dict[str, Any]) -> list[str]:
        return show.describe(view)

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the report's map shows (mapview.py)."""
        return mapview.board(view)

    @staticmethod
    def map_locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The shipped pack's places at the book's hex numbers, and each hex a piece stands on."""
        return mapview.locations(pack_locations, view)

    @staticmethod
    def player(state: State, side: str, prompt: Prompt, known: dict[str, str]) -> str:
        """A simple player (bot.py), for the demo and tests."""
        return bot.order(state, side, known)


GAME = Gallipoli1915()

__all__ = ["GAME", "Gallipoli1915"]

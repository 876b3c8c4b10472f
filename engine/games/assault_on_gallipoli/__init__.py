"""Assault on Gallipoli (rules document 001): the rules module, phases 1-2 of issue 15.

Registered as ``assault-on-gallipoli``.  Rules by section: ``sequence``
(3 the turn, 4 activation, 13.2 digging, 15.4.3 commanders, 16.2 ships, 18 Morale Advantage,
19 Killing Time, 1.3/7.6 victory), ``move`` (5-6 movement, 6.5 reinforcements, 20 landing,
8.8-8.9 advancing and opportunity fire), ``closecombat`` (10 close combat, 11 its damage,
12.1-12.2 and 12.9 its retreats), ``fire`` (8 fire combat, 9 damage, 9.3/12 retreats,
5.4 over-stacking), ``board`` (geometry, 7 control, 9.4 Remnants, 15.3 lone Leaders).  The
data the text lacks is in ``data`` (provisional), the five scenarios with the optional Leaders
(22) in ``scenarios``; what the tool shows is in ``view`` (the map) and ``forecast`` (the odds
before a fire); the standing orders that save turn files in ``plans`` (the landing plan),
``fireplan`` (the plan given with a fire), ``standing`` (the close combat order, the ships),
``discards`` (sealed with a pass), ``initiative`` (the lead sealed with a match) and ``leadorder``
(the lead order); RULES.md
says what is enforced and what not, and what a game turn costs by e-mail ("Hand-overs").

Units are public (5.5: players may look at each other's units).  Close Combat (10-11) is phase 2
(``closecombat``); each side's close combat hand is a private draw from its own copy of the
36-card deck (RULES.md says why and what that changes); the Action Cards (17) are ``cards``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem_engine.protocol.core import Outcome, Prompt, RulesError
from pbem_engine.chance.dice import Dice

from . import board, cards, closecombat, dataset, rules, scenarios, sequence
from .data import SCENARIOS, SIDES

OPTIONS = {
    "turns": "stop after this many turns (at most the scenario's)",
    "casualties": "'cumulative' (default: every loss since the start counts, as 18.4 'add up all your "
                  "casualties' reads) or 'turn' (only the turn just played)",
    "target_bounds": "'none' (default: a die at or under the modified target hits, whatever the target, 8.5) "
                     "or '1-9' (a 1 always hits, a 10 always misses)",
    "pickup_mf": "'own' (default: a unit a Leader picks up may spend its own MF from there, 6.6.3) or "
                 "'group' (its MF counts from the group's start)",
    "killing_time": "the Killing Time start, 7 or 8 (default: the scenario's, 19.2)",
    "weir": "true: Lt Col Weir (22, optional) starts with the 10th Bn; his values are not in the text: +1 FP, "
            "+2 MF are ours (default false)",
    "hamilton": "true: Gen Hamilton (22, optional) may enter from Turn 2 at ANZAC Cove or North Beach: no Firepower, "
                "refreshes two units, never moves into close combat, 4 casualties if lost (default false)",
    "von_sanders": "true: Gen von Sanders (22, optional) may enter from Turn 2 at Koja Dere, as Hamilton "
                   "(default false)",
    "avni": "true: the optional Avni counter (22): +3 MF instead of +2 (default false)",
    "mccay": "true: the optional McCay counter (22): +0 Firepower (default false: +1, ours)",
    "maclagan": "true: the optional MacLagan counter (22): +1 Firepower (default false: +0)",
    "data": "a player's own map, counters, Scenario Booklets and fire modifiers (pbem new --pack DIR; "
            "dataset.py, RULES.md 'Your own data'), each part in place of ours",
    "refill": "'reshuffle' (default: when the Action deck runs out, the discards are shuffled into a new deck; "
              "DIGEST R10, the text is silent) or 'stop' (no more Action Cards once the deck is empty)",
}
CHOICES = {"casualties": ("cumulative", "turn"), "target_bounds": ("none", "1-9"), "pickup_mf": ("own", "group"),
           "killing_time": (7, 8), "refill": ("reshuffle", "stop"), **{k: (True, False) for k in ("weir", "hamilton", "von_sanders", "avni", "mccay",
                                                                 "maclagan")}}


class AssaultOnGallipoli:
    name: ClassVar[str] = "assault-on-gallipoli"
    title: ClassVar[str] = "Assault on Gallipoli: The ANZAC Landing Campaign 1915 (rules document 001)"
    # 1: the Action Cards (17), dealt from the shared deck; 2: the side without the initiative draws its
    # close combat hand first, landing plans (plans.py; RULES.md, "Hand-overs")
    # 3: one-choice close combat allocations and retreats taken by the rules; 4: Sudden Storm and Good Luck
    # (rolls other than fire) played ahead; 5: 12.4 measured on the half board in play, a player's own
    # tables (option 'data', dataset.py), Action Cards named in texts; 6: standing orders (standing.py): the
    # close combat order given with a pass, the ANZAC ships placed with his draw; 7: discards sealed with a
    # pass (discards.py), the lead sealed with a match (initiative.py), the leader draws and leads first;
    # 8: the lead order (leadorder.py), sealed in a Round, its tool draws and leads by it; the plan given
    # with a fire (fireplan.py)
    version: ClassVar[str] = "8"
    # the actions that carry out an order its person sealed earlier (initiative.py, discards.py,
    # leadorder.py): only his tool can read it, so it is a file of his tool's, which passes his decision on
    sealed_orders: ClassVar[tuple[str, ...]] = ("planned", "ordered")
    sides: ClassVar[tuple[str, ...]] = SIDES
    options: ClassVar[dict[str, str]] = OPTIONS
    scenarios: ClassVar[dict[str, str]] = {k: v["title"] for k, v in SCENARIOS.items()}
    provisional: ClassVar[tuple[str, ...]] = (
        "map: areas beyond those the Rulebook names, adjacency, elevations, woods, rivers, roads, red lines, "
        "sea areas and VP areas are ours, from the sector's geography (data.py, RULES.md)",
        "counters: firepower, range, strength and MF of every type, and the Leaders' bonuses, beyond the "
        "values the text states, are ours",
        "scenarios: every set-up, boat, reinforcement group, VP area, starting cube, trench, wire and ship, and "
        "the turns, are ours (the Scenario Booklets are missing); the text gives the Morale Advantage at the start, "
        "Killing Time 7 or 8, the board halves and Scenario 2's victory (RULES.md)",
        "optional Leaders (22): Hamilton's and von Sanders' movement bonus (0) and Weir's values are ours",
        "fire combat: only the modifiers the text names (the Reference Sheet's full table is missing)",
    )

    @classmethod
    def provisional_in(cls, options: dict[str, Any]) -> tuple[str, ...]:
        """The provisional notes that still hold in a game: none for a part the player supplied."""
        mine = set(options.get("data") or {}) if isinstance(options.get("data"), dict) else set()
        part = {"map": "map", "counters": "counters", "scenarios": "scenarios", "fire combat": "fire"}
        return tuple(n for n in cls.provisional if part.get(n.split(":", 1)[0]) not in mine)

    @staticmethod
    def check_data(supplied: Any) -> list[str]:
        """Every problem of a player's own data (``pbem new --pack DIR``: dataset.load), or []."""
        return dataset.check(supplied)

    @staticmethod
    def data_template() -> dict[str, Any]:
        """Our provisional tables in the shape a player's data takes (``pbem pack template``)."""
        return dataset.template()

    @staticmethod
    def player(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
        """A simple player (bot.py), for tests."""
        from .bot import order

        with dataset.using(state):
            return order(state, side, prompt, known)

    deck_names: ClassVar[dict[str, str]] = {cards.DECK_ID: "the Action Cards", cards.DECK_S1: "the Action Cards"}

    @staticmethod
    def dealt_decks() -> dict[str, list[str]]:
        """The Action deck, one shared deck dealt to secret hands (cards.py; pbem_engine.hidden.deck_table): the 54
        cards, and the 52 of Scenario 1 (which removes two), only the scenario's is ever shuffled."""
        return cards.dealt_decks()

    @staticmethod
    def private_pools(state: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
        """Each side's copy of the Close Combat deck (closecombat.py; RULES.md, "Close Combat hands")."""
        return closecombat.private_pools()

    def setup(self, scenario: str, options: dict[str, Any]) -> dict[str, Any]:
        if scenario not in self.scenarios:
            raise RulesError(f"no scenario {scenario!r}; this game has: {', '.join(self.scenarios)}")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(f"unknown options {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
        for key, allowed in CHOICES.items():
            if key in options and options[key] not in allowed:
                raise RulesError(f"option {key} is one of {', '.join(map(str, allowed))}")
        turns = options.get("turns")
        if turns is not None and (not isinstance(turns, int) or isinstance(turns, bool) or turns < 1):
            raise RulesError("option turns is a whole number of turns, 1 or more")
        try:  # a player's own tables: every rule below reads them (dataset.using)
            tables = dataset.adopt(options["data"]) if "data" in options else {}
        except dataset.DataError as e:
            raise RulesError(str(e)) from None
        with dataset.using(tables):
            why = scenarios.refused(scenario, options)
            if why:
                raise RulesError(why)
            state = sequence.new_state(scenario, dict(options))
            state.update({"data_id": tables["data_id"]} if tables else {})
            rules.settle(state, None, [])
        return state

    def prompt(self, state: dict[str, Any]) -> Prompt:
        with dataset.using(state):
            return rules.prompt(state)

    def apply(self, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
        with dataset.using(state):
            return state, rules.apply(state, side, action, dice)

    def view(self, state: dict[str, Any], side: str | None) -> dict[str, Any]:
        return state  # 5.5: units are public; a hand held as tokens shows only to its owner (pbem_engine.hidden.private)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        r = state["result"]
        return Outcome(r["winner"], r["result"], r["reason"]) if r else None

    def item_name(self, item: str) -> str:
        """A close combat card or an Action Card by its name (a hand is held as tokens its owner's
        tool opens; an Action Card's item is one of the deck's copies, 'good-luck#2')."""
        if item in closecombat.CARD_NAMES:
            return closecombat.CARD_NAMES[item]
        return cards.NAMES.get(cards.kind(item), item)

    def item_values(self, view: dict[str, Any], item: str) -> str:
        """What an Action Card does, in brief, for its holder's eyes (the report's hands; "" otherwise)."""
        return cards.brief(item)

    def sealed_choice(self, state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> dict[str, Any] | None:
        """The action its side's tool takes for it by an order the side sealed earlier, read with what
        only that tool knows (the lead order, leadorder.py); None: the side decides."""
        from .leadorder import choose

        with dataset.using(state):
            return choose(state, prompt, known)

    def playable(self, state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> Prompt:
        """The prompt as its owner's tool shows it: the odds of each fire, the cards the hand allows."""
        from .forecast import playable

        with dataset.using(state):
            return playable(state, prompt, known)

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the report's map shows (view.py)."""
        from .view import map_view

        with dataset.using(view):
            return map_view(view)

    @staticmethod
    def map_locations(pack_locations: list[dict[str, Any]], view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The areas to draw, at the pack's coordinates where it has them (view.py); with the
        game's ``view``, its own map's areas where the player supplied a map."""
        from .view import locations

        with dataset.using(view or {}):
            return locations(pack_locations)

    def describe(self, view: dict[str, Any]) -> list[str]:
        with dataset.using(view):
            return self._describe(view)

    def _describe(self, view: dict[str, Any]) -> list[str]:
        tables = dataset.of(view)
        lines = [f"data: {', '.join(tables.supplied)} the player's own; "
                 f"{', '.join(p for p in dataset.PARTS if p not in tables.supplied) or 'nothing'} ours, provisional"
                 ] if tables.supplied else []
        lines += [f"turn {view['turn']} of {view['turns']}; Killing Time {view['kt']}; Morale Advantage: {view['ma']}"]
        vp = {s: sum(1 for c in view["cubes"].values() if c == s) for s in SIDES}
        lines.append(f"VP cubes: anzac {vp['anzac']}, turkish {vp['turkish']}")
        for s in SIDES:
            d = view["ccdeck"][s]
            if d["hand"] or d["table"]:
                lines.append(f"{s} close combat cards: hand " + (" ".join(closecombat.card_name(c) for c in d["hand"])
                                                                  or "(none)")
                             + "; played " + (", ".join(closecombat.card_name(c) for c in d["table"]) or "none"))
        for s in SIDES:  # 17.1: a hand of deck positions, named to its holder only (pbem.hidden.show)
            held = view["ac"]["hands"][s]
            lines += [f"{s} Action Cards in hand ({len(held)}): " + ", ".join(cards.label(e) for e in held)] if held else []
        for area in board.areas():
            here = board.units_at(view, area)
            if here:
                extra = [f"{'deep' if view['trenches'][area] == 2 else 'shallow'} trench"] if area in view["trenches"] else []
                extra += ["wire"] if area in view["wire"] else []
                lines.append(f"{board.name(area)}{' [' + ', '.join(extra) + ']' if extra else ''}: "
                             + ", ".join(board.label(view, u) for u in here))
        return lines


GAME = AssaultOnGallipoli()

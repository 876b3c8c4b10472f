"""The Gallipoli block-and-card game (rules document 002), every rule of the text enforced.

Rules by section: ``sequence`` (6 set-up, 7.1 turn, 8.2 events, 7.1.3 supply,
7.1.4 victory), ``ops`` (8.1 operations, 9.1 landing), ``combat`` (10).  The
board and blocks are in ``data``, the provisional cards in ``cards``; what the
text lacks and how it was filled in is in RULES.md.

Hidden information: hands are private draws, every block on the board is a
sealed token ("<block>:<steps>") opened only when the rules reveal it, face-
down cards stay hand tokens until shown, and the attacker's leading blocks are
sealed until step 7.  When the game is decided each side opens what is still
concealed and every opening is checked against how the block entered play.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pbem_engine.protocol.core import Choice, Outcome, Prompt, RulesError, order_part
from pbem_engine.chance.dice import Dice

from . import board, rules, sequence
from . import cards as card_data
from .data import BLOCKS

OPTIONS = {
    "zero_entrenches": "true (default): with no cards played the defender is entrenched, 0 >= 0 as 10.1 step 2 "
                       "reads; false: entrenchment needs at least one point",
    "turns": "stop after this many turns (the rules set no limit; for short games by agreement)",
    "tournament": "true: each player bids 1-8 in secret to play the Allies; the lower bid does, with that hand "
                  "size; a coin flip breaks a tie (6.5). The seats keep their names; the report says who commands whom",
    "cards": "the printed card values, by card id, laid over the provisional ones (see RULES.md)",
}


class GallipoliBlocks:
    _supplied: ClassVar[dict[str, dict[str, dict[str, Any]]]] = {}
    name: ClassVar[str] = "gallipoli-blocks"
    title: ClassVar[str] = "Gallipoli, a block and card game (rules document 002)"
    version: ClassVar[str] = "3"  # 2: battle plans (10.1, combat.do_plan); 3: reinforcement plans (8.2.1, sequence.offer_plan)
    sides: ClassVar[tuple[str, ...]] = ("allied", "ottoman")
    options: ClassVar[dict[str, str]] = OPTIONS
    scenarios: ClassVar[dict[str, str]] = {"full-game": "the whole campaign, until a victory check ends it (7.1.4)"}
    # Eliminated and retired blocks (board.eliminate, stand_up): added with their last values,
    # then only read (check_origin). Copies of a state share these records (pbem_engine.protocol.core.snapshot);
    # they are most of a long game's state. tests/games/gallipoli_blocks/test_frozen.py checks it.
    # And the groups stood up again (stand_up): each written once, then only read (check_origin).
    # Since protocol 4 both stay out of the hashed state, digested as they are added (pbem_engine.protocol.trail).
    frozen_entries: ClassVar[tuple[str, ...]] = ("gone", "again")
    # Blocks on the board: records whose values the rules set (at, stop, hits, steps, id...), never
    # change in place (their one list, 'entering', is only read): copies copy each record (test_frozen).
    flat_entries: ClassVar[tuple[str, ...]] = ("blocks",)
    provisional: ClassVar[tuple[str, ...]] = (
        "map: connections, terrain, beaches, objectives and HQ links reconstructed from the peninsula's geography "
        "(the rules name the spaces only); sources in packs/gallipoli-blocks",
        "cards: all 54 cards' OPS, symbols, asterisks, Early/Late and events are placeholders of ours "
        "(three titles kept from the text); owners may supply the printed values (option 'cards')",
        "Allied set-up (6.2 is cut off): groups A and B start concealed in the ANZAC and British HQ spaces",
        "landing (9.0 is missing): a landing may go against an Ottoman-held beach, as 9.1 describes, "
        "and then attacks it without a further OPS",
    )

    @staticmethod
    def handovers(battles: int) -> dict[str, int]:
        """Turn files a game turn with ``battles`` battles needs (RULES.md, "Hand-overs"): each
        player phase's own file, and per battle six more in the rules' order, where every choice
        is made knowing all the rules let the chooser know, or two with battle plans."""
        return {"rules": 2 + 6 * battles, "planned": 2 + 2 * battles}

    @staticmethod
    def player(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
        """A simple, sensible player (bot.py), for the demo and tests."""
        from .bot import order

        return order(state, side, prompt, known)

    def _cards(self, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        supplied = state["options"].get("cards")
        if not supplied:
            return card_data.DEFAULT
        key = json.dumps(supplied, sort_keys=True)  # the owner's printed values: built once per game
        if key not in self._supplied:
            self._supplied = {key: card_data.table(supplied)}
        return self._supplied[key]

    def setup(self, scenario: str, options: dict[str, Any]) -> dict[str, Any]:
        if scenario not in self.scenarios:
            raise RulesError(f"no scenario {scenario!r}; this game has: {', '.join(self.scenarios)}")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(f"unknown options {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
        if options.get("tournament") not in (None, True, False):
            raise RulesError("option tournament is true or false")
        turns = options.get("turns")
        if turns is not None and (not isinstance(turns, int) or turns < 1):
            raise RulesError("option turns is a whole number of turns, 1 or more")
        try:
            table = card_data.table(options.get("cards"))
        except ValueError as e:
            raise RulesError(str(e)) from None
        state = sequence.new_state(dict(options), table)
        rules.settle(state, None, [], table)
        return state

    def private_pools(self, state: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
        table = self._cards(state)
        if state["options"].get("tournament"):  # the bid decides who draws from which deck (6.5)
            return {seat: {f"{army}-{sub}": sorted(c for c, v in table.items() if v["army"] == army and v["subdeck"] == sub)
                           for army in board.ARMIES for sub in ("early", "late")} for seat in board.ARMIES}
        return {board.seat(state, army): {f"{army}-{sub}": sorted(c for c, v in table.items()
                                                                   if v["army"] == army and v["subdeck"] == sub)
                                          for sub in ("early", "late")} for army in board.ARMIES}

    def item_name(self, item: str) -> str:
        if item in card_data.CARDS:
            return card_data.CARDS[item][0]
        block_id, _, steps = item.partition(":")
        if block_id in BLOCKS:
            # the strength it was concealed at, not its strength now: a situation line adds the steps lost since
            return BLOCKS[block_id][0] + (f" (concealed at {steps} step{'' if steps == '1' else 's'})" if steps else "")
        if item.isdigit():
            return f"a bid of {item} (sealed)"
        return f"sealed choice of {len(item.split())} leading block(s)"

    def prompt(self, state: dict[str, Any]) -> Prompt:
        return rules.prompt(state, self._cards(state))

    def apply(self, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
        return state, rules.apply(state, side, action, dice, self._cards(state))

    def parse_order(self, state: dict[str, Any], side: str, text: str,
                    known: dict[str, str] | None = None) -> dict[str, Any]:
        prompt = self.prompt(state)
        if state["frames"][-1]["k"] in ("battle", "landing"):  # a label copied with the odds shown after it
            text = order_part(text)  # (not elsewhere: a note may hold the separator)
        for choice in prompt.choices:  # a listed choice, by its words
            if " ".join(text.lower().split()) == choice.label.lower() and choice.action.get("do") not in (
                    "setup", "reinforce", "supply", "lead", "conceal"):
                return choice.action
        return rules.parse_order(state, side, text, known or {}, self._cards(state))

    def playable(self, state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> Prompt:
        """The prompt as its owner's tool shows it: the public prompt offers every card in hand for
        every use (it cannot see them); the owner, who can, is not offered what the card is not.
        A choice that decides a roll's dice shows the roll's exact odds (``forecast``)."""
        table = self._cards(state)
        frame = state["frames"][-1]
        step = frame.get("step", "")

        def fits(action: dict[str, Any]) -> bool:
            cid = known.get(action.get("card", ""))
            if cid is None or cid not in table:
                return True
            kind = table[cid]["event"]["kind"]
            if action.get("do") == "play" and action.get("as") == "event":
                return kind not in ("battle", "response")
            if action.get("do") == "respond":
                return kind == "response"
            if frame["k"] == "battle" and step.startswith("events") and action.get("do") == "card":
                return kind == "battle"
            return True

        from .forecast import with_odds  # the odds of the rolls these choices decide

        shown = with_odds(state, prompt._replace(choices=tuple(c for c in prompt.choices if fits(c.action))), known, table)
        shown = shown._replace(choices=tuple(self._with_values(state, c, known, table) for c in shown.choices))
        if frame["k"] == "deploy" and prompt.side is not None:  # the names an order may use, for our eyes only
            shown = shown._replace(text=shown.text + rules.deploy_names(state, frame, known))
        return shown

    def forced_action(self, state: dict[str, Any], prompt: Prompt) -> dict[str, Any] | None:
        """10.1 step 11's stand-up and 8.2.1's Allied reinforcements: their blocks are fixed by the
        rules (the card names them, at full strength), only their order is the owner's (its tool
        shuffles them).  A referee, who holds the owner's secret, plays them: never a person's file."""
        if prompt.side is None:
            return None
        labels = [c.label for c in prompt.choices]
        if state.get("standing") and labels == [rules.STAND_UP]:
            return board.stand_up_order(state, board.army_of(state, prompt.side))
        frame = state["frames"][-1]
        if frame["k"] == "reinforce" and labels == ["bring them in"]:
            return {"do": "reinforce", "blocks": [{"$hide": f"{b}:4"} for b in frame["blocks"]]}
        return None

    def order_without_choice(self, state: dict[str, Any], prompt: Prompt) -> str | None:
        """The order of a decision in the game's words that leaves its player nothing to choose:
        the Allied set-up (6.2), reinforcements (8.2.1) and supply losses (7.1.3) are fixed by the
        rules, only what the owner's tool writes of his concealed blocks is his (``parse_order``).
        A two-player tool takes it for him (pbem.play.turns.no_choice); None: a decision."""
        kind = state["frames"][-1]["k"]
        if prompt.side is None or kind not in ("allied-setup", "reinforce", "supply") \
                or [c.label for c in prompt.choices] == [rules.STAND_UP]:  # the stand-up comes first
            return None
        return prompt.choices[0].label if prompt.choices else None

    def view(self, state: dict[str, Any], side: str | None) -> dict[str, Any]:
        return state  # only tokens and what the rules revealed: the display names one's own items

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        result = state["result"]
        if result is None or len(state["frames"]) > 1:
            return None
        winner = state["seats"][result["winner"]] if result["winner"] else None  # the player, not the army
        return Outcome(winner, result["result"], result["reason"])

    def describe(self, view: dict[str, Any]) -> list[str]:
        from .describe import describe

        return describe(view, self._cards(view))

    def _with_values(self, state: dict[str, Any], choice: Choice, known: dict[str, str], table: dict) -> Choice:
        """A choice that uses one of our cards, with the card's values after the label's words."""
        from pbem_engine.protocol.core import SEP

        cid = known.get(choice.action.get("card", "")) if isinstance(choice.action.get("card"), str) else None
        if cid not in table:
            return choice
        words, _, odds = choice.label.partition(SEP)
        worth = self.item_values(state, cid)
        return choice._replace(label=f"{words}{SEP}{worth}" + (f"; {odds}" if odds else ""))

    def item_values(self, view: dict[str, Any], item: str) -> str:
        """What an item is worth, for its owner's eyes: a card's values ("" for anything else)."""
        from .describe import card_values

        cards = self._cards(view)
        return card_values(cards[item], bool(view["options"].get("cards"))) if item in cards else ""

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the map shows (blocks where they are, concealed ones as tokens; the tracks)."""
        from .describe import map_view

        return map_view(view)


GAME = GallipoliBlocks()

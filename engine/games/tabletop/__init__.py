"""Table-top mode: any game played as on a table, VASSAL-style, but signed and verifiable.

No rules are enforced: pieces move where their owner puts them, dice are
rolled from expressions, cards are drawn, played and discarded, the turn and
phase advance when a player says so.  What table-top mode guarantees is the
rest of pbem: every action signed and logged, every die sealed (or
labelled), every private draw committed, everything shown in the reports.

The game is built from a data pack (docs/packs.md), which travels inside the
genesis as the option ``pack``: the engine reads no file, and the pack both
players play with is pinned and signed.  A side's own decks are private pools
(pbem_engine.hidden.private); shared decks are shuffled with the shared dice.

Concealed pieces start in their owner's hidden pool; "deploy" puts one on the
map as a commitment token chosen by its owner (pbem_engine.hidden.private ``choose``),
"reveal" opens it; the option ``reveal_concealed`` plays them face up.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import IllegalAction, Outcome, Prompt, RulesError
from pbem_engine.chance.dice import Dice

from . import orders, parse


class TableTop:
    name = "tabletop"
    version = "1"

    def __init__(self, pack: dict[str, Any]) -> None:
        head = pack.get("pack", {})
        self.pack = pack
        self.title = f"{head.get('title', 'a game')} (table-top)"
        self.sides = tuple(head.get("sides", ()))
        scenarios = {s["id"]: s.get("name", s["id"]) for s in pack.get("scenario", [])}
        self.scenarios = scenarios or {"standard": "the pack's set-up"}
        self.provisional = tuple(_provisional(pack))
        self.d10_zero = bool(head.get("d10_zero", False))
        self.locations = {loc["id"]: loc for loc in pack.get("location", [])}
        self.piece_data = {p["id"]: p for p in pack.get("piece", [])}
        self.decks = {d["id"]: d for d in pack.get("deck", [])}
        self.deck_names = {d_id: d.get("name", d_id) for d_id, d in self.decks.items()}

    # -- set-up ---------------------------------------------------------------------
    def setup(self, scenario: str, options: dict[str, Any]) -> dict[str, Any]:
        if scenario not in self.scenarios:
            raise RulesError(f"no scenario {scenario!r}; the pack has {', '.join(self.scenarios)}")
        unknown = sorted(set(options) - {"pack", "reveal_concealed"})
        if unknown:
            raise RulesError(f"unknown table-top options: {', '.join(unknown)}")
        hide = not options.get("reveal_concealed")
        pieces = {}
        for p in self.pack.get("piece", []):
            if hide and p.get("concealed"):
                continue  # in its owner's hidden pool until deployed (pbem_engine.hidden.private)
            for k in range(int(p.get("count", 1))):
                pid = p["id"] if int(p.get("count", 1)) == 1 else f"{p['id']}-{k + 1}"
                pieces[pid] = {"at": p.get("start", "off-map"), "steps": p.get("steps"), "face": "up", "marks": []}
        shared = {d_id: {"draw": sorted(self.items(d_id)), "shuffled": False, "discard": [], "removed": []}
                  for d_id, d in sorted(self.decks.items()) if d.get("owner") == "shared" and not self.is_dealt(d_id)}
        shared.update({d_id: {"dealt": True, "draw": [], "discard": [], "removed": []}  # pbem_engine.hidden.deck_table
                       for d_id in sorted(self.dealt_decks())})
        own = {d_id: {"discard": [], "removed": [], "in_pool": len(self.items(d_id))}
               for d_id, d in sorted(self.decks.items()) if d.get("owner") != "shared"}
        return {"turn": 1, "phase": 0, "active": self.sides[0], "pieces": pieces, "shared": shared, "own": own,
                "hands": {s: [] for s in self.sides}, "played": [], "marks": {}, "hidden": {}, "notes": [],
                "options": {k: v for k, v in options.items() if k != "pack"}}

    def items(self, deck_id: str) -> list[str]:
        items = []
        for card in self.pack.get("card", []):
            if card.get("deck") == deck_id:
                n = int(card.get("count", 1))
                items += [card["id"] if n == 1 else f"{card['id']}#{k + 1}" for k in range(n)]
        return items

    def is_dealt(self, deck_id: str) -> bool:
        """A shared deck the pack deals to private hands (``dealt = "private"``): mental poker."""
        deck = self.decks.get(deck_id, {})
        return deck.get("owner") == "shared" and deck.get("dealt") == "private"

    def dealt_decks(self) -> dict[str, list[str]]:
        """The decks pbem_engine.hidden.deck_table keeps, with their cards (pbem_engine.protocol.match reads this at the genesis)."""
        return {d_id: self.items(d_id) for d_id in sorted(self.decks) if self.is_dealt(d_id)}

    def private_pools(self, state: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
        pools: dict[str, dict[str, list[str]]] = {side: {} for side in self.sides}  # every side may seal notes
        for d_id, deck in sorted(self.decks.items()):
            if deck.get("owner") in self.sides:
                pools.setdefault(deck["owner"], {})[d_id] = self.items(d_id)
        if not state["options"].get("reveal_concealed"):
            for p in self.pack.get("piece", []):
                if p.get("concealed") and p.get("side") in self.sides:
                    pools.setdefault(p["side"], {}).setdefault("concealed", []).append(p["id"])
        return pools

    def concealed_of(self, side: str) -> list[str]:
        return [p["id"] for p in self.pack.get("piece", []) if p.get("concealed") and p.get("side") == side]

    def item_name(self, item: str) -> str:
        if item in self.piece_data:
            return self.piece_data[item].get("name", item)
        base = item.split("#")[0]
        card = next((c for c in self.pack.get("card", []) if c["id"] == base), None)
        return card.get("name", base) if card else item

    # -- play -----------------------------------------------------------------------
    def prompt(self, state: dict[str, Any]) -> Prompt:
        if state.get("over"):
            return Prompt(None, state["over"]["result"])
        side = state["active"]
        return Prompt(side, f"turn {state['turn']}, {self.phase(state)}: {side} acts freely; 'pass' hands over",
                      (), free=True)

    def parse_order(self, state: dict[str, Any], side: str, text: str,
                    known: dict[str, str] | None = None) -> dict[str, Any]:
        return parse.parse(self, state, side, text, known)

    def apply(self, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
        return orders.apply(self, state, side, action, dice)

    def action_label(self, action: dict[str, Any]) -> str:
        """An action in the words a player would type (for 'X declares: ...')."""
        do = action.get("do", "?")
        if do == "roll":
            return f"roll {action['expr']} for {action.get('purpose', action['expr'])}"
        if do == "draw":
            return f"draw {action['count']} from {self.decks.get(action['deck'], {}).get('name', action['deck'])}"
        if do == "reshuffle":
            return f"reshuffle {self.decks.get(action['deck'], {}).get('name', action['deck'])}"
        if do == "reroll":
            return f"re-roll die {action['die']} because {action['reason']}"
        return do

    def action_odds(self, action: dict[str, Any]) -> str | None:
        """The exact odds of a roll, shown when it is ordered (the roll waits for the other side's dice)."""
        if action.get("do") != "roll" or not isinstance(action.get("expr"), str):
            return None
        expr, purpose = action["expr"], action.get("purpose")
        line = orders.roll_odds(self, expr)
        return line and f"{expr}{f' for {purpose}' if purpose and purpose != expr else ''}: {line}"

    def view(self, state: dict[str, Any], side: str | None) -> dict[str, Any]:
        return state  # hands hold commitment tokens; the display names only one's own

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        over = state.get("over")
        return Outcome(over.get("winner"), over["result"], over.get("reason", "")) if over else None

    def describe(self, view: dict[str, Any]) -> list[str]:
        return orders.describe(self, view)

    def board(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the map shows (pieces where they are, concealed ones as tokens; the turn track)."""
        return orders.board(self, view)

    def phase(self, state: dict[str, Any]) -> str:
        phases = self.pack.get("track", {}).get("phases", [])
        return phases[state["phase"] % len(phases)] if phases else f"phase {state['phase'] + 1}"


def _provisional(pack: dict[str, Any]) -> list[str]:
    notes = list(pack.get("pack", {}).get("notes", []))
    for kind in ("location", "piece", "deck", "card", "scenario"):
        n = sum(1 for e in pack.get(kind, []) if e.get("provisional"))
        if n:
            notes.append(f"{n} {kind} entries of this pack are reconstructed (provisional); their sources are in the pack")
    return notes


def check_action(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalAction(message)

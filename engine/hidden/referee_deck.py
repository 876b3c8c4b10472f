"""A shared deck dealt to private hands in a refereed game: the referee holds every card.

Between two players a deck dealt to private hands needs mental poker (pbem_engine.hidden.deck,
pbem_engine.hidden.deck_table): neither side may know the order, so both lock and shuffle, and every
draw costs the other side's keys.  With a referee nobody needs to: the referee already
holds every side's hidden items, so it holds the deck too, behind the interface the rules
call as ``dice.decks`` (draw, play, give_back, discard, shuffle, ready, pile, blocked, show,
ask, take, give).  The rules modules are the same; a shuffle is done at once, a draw needs
no key, a hand the rules show (Espionage) is shown at once.

The record is in two parts of the referee's full state:

* ``match["dealt"]``, public (every player's view carries it): per deck, how many cards are
  still in the box, each shuffle's positions and where each is (``pile``, a side's hand,
  ``table``, ``discard``, ``gone`` into a later shuffle), the cards face up, which side has
  seen which position (its own hand, a hand shown to it, a card it gave), and the pile's
  order of positions.  No card face down is named, nor the box's cards.
* ``match["deal_order"]``, the referee's: the deck's cards, the box, each shuffle's cards by
  position.  A player's view names only the positions it has seen (``known``), in a field
  of its own view, as a hand holds them: ``deck:<deck>:<shuffle>:<position>`` (the same
  texts as pbem_engine.hidden.deck_table.ref_text), so its tool and reports name its own cards.

The order of a shuffle is a permutation seeded by HMAC(K, game, deck, shuffle, envelope,
every party's latest chain link), where K is derived from the referee's salt: the salt is
committed at genesis, before any player's chain exists, and the links are fixed by their
chains, so nobody chooses an order (the referee cannot grind its salt against anchors it
has not seen); no player can compute one before the referee discloses its salt, after which
anyone replays every deal (the commitments to the full state check it, views included).

A player's own tool runs the rules on its view to give several orders a file (``OwnDeck``):
the public part is enough to play, give, return or show cards of its own hand, discard from
the table, or shuffle (the positions are public, their order is not), while a draw (it needs
the order) or asking to see a hand not yet seen raises pbem_engine.hidden.referee_hidden.Unknowable: the
referee goes on from there.
"""

from __future__ import annotations

import copy
import hmac
from typing import Any

from pbem_engine.canonical import digest
from pbem_engine.hidden.deck_group import DeckError
from pbem_engine.hidden.deck_table import parse_ref, ref_text
from pbem_engine.chance.dice import Dice
from pbem_engine.hidden.referee_hidden import Unknowable

NOT_SHUFFLED = "it has not been shuffled yet"


def order_key(salt: bytes) -> bytes:
    """The referee's key for the order of every shuffle (from its salt, disclosed at the end)."""
    return hmac.digest(salt, b"pbem/v1/referee-deck", "sha256")


def new_record(sides: list[str], decks: dict[str, list[str]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(match["dealt"], match["deal_order"])`` at the genesis: every deck in its box."""
    if len(sides) != 2 or sides[0] == sides[1]:
        raise DeckError("bad-sides", "a shared deck is for two sides")
    public = {d: {"sides": sorted(sides), "box": len(cards), "shuffles": [], "pile": []}
              for d, cards in sorted(decks.items())}
    secret = {d: {"cards": list(cards), "box": list(cards), "order": []} for d, cards in sorted(decks.items())}
    for d, cards in sorted(decks.items()):
        if len(set(cards)) != len(cards):
            raise DeckError("bad-deck", f"deck {d} names a card twice")
    return public, secret


def seeder(key: bytes, game_id: str, seq: int, chains: dict[str, dict[str, Any]]):
    """``seed(deck, number)`` for the shuffles of envelope ``seq``: the referee's key and every
    party's latest link (``chains``: the chains after this envelope's reveal)."""
    links = [f"{side}:{chain['link']}" for side, chain in sorted(chains.items())]

    def seed(deck_id: str, number: int) -> bytes:
        return hmac.digest(key, digest("referee-deck", game_id, deck_id, str(number), str(seq), *links), "sha256")

    return seed


def known(public: dict[str, Any], secret: dict[str, Any], side: str) -> dict[str, str]:
    """The cards ``side`` may name that are not face up: ``{ref text: card}`` (its view's ``cards``)."""
    out = {}
    for deck_id, rec in sorted(public.items()):
        for n, sh in enumerate(rec["shuffles"]):
            for i in sh["seen"].get(side, []):
                if str(i) not in sh["cards"]:
                    out[ref_text(deck_id, [n, i])] = secret[deck_id]["order"][n][i]
    return out


def every_card(public: dict[str, Any], secret: dict[str, Any]) -> dict[str, str]:
    """Every dealt card by its ref text, face down or not: what the referee may name."""
    return {ref_text(deck_id, [n, i]): card for deck_id, rec in sorted(public.items())
            for n, _ in enumerate(rec["shuffles"]) for i, card in enumerate(secret[deck_id]["order"][n])}


def face_up(public: dict[str, Any]) -> dict[str, str]:
    """Every card played face up (anyone's to name): ``{ref text: card}``."""
    return {ref_text(deck_id, [n, int(i)]): card for deck_id, rec in sorted(public.items())
            for n, sh in enumerate(rec["shuffles"]) for i, card in sorted(sh["cards"].items())}


def hands(public: dict[str, Any]) -> dict[str, list[str]]:
    """Each side's hand, every deck: ref texts in the order they came."""
    out: dict[str, list[str]] = {}
    for deck_id, rec in sorted(public.items()):
        for side in rec["sides"]:
            out.setdefault(side, []).extend(ref_text(deck_id, [n, i]) for n, sh in enumerate(rec["shuffles"])
                                            for i, at in enumerate(sh["at"]) if at == side)
    return out


class RefereeDeck:
    """The referee's replay: every deck of the game, every card known (``secret``)."""

    def __init__(self, public: dict[str, Any], secret: dict[str, Any] | None, seed=None) -> None:
        self.public = public  # copied by the caller, changed in place
        self.secret = secret  # likewise; None in a player's own tool
        self.seed = seed
        self.ops = 0

    def mark(self) -> int:
        """Changes made so far (an action that moves a card and then rolls is refused)."""
        return self.ops

    # -- helpers --------------------------------------------------------------------------
    def _deck(self, deck_id: str) -> dict[str, Any]:
        if deck_id not in self.public:
            raise DeckError("bad-deck", f"{deck_id!r} is no deck dealt to private hands")
        return self.public[deck_id]

    def _side(self, rec: dict[str, Any], side: str) -> str:
        if side not in rec["sides"]:
            raise DeckError("bad-side", f"{side!r} does not play this deck")
        return rec["sides"][1 - rec["sides"].index(side)]

    def _ref(self, text: str) -> tuple[str, dict[str, Any], int, int]:
        parsed = parse_ref(text)
        if parsed is None or parsed[0] not in self.public:
            raise DeckError("bad-ref", f"{text!r} is no position of a dealt deck")
        deck_id, (n, i) = parsed
        rec = self.public[deck_id]
        if not (n < len(rec["shuffles"]) and i < len(rec["shuffles"][n]["at"])):
            raise DeckError("bad-ref", f"{text!r} is no position of deck {deck_id}")
        return deck_id, rec["shuffles"][n], n, i

    def _in_hand(self, side: str, text: str) -> tuple[str, dict[str, Any], int, int]:
        deck_id, sh, n, i = self._ref(text)
        self._side(self.public[deck_id], side)
        if sh["at"][i] != side:
            raise DeckError("not-in-hand", f"{side} does not hold {text}", side)
        return deck_id, sh, n, i

    def _see(self, sh: dict[str, Any], side: str, i: int) -> None:
        seen = sh["seen"].setdefault(side, [])
        if i not in seen:
            seen.append(i)

    def _card(self, deck_id: str, n: int, i: int, side: str) -> str:
        """The card at a position (the referee knows them all)."""
        assert self.secret is not None
        return self.secret[deck_id]["order"][n][i]

    def _deal(self, deck_id: str, number: int, discards: list[str], refs: list[list[int]]) -> None:
        """The order of a new shuffle: the box and the discards (in the deck's card order), then
        the pile (in its order), permuted by the seed."""
        assert self.secret is not None and self.seed is not None
        sec = self.secret[deck_id]
        named = set(sec["box"]) | set(discards)
        sources = [c for c in sec["cards"] if c in named] + [sec["order"][n][i] for n, i in refs]
        perm = Dice(self.seed(deck_id, number)).shuffle(list(range(len(sources))), "referee deck")
        sec["order"].append([sources[j] for j in perm])
        sec["box"] = []

    # -- what the rules call (through Dice.decks) -------------------------------------------
    def ready(self, deck_id: str) -> str | None:
        """Why ``deck_id`` cannot be drawn from now, or None (a shuffle is done at once)."""
        return None if self._deck(deck_id)["shuffles"] else NOT_SHUFFLED

    def pile(self, deck_id: str) -> list[str]:
        return [ref_text(deck_id, r) for r in self._deck(deck_id)["pile"]]

    def blocked(self, side: str, deck_id: str, count: int) -> list[str]:
        """None: the referee deals any card of the pile to anyone (a card the other side held and
        returned face down is one it knows, as at the table)."""
        self._side(self._deck(deck_id), side)
        return []

    def shuffle(self, side: str, deck_id: str) -> int:
        """Shuffle everything not in a hand or on the table (the box, the discards, the pile) into
        a new pile; returns the card count."""
        rec = self._deck(deck_id)
        self._side(rec, side)
        discards = [(n, i) for n, sh in enumerate(rec["shuffles"]) for i, at in enumerate(sh["at"]) if at == "discard"]
        refs = [list(r) for r in rec["pile"]]
        count = rec["box"] + len(discards) + len(refs)
        if not count:
            raise DeckError("empty", "nothing to shuffle: every card is in a hand or on the table", side)
        number = len(rec["shuffles"])
        self._deal(deck_id, number, [rec["shuffles"][n]["cards"][str(i)] for n, i in discards], refs)
        for n, i in discards + [tuple(r) for r in refs]:
            rec["shuffles"][n]["at"][i] = "gone"
        rec["shuffles"].append({"at": ["pile"] * count, "cards": {}, "seen": {s: [] for s in rec["sides"]}})
        rec["pile"] = [[number, j] for j in range(count)]
        rec["box"] = 0
        self.ops += 1
        return count

    def draw(self, side: str, deck_id: str, count: int) -> list[str]:
        rec = self._deck(deck_id)
        self._side(rec, side)
        if not rec["shuffles"]:
            raise DeckError("not-ready", f"deck {deck_id} cannot be drawn from: {NOT_SHUFFLED}", side)
        if not (isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= len(rec["pile"])):
            raise DeckError("bad-draw", f"cannot draw {count!r} from a pile of {len(rec['pile'])}", side)
        refs = rec["pile"][:count]
        for n, i in refs:
            rec["shuffles"][n]["at"][i] = side
            self._see(rec["shuffles"][n], side, i)
        del rec["pile"][:count]
        self.ops += 1
        return [ref_text(deck_id, r) for r in refs]

    def play(self, side: str, text: str, to: str = "table") -> str:
        """Play a card of ``side``'s hand face up (to the table or the discard pile): its name."""
        if to not in ("table", "discard"):
            raise DeckError("bad-message", "a card is played to the table or the discard pile", side)
        deck_id, sh, n, i = self._in_hand(side, text)
        card = self._card(deck_id, n, i, side)
        sh["at"][i], sh["cards"][str(i)] = to, card
        self.ops += 1
        return card

    def give_back(self, side: str, text: str) -> None:
        """Return a card of ``side``'s hand to the bottom of the pile, face down."""
        deck_id, sh, n, i = self._in_hand(side, text)
        sh["at"][i] = "pile"
        self.public[deck_id]["pile"].append([n, i])
        self.ops += 1

    def discard(self, side: str, text: str) -> None:
        """Move a card face up on the table to the discard pile (the next shuffle takes it)."""
        deck_id, sh, n, i = self._ref(text)
        self._side(self.public[deck_id], side)
        if sh["at"][i] != "table":
            raise DeckError("not-on-table", f"{text} is not face up on the table", side)
        sh["at"][i] = "discard"
        self.ops += 1

    def show(self, side: str, deck_id: str) -> int:
        """Show ``side``'s hand of ``deck_id`` to the other side: the cards it has not seen yet."""
        rec = self._deck(deck_id)
        other = self._side(rec, side)
        refs = [(sh, i) for sh in rec["shuffles"] for i, at in enumerate(sh["at"])
                if at == side and i not in sh["seen"].get(other, [])]
        if not refs:
            raise DeckError("empty", f"{side} holds no card of {deck_id} to show", side)
        for sh, i in refs:
            self._see(sh, other, i)
        self.ops += 1
        return len(refs)

    def ask(self, side: str, deck_id: str) -> bool:
        """``side`` looks at the other's hand of ``deck_id`` (Espionage): the referee shows it at
        once, so the other owes nothing (False, as when the hand was already shown)."""
        rec = self._deck(deck_id)
        holder = self._side(rec, side)
        held = [(n, i) for n, sh in enumerate(rec["shuffles"]) for i, at in enumerate(sh["at"]) if at == holder]
        if not held:
            raise DeckError("empty-hand", f"{holder} holds no card of {deck_id} to show", side)
        self._look(side, deck_id, held)
        for n, i in held:
            self._see(rec["shuffles"][n], side, i)
        self.ops += 1
        return False

    def _look(self, side: str, deck_id: str, held: list[tuple[int, int]]) -> None:
        """The referee shows any hand (a player's own tool cannot: ``OwnDeck``)."""

    def take(self, side: str, text: str) -> None:
        """``side`` takes a card of the other's hand that it has seen."""
        deck_id, sh, n, i = self._ref(text)
        holder = self._side(self.public[deck_id], side)
        if sh["at"][i] != holder:
            raise DeckError("not-in-hand", f"{text} is not in {holder}'s hand", side)
        if i not in sh["seen"].get(side, []):
            raise DeckError("not-shown", f"{side} takes {text}, which {holder} has not shown", side)
        sh["at"][i] = side
        self.ops += 1

    def give(self, side: str, text: str) -> None:
        """``side`` hands a card of its hand to the other (both now know it)."""
        deck_id, sh, n, i = self._in_hand(side, text)
        other = self._side(self.public[deck_id], side)
        self._see(sh, other, i)
        sh["at"][i] = other
        self.ops += 1


class OwnDeck(RefereeDeck):
    """A player's own tool: the public record and the cards its view names (``cards``).  What
    needs the order or another's cards raises ``Unknowable``: the referee goes on from there."""

    def __init__(self, public: dict[str, Any], cards: dict[str, str], side: str) -> None:
        super().__init__(copy.deepcopy(public), None)
        self.cards = dict(cards)
        self.side = side

    def _card(self, deck_id: str, n: int, i: int, side: str) -> str:
        card = self.cards.get(ref_text(deck_id, [n, i]))
        if card is None or side != self.side:
            raise Unknowable(f"the referee opens {side}'s card here")
        return card

    def _deal(self, deck_id: str, number: int, discards: list[str], refs: list[list[int]]) -> None:
        pass  # the positions are public, their order the referee's

    def draw(self, side: str, deck_id: str, count: int) -> list[str]:
        raise Unknowable(f"the referee deals {side}'s cards here")

    def _look(self, side: str, deck_id: str, held: list[tuple[int, int]]) -> None:
        if side != self.side or any(ref_text(deck_id, [n, i]) not in self.cards for n, i in held):
            raise Unknowable(f"the referee shows {side} the other hand here")

    def known(self) -> dict[str, str]:
        """What this side may name now: its view's cards and every card face up."""
        return {**self.cards, **face_up(self.public)}

"""Dice derived from a seed, so anyone holding the seed can re-derive every roll.

The byte stream is HMAC-SHA256(seed, counter) for counter = 0, 1, 2, ...;
each 32-byte block gives eight 32-bit words.  A die with ``n`` faces takes one
word ``x`` and accepts it only if ``x < 2**32 - 2**32 % n`` (rejection
sampling), so no face is favoured by a modulo remainder.  Shuffles are
Fisher-Yates over the same sampler.

Every call records what was drawn and why (``Dice.rolls``); the ledger stores
those records and ``pbem verify`` recomputes them.  Where the seed comes from
is not this module's business: see ``pbem_engine.protocol.match``.
"""

from __future__ import annotations

import hmac
import struct
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_WORDS = struct.Struct(">8I")
_SPAN = 1 << 32


class DiceNotReady(Exception):
    """Raised when an action needs randomness that is not available yet.

    The protocol layer catches it: the action is declared, and resolved once
    the other side has revealed its share of the seed.
    """


class ScriptExhausted(Exception):
    """Scripted dice were asked for more values than the script holds."""


class Dice:
    """Deterministic dice over ``seed``; ``rolls`` lists every draw with its purpose."""

    scripted = False
    private: Any = None  # an pbem_engine.hidden.private.PrivateContext while an envelope is applied
    decks: Any = None  # an pbem_engine.hidden.deck_table.DeckContext, in games with decks dealt to private hands

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._words: list[int] = []
        self.rolls: list[dict[str, Any]] = []

    # -- the sampler ---------------------------------------------------------
    def _word_refill(self) -> None:
        block = hmac.digest(self._seed, self._counter.to_bytes(8, "big"), "sha256")
        self._counter += 1
        self._words = list(_WORDS.unpack(block))
        self._words.reverse()  # consumed with pop(): first word first

    def _word(self) -> int:
        if not self._words:
            self._word_refill()
        return self._words.pop()

    def uniform(self, n: int) -> int:
        """A value in range(n), without bias."""
        if not 1 <= n <= _SPAN:
            raise ValueError(f"cannot draw from {n} outcomes")
        limit = _SPAN - _SPAN % n
        while True:
            x = self._word()
            if x < limit:
                return x % n

    def _faces(self, count: int, sides: int, low: int) -> list[int]:
        # The same sampler as uniform, unrolled: dice pools are the hot path of verify.
        if not 1 <= sides <= _SPAN:
            raise ValueError(f"cannot draw from {sides} outcomes")
        limit = _SPAN - _SPAN % sides
        out: list[int] = []
        left = count
        words = self._words
        while left > 0:
            if not words:
                self._word_refill()
                words = self._words
            x = words.pop()
            if x < limit:
                out.append(low + x % sides)
                left -= 1
        return out

    def _record(self, purpose: str, spec: str, values: list[Any], result: Any = None) -> None:
        entry: dict[str, Any] = {"purpose": purpose, "spec": spec, "values": values}
        if result is not None:
            entry["result"] = result
        if self.scripted:
            entry["scripted"] = True
        self.rolls.append(entry)

    # -- what games call -----------------------------------------------------
    def roll(self, sides: int, purpose: str) -> int:
        """One die with ``sides`` faces, read 1..sides."""
        return self.dice(1, sides, purpose)[0]

    def dice(self, count: int, sides: int, purpose: str) -> list[int]:
        """``count`` dice with ``sides`` faces each, read 1..sides."""
        values = self._faces(count, sides, 1)
        self._record(purpose, f"{count}d{sides}", values)
        return values

    def total(self, count: int, sides: int, purpose: str) -> int:
        """The sum of ``count`` dice (e.g. 3d6 for landing fire)."""
        values = self._faces(count, sides, 1)
        self._record(purpose, f"{count}d{sides}", values, sum(values))
        return sum(values)

    def d10(self, purpose: str, *, zero_based: bool = False) -> int:
        """A d10 read 1-10, or 0-9 when the game declares ``zero_based``."""
        value = self._faces(1, 10, 0 if zero_based else 1)[0]
        self._record(purpose, "d10 (0-9)" if zero_based else "d10", [value])
        return value

    def d100(self, purpose: str, *, zero_based: bool = False) -> int:
        """Percentile dice read 1-100, or 0-99 ("00" is 0) when ``zero_based``."""
        value = self._faces(1, 100, 0 if zero_based else 1)[0]
        self._record(purpose, "d100 (00-99)" if zero_based else "d100", [value])
        return value

    def pool(self, count: int, sides: int, target: int, purpose: str, *, at_most: bool = False) -> int:
        """Roll ``count`` dice and count successes: each die >= ``target``
        (or <= ``target`` with ``at_most``, for low-is-good games)."""
        values = self._faces(count, sides, 1)
        hits = len([v for v in values if v <= target] if at_most else [v for v in values if v >= target])
        op = "<=" if at_most else ">="
        self._record(purpose, f"{count}d{sides}{op}{target}", values, hits)
        return hits

    def coin(self, purpose: str) -> str:
        """A coin flip: "heads" or "tails"."""
        side = ("heads", "tails")[self._faces(1, 2, 0)[0]]
        self._record(purpose, "coin", [side])
        return side

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A uniformly random permutation of ``items`` (Fisher-Yates)."""
        order = list(items)
        for i in range(len(order) - 1, 0, -1):
            j = self.uniform(i + 1)
            order[i], order[j] = order[j], order[i]
        self._record(purpose, f"shuffle {len(order)}", list(order))
        return order

    def draw(self, items: Sequence[T], count: int, purpose: str) -> tuple[list[T], list[T]]:
        """Draw ``count`` items without replacement: (drawn, remaining in order)."""
        if not 0 <= count <= len(items):
            raise ValueError(f"cannot draw {count} from {len(items)}")
        remaining = list(items)
        drawn = [remaining.pop(self.uniform(len(remaining))) for _ in range(count)]
        self._record(purpose, f"draw {count} of {len(items)}", list(drawn))
        return drawn, remaining


    # -- a side's own hidden items (pbem_engine.hidden.private) -----------------------------------
    def _private(self) -> Any:
        if self.private is None:
            raise NoPrivateItems("this game has no private pools")
        return self.private

    def draw_private(self, side: str, pool: str, count: int) -> list[str]:
        """Draw ``count`` items from ``side``'s own hidden ``pool``: commitment tokens, which
        only ``side`` can read.  Must happen in an envelope ``side`` signs."""
        return self._private().draw(side, pool, count)

    def reveal(self, side: str, token: str) -> str:
        """The item behind ``side``'s token: the envelope must open it (or it was opened before)."""
        return self._private().reveal(side, token)

    def seal(self, side: str, value: Any) -> str:
        """Seal a text ``side`` writes now and opens later (a secret note, a plotted move):
        ``{"$hide": text}`` in its own tool, the token everywhere else.  Open it with ``reveal``."""
        return self._private().choose(side, None, value)

    def choose_private(self, side: str, pool: str, value: Any) -> str:
        """Hide an item ``side`` chooses from its ``pool``; ``value`` comes from the action
        (``{"$hide": item}`` in its owner's tool, the token everywhere else).  The token."""
        return self._private().choose(side, pool, value)

    def own_item(self, side: str, token: str) -> str | None:
        """In ``side``'s own tool, while it drafts its envelope: the item behind one of its tokens,
        so that a rule only it can check (a quota of concealed steps) is checked before it signs.
        None in every other tool and outside private play: there the rule waits for the opening."""
        return self.private.own_item(side, token) if self.private is not None else None

    def add_private(self, side: str, pool: str, items: list[str]) -> None:
        """Put known items (e.g. discards reshuffled) back into ``side``'s hidden pool."""
        self._private().add(side, pool, items)


class NoPrivateItems(Exception):
    pass


class ScriptedDice(Dice):
    """Dice that return given values, for rule tests and face-to-face play.

    ``values`` are read as the die shows them (a d10 read 0-9 takes 0-9).  A
    shuffle or draw takes a list: the resulting order, or the items drawn.
    Every draw is recorded with ``scripted: true``.
    """

    scripted = True

    def __init__(self, values: Sequence[Any]) -> None:
        super().__init__(b"")
        self._script = list(values)
        self._used = 0

    def _next(self, what: str) -> Any:
        if self._used >= len(self._script):
            raise ScriptExhausted(f"script of {len(self._script)} values exhausted when rolling {what}")
        value = self._script[self._used]
        self._used += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self._script) - self._used

    def _faces(self, count: int, sides: int, low: int) -> list[int]:
        out = []
        for _ in range(count):
            value = self._next(f"d{sides}")
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value < low + sides:
                raise ValueError(f"scripted value {value!r} is not a face of a d{sides} read {low}-{low + sides - 1}")
            out.append(value)
        return out

    def _permutation(self, items: Sequence[T], size: int, what: str) -> list[T]:
        value = self._next(what)
        pool = list(items)
        if not isinstance(value, list) or len(value) != size:
            raise ValueError(f"scripted {what} must be a list of {size} items, got {value!r}")
        for item in value:
            if item not in pool:
                raise ValueError(f"scripted {what}: {item!r} is not available")
            pool.remove(item)
        return list(value)

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        order = self._permutation(items, len(items), "shuffle")
        self._record(purpose, f"shuffle {len(order)}", list(order))
        return order

    def draw(self, items: Sequence[T], count: int, purpose: str) -> tuple[list[T], list[T]]:
        drawn = self._permutation(items, count, "draw")
        remaining = list(items)
        for item in drawn:
            remaining.remove(item)
        self._record(purpose, f"draw {count} of {len(items)}", list(drawn))
        return drawn, remaining


class NoDice(Dice):
    """Dice that are not ready: any draw raises ``DiceNotReady``."""

    def __init__(self) -> None:
        super().__init__(b"")

    def uniform(self, n: int) -> int:
        raise DiceNotReady()

    def _faces(self, count: int, sides: int, low: int) -> list[int]:
        raise DiceNotReady()

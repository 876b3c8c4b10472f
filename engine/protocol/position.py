"""A position set up by hand, for a rule case: the state and scripted dice for it.

Every enforced game exports ``position(description) -> Position`` from its own ``position``
module (``pbem_engine.games.<game>.position``), whose docstring lists the keys of the
description: a plain dict (a TOML table reads as one) of spaces and pieces, hands, decks and the
decision under way, turned into a full valid state, as godip's PRESTATE sets up a Diplomacy
position.  A description the game cannot set up raises ``ValueError`` naming the key and value.

    pos = position({...})                  # from pbem_engine.games.<game>.position
    dice = pos.dice([6, 2])                # the die faces the actions roll, in order
    state, events = step(GAME, pos.state, side, action, dice)   # pbem_engine.protocol.core.step
    assert dice.remaining == 0             # every scripted face was rolled

``CaseDice`` are ``ScriptedDice`` with the sides' hidden items in a table (``Position.table``):
what the description conceals (a block on the board, a card in hand) is opened from it, new seals
take the tokens scripted (``seals``), and private draws hand out the items scripted (``draws``).
A rule that asks the dice for what the script does not give raises ``ScriptMismatch`` or
``ScriptExhausted``: never a ``ValueError``, which a rules module may read as a malformed action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem_engine.chance.dice import ScriptedDice, ScriptExhausted

Table = Mapping[str, tuple[str, str]]  # token -> (the side that holds it, the item behind it)
DrawCheck = Callable[[str, str, str], "str | None"]  # (side, pool, item) -> why it cannot be drawn, or None


class ScriptMismatch(Exception):
    """The rules asked the scripted dice for something other than the script holds."""


class CaseDice(ScriptedDice):
    """Scripted die faces plus an in-memory table of hidden items.

    ``table`` maps token -> (side, value); ``draws`` is what is left of the script of private
    draws, each ``{"side", "pool", "cards": {token: item}}``; ``seals`` the tokens new seals
    take, in order (then S1, S2...).  ``added`` records what ``add_private`` put back into each
    pool, ``opened`` the tokens revealed, ``drawn`` the private draws made (side, pool, count)."""

    def __init__(self, values: Sequence[Any] = (), table: Table | None = None,
                 draws: Sequence[Mapping[str, Any]] | None = None, seals: Sequence[str] | None = None) -> None:
        super().__init__(values)
        self.table: dict[str, tuple[str, str]] = dict(table or {})
        self.draws: list[Mapping[str, Any]] = list(draws or [])
        self.seals: list[str] = list(seals or [])
        self.added: dict[str, list[str]] = {}
        self.opened: list[str] = []
        self.drawn: list[tuple[str, str, int]] = []
        self._auto = 0

    def seal(self, side: str, value: Any) -> str:
        if isinstance(value, dict) and "$hide" in value:
            name = value.get("as")
            value = value["$hide"]
        else:
            name = None
        if not isinstance(value, str):
            raise ScriptMismatch(f"seal of a non-text value {value!r}")
        if name is None and self.seals:
            name = self.seals.pop(0)
        if name is None:
            self._auto += 1
            name = f"S{self._auto}"
        if name in self.table:
            raise ScriptMismatch(f"token {name} sealed twice")
        self.table[name] = (side, value)
        return name

    def reveal(self, side: str, token: str) -> str:
        if token not in self.table:
            raise ScriptMismatch(f"reveal of unknown token {token!r}")
        owner, value = self.table[token]
        if owner != side:
            raise ScriptMismatch(f"{side} opens {token}, which {owner} sealed")
        self.opened.append(token)
        return value

    def draw_private(self, side: str, pool: str, count: int) -> list[str]:
        if not self.draws:
            raise ScriptExhausted(f"unscripted private draw: {side} draws {count} from {pool}")
        want = self.draws.pop(0)
        got = (side, pool, count)
        expected = (want["side"], want["pool"], len(want["cards"]))
        if got != expected:
            raise ScriptMismatch(f"private draw {got} where the script has {expected}")
        for tok, item in want["cards"].items():
            self.table[tok] = (side, item)
        self.drawn.append(got)
        return list(want["cards"])

    def add_private(self, side: str, pool: str, items: list[str]) -> None:
        self.added.setdefault(pool, []).extend(items)


@dataclass(frozen=True)
class Position:
    """A state set up from a description, and the hidden items behind its tokens.

    ``state`` is the game's full state (hand it to ``step``, which copies it); ``table`` maps
    each token the description sealed to (side, item); ``draw_check`` says why an item cannot
    be in a scripted private draw (a card of the other army), or None."""

    state: dict[str, Any]
    table: Table = field(default_factory=dict)
    draw_check: DrawCheck | None = None

    def dice(self, values: Sequence[Any] = (), draws: Sequence[Mapping[str, Any]] = (),
             seals: Sequence[str] = ()) -> CaseDice:
        """Fresh scripted dice for this position: ``values`` the faces rolled (a shuffle or draw
        takes a list), ``draws`` the private draws the actions make, in order, each
        ``{"side": ..., "pool": ..., "cards": {token: item}}``, ``seals`` the tokens new seals take."""
        if isinstance(values, (str, bytes, Mapping)):
            raise ValueError(f"dice: values is a list of die faces, not {values!r}")
        checked = []
        for i, draw in enumerate(draws):
            where = f"draws[{i}]"
            if not isinstance(draw, Mapping) or set(draw) != {"side", "pool", "cards"}:
                raise ValueError(f"dice: {where} = {draw!r} needs exactly side, pool and cards")
            if not isinstance(draw["cards"], Mapping) or not draw["cards"]:
                raise ValueError(f"dice: {where}.cards = {draw['cards']!r} is a table of token = item")
            for tok, item in draw["cards"].items():
                if tok in self.table:
                    raise ValueError(f"dice: {where}.cards token {tok!r} is already sealed in the position")
                why = self.draw_check(draw["side"], draw["pool"], item) if self.draw_check else None
                if why:
                    raise ValueError(f"dice: {where}.cards.{tok} = {item!r}: {why}")
            checked.append({"side": draw["side"], "pool": draw["pool"], "cards": dict(draw["cards"])})
        if isinstance(seals, str) or not all(isinstance(s, str) for s in seals):
            raise ValueError(f"dice: seals is a list of tokens, not {seals!r}")
        return CaseDice(list(values), self.table, checked, list(seals))


def unknown_keys(where: str, given: Mapping[str, Any], known: Sequence[str]) -> None:
    """Raise ValueError if ``given`` (a description's table) has a key not in ``known``."""
    if not isinstance(given, Mapping):
        raise ValueError(f"{where} = {given!r} is not a table")
    extra = [k for k in given if k not in known]
    if extra:
        raise ValueError(f"{where}: unknown key {extra[0]!r} (= {given[extra[0]]!r}); known: {', '.join(known)}")


def whole(where: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number within [low, high], or ValueError naming ``where``."""
    if isinstance(value, str) and value.lstrip("-").isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low) \
            or (high is not None and value > high):
        span = f" from {low}" if low is not None else ""
        span += f" to {high}" if high is not None else ""
        raise ValueError(f"{where} = {value!r} is not a whole number{span}")
    return value

"""The contract every game module fulfils: a state machine over plain JSON data.

    setup(scenario, options) -> state
    prompt(state)            -> Prompt: who decides now, and what is legal
    apply(state, side, action, dice) -> (state, events)
    view(state, side)        -> what that side may see
    outcome(state)           -> Outcome, or None while the game goes on

``step`` is the only way the rest of pbem changes a game state: it checks that
the action is one the prompt offers, hands the module a private copy, and
returns the module's result.  A refused action raises ``IllegalAction`` and
changes nothing.

``apply`` must be a function of its arguments only.  It may be called twice
for one action: first with dice that are not ready (``NoDice``), to learn
whether the action needs randomness; if it does, the action waits for the
other side's reveal and is applied again with real dice.  Because each call
gets its own copy of the state, a call interrupted by ``DiceNotReady`` leaves
nothing behind.
"""

from __future__ import annotations

import json
import marshal
from typing import Any, ClassVar, NamedTuple, Protocol

from pbem_engine.chance.dice import Dice
from pbem_engine.chance.odds import SEP, order_part  # noqa: F401  (the orders' words end where the odds begin)

State = dict[str, Any]
Event = dict[str, Any]  # {"text": str, optional "to": [sides who may see it]}


class RulesError(Exception):
    """Base of every error a game module raises about an action."""


class IllegalAction(RulesError):
    """An action the rules do not allow now.  ``legal`` lists what is."""

    def __init__(self, message: str, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.legal = legal or []


class Choice(NamedTuple):
    """One legal action: ``label`` is what a player reads and types, ``action`` what is signed."""

    label: str
    action: dict[str, Any]


class Prompt(NamedTuple):
    """Who must decide now (``side``; None when the game is over) and how.

    ``choices`` are every legal action.  A game whose actions cannot all be
    listed (free moves in table-top play, messages) sets ``free`` and checks
    actions itself in ``apply``.
    """

    side: str | None
    text: str
    choices: tuple[Choice, ...] = ()
    free: bool = False


class Outcome(NamedTuple):
    winner: str | None  # None for a draw
    result: str  # "Allied victory", "draw"
    reason: str = ""


class Game(Protocol):
    """A game module.  Class attributes describe it; methods are pure."""

    name: ClassVar[str]  # registry id, e.g. "hill60"
    title: ClassVar[str]
    version: ClassVar[str]  # bump on any change that alters play; pinned at genesis
    sides: ClassVar[tuple[str, ...]]
    scenarios: ClassVar[dict[str, str]]  # name -> one-line description
    provisional: ClassVar[tuple[str, ...]]  # reconstructed data, each with its source

    def setup(self, scenario: str, options: dict[str, Any]) -> State: ...
    def prompt(self, state: State) -> Prompt: ...
    def apply(self, state: State, side: str, action: dict[str, Any], dice: Dice) -> tuple[State, list[Event]]: ...
    def view(self, state: State, side: str | None) -> dict[str, Any]: ...
    def outcome(self, state: State) -> Outcome | None: ...
    def describe(self, view: dict[str, Any]) -> list[str]: ...


def copy_state(state: State, frozen: tuple[str, ...] = (), flat: tuple[str, ...] = ()) -> State:
    """A deep copy of plain JSON data.  marshal round-trips dicts, lists, strings and
    integers exactly and is several times faster than json or copy.deepcopy.

    ``frozen``: top-level maps of ``state`` whose entries are never changed once added (a
    game's ``frozen_entries``): the copy has its own such map, sharing the entries.
    ``flat``: top-level maps of records whose values are never changed in place, only set
    (a game's ``flat_entries``): the copy has its own map and records, sharing their values."""
    return restore(snapshot(state, frozen, flat))


Snapshot = Any  # bytes, or (bytes, {key: map}, {key: map of records}) with frozen or flat maps


def snapshot(state: State, frozen: tuple[str, ...] = (), flat: tuple[str, ...] = ()) -> Snapshot:
    """What ``restore`` turns back into a copy of ``state`` as it is now, whatever is done to
    ``state`` in between, except changing an entry of a ``frozen`` map or a value inside a
    record of a ``flat`` one (no rule does: the game declares it).  Those maps and records are
    copied themselves, so entries may be added and removed, and a record's values set."""
    maps = {k: state[k].copy() for k in frozen if type(state.get(k)) is dict}
    records = {}
    for k in flat:
        if type(state.get(k)) is dict:
            copied = {e: r.copy() for e, r in state[k].items() if type(r) is dict}
            if len(copied) == len(state[k]):  # records only: else the map is copied in full
                records[k] = copied
    if not maps and not records:
        return marshal.dumps(state)
    data = marshal.dumps({k: None if k in maps or k in records else v for k, v in state.items()})  # keys in order
    return data, maps, records


def restore(snap: Snapshot) -> State:
    """A fresh copy of the state ``snap`` was taken of (each call gives a new one)."""
    if type(snap) is bytes:
        return marshal.loads(snap)
    data, maps, records = snap
    state = marshal.loads(data)
    state.update((k, v.copy()) for k, v in maps.items())  # the keys are there: their order stays
    state.update((k, {e: r.copy() for e, r in v.items()}) for k, v in records.items())
    return state


def forced(prompt: Prompt) -> bool:
    """A decision with exactly one legal choice: whoever takes it chooses nothing."""
    return not prompt.free and len(prompt.choices) == 1


def frozen_entries(game: Any) -> tuple[str, ...]:
    """The top-level maps of ``game``'s state whose entries are never changed or removed once
    added: copies of its states share those entries (a long game's eliminated pieces, say), and
    from protocol 4 they stay out of the hashed state, digested as they are added
    (``pbem_engine.protocol.trail.folded``)."""
    return getattr(game, "frozen_entries", ())


def flat_entries(game: Any) -> tuple[str, ...]:
    """The top-level maps of ``game``'s state whose entries are records (objects) whose values
    are only ever set, never changed in place: copies of its states copy each record one level
    deep (the pieces on the board, say)."""
    return getattr(game, "flat_entries", ())


def step(game: Game, state: State, side: str, action: dict[str, Any], dice: Dice, *,
         prompt: Prompt | None = None, in_place: bool = False) -> tuple[State, list[Event]]:
    """Apply one action by ``side`` if the prompt offers it.

    ``prompt`` is ``game.prompt(state)`` when the caller has it already.  ``in_place``: the
    caller owns ``state`` and keeps its own way back (``pbem_engine.protocol.match`` keeps a snapshot), so
    the module may change it rather than a copy.

    :raises IllegalAction: it is not ``side``'s decision, or the action is not
        among the legal choices; ``state`` is untouched either way (unless ``in_place``).
    :raises DiceNotReady: the action needs randomness ``dice`` cannot give yet.
    """
    prompt = prompt or game.prompt(state)
    if prompt.side is None:
        raise IllegalAction("the game is over")
    if prompt.side != side:
        raise IllegalAction(f"it is {prompt.side}'s decision, not {side}'s: {prompt.text}")
    if not prompt.free and action not in [c.action for c in prompt.choices]:
        raise IllegalAction(
            f"{side} cannot do {json.dumps(action, sort_keys=True)} now: {prompt.text}",
            [c.label for c in prompt.choices],
        )
    return game.apply(state if in_place else copy_state(state, frozen_entries(game), flat_entries(game)),
                      side, action, dice)


def find_choice(prompt: Prompt, order: str) -> Choice:
    """The choice a player means by ``order``: its number (1-based), its label (with or
    without the odds shown after it, ``odds.SEP``), or an unambiguous prefix of a label,
    ignoring case and extra spaces.

    :raises IllegalAction: nothing matches, or several do (the message says which).
    """
    text = " ".join(order.split()).lower()
    choices = prompt.choices
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(choices):
            return choices[n - 1]
        raise IllegalAction(f"there is no choice {n}; choose 1-{len(choices)}", [c.label for c in choices])
    exact = [c for c in choices if c.label.lower() == text]
    exact = exact or [c for c in choices if order_part(c.label).lower() == text]  # the words before the odds
    if exact:
        return exact[0]
    starts = [c for c in choices if c.label.lower().startswith(text)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise IllegalAction(f"'{order}' is ambiguous: " + "; ".join(c.label for c in starts), [c.label for c in starts])
    parts = [c for c in choices if _in_words(text.split(), order_part(c.label).lower())]
    if len(parts) == 1:  # "move 86 to alexi": the order's words, in order, each part of the label's words
        return parts[0]
    if parts:
        raise IllegalAction(f"'{order}' is ambiguous: " + "; ".join(c.label for c in parts[:8])
                            + (" …" if len(parts) > 8 else ""), [c.label for c in parts])
    close = _closest(text, [order_part(c.label) for c in choices])  # the words, not the odds after them
    hint = f"; did you mean '{close}'?" if close else ""
    raise IllegalAction(f"'{order}' is not a legal choice now{hint}", [c.label for c in choices])


def _in_words(words: list[str], label: str) -> bool:
    """Each word of an order found, in order, at the start of a word of the label (or as a whole
    number inside it: '86' finds '86th'), so any unambiguous part of a name will do."""
    tokens = [w.strip("()[],;:/") for w in label.split()]
    i = 0
    for word in words:
        while i < len(tokens) and not tokens[i].startswith(word.strip("()[],;:/")):
            i += 1
        if i == len(tokens):
            return False
        i += 1
    return True


def _closest(text: str, labels: list[str]) -> str | None:
    import difflib  # stdlib, pure

    found = difflib.get_close_matches(text, [label.lower() for label in labels], n=1, cutoff=0.6)
    if not found:
        return None
    return next(label for label in labels if label.lower() == found[0])

"""What a side's own turn gives back, how a turn file is named, and how a flow asks for orders:
shared by the campaign and by both flows that play in it (``pbem.play.turns``, two players;
``pbem.play.refereeing``, a referee and its players)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem_engine.protocol.core import IllegalAction, Prompt, find_choice, order_part

from ..wire.envelope import Envelope


class PlayResult:
    """What ``play`` signed (``envelope`` None when the actions were only drafted)."""

    def __init__(self, envelope: Envelope | None, path: Path | None, events: list[dict[str, Any]],
                 rolls: list[dict[str, Any]], drafted: list[dict[str, Any]], paths: list[Path] | None = None) -> None:
        self.envelope, self.path, self.events, self.rolls, self.drafted = envelope, path, events, rolls, drafted
        self.paths = paths or []  # a referee's files, one per player
        self.unused: list[str] = []  # orders given when there was nothing for us to decide (a reveal only)
        self.forced: list[str] = []  # choices taken for us: each was the only legal one


# what table-top mode's free orders look like: 'pbem play' prints it, the page offers each as a template
FREE_ORDERS = ("Orders in words, e.g.: move PIECE to LOCATION; step PIECE -1; flip PIECE; mark X with TEXT; "
               "roll 3d6 [for PURPOSE]; draw N from DECK; play CARD; deploy PIECE to LOCATION; reveal PIECE; "
               "next phase; next turn; say TEXT; pass; end RESULT")


# the words of a choice our tool took by an order we sealed earlier (a game's sealed_choice)
BY_SEALED_ORDER = "by an order you sealed earlier"

# ask(prompt, events so far, rolls so far, why the last order was refused) -> an order, or None to stop
Ask = Callable[[Prompt, list[dict[str, Any]], list[dict[str, Any]], str | None], str | None]


def turn_file_name(env: Envelope) -> str:
    """The file name of an envelope's turn file: game, number, author and kind."""
    suffix = f"-{env.hash[:8]}" if env.kind in ("claim", "leave", "takeback") else ""  # several may name one envelope
    return f"{env.game[:8]}-{env.seq:04d}-{env.author}-{env.kind}{suffix}.pbem"


def free_order(game, state: dict[str, Any], side: str, prompt: Prompt, order: str,
               known: dict[str, str]) -> dict[str, Any]:
    """An order at a decision the game takes in its own words (``prompt.free``): a choice listed
    there, given by its number or its whole label (the odds shown after it too), is the order its
    words say ('1' where '1. done' is listed)."""
    try:
        return game.parse_order(state, side, order, known)
    except IllegalAction:
        words = " ".join(order.split()).lower()
        listed = [c for c in prompt.choices if words in (" ".join(c.label.split()).lower(),
                                                          " ".join(order_part(c.label).split()).lower())]
        if not (words.isdigit() and prompt.choices) and not listed:
            raise
    choice = find_choice(prompt, words) if words.isdigit() else listed[0]
    return game.parse_order(state, side, order_part(choice.label), known)


def unheaded(side: str, text: str) -> str:
    """A decision's words without the side's name in front (a prompt may name it; so may its caller)."""
    while text.lower().startswith(f"{side.lower()}: "):
        text = text[len(side) + 2:]
    return text

"""Showing hidden items to the one side that may see them.

Game texts (events, choice labels, situation lines) name a hidden item only
by its commitment token, written ``[[token]]``.  Here, at the edge where a
report or prompt is produced for one side, each token becomes the item's name
if that side may know it (its own items; items opened by the rules; every
item of a side that has revealed its secret at the end) and "a concealed
item" otherwise.  The files sent to players only ever hold tokens.
"""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.protocol.core import Choice, Game, Prompt
from pbem_engine.hidden.private import shuffle_hidden, simulate  # noqa: F401 (shuffle_hidden: used through this module)

# [[token]] or [[token|what it is]]; a card of a deck dealt to private hands is [[deck:<deck>:<shuffle>:<position>|card]]
TOKEN = re.compile(r"\[\[([0-9a-f]{64}|deck:[a-z0-9-]+:\d+:\d+)(?:\|([A-Za-z ]+))?\]\]")
CONCEALED = "a concealed item"


def public_knowledge(game_id: str, match: dict[str, Any]) -> dict[str, str]:
    """Items anyone may know: opened by the rules, or drawn by a side whose secret is revealed."""
    known: dict[str, str] = {}
    for deck_id, record in sorted(match.get("decks", {}).items()):  # dealt cards face up: everyone's
        for sh in record["state"]["shuffles"]:
            known.update({f"deck:{deck_id}:{sh['number']}:{i}": card for i, card in sh["cards"].items()})
    for side, record in sorted(match.get("private", {}).items()):
        known.update(record["opened"])
        if record["secret"]:
            _, openings = simulate(game_id, side, record, bytes.fromhex(record["secret"]))
            known.update({tok: o["item"] for tok, o in openings.items()})
    return known


def referee_knowledge(game_id: str, full: dict[str, Any]) -> dict[str, str]:
    """Every hidden item of a refereed game's full state by name: the referee holds every side's
    secret and every dealt card, and adjudicates what it can read."""
    from pbem_engine.hidden.referee_deck import every_card
    from pbem_engine.hidden.referee_hidden import known as side_known

    out = public_knowledge(game_id, {"private": full.get("private", {})})
    for side, held in sorted(full.get("hidden", {}).items()):
        if held.get("secret") and side in full.get("private", {}):
            out.update(side_known(game_id, full["private"], side, bytes.fromhex(held["secret"]), held["chosen"]))
    if "dealt" in full:
        out.update(every_card(full["dealt"], full["deal_order"]))
    return out


def unread(match: dict[str, Any], side: str, known: dict[str, str]) -> dict[str, str]:
    """Cards of a shared deck in ``side``'s own hand that its tool cannot read yet (their keys come
    with the other side's next file), as ``show`` words them: ``{ref text: words}``."""
    from pbem_engine.hidden.deck import hand
    from pbem_engine.hidden.deck_table import ref_text

    out = {}
    for deck_id, record in sorted(match.get("decks", {}).items()):
        for ref in hand(record["state"], side):
            text = ref_text(deck_id, ref)
            if text not in known:
                out[text] = UNREAD
    return out


UNREAD = "a card of yours (readable once your opponent's next file releases its keys)"
_UNREAD_RUN = re.compile(re.escape(UNREAD) + r"(?:, " + re.escape(UNREAD) + ")+")


def show(text: str, known: dict[str, str], game: Game, pending: dict[str, str] | None = None) -> str:
    """``text`` for one side: tokens it may name by name (``known``), its own cards it cannot read
    yet as ``pending`` words them, the rest concealed."""
    name = getattr(game, "item_name", str)
    def one(m: re.Match) -> str:
        if m.group(1) in known:
            return name(known[m.group(1)])
        if pending and m.group(1) in pending:
            return pending[m.group(1)]
        return f"a concealed {m.group(2)}" if m.group(2) else CONCEALED

    out = TOKEN.sub(one, text)
    if pending:  # a draw of several: said once
        out = _UNREAD_RUN.sub(lambda m: f"{m.group(0).count(UNREAD)} cards of yours (readable once your opponent's "
                                        "next file releases their keys)", out)
    return out


def show_prompt(prompt: Prompt, known: dict[str, str], game: Game) -> Prompt:
    choices = tuple(Choice(show(c.label, known, game), c.action) for c in prompt.choices)
    return Prompt(prompt.side, show(prompt.text, known, game), choices, prompt.free)



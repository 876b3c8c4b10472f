"""What our tool answers alone: every turn file we owe that needs no person, signed at once.

A turn file needs a person only where the rules give a player a decision with more than one
legal choice.  Everything else a side owes (the reveal that resolves the other's roll, deck
steps, forced choices, the end-of-game secret, and all a referee does) the tool can sign the
moment it is owed: ``pbem mail run`` does, so no such file waits a day for its player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem_engine.protocol.core import forced
from pbem_engine.protocol.referee import REFEREE

from ..wire.keys import Identity
from .plays import PlayResult
from .turns import needs_person as decides

if TYPE_CHECKING:
    from .campaign import Campaign


def needs_person(camp: Campaign) -> bool:
    """Whether the turn file we owe now waits for a person (False too when we owe nothing)."""
    waiting = camp.waiting()
    if waiting is None or waiting["side"] != camp.side:
        return False
    if not camp.refereed:
        return decides(camp)
    if camp.side == REFEREE:  # the referee adjudicates, starts and discloses by the rules alone
        return False
    prompt = camp.shown_prompt()
    return prompt is not None and prompt.side == camp.side and not forced(prompt)


def decision(camp: Campaign) -> str | None:
    """The decision that waits for our person, in the words ``pbem play`` lists it (None: none)."""
    if not needs_person(camp):
        return None
    prompt = camp.shown_prompt()
    return prompt.text if prompt is not None else camp.waiting()["text"]  # type: ignore[index]


def answer_alone(camp: Campaign, identity: Identity, limit: int = 1000) -> list[PlayResult]:
    """Sign, one after the other, every turn file we owe that needs no person; stop where a
    decision waits for one, where the other side owes the next file, or at the game's end.

    :raises PbemError: as ``Campaign.play`` (e.g. the secrets locked); what was signed before stays signed."""
    signed: list[PlayResult] = []
    for _ in range(limit):
        waiting: dict[str, Any] | None = camp.waiting()
        if waiting is None or waiting["side"] != camp.side or needs_person(camp):
            break
        played = camp.play(identity, [], None)
        if played.envelope is None:  # nothing could be signed (a draft only): a person must look
            break
        signed.append(played)
    return signed

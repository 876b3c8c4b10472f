"""Two players of Assault on Gallipoli in their own homes, for the command-line tests: the game's
own players bring the game to a decision worth typing (``play_until``), then the test types it by
the numbers `pbem play` prints (``number``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pbem.commands.demo import policy
from pbem.play.campaign import Campaign
from pbem.play.turns import ahead
from pbem.wire.keys import KeyStore

# stop(side, the state as the last file left it, as 'pbem play' would leave it before asking, its prompt, ours)
Stop = Callable[[str, dict[str, Any], dict[str, Any], Any, bool], bool]


def number(listing: str, text: str, avoid: str | None = None) -> str:
    """The number `pbem play` prints before the first choice holding ``text`` and not ``avoid``."""
    skip = rf"(?![^\n]*(?:{avoid}))" if avoid else ""
    m = re.search(rf"^\s*(\d+)\. {skip}[^\n]*{re.escape(text)}", listing, re.M)
    assert m, listing
    return m.group(1)


def play_until(players: dict[str, Any], stop: Stop, limit: int = 600) -> str:
    """The game's own players, each from his campaign, until ``stop`` says so (``Stop``'s arguments:
    the state before and after what its tool would take alone): the side whose file is next."""
    keys = {s: KeyStore(p.home).load(p.name) for s, p in players.items()}
    camps = {s: Campaign.open(p.dir) for s, p in players.items()}
    try:
        for _ in range(limit):
            waiting = camps["anzac"].waiting()
            assert waiting is not None, "the game ended first"
            side = waiting["side"]
            match, prompt, ours = ahead(camps[side])  # what 'pbem play' offers, past what its tool takes alone
            if stop(side, camps[side].match()["game"], match["game"], prompt, ours):
                return side
            result = camps[side].play(keys[side], [], policy(camps[side]))
            camps["turkish" if side == "anzac" else "anzac"].ingest([("f", result.envelope.raw)])
        raise AssertionError(f"not reached in {limit} turn files")
    finally:
        for c in camps.values():
            c.ledger.close()

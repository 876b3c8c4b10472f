"""``pbem replay``: one self-contained HTML file that steps through a whole game as one side saw it.

Each step is the report after one envelope (its events and rolls, the map, the situation),
built by the same ``report.context`` as the turn report, so a step holds only what that side
could know then: its own hidden items by name, the enemy's as concealed until the rules opened
them. Once the game is over and every side has revealed its secret, every step is shown with
everything the end opened (the full view). A few lines of inline script show one step at a
time (first, previous, next, last, jump to a number; arrow keys); without script every step
is on the page, one under the other. No external file, no network.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..play.campaign import Campaign
from .report import context, environment


def steps(campaign: Campaign, side: str | None = None, pack_dir: Path | None = None
          ) -> tuple[list[dict[str, Any]], bool]:
    """The report context after each envelope, and whether they show the full view."""
    head = campaign.ledger.head()
    assert head is not None
    over = campaign.waiting() is None
    full = over and not campaign.refereed  # a finished game: everything the end opened, at every step
    out = []
    for seq, *_ in campaign.ledger.envelopes():
        out.append(context(campaign, side, since=seq - 1, at=seq, known_after=head[0] if full else None,
                           pack_dir=pack_dir, image=False))
    return out, full


def render(campaign: Campaign, side: str | None = None, pack_dir: Path | None = None) -> str:
    frames, full = steps(campaign, side, pack_dir)
    first = frames[-1]
    return environment().get_template("replay.html.j2").render(steps=frames, full=full, title=first["title"],
                                                               side=first["side"], players=first["players"],
                                                               game_id=first["game_id"])

"""Stalls: who owes the next turn file since when, against the deadline agreed at genesis, and the
timeout claim a side may sign when it has passed (``pbem status``, ``pbem claim-timeout``)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ..chain import history
from ..errors import PbemError
from ..store.ledger import now
from ..wire.envelope import Envelope, seal
from ..wire.keys import Identity

if TYPE_CHECKING:  # only for annotations: the campaign is handed in
    from .campaign import Campaign


def overdue(camp: Campaign, at: datetime | None = None) -> dict[str, Any] | None:
    """Who owes what since when, with the agreed deadline (hours) if any."""
    waiting = camp.waiting()
    if waiting is None:
        return None
    since = camp.ledger.received_at(waiting["since"]) or now()
    at = at or datetime.now(timezone.utc)
    hours = int((at - datetime.fromisoformat(since)).total_seconds() // 3600)
    deadline = camp.genesis["body"].get("deadline_hours")
    return dict(waiting, stored_at=since, hours=hours, deadline=deadline,
                overdue=deadline is not None and hours >= deadline)

def claim_timeout(camp: Campaign, identity: Identity, at: datetime | None = None) -> Envelope:
    """Sign a timeout claim against the side that owes the next envelope.

    It does not enter the chain (the game goes on when the envelope comes);
    the opponent's tool records it, and status, reports and verify show it.
    """
    if identity.public != history.pinned_key(camp.genesis, camp.side):
        raise PbemError("wrong identity for this campaign", f"{camp.side} plays with '{camp.identity_name}'", code="wrong-key")
    late = overdue(camp, at)
    if late is None:
        raise PbemError("the game is over", code="game-over")
    if late["side"] == camp.side:
        raise PbemError("you owe the next envelope yourself", late["text"], code="not-owed")
    if late["deadline"] is None:
        raise PbemError("no deadline was agreed at genesis", "a timeout claim needs a deadline both sides signed "
                        "up to (pbem new --deadline HOURS)", code="no-deadline")
    if not late["overdue"]:
        raise PbemError("the deadline has not passed", f"{late['side']} has owed envelope #{late['since'] + 1} "
                        f"for {late['hours']} h of the {late['deadline']} h agreed at genesis", code="not-overdue")
    head = camp.ledger.head()
    assert head is not None
    stamp = (at or datetime.now(timezone.utc)).replace(microsecond=0).isoformat()
    content = {"v": 1, "game": camp.genesis["game"], "seq": head[0], "prev": head[1], "author": camp.side,
               "kind": "claim", "engine": history.engine_stamp(camp.game),
               "body": {"owed_by": late["side"], "since": late["since"], "claimed_at": stamp,
                        "hours": late["hours"], "deadline_hours": late["deadline"]},
               "state": camp.ledger.state_hash_at(head[0]) or ""}
    envelope = seal(identity, content)
    camp.store([], [envelope])
    camp.archive("sent", envelope)
    return envelope

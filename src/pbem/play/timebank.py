"""The clock agreed in an invitation (genesis body ``clock``): a time bank per side, an increment
per turn file and a cap, leave declared in signed notices, and what may be claimed at zero.

The clock lives outside the rules (the engine never reads a clock): it is computed here from the
signed history and the times this copy stored each envelope (``received_at``), so each copy keeps
its own clock and two copies differ by the time the mail took (docs/threat-model.md, "Clocks",
says whose time counts in a dispute).  How it runs:

* it starts when both sides have signed (envelope #1, the join): the time before is no one's;
* the time from storing envelope ``k`` to storing envelope ``k+1`` is charged to the author of
  ``k+1`` (the side that owed it), less the hours of that side's leave inside it; then the
  increment is added, up to the cap;
* the side that owes now has its bank less the time since the head was stored (less its leave).

A leave notice (kind ``leave``, beside the chain, signed by the side taking it) declares whole
UTC days from a date; only the days after the copy stored the notice count (no leave taken
back in time), and a side's notices may not add up to more than the ``leave_days`` agreed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from ..chain import history, teams
from ..errors import PbemError, RefusedTurn
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block, seal
from ..wire.keys import Identity

if TYPE_CHECKING:  # only for annotations: the campaign is handed in
    from .campaign import Campaign

HOUR = 3600
REMIND = (50, 25, 10)  # reminders when the time left falls to these percents of what the move began with
MAX_LEAVE_NOTICE_DAYS = 365


def now() -> datetime:
    """The time the clock reads (tests put a fake clock here and in ``pbem.play.campaign.now``)."""
    return datetime.now(timezone.utc).replace(microsecond=0)


def terms(camp: Campaign) -> dict[str, Any] | None:
    """The clock the genesis agreed, or None (no clock: the game keeps its old rules)."""
    return camp.genesis["body"].get("clock")


def _time(stamp: str) -> datetime:
    at = datetime.fromisoformat(stamp)
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


@dataclass
class Clock:
    """A game's clock as this copy reads it at ``at``."""

    terms: dict[str, Any]
    at: datetime
    banks: dict[str, int]  # seconds each side has, the side that owes as at the start of its move
    owed_by: str | None = None  # who owes the next envelope (None: the game is over or not started)
    since: int = 0  # the envelope it answers
    began_with: int = 0  # seconds the side that owes had when its move began
    left: int = 0  # seconds it has now (<= 0: out of time)
    leave: tuple[datetime, datetime] | None = None  # its leave now running, if any

    @property
    def out(self) -> bool:
        return self.owed_by is not None and self.left <= 0

    def level(self) -> int | None:
        """The smallest reminder percent the time left has fallen to (0 at zero), or None."""
        if self.owed_by is None:
            return None
        if self.left <= 0:
            return 0
        crossed = [p for p in REMIND if self.left * 100 <= self.began_with * p]
        return min(crossed) if crossed else None


def hours(seconds: int) -> str:
    """A time left, as a person reads it: ``41 h 20 min``, ``-3 h 5 min``."""
    sign, seconds = ("-" if seconds < 0 else ""), abs(int(seconds))
    h, m = seconds // HOUR, seconds % HOUR // 60
    return f"{sign}{h} h" + (f" {m:02d} min" if m else "") if h else f"{sign}{m} min"


def read(camp: Campaign, at: datetime | None = None, upto: tuple[int, str] | None = None) -> Clock | None:
    """The clock of ``camp`` at ``at`` (now by default), or None if the genesis agreed none.
    ``upto``: (envelope, side that owed the next): the clock as it stood then (a claim's)."""
    agreed = terms(camp)
    if agreed is None:
        return None
    at = at or now()
    sides = list(camp.genesis["body"]["sides"])
    bank, inc, cap = agreed["bank_hours"] * HOUR, agreed["increment_hours"] * HOUR, agreed["cap_hours"] * HOUR
    clock = Clock(agreed, at, {s: bank for s in sides})
    head = camp.ledger.head()
    last_seq = upto[0] if upto else head[0] if head else 0
    rows = camp.ledger.headers(0, last_seq)  # (seq, author, kind, received_at) from #1, the join
    leave = leaves(camp)
    for (_, _, _, before), (_, author, _, stored) in zip(rows, rows[1:]):
        if author in clock.banks:
            used = _charged(author, _time(before), _time(stored), leave)
            clock.banks[author] = min(cap, clock.banks[author] - used + inc)
    waiting = {"side": upto[1], "since": upto[0]} if upto else camp.waiting()
    if waiting is None or not rows:
        return clock
    side, last = waiting["side"], rows[-1]
    if side not in clock.banks:
        return clock
    clock.owed_by, clock.since, clock.began_with = side, waiting["since"], clock.banks[side]
    clock.left = clock.banks[side] - _charged(side, _time(last[3]), at, leave)
    clock.leave = next(((a, b) for s, a, b in leave if s == side and a <= at < b), None)
    return clock


def _charged(side: str, start: datetime, end: datetime, leave: list[tuple[str, datetime, datetime]]) -> int:
    """Seconds from ``start`` to ``end``, less ``side``'s leave inside them (notices that overlap
    count their common days once)."""
    if end <= start:
        return 0
    off, upto = 0.0, start
    for a, b in sorted((max(a, start), min(b, end)) for s, a, b in leave if s == side):
        a = max(a, upto)
        if b > a:
            off += (b - a).total_seconds()
            upto = b
    return max(0, int((end - start).total_seconds() - off))


# --- leave ----------------------------------------------------------------------------------

def leaves(camp: Campaign) -> list[tuple[str, datetime, datetime]]:
    """(side, start, end) of every leave notice this copy holds, each from the later of its first
    day and the time this copy stored it."""
    out = []
    for env, stored in notices(camp, "leave"):
        body = env.content["body"]
        first = datetime.combine(date.fromisoformat(body["from"]), datetime.min.time(), timezone.utc)
        end = first + timedelta(days=body["days"])
        out.append((env.author, max(first, _time(stored)), end))
    return out


def notices(camp: Campaign, kind: str) -> list[tuple[Envelope, str]]:
    """The documents of ``kind`` (``claim``, ``leave``) recorded beside the chain, with when each was stored."""
    out = []
    for _, _, _, raw, stored in camp.ledger.claims():
        env = open_block(find_blocks(raw)[0])
        if env.kind == kind:
            out.append((env, stored))
    return out


def check_leave(env: Envelope, genesis: dict[str, Any], earlier: list[Envelope]) -> None:
    """A leave notice: of this game, signed by a side's pinned key, under a clock that allows
    leave, whole days from a date, within what the side has left of its allowance (``earlier``:
    the notices already held).

    :raises RefusedTurn: ``bad-leave`` (or ``wrong-game``, ``wrong-key``), naming what is wrong."""
    c = env.content
    where = f"leave notice by {c['author']}"
    if c["game"] != genesis["game"]:
        raise RefusedTurn("leave notice of another game", f"{where} belongs to game {c['game']}", code="wrong-game")
    if c["author"] not in genesis["body"]["sides"] or history.pinned_key(genesis, c["author"]) != env.public:
        raise RefusedTurn("signed by the wrong key", f"{where} is not signed by the key pinned for {c['author']}",
                          code="wrong-key")
    agreed = genesis["body"].get("clock")
    if agreed is None:
        raise RefusedTurn("leave notice with no clock", f"{where}: the genesis agreed no clock", code="bad-leave")
    body = c["body"]
    if set(body) != {"from", "days", "declared_at"} or type(body.get("days")) is not int \
            or not isinstance(body.get("from"), str) or not isinstance(body.get("declared_at"), str):
        raise RefusedTurn("malformed leave notice", f"{where}: needs from (a date), days and declared_at",
                          code="bad-leave")
    try:
        date.fromisoformat(body["from"])
        _time(body["declared_at"])
    except ValueError:
        raise RefusedTurn("malformed leave notice", f"{where}: {body['from']!r} is not a date (YYYY-MM-DD)",
                          code="bad-leave") from None
    if len(body["from"]) != 10 or not 1 <= body["days"] <= MAX_LEAVE_NOTICE_DAYS:
        raise RefusedTurn("malformed leave notice", f"{where}: from YYYY-MM-DD, 1 to {MAX_LEAVE_NOTICE_DAYS} days",
                          code="bad-leave")
    taken = sum(e.content["body"]["days"] for e in earlier if e.author == c["author"] and e.hash != env.hash)
    if taken + body["days"] > agreed["leave_days"]:
        raise RefusedTurn("more leave than agreed", f"{where}: {body['days']} day(s) after {taken} taken; the "
                          f"invitation allows {agreed['leave_days']} a side", code="bad-leave")


def declare_leave(camp: Campaign, identity: Identity, first: date, days: int) -> Envelope:
    """Sign a leave notice for ``days`` whole UTC days from ``first`` (today or later).

    :raises PbemError: no clock, the wrong key, a day already past, more than the allowance."""
    teams.refuse_non_commander(camp.genesis, camp.side, identity.public, history.pinned_key(camp.genesis, camp.side),
                               "its leave notices")
    if terms(camp) is None:
        raise PbemError("no clock was agreed at genesis", "leave stops a clock; this game has none", code="no-clock")
    at = now()
    if first < at.date():
        raise PbemError("leave cannot start in the past", f"{first} is before today ({at.date()}, UTC)",
                        code="bad-leave")
    head = camp.ledger.head()
    assert head is not None
    content = {"v": 1, "game": camp.genesis["game"], "seq": head[0], "prev": head[1], "author": camp.side,
               "kind": "leave", "engine": history.engine_stamp(camp.game),
               "body": {"from": first.isoformat(), "days": days, "declared_at": at.isoformat()},
               "state": camp.ledger.state_hash_at(head[0]) or ""}
    envelope = seal(identity, content)
    try:
        check_leave(envelope, camp.genesis, [e for e, _ in notices(camp, "leave")])
    except RefusedTurn as e:
        raise PbemError(str(e), e.detail, code=e.code) from None
    camp.store([], [envelope])
    camp.archive("sent", envelope)
    return envelope

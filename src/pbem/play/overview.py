"""Every game a player has, one line each: what ``pbem status --all`` shows.

The campaigns are those recorded under his home (``pbem.store.games``) by ``pbem new`` and
``pbem join``; each is opened read only, so listing them never waits for a lock nor changes a
byte.  Lines are sorted by what they ask of him: a decision of his first, then a file his tool
owes without one (``pbem mail run`` sends it), then the games waiting for someone else, then
the finished ones, and last the folders that cannot be read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import PbemError
from ..store.games import known
from .campaign import Campaign
from .clock import forfeit, overdue
from .messages import in_chain, waiting
from .timebank import hours
from .unattended import needs_person

DECIDE, TOOL, OTHERS, OVER, BROKEN = range(5)  # the order of the lines


@dataclass
class Game:
    rank: int
    hours: int  # since the file now awaited was stored (longest waits first within a rank)
    text: str


def overview(home: Path) -> list[Game]:
    """One line for each game recorded under ``home``, sorted (see the module)."""
    lines = [_line(Path(d)) for d in known(home)]
    return sorted(lines, key=lambda g: (g.rank, -g.hours))


def _line(directory: Path) -> Game:
    try:
        camp = Campaign.open(directory, readonly=True)
    except PbemError as e:
        return Game(BROKEN, 0, f"{directory}: cannot be read ({e.code}: {e})")
    try:
        return _describe(camp, directory)
    except PbemError as e:
        return Game(BROKEN, 0, f"{directory}: cannot be read ({e.code}: {e})")
    finally:
        camp.ledger.close()


def _describe(camp: Campaign, directory: Path) -> Game:
    body = camp.genesis["body"]
    names = {side: entry["name"] for side, entry in body["sides"].items()}
    if camp.refereed:
        names["referee"] = body["referee"]["name"]
    others = ", ".join(f"{names[s]} ({s})" for s in names if s != camp.side)
    head = f"{camp.game.title}, {body.get('scenario') or 'standard'}: you are {camp.side}, against {others}"
    tail = "".join(f"; {part}" for part in unread(camp) + to_send(camp)) + f"  [{directory}]"
    late = overdue(camp)
    ended = forfeit(camp) if late is not None and late["clock"] is not None else None
    if ended is not None:  # a claim at zero: the game is lost on time, or waits for an adjudication
        return Game(OVER, 0, f"{head}. {ended['result']}{tail}")
    if late is None:
        outcome = camp.outcome()
        result = f"game over: {outcome['result']}" if outcome else "game over"
        return Game(OVER, 0, f"{head}. {result}{tail}")
    since = f"since #{late['since']}, {late['hours']} h"
    if late["deadline"] is not None:
        since += f", deadline {late['deadline']} h" + (": OVERDUE" if late["overdue"] else "")
    if late["clock"] is not None:
        since += ", clock: OUT OF TIME" if late["clock"].out else f", clock: {hours(late['clock'].left)} left"
    if late["side"] == camp.side:
        if camp.secrets_readable() and not needs_person(camp):
            return Game(TOOL, late["hours"], f"{head}. Your tool owes a file, nothing to decide ({since}): "
                                             f"pbem mail run or pbem play{tail}")
        return Game(DECIDE, late["hours"], f"{head}. YOUR MOVE ({since}): {late['text']}{tail}")
    who = names.get(late["side"], late["side"])
    return Game(OTHERS, late["hours"], f"{head}. Waiting for {who} ({late['side']}, {since}){tail}")


def unread(camp: Campaign) -> list[str]:
    """What came for him and he has not seen in a turn of his own: the messages of the others he
    may read since his last turn file (``pbem messages --new``)."""
    head = camp.ledger.head()
    own = camp.ledger.last_of(camp.side, head[0]) if head else None
    new = [m for m in in_chain(camp, own if own is not None else -1)
           if m["author"] != camp.side and m["to"] in (None, camp.side)]
    return [f"{len(new)} new message(s) (pbem messages --new)"] if new else []


def to_send(camp: Campaign) -> list[str]:
    """Everything waiting to go out: signed files an interrupted command did not write, mail in
    the outbox and mail set aside, messages waiting for his next turn file."""
    out = [f"NOT YET WRITTEN: {name}" for name in camp.unfinished()]
    box = camp.dir / "outbox"
    mails = len(list(box.glob("*.eml"))) if box.is_dir() else 0
    aside = len(list((box / "failed").glob("*.eml"))) if (box / "failed").is_dir() else 0
    talk = len(waiting(camp)) if camp.secrets_readable() else 0
    out += [f"{mails} mail(s) to send"] if mails else []
    out += [f"{aside} mail(s) set aside, not sent (pbem status)"] if aside else []
    return out + ([f"{talk} message(s) waiting for your next turn file"] if talk else [])

"""Stalls: who owes the next turn file since when, against the deadline or the clock agreed at
genesis (``pbem.play.timebank``), and the timeout claim a side may sign when it has passed or the
clock has run out (``pbem status``, ``pbem claim-timeout``); what a claim at zero means."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..chain import history, teams
from ..errors import PbemError, RefusedTurn
from ..store.ledger import now
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block, seal
from ..wire.keys import Identity
from . import timebank
from .plays import unheaded

if TYPE_CHECKING:  # only for annotations: the campaign is handed in
    from .campaign import Campaign


def overdue(camp: Campaign, at: datetime | None = None) -> dict[str, Any] | None:
    """Who owes what since when, with the agreed deadline (hours) if any."""
    waiting = camp.waiting()
    if waiting is None:
        return None
    since = camp.ledger.received_at(waiting["since"]) or now()
    at = at or timebank.now()
    hours = int((at - datetime.fromisoformat(since)).total_seconds() // 3600)
    deadline = camp.genesis["body"].get("deadline_hours")
    clock = timebank.read(camp, at.replace(microsecond=0)) if timebank.terms(camp) else None
    return dict(waiting, stored_at=since, hours=hours, deadline=deadline, clock=clock,
                overdue=clock.out if clock is not None else deadline is not None and hours >= deadline)

def claim_timeout(camp: Campaign, identity: Identity, at: datetime | None = None) -> Envelope:
    """Sign a timeout claim against the side that owes the next envelope.

    It does not enter the chain (the game goes on when the envelope comes);
    the opponent's tool records it, and status, reports and verify show it.
    """
    teams.refuse_signer(camp.genesis, camp.side, identity.public, history.pinned_key(camp.genesis, camp.side),
                        camp.identity_name)  # the side's key, or a member's that may sign (pbem.chain.teams)
    late = overdue(camp, at)
    if late is None:
        raise PbemError("the game is over", code="game-over")
    ended = forfeit(camp) if late["clock"] is not None else None
    if ended is not None:  # one claim at zero ends it; a second would say nothing more
        raise PbemError(ended_text(ended), ended["result"], code="game-over")
    if late["side"] == camp.side:
        raise PbemError("you owe the next envelope yourself", late["text"], code="not-owed")
    clock = late["clock"]
    if late["deadline"] is None and clock is None:
        raise PbemError("no deadline was agreed at genesis", "a timeout claim needs a deadline or a clock both sides "
                        "signed up to (pbem new --deadline HOURS, or --clock)", code="no-deadline")
    if clock is not None and not clock.out:
        raise PbemError("the clock has not run out", f"{late['side']} has {timebank.hours(clock.left)} left on its "
                        f"clock for envelope #{late['since'] + 1}", code="not-overdue")
    if not late["overdue"]:
        raise PbemError("the deadline has not passed", f"{late['side']} has owed envelope #{late['since'] + 1} "
                        f"for {late['hours']} h of the {late['deadline']} h agreed at genesis", code="not-overdue")
    head = camp.ledger.head()
    assert head is not None
    stamp = (at or timebank.now()).replace(microsecond=0).isoformat()
    body = {"owed_by": late["side"], "since": late["since"], "claimed_at": stamp, "hours": late["hours"]}
    if clock is None:
        body["deadline_hours"] = late["deadline"]
    else:  # what the claimant's clock read, and what the invitation makes of it
        body["clock"] = {"left_minutes": -(-clock.left // 60), "at_zero": clock.terms["at_zero"]}
    content = {"v": 1, "game": camp.genesis["game"], "seq": head[0], "prev": head[1], "author": camp.side,
               "kind": "claim", "engine": history.engine_stamp(camp.game), "body": body,
               "state": camp.ledger.state_hash_at(head[0]) or ""}
    envelope = seal(identity, content)
    camp.store([], [envelope])
    camp.archive("sent", envelope)
    return envelope


def forfeit(camp: Campaign) -> dict[str, Any] | None:
    """The first claim at zero this copy holds, as the invitation agreed it ends the game: a loss
    on time (``at_zero`` ``loss``) or an adjudication; None if there is none.  {"owed_by",
    "claimed_by", "seq", "at_zero", "result", "disputed"} where ``disputed`` is this copy's own
    clock at the claimed time when it says the side still had time (docs/threat-model.md)."""
    for env, _ in timebank.notices(camp, "claim"):
        body = env.content["body"]
        if "clock" not in body:
            continue
        loser, by = body["owed_by"], env.author
        names = {s: e["name"] for s, e in camp.genesis["body"]["sides"].items()}
        if body["clock"]["at_zero"] == "loss":
            result = f"{names.get(by, by)} ({by}) wins on time: {names.get(loser, loser)} ({loser}) ran out of time"
        else:
            result = f"{names.get(loser, loser)} ({loser}) ran out of time: the game goes to adjudication"
        result += f" (claimed by {by} at #{env.seq}, {body['claimed_at']})"
        try:
            mine = timebank.read(camp, datetime.fromisoformat(body["claimed_at"]), (body["since"], loser))
        except ValueError:
            mine = None
        disputed = mine.left if mine is not None and mine.left > 0 else None
        return {"owed_by": loser, "claimed_by": by, "seq": env.seq, "at_zero": body["clock"]["at_zero"],
                "result": result, "disputed": disputed}
    return None


def ended_text(ended: dict[str, Any]) -> str:
    """A claim at zero in a few words: what the invitation made of it."""
    return "the game was lost on time" if ended["at_zero"] == "loss" else "the game awaits adjudication"


def check_turn(camp: Campaign, identity: Identity) -> dict[str, Any]:
    """What we owe now (``waiting``), checking that ``identity`` plays this side, that no claim at
    zero has ended the game, and that it is our turn (``Campaign.check_turn``).

    :raises PbemError: ``wrong-key``, ``game-over``, ``not-your-turn``."""
    teams.refuse_signer(camp.genesis, camp.side, identity.public, history.pinned_key(camp.genesis, camp.side),
                        camp.identity_name)  # the side's key, or a member's that may sign (pbem.chain.teams)
    ended = forfeit(camp) if timebank.terms(camp) else None
    if ended is not None:  # the claim came first: nothing more is signed in this game
        raise PbemError(ended_text(ended), ended["result"], code="game-over")
    waiting = camp.waiting()
    if waiting is None:
        raise PbemError("the game is over", "the referee may now disclose it: pbem disclose" if camp.refereed else
                        "nothing is left to sign; 'pbem report --all' tells the whole game", code="game-over")
    if waiting["side"] != camp.side:
        text = waiting["text"] if waiting["why"] != "decide" or waiting["text"].startswith("waiting for") else \
            f"{waiting['side']}: {unheaded(waiting['side'], waiting['text'])}"
        raise PbemError("not your turn", camp.worded(text), code="not-your-turn")
    return waiting


def refuse_after_forfeit(camp: Campaign, found: list[Envelope]) -> None:
    """Ingest: once this copy holds a claim at zero the game is over (the claimant's clock counts,
    docs/threat-model.md "Clocks"): a chain envelope past the one the claim names is refused.

    :raises RefusedTurn: ``game-over``, naming the claim."""
    if timebank.terms(camp) is None:
        return
    head = camp.ledger.head()
    later = [e for e in found if e.game == camp.genesis["game"] and e.kind not in ("claim", "leave")
             and head is not None and e.seq > head[0]]
    ended = forfeit(camp) if later else None
    if ended is not None:
        env = min(later, key=lambda e: e.seq)
        raise RefusedTurn(ended_text(ended), f"envelope #{env.seq} from {env.author} came after the claim at zero "
                          f"this copy holds: {ended['result']}", code="game-over")


def status_lines(camp: Campaign, late: dict[str, Any] | None) -> list[str]:
    """What ``pbem status`` says of the clock: each side's bank, who owes, the time left, a claim."""
    clock = late["clock"] if late else timebank.read(camp)
    if clock is None:
        return []
    t = clock.terms
    lines = [f"clock: {t['bank_hours']} h bank, +{t['increment_hours']} h a turn file, cap {t['cap_hours']} h; "
             f"at zero: {'a loss' if t['at_zero'] == 'loss' else 'adjudication'}; leave up to {t['leave_days']} day(s)"]
    ended = forfeit(camp)
    if ended is not None:
        lines.append(f"OUT OF TIME: {ended['result']}")
        lines.append(f"GAME OVER: {ended_text(ended)}; nothing more is signed or accepted in this game")
        if ended["disputed"] is not None:
            lines.append(f"DISPUTED: by this copy's clock {ended['owed_by']} still had "
                         f"{timebank.hours(ended['disputed'])} when the claim was signed")
        return lines
    for side, left in clock.banks.items():
        if side == clock.owed_by:
            state = "OUT OF TIME" if clock.out else timebank.hours(clock.left) + " left"
            if clock.out and side != camp.side:
                state += ": you may claim the game (pbem claim-timeout)"
            if clock.leave:
                state += f" (on leave until {clock.leave[1].date()})"
            lines.append(f"clock {side}: {state}, owes #{clock.since + 1}")
        else:
            lines.append(f"clock {side}: {timebank.hours(left)} in the bank")
    return lines


def notice_lines(camp: Campaign) -> list[str]:
    """Every claim and leave notice this copy holds, one line each, for ``pbem status``."""
    lines = []
    for _, seq, author, raw, _ in camp.ledger.claims():
        env = open_block(find_blocks(raw)[0])
        body = env.content["body"]
        if env.kind == "leave":
            lines.append(f"LEAVE declared by {author}: {body['days']} day(s) from {body['from']} "
                         f"(declared {body['declared_at']})")
        elif "clock" in body:
            lines.append(f"CLOCK CLAIM by {author} against {body['owed_by']} at #{seq}: claimed {body['claimed_at']}, "
                         f"{body['owed_by']}'s clock at {body['clock']['left_minutes']} min")
        else:
            lines.append(f"TIMEOUT CLAIM by {author} against {body['owed_by']} at #{seq}: claimed {body['claimed_at']} "
                         f"after {body['hours']} h (deadline {body.get('deadline_hours') or 'none agreed'})")
    return lines

"""Reminders of the clock and word of claims, for ``pbem mail run`` (``pbem.play.timebank``).

When the time left to the side that owes falls to a set fraction of what its move began with
(``timebank.REMIND``: half, a quarter, a tenth) and at zero, the mailbox of its opponent mails it
a reminder, and each side's mailbox tells its own person through the notify hook (the one who
owes, and a note to his opponent: at zero, that he may claim the game).  Each level is mailed once
and told once per turn file (settings ``clock:mailed`` and ``notify:reminded``).  A claim this
copy holds (received, or signed here) is told once too (``notify:claims``).
"""

from __future__ import annotations

from ..errors import PbemError
from ..play import timebank
from ..play.clock import forfeit
from .mail import compose, save_message
from .notify import tell

MAILED = "clock:mailed"  # the campaign setting: the turn file and level last mailed to the side that owes


def reminder_text(campaign, clock: timebank.Clock, to_side: str) -> str:
    """The reminder as ``to_side`` reads it."""
    names = {s: e["name"] for s, e in campaign.genesis["body"]["sides"].items()}
    owes = f"turn file #{clock.since + 1}"
    if to_side == clock.owed_by:
        if clock.out:
            return f"your clock is at zero for {owes}: {names[_other(campaign, to_side)]} may now claim the game"
        return f"{timebank.hours(clock.left)} left on your clock for {owes}"
    who = f"{names[clock.owed_by]} ({clock.owed_by})"
    if clock.out:
        return f"{who} is out of time for {owes}: you may claim the game (pbem claim-timeout)"
    return f"{who} has {timebank.hours(clock.left)} left on the clock for {owes}"


def _other(campaign, side: str) -> str:
    return next(s for s in campaign.genesis["body"]["sides"] if s != side)


def remind(campaign, sender: str, notify: str | None, errors: list[PbemError]) -> tuple[list[str], bool]:
    """Mail the side that owes its reminder (if it is not us) and tell our person, once per level.
    Returns (what was said, whether the hook ran)."""
    clock = timebank.read(campaign)
    if clock is None or clock.owed_by is None or forfeit(campaign) is not None:
        return [], False
    level = clock.level()
    if level is None:
        return [], False
    mark, said, told = f"{clock.since}:{level}", [], False
    if clock.owed_by != campaign.side and campaign.ledger.setting(MAILED) != mark:
        text = reminder_text(campaign, clock, clock.owed_by)
        message = compose(campaign, clock.owed_by, [], f"A reminder from pbem about {campaign.game.title}: {text}.", sender,
                          subject=f"reminder: {text}"[:120], automatic=True)
        save_message(campaign, message, f"{campaign.genesis['game'][:8]}-{clock.since + 1:04d}-reminder-{level}")
        campaign.ledger.begin()
        campaign.ledger.put_setting(MAILED, mark)
        campaign.ledger.commit()
        said.append(f"reminder to {clock.owed_by}: {text}")
    if notify:
        told = tell(campaign, notify, reminder_text(campaign, clock, campaign.side), errors, event="reminder",
                    mark=mark)
    return said, told


def tell_claims(campaign, notify: str | None, errors: list[PbemError]) -> bool:
    """Run the hook for the newest claim this copy holds, once."""
    held = timebank.notices(campaign, "claim")
    if not notify or not held:
        return False
    env = held[-1][0]
    ended = forfeit(campaign)
    body = env.content["body"]
    text = ended["result"] if ended is not None and "clock" in body else (
        f"{env.author} claims a timeout: {body['owed_by']} has owed turn file #{body['since'] + 1} for {body['hours']} h")
    return tell(campaign, notify, text, errors, event="claim", mark=env.hash)

"""An unattended mailbox, a referee's or a player's: read, sign every file that needs no person
(a referee's adjudication; a player's reveal, deck step, forced choice, end-of-game secret), send,
say what was done, and tell the person when a decision waits for him (see ``run``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem_engine.protocol.referee import REFEREE

from ..errors import PbemError
from ..play.clock import forfeit
from ..play.unattended import answer_alone, decision
from .mail import MailConfig, address, bare_address, write_outbox
from .mail_fetch import Fetched, fetch
from .mail_notes import Answering, Note
from .mail_send import Sending, pending_outbox, send
from .mail_remind import remind, tell_claims
from .notify import tell

# --- an unattended mailbox ---------------------------------------------------------------------

@dataclass
class RunResult:
    fetched: Fetched
    adjudicated: list[int] = field(default_factory=list)
    disclosed: int | None = None
    answered: list[int] = field(default_factory=list)  # a player's files that needed no person
    decision: str | None = None  # the decision that waits for our person, in play's words
    notified: bool = False  # the notify hook was run for it (once per decision)
    reminders: list[str] = field(default_factory=list)  # reminders of the clock mailed to the side that owes
    reminded: bool = False  # the hook was told of the clock (once per level)
    claim_told: bool = False  # the hook was told of a claim (once per claim)
    sending: Sending = field(default_factory=Sending)
    errors: list[PbemError] = field(default_factory=list)  # reading or sending failed: the rest was done

    @property
    def sent(self) -> list[Path]:
        return [p for p, _ in self.sending.sent]

    @property
    def replies(self) -> list[Note]:
        return [n for n in self.fetched.notes if n.answer == "answered"]

    @property
    def error(self) -> PbemError | None:
        return self.errors[0] if self.errors else None

    def lines(self) -> list[tuple[str, bool]]:
        """What ``pbem mail run`` says: one line per message, what it adjudicated and sent, and
        a last line that counts it all (line, on stderr)."""
        out = [(line, err and line.startswith("BOUNCE")) for line, err in self.fetched.message_lines()]
        out += [(f"adjudicated #{seq}", False) for seq in self.adjudicated]
        out += [(f"answered #{seq} (no decision in it)", False) for seq in self.answered]
        out += [(line, False) for line in self.reminders]
        if self.disclosed is not None:
            out.append((f"disclosed the game: turn file #{self.disclosed} goes to every player", False))
        out += self.sending.lines()
        parts = [self.fetched.summary()]
        done = []
        if self.adjudicated:
            done.append("adjudicated " + ", ".join(f"#{s}" for s in self.adjudicated))
        if self.disclosed is not None:
            done.append(f"disclosed (#{self.disclosed})")
        if self.answered:
            done.append("answered " + ", ".join(f"#{s}" for s in self.answered))
        if self.sending.sent:
            done.append(f"{len(self.sending.sent)} sent")
        if self.sending.waiting:
            done.append(f"{len(self.sending.waiting)} waiting in the outbox")
        if self.sending.set_aside:
            done.append(f"{len(self.sending.set_aside)} set aside")
        if self.decision is not None:
            done.append(f"your move: {self.decision}")
        out.append(("; ".join(parts + done), False))
        out += [(f"also: {e.code}: {e}" + (f" ({e.detail})" if e.detail else ""), True) for e in self.errors[1:]]
        return out


def run(campaign, identity, config: MailConfig, smtp_password: str | None, imap_password: str | None,
        maildir: Path | None = None, notify: str | None = None) -> RunResult:
    """A mailbox, once: read new mail, sign every turn file we owe that needs no person (all a
    referee does), send each its file, answer what could not be used, and run ``notify`` (a
    command) once for each decision that waits for our person.  Safe to repeat (e.g. from cron).
    Reading that fails does not stop the sending of what waits, nor the other way round;
    ``RunResult.errors`` holds what failed."""
    own = {a.lower() for a in (bare_address(config.sender), bare_address(address(campaign, campaign.side))) if a}
    answering = Answering(config.sender, own)
    try:
        fetched = fetch(campaign, config, imap_password, maildir, answering)
    except PbemError as e:
        if e.code in ("busy", "locked", "no-secrets"):
            raise
        where = str(maildir) if maildir else (f"{config.folder} at {config.imap.host}" if config.imap else "the mailbox")
        fetched = Fetched(mailbox=where, failed=True)
        result = RunResult(fetched, errors=[e])
    else:
        result = RunResult(fetched)
    campaign.mail_outbox = True  # what it signs owes its mail: the next command writes it if this one is killed
    ended = forfeit(campaign) is not None  # a claim at zero ended the game: nothing more is signed
    try:
        signed = [] if ended else answer_alone(campaign, identity)
    except PbemError as e:  # e.g. the secrets locked: what was read stays read, what waits is sent
        result.errors.append(e)
        signed = []
    for played in signed:
        if campaign.side != REFEREE:
            result.answered.append(played.envelope.seq)
        elif "disclose" in played.envelope.content["body"]:
            result.disclosed = played.envelope.seq
        else:
            result.adjudicated.append(played.envelope.seq)
        write_outbox(campaign, played, config.sender, automatic=True)
        campaign.exported(played.envelope)
    result.reminders, result.reminded = remind(campaign, config.sender, notify, result.errors)
    _send(campaign, config, smtp_password, result)
    result.claim_told = tell_claims(campaign, notify, result.errors)
    result.decision = None if ended else decision(campaign)
    if notify and ended:
        pass  # a claim at zero ended the game (or sent it to adjudication): the claim is the word told
    elif result.decision is not None and notify:
        result.notified = tell(campaign, notify, result.decision, result.errors)
    elif notify and campaign.waiting() is None:  # the end, told once (from the last file, whoever sent it)
        outcome = campaign.outcome()
        result.notified = tell(campaign, notify, (outcome or {}).get("result") or "the game is over", result.errors,
                               event="game-over")
    return result


def _send(campaign, config: MailConfig, smtp_password: str | None, result: RunResult) -> None:
    if not pending_outbox(campaign):
        return
    if config.smtp is None:
        result.errors.append(PbemError("no SMTP server configured", "the outbox waits: pbem mail config --smtp "
                                       "HOST:PORT ...", code="no-config"))
        result.sending.waiting = [(p, "no SMTP server configured") for p in pending_outbox(campaign)]
        return
    try:
        result.sending = send(campaign, config, smtp_password, due_only=True)
    except PbemError as e:  # e.g. no password: everything waits
        result.errors.append(e)
        result.sending.waiting = [(p, f"not sent: {e.code}: {e}") for p in pending_outbox(campaign)]
    else:
        problem = result.sending.problem()
        if problem is not None:
            result.errors.append(problem)

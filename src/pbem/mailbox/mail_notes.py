"""What a mailbox makes of each message it reads (``pbem.mailbox.mail_fetch``): a ``Note`` of what it was
and what was done with it, a ``Refusal`` for what could not be used, what its headers said
(``Seen``), and, for an unattended mailbox (``pbem mail run``), the polite answer to a player
whose message could not be used at all (``answer``, ``polite_reply``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .mail import (
    PLACEHOLDER,
    address,
    email_policy,
    known_senders,
    message_id,
    outbox_dir,
    save_message,
    tag,
    thread_root,
)
from .outbox import LOG_KEY, kept, recent  # noqa: F401  (the record's key and reading live there)


@dataclass
class Refusal:
    """A message (or one damaged block in it) that could not be used."""

    message: str  # which message: "message 7" (an IMAP UID) or a Maildir file's name
    sender: str  # its From, as shown (decoded, no control characters, shortened)
    subject: str
    reason: str  # "code: reason", then "  detail" on a second line
    reply_to: str = ""  # where a polite reply may go ('' for nowhere)
    date: str = ""

    def __iter__(self):  # unpacks as (sender, subject, reason), as it always has
        return iter((self.sender, self.subject, self.reason))

    @property
    def line(self) -> str:
        head, _, detail = self.reason.partition("\n")
        return head + (f" ({detail.strip()})" if detail.strip() else "")

    @property
    def code(self) -> str:
        return self.reason.partition(":")[0]


@dataclass
class Note:
    """One message read: what it was and what was done with it."""

    message: str
    sender: str = ""
    subject: str = ""
    date: str = ""
    kind: str = "empty"  # accepted, duplicate, refused, empty (no turn file), elsewhere (not this game's),
    # answer (a mailbox's answer refusing ours)
    done: list[str] = field(default_factory=list)  # "accepted #3 from blue", "already had #3 from blue"
    refusals: list[Refusal] = field(default_factory=list)
    automatic: str = ""  # why a machine sent it ('' for a person)
    bounce: str = ""  # what a delivery report says failed
    others: list[str] = field(default_factory=list)  # other games named in it
    for_us: bool = False  # it names this game
    answer: str = ""  # "answered" or "not answered: why" ('' when no answer was due)
    learned: str = ""  # "allied is alice@example.org"
    authors: list[str] = field(default_factory=list)  # the parties whose new turn files it brought
    blocks_elsewhere: bool = False  # it holds turn files of other games
    guessed: bool = False  # it holds a damaged turn file that names no game
    unread: str = ""  # another game's message that could not be read here: the codes of why
    refused_there: str = ""  # an answer of this game's mailbox (pbem mail run): why it did not use our message

    @property
    def what(self) -> str:
        """The message as a person finds it in a mail program: from whom, its subject, its date."""
        return f"{self.sender or 'an unknown sender'} ({self.subject!r}" + (f", {self.date})" if self.date else ")")

    def line(self) -> tuple[str, bool]:
        """(one line: what this message was and what was done, on stderr?)"""
        tail = f"; {self.answer}" if self.answer else ""
        tail += f"; {self.learned} (its From; pbem mail address changes it)" if self.learned else ""
        if self.refused_there:
            return (f"ANSWER from {self.what}: your message was refused: {self.refused_there}{tail}", True)
        if (self.bounce or self.automatic.startswith("a delivery")) and self.for_us:
            text = self.bounce or "a delivery report"
            return (f"BOUNCE from {self.what}: {text}: check the address (pbem mail address SIDE ADDRESS), "
                    f"then pbem mail send outbox/sent/FILE or pbem resend{tail}", True)
        done = "; ".join(self.done)
        if self.refusals:
            reasons = "; ".join(r.line for r in self.refusals)
            head = f"{done}; " if done else ""
            return (f"{head}REFUSED a message from {self.what}: {reasons}{tail}", True)
        if self.kind in ("accepted", "duplicate"):
            return (f"{done}: {self.what}{tail}", False)
        if self.kind == "elsewhere":
            games = ", ".join(sorted(self.others)[:3])
            what = ("a bounce of mail" if self.bounce else "turn files" if self.blocks_elsewhere
                    else "an automatic message" if self.automatic else "a message in the thread")
            what = f"a message that cannot be read ({self.unread})" if self.unread else what
            return (f"not for this game: {self.what}, {what} of game {games}{tail}", False)
        auto = f", {self.automatic}" if self.automatic else ""
        return (f"no turn file in a message from {self.what}{auto}{tail}", False)


# --- what a referee finds later (pbem status) ----------------------------------------------------
#
# The mail refused, answered or bounced (and, sending, set aside) is said once, by the command that
# read or sent it: a referee whose cron ran it finds it later in pbem status.  Kept in the campaign
# (setting ``mail-log``, in the transaction that marks the message read), the newest LOG_MOST.

LOG_MOST = 10


def worth_keeping(note: Note) -> bool:
    """A message someone must look into: refused, answered, a bounce, an answer refusing ours."""
    bounce = (note.bounce or note.automatic.startswith("a delivery")) and note.for_us
    return bool(note.refusals or note.refused_there or bounce or note.answer == "answered")


def keep(campaign, lines: list[str]) -> None:
    """Add ``lines`` to the record, stamped now, in the caller's transaction."""
    import json
    from datetime import UTC, datetime

    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    record = kept(campaign) + [{"at": stamp, "line": line if len(line) <= 400 else line[:397] + "..."}
                                for line in lines]
    campaign.ledger.put_setting(LOG_KEY, json.dumps(record[-LOG_MOST:]))


@dataclass
class Seen:
    """What the headers of a message say (all shown text: decoded, no control characters)."""

    sender: str = ""
    subject: str = ""
    date: str = ""
    reply_to: str = ""
    from_address: str = ""
    automatic: str = ""
    bounce: str = ""
    thread: str = ""
    message_id: str = ""
    references: str = ""
    game: str = ""  # its X-Pbem-Game header (pbem's own mail): the game it belongs to
    refused: str = ""  # its X-Pbem-Refused header (a pbem mailbox's answer): why our message was not used



@dataclass
class Answering:
    """How an unattended mailbox answers: from which address; which addresses are its own."""

    sender: str
    own: set[str] = field(default_factory=set)


def answer(campaign, note: Note, h: Seen, answering: Answering, key: str, uid: str) -> None:
    """Answer a message of this game from one of its players that could not be used at all."""
    import hashlib

    if note.kind not in ("refused", "empty") or (note.kind == "empty" and not note.for_us):
        return
    if note.bounce or note.automatic:
        note.answer = "not answered" if note.for_us or note.refusals else ""  # the line says why: automatic
        return
    if not h.reply_to:
        note.answer = "not answered: no usable sender address (or sent by a machine)"
        return
    if h.reply_to.lower() in answering.own:
        note.answer = "not answered: it came from this mailbox's own address"
        return
    if not note.for_us:
        note.answer = "not answered: nothing in it names this game (another game's mail, or older)"
        return
    known = known_senders(campaign)
    to = h.reply_to if h.reply_to.lower() in known else (h.from_address if h.from_address.lower() in known else "")
    if not to:
        note.answer = (f"not answered: {h.reply_to} is not the address of a player of this game "
                       "(pbem mail address SIDE ADDRESS)")
        return
    name = "reply-" + hashlib.sha256(f"{key}\0{uid}".encode()).hexdigest()[:16]
    outbox = outbox_dir(campaign)
    if not any((outbox / sub / f"{name}.eml").exists() for sub in ("", "sent", "failed")):
        polite_reply(campaign, to, note, answering.sender, h, name)
    from ..store.lock import crash_point

    crash_point("mail:answered")  # the answer is written, the message not yet marked read
    note.answer = "answered"


REFUSED_HEADER = "X-Pbem-Refused"  # in an answer: why the message it answers was not used, on one line
_RAISED = {"too-large", "too-many-parts"}  # refusals past a bound the referee may raise (pbem.limits)
_SETTING = re.compile(r";? ?\(?set PBEM_[A-Z_]+ to (?:allow more|read larger files)\)?")


def _clean_reason(campaign, text: str, label: str) -> str:
    """A reason as a player may read it: no local paths, no mailbox numbers."""
    for prefix in {str(campaign.dir.resolve()), str(campaign.dir)}:
        text = text.replace(prefix.rstrip("/") + "/", "")
    text = _SETTING.sub("", text)  # a bound only the mailbox's owner can raise: the advice says what to ask
    text = re.sub(r"(?:[A-Za-z]:)?(?:[/\\][^\s/\\;,()'\"]+)+[/\\]([^\s/\\;,()'\"]+)", r"\1", text)
    return text.replace(f"{label}: ", "").replace(label, "your message")


def polite_reply(campaign, to: str, note: Note, from_address: str, h: Seen | None = None,
                 name: str | None = None) -> Path:
    """An answer to a message that could not be used, in the outbox (RFC 3834: marked
    auto-replied, threaded under the message it answers).  ``to`` must be one clean address;
    the answer names the message by its subject and date, never quotes a turn file, and
    never shows a local path."""
    from email.message import EmailMessage

    from ..wire.mime import date
    from .mailbox_in import CONTROL_CHARS

    h = h or Seen()
    game = campaign.genesis["game"]
    subject = CONTROL_CHARS.sub(" ", note.subject).strip()[:200]
    subject = " ".join(subject.split()) or f"{tag(campaign)} your message"
    msg = EmailMessage(policy=email_policy())
    msg["From"] = from_address or address(campaign, campaign.side) or f"{campaign.side}@{PLACEHOLDER}"
    msg["To"] = to
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Date"] = date()
    msg["Message-ID"] = message_id(game, str(msg["From"]))
    msg["Auto-Submitted"] = "auto-replied"  # RFC 3834: no auto-reply answers it back
    msg["X-Pbem-Game"] = game
    original = h.message_id if re.fullmatch(r"<[^<>\s]{1,250}>", h.message_id or "") else ""
    refs = [r for r in re.findall(r"<[^<>\s]{1,250}>", h.references)][-10:]
    if original:
        msg["In-Reply-To"] = original
    thread = [r for r in dict.fromkeys(refs + [original, thread_root(game)]) if r]
    msg["References"] = " ".join(thread)
    which = f"Your message {note.subject!r}" + (f" of {note.date}" if note.date else "")
    codes = {r.code for r in note.refusals}
    reasons = "\n".join(f"  {_clean_reason(campaign, r.reason, r.message)}" for r in note.refusals)
    if "equivocation" in codes:
        what = ("was refused as equivocation: it holds a second, different turn file for a number that already "
                "has one signed by you. The first one stands; both are kept as evidence of the conflict, and "
                "nothing in your message was recorded.")
        advice = ("Play from one copy of your campaign only. If you think this is a mistake, write to the "
                  "referee in person.")
    elif "cheating" in codes:
        what = "was refused: a turn file in it breaks the rules of the game, and it is kept as evidence."
        advice = "Nothing in your message was recorded."
    elif codes & _RAISED:
        what = "is larger than this mailbox reads, and nothing in it was recorded:"
        advice = ("Please send your turn file alone, as pbem writes it (pbem mail send does), without other "
                  "attachments or quoted mail. If it must be larger, ask the referee to raise the limit.")
    elif note.refusals:
        what = "could not be used for our game, and nothing in it was recorded:"
        advice = ("Please check that you sent the turn file pbem wrote for you, attached or pasted whole (from "
                  "its BEGIN PBEM TURN line to its END PBEM TURN line), and send it again.")
    else:
        what = "holds no turn file for our game, so nothing was recorded."
        advice = ("This mailbox is read by a program. Send your turn files as pbem writes them (pbem mail send "
                  "does it); anything else reaches the referee only when they read the mailbox themselves.")
    waiting = campaign.waiting()
    known = known_senders(campaign)
    side = known.get(to.lower(), "")
    if waiting is None:
        now = "The game is over."
    elif waiting["side"] == side:
        now = "The game is waiting for you."
    else:
        now = f"The game is waiting for {'the referee' if waiting['side'] == 'referee' else waiting['side']}."
    body = ["Hello,", "", f"{which} {what}"]
    if reasons and "equivocation" not in codes:
        body += ["", reasons]
    body += ["", advice, "", now, "", f"-- the pbem mailbox of {campaign.game.title}, game {game[:8]}"]
    if "equivocation" in codes:
        why = "equivocation: a second, different turn file for a number you signed before (both kept as evidence)"
    elif note.refusals:
        why = "; ".join(Refusal("", "", "", _clean_reason(campaign, r.reason, r.message)).line for r in note.refusals)
        why += "; send the turn file alone, or ask the referee to raise the limit" if codes & _RAISED else ""
    else:
        why = "no turn file for this game in it"
    why = " ".join(CONTROL_CHARS.sub(" ", why).split())
    msg[REFUSED_HEADER] = why if len(why) <= 400 else why[:397] + "..."  # for the player's pbem mail fetch to say
    msg.set_content("\n".join(body) + "\n")
    return save_message(campaign, msg, name or f"reply-{msg['Message-ID'].strip('<>').split('@')[0][-16:]}")

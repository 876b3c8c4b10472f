"""Reading mail: new messages from an IMAP folder or a Maildir, each handled on its own, hostile
until checked; what was read, refused, answered, and why (see ``fetch``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .errors import PbemError
from .mail import (PLACEHOLDER, MailConfig, address, email_policy, known_senders, message_id, outbox_dir,
                   save_message, tag, thread_root)


# --- receiving ---------------------------------------------------------------------------
#
# The mailbox promise: every message is read once, on its own.  A message that cannot be
# used, for whatever reason (refused by the rules, damaged, past a bound of pbem.limits, or
# breaking the mail parser), is recorded as refused with a one-line reason and marked read
# in the same transaction: it never stops the messages behind it, and is never read again.
# Only what is not the message's fault (the network, the campaign busy or its secrets
# locked, a full disk) stops a run, before the message is marked: the next run reads it.
#
# Answering (``pbem mail run``): a campaign answers only a message that names its game (a turn
# file of the game in it, even a damaged one; the game's tag in the subject; or a reply to one
# of its mails), from the address of one of its players, and never one a machine sent (RFC 3834:
# auto-replies, vacation notices, bounces, mailing lists).  It answers what could not be used
# at all (refused, or without a turn file); a message whose turn file was accepted is answered
# by the game going on.  The answer is written before the message is marked read, under a name
# made from the message's place in the mailbox: a run killed between the two writes the same
# answer again, never a second one.

_ENVIRONMENT = {"busy", "locked", "no-secrets"}
_FULL = {"ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES", "EPERM"}
_SHOWN_ELSEWHERE = 10  # lines for messages that are not this game's, per run; then a count


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
    kind: str = "empty"  # accepted, duplicate, refused, empty (no turn file), elsewhere (not this game's)
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

    @property
    def what(self) -> str:
        """The message as a person finds it in a mail program: from whom, its subject, its date."""
        return f"{self.sender or 'an unknown sender'} ({self.subject!r}" + (f", {self.date})" if self.date else ")")

    def line(self) -> tuple[str, bool]:
        """(one line: what this message was and what was done, on stderr?)"""
        tail = f"; {self.answer}" if self.answer else ""
        tail += f"; {self.learned} (its From; pbem mail address changes it)" if self.learned else ""
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
            return (f"not for this game: {self.what}, {what} of game {games}{tail}", False)
        auto = f", {self.automatic}" if self.automatic else ""
        return (f"no turn file in a message from {self.what}{auto}{tail}", False)


@dataclass
class Fetched:
    accepted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    mailbox: str = ""  # what was read, as shown
    new: int = 0  # messages read this time
    total: int = 0  # messages in the mailbox
    failed: bool = False  # reading stopped (the error says why): the counts are what was read before

    def counts(self) -> str:
        kinds: dict[str, int] = {}
        for note in self.notes:
            kind = "refused" if note.refusals else ("bounces" if note.bounce and note.for_us else note.kind)
            kinds[kind] = kinds.get(kind, 0) + 1
        names = (("accepted", "accepted"), ("duplicate", "already had"), ("refused", "refused"),
                 ("bounces", "bounce(s)"), ("empty", "without a turn file"), ("elsewhere", "not for this game"))
        parts = [f"{kinds[k]} {label}" for k, label in names if kinds.get(k)]
        answered = sum(1 for n in self.notes if n.answer == "answered")
        if answered:
            parts.append(f"{answered} answered")
        return ", ".join(parts)

    def summary(self, replies: int | None = None) -> str:
        if self.failed:
            return f"could not read {self.mailbox}" + (f" past {self.new} new message(s): {self.counts()}"
                                                        if self.new else "")
        if not self.total:
            return f"nothing to read: {self.mailbox} holds no messages"
        if not self.new:
            return f"nothing new in {self.mailbox} ({self.total} message(s), all read before)"
        return f"read {self.new} new message(s) from {self.mailbox}: " + (self.counts() or "nothing in them")

    def message_lines(self) -> list[tuple[str, bool]]:
        out, hidden = [], 0
        for note in self.notes:
            quiet = note.kind in ("elsewhere", "empty") and not note.for_us and not note.refusals \
                and not note.bounce and not note.answer
            if quiet and hidden >= _SHOWN_ELSEWHERE:
                hidden += 1
                continue
            if quiet:
                hidden += 1
            out.append(note.line())
        if hidden > _SHOWN_ELSEWHERE:
            out.append((f"... and {hidden - _SHOWN_ELSEWHERE} more message(s) not for this game or without a "
                        "turn file: left as they are", False))
        return out

    def lines(self) -> list[tuple[str, bool]]:
        """What ``pbem mail fetch`` says: one line per message, then the count (line, on stderr)."""
        return self.message_lines() + [(self.summary(), False)]


def _reason(e: PbemError) -> str:
    detail = " ".join(str(e.detail).split())
    return f"{e.code}: {' '.join(str(e).split())}" + (f"\n  {detail[:300]}" if detail else "")


def fetch(campaign, config: MailConfig, password: str | None, maildir: Path | None = None,
          answering: Answering | None = None) -> Fetched:
    """Ingest every message of the IMAP folder (or of ``maildir``) not yet processed; one
    transaction per message.  ``answering`` (a referee's run): answer what could not be used.

    The mailbox is only read, never changed: the messages processed are remembered in the
    campaign, with the reason of each one refused.  See the mailbox promise above.
    """
    if maildir is not None:
        return _fetch_maildir(campaign, Path(maildir), answering)
    import imaplib

    if config.imap is None:
        raise PbemError("no IMAP server configured", "pbem mail config --imap HOST:PORT ..., or pbem mail fetch "
                        "--maildir FOLDER", code="no-config")
    server = config.imap
    out = Fetched(mailbox=f"{config.folder} at {server.host}")
    try:
        client = (imaplib.IMAP4_SSL(server.host, server.port, ssl_context=server.tls(), timeout=60)
                  if server.security == "ssl" else imaplib.IMAP4(server.host, server.port, timeout=60))
        try:
            if server.security == "starttls":
                client.starttls(ssl_context=server.tls())
            if not password:
                raise PbemError("no IMAP password", "set PBEM_IMAP_PASSWORD or answer the prompt", code="no-password")
            client.login(server.user, password)
            status, data = client.select(config.folder, readonly=True)
            if status != "OK":
                raise PbemError("no such mail folder", f"{config.folder}: {data}", code="imap")
            validity = client.response("UIDVALIDITY")[1][0].decode()
            key = f"imap:{server.user}@{server.host}/{config.folder}/{validity}"
            seen = _seen(campaign, key)
            _, found = client.uid("search", None, "ALL")
            uids = found[0].decode().split() if found and found[0] else []
            out.total = len(uids)
            for uid in uids:
                if uid in seen:
                    continue
                _, sizes = client.uid("fetch", uid, "(RFC822.SIZE)")
                size = _imap_size(sizes)
                whole = size is None or size <= limits.value("MAX_MAIL_BYTES")  # too large: only its head is read
                _, parts = client.uid("fetch", uid, "(BODY.PEEK[])" if whole else f"(BODY.PEEK[HEADER]<0.{_HEAD}>)")
                data = next((p[1] for p in parts if isinstance(p, tuple)), b"")
                _process(campaign, f"message {uid}", data if whole else None, size or 0, out, key, seen, uid,
                         head=None if whole else data, answering=answering)
        finally:
            try:
                client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
    except (OSError, imaplib.IMAP4.error) as e:
        raise PbemError("reading mail failed", f"{server.host}:{server.port}: {e}", code="imap") from None
    return out


def _imap_size(response) -> int | None:
    import re

    for item in response or []:
        text = item[0] if isinstance(item, tuple) else item
        m = re.search(rb"RFC822\.SIZE (\d+)", text or b"")
        if m:
            return int(m.group(1))
    return None


def _fetch_maildir(campaign, folder: Path, answering: Answering | None = None) -> Fetched:
    """The same as over IMAP, from a Maildir on disk (cur/ and new/, read only)."""
    from .mailbox_in import maildir_messages

    if not folder.is_dir():
        raise PbemError(f"no Maildir at {folder}", "expected a folder with cur/, new/ and tmp/", code="unreadable")
    out = Fetched(mailbox=str(folder))
    key = f"maildir:{folder.resolve()}"
    seen = _seen(campaign, key)
    messages = maildir_messages(folder)
    out.total = len(messages)
    for name, file in messages:
        if name in seen:
            continue
        try:
            size = file.stat().st_size
            with file.open("rb") as f:
                whole = size <= limits.value("MAX_MAIL_BYTES")  # too large: only its head is read
                data = f.read() if whole else f.read(_HEAD)
        except FileNotFoundError:  # moved by a mail program meanwhile: read it next time
            continue
        except OSError as e:
            raise PbemError(f"cannot read {file}", e.strerror or str(e), code="unreadable") from None
        _process(campaign, name, data if whole else None, size, out, key, seen, name, head=None if whole else data,
                 answering=answering)
    return out


_HEAD = 65536  # what is read of a message too large to read: enough for its header


def _headers_only(data: bytes):
    import email.parser
    import email.policy

    end = min((i for i in (data.find(b"\r\n\r\n"), data.find(b"\n\n")) if i >= 0), default=len(data))
    return email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(data[:end] + b"\n\n")


def _seen(campaign, key: str) -> set[str]:
    try:
        return {str(x) for x in json.loads(campaign.ledger.setting(key) or "[]")}
    except (ValueError, TypeError):
        raise PbemError("the campaign's record of mail read is damaged", f"setting {key!r}", code="bad-campaign") from None


@dataclass
class _Seen:
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


def _headers(msg) -> _Seen:
    from .mailbox_in import (
        automatic,
        bounce_report,
        from_address,
        header,
        raw_header,
        reply_address,
        thread_ids,
    )

    return _Seen(header(msg, "From"), header(msg, "Subject"), header(msg, "Date", 60), reply_address(msg),
                 from_address(msg), automatic(msg), bounce_report(msg), thread_ids(msg),
                 raw_header(msg, "Message-ID")[:300], raw_header(msg, "References")[:2000])


def _process(campaign, label: str, raw: bytes | None, size: int, out: Fetched, key: str, seen: set[str],
             uid: str, head: bytes | None = None, answering: Answering | None = None) -> None:
    """Read one message, ingest what it holds, answer it if it must be, record the outcome and
    mark it read.

    ``raw`` is None for a message too large to read: ``head``, its first bytes, tells who
    sent it.  Never raises for a fault of the message (see the mailbox promise); raises
    ``PbemError`` for one of the environment, before anything is marked."""
    import errno
    import sqlite3

    from .mailbox_in import PartBudget, message_texts, one_line, read_message

    note = Note(label)
    seen_headers = _Seen()
    out.new += 1
    texts: list[str] = []

    def refuse(reason: str) -> None:
        note.refusals.append(Refusal(label, note.sender, note.subject, reason, seen_headers.reply_to, note.date))

    def take(h: _Seen) -> None:
        nonlocal seen_headers
        seen_headers = h
        note.sender, note.subject, note.date = h.sender, h.subject, h.date
        note.automatic, note.bounce = h.automatic, h.bounce

    try:
        if raw is None:
            try:
                take(_headers(_headers_only(head or b"")))
            except Exception:  # only to say who sent it: without it, the refusal stands all the same
                pass
            limits.check_size(size, "MAX_MAIL_BYTES", "the message")
        budget = PartBudget()
        msg = read_message(raw or b"", budget=budget)
        take(_headers(msg))
        texts = message_texts(msg, budget=budget)
        _ingest_texts(campaign, label, texts, note, out, refuse)
    except PbemError as e:
        campaign.ledger.rollback()
        if e.code in _ENVIRONMENT:
            raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: {_reason(e)}",
                            code=e.code) from None
        refuse(_reason(e))
    except (sqlite3.OperationalError, OSError) as e:
        campaign.ledger.rollback()
        if isinstance(e, sqlite3.OperationalError) or errno.errorcode.get(e.errno or 0) in _FULL:
            raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: {type(e).__name__}: "
                            f"{one_line(e)}", code="mail-stopped") from None
        refuse(f"bad-mail: the message cannot be used\n  {type(e).__name__}: {one_line(e)}")
    except Exception as e:  # whatever a hostile message breaks: refused, never a jammed mailbox
        campaign.ledger.rollback()
        refuse(f"bad-mail: the message cannot be used\n  {type(e).__name__}: {one_line(e)}")
    if raw is not None and not note.sender and note.refusals:  # refused before its header was read: who sent it
        try:
            take(_headers(_headers_only(raw[:_HEAD])))
            for r in note.refusals:
                r.sender, r.subject, r.date, r.reply_to = note.sender, note.subject, note.date, seen_headers.reply_to
        except Exception:  # only to say who sent it
            pass
    game = campaign.genesis["game"]
    note.for_us = note.for_us or _names_game(game, note.subject, seen_headers.thread, texts)
    if not note.for_us and note.kind == "empty":  # a reply in another game's thread: not ours either
        named = _named_games(note.subject, seen_headers.thread) - {game[:8]}
        if named:
            note.kind, note.others = "elsewhere", sorted(named)
    if note.refusals:
        note.kind = "refused"
    learned = _learn(campaign, note, seen_headers)
    if answering is not None:
        try:
            _answer(campaign, note, seen_headers, answering, key, uid)
        except PbemError as e:
            if e.code in _ENVIRONMENT:
                raise
            note.answer = f"not answered: {e}"
        except OSError as e:
            if errno.errorcode.get(e.errno or 0) in _FULL:
                raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: the answer "
                                f"could not be written: {one_line(e)}", code="mail-stopped") from None
            note.answer = f"not answered: {one_line(e)}"
    out.notes.append(note)
    out.refused += note.refusals
    seen.add(uid)
    ordered = sorted(seen, key=lambda u: (len(u), u) if u.isdigit() else (0, u))
    reasons = [r.line for r in note.refusals]
    campaign.ledger.begin()
    try:
        campaign.ledger.put_setting(key, json.dumps(ordered))
        if reasons:
            record = json.loads(campaign.ledger.setting(f"{key}#refused") or "{}")
            record[uid] = "; ".join(reasons)[:500]
            campaign.ledger.put_setting(f"{key}#refused", json.dumps(record, sort_keys=True))
        if learned:
            campaign.ledger.put_setting(f"email:{learned[0]}", learned[1])
        campaign.ledger.commit()
    except BaseException:
        campaign.ledger.rollback()
        raise


_GAME_LINE = r"(?m)^[ \t>]*Game:[ \t]*([0-9a-f]{32})[ \t]*$"


def _names_game(game: str, subject: str, thread: str, texts: list[str]) -> bool:
    """The message names ``game``: a turn file of it (even damaged), its tag in the subject, or
    a reply to one of its mails."""
    import re

    if f" {game[:8]}]" in subject or f"pbem {game[:8]}" in subject:
        return True
    if f"pbem-{game[:16]}" in thread:
        return True
    return any(game in re.findall(_GAME_LINE, text) for text in texts)


def _named_games(subject: str, thread: str) -> set[str]:
    """The games (first 8 hex digits) a subject's tag or a thread's pbem message ids name."""
    import re

    return set(re.findall(r"\[[\w.-]{1,40} ([0-9a-f]{8})\]", subject)) | \
        {g[:8] for g in re.findall(r"pbem-([0-9a-f]{16})", thread)}


def _damaged_game(text: str, line: int) -> str:
    """The Game header of a damaged block, if it is still readable ('' if not)."""
    import re

    lines = text.splitlines()[max(0, line - 1):line + 8]
    m = re.search(_GAME_LINE, "\n".join(lines))
    return m.group(1) if m else ""


def _ingest_texts(campaign, label: str, texts: list[str], note: Note, out: Fetched, refuse) -> None:
    from . import armor

    game = campaign.genesis["game"]
    found = [(text, armor.scan(text)) for text in texts]
    ours = [b.raw for _, f in found for b in f.blocks if b.headers.get("Game") == game]
    others = {b.headers.get("Game", "?")[:8] for _, f in found for b in f.blocks if b.headers.get("Game") != game}
    damaged = []
    for text, f in found:
        for d in f.damaged:
            other = _damaged_game(text, d.line)
            if other and other != game:  # another game's mangled mail: not ours to judge or answer
                others.add(other[:8])
            else:
                damaged.append(d)
    note.others = sorted(others)
    note.blocks_elsewhere = bool(others)
    if ours or damaged:
        note.for_us = True
    for d in damaged:  # the rest of the message goes on: a good turn file may be beside it
        refuse(_reason(d.error))
    if not ours:
        if not damaged:
            note.kind = "elsewhere" if others else "empty"
        return
    known = {row[0] for row in campaign.ledger.views()}  # joins (referee) and views (players) are stored beside
    try:
        result = campaign.ingest([(label, "".join(ours))], skip_other_games=True)
    except PbemError as e:
        if e.code in _ENVIRONMENT:
            raise
        campaign.ledger.rollback()
        refuse(_reason(e))
        return
    accepted = [f"#{e.seq} from {e.author}" for e in result.accepted]
    joined = [(side, seq) for digest, seq, side, *_ in campaign.ledger.views() if digest not in known]
    accepted += [f"the join of {side}" for side, seq in joined if seq == 0]
    if any(seq for _, seq in joined) and accepted:  # a player's own view came with the referee's file
        accepted[-1] += " with your view"
    again = [f"#{e.seq} from {e.author}" for e, why in result.skipped
             if why in ("already ingested", "already received", "timeout claim already recorded")]
    again = [a for a in dict.fromkeys(again) if a not in accepted]
    note.authors = sorted({e.author for e in result.accepted} | {side for side, seq in joined if seq == 0})
    if accepted:
        note.kind = "accepted"
        note.done.append("accepted " + ", ".join(accepted))
        out.accepted += accepted
    elif again:
        note.kind = "duplicate"
        note.done.append("already had " + ", ".join(again[:3]) + (" ..." if len(again) > 3 else ""))
    out.skipped += [f"#{e.seq} from {e.author}: {why}" for e, why in result.skipped]


def _learn(campaign, note: Note, h: _Seen) -> tuple[str, str] | None:
    """A party whose address is not recorded yet: its address is the From of the first person's
    mail that brought a signed turn file of it (a join, usually).  Said in the message's line."""
    authors = [a for a in note.authors if a != campaign.side]
    if not authors or note.automatic or not h.from_address or len(authors) != 1:
        return None
    side = authors[0]
    if address(campaign, side) or h.from_address.lower() in known_senders(campaign):
        return None
    note.learned = f"{side} is {h.from_address}"
    return side, h.from_address


@dataclass
class Answering:
    """How an unattended mailbox answers: from which address; which addresses are its own."""

    sender: str
    own: set[str] = field(default_factory=set)


def _answer(campaign, note: Note, h: _Seen, answering: Answering, key: str, uid: str) -> None:
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
    from .lock import crash_point

    crash_point("mail:answered")  # the answer is written, the message not yet marked read
    note.answer = "answered"


def _clean_reason(campaign, text: str, label: str) -> str:
    """A reason as a player may read it: no local paths, no mailbox numbers."""
    import re

    for prefix in {str(campaign.dir.resolve()), str(campaign.dir)}:
        text = text.replace(prefix.rstrip("/") + "/", "")
    text = re.sub(r"(?:[A-Za-z]:)?(?:[/\\][^\s/\\;,()'\"]+)+[/\\]([^\s/\\;,()'\"]+)", r"\1", text)
    return text.replace(f"{label}: ", "").replace(label, "your message")


def polite_reply(campaign, to: str, note: Note, from_address: str, h: _Seen | None = None,
                 name: str | None = None) -> Path:
    """An answer to a message that could not be used, in the outbox (RFC 3834: marked
    auto-replied, threaded under the message it answers).  ``to`` must be one clean address;
    the answer names the message by its subject and date, never quotes a turn file, and
    never shows a local path."""
    from email.message import EmailMessage

    from .mailbox_in import CONTROL_CHARS

    h = h or _Seen()
    game = campaign.genesis["game"]
    subject = CONTROL_CHARS.sub(" ", note.subject).strip()[:200]
    subject = " ".join(subject.split()) or f"{tag(campaign)} your message"
    msg = EmailMessage(policy=email_policy())
    msg["From"] = from_address or address(campaign, campaign.side) or f"{campaign.side}@{PLACEHOLDER}"
    msg["To"] = to
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Message-ID"] = message_id(game, str(msg["From"]))
    msg["Auto-Submitted"] = "auto-replied"  # RFC 3834: no auto-reply answers it back
    msg["X-Pbem-Game"] = game
    import re

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
        now = f"The game is waiting for {waiting['side']}."
    body = ["Hello,", "", f"{which} {what}"]
    if reasons and "equivocation" not in codes:
        body += ["", reasons]
    body += ["", advice, "", now, "", f"-- the pbem mailbox of {campaign.game.title}, game {game[:8]}"]
    msg.set_content("\n".join(body) + "\n")
    return save_message(campaign, msg, name or f"reply-{msg['Message-ID'].strip('<>').split('@')[0][-16:]}")



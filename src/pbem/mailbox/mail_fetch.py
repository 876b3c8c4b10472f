"""Reading mail: new messages from an IMAP folder or a Maildir, each handled on its own, hostile
until checked; what was read, refused, answered, and why (see ``fetch``)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .. import limits
from ..errors import PbemError
from .mail import MailConfig, address, known_senders
from .mail_notes import Answering, Note, Refusal, Seen, answer, keep, worth_keeping

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
                 ("answer", "answer(s) refusing your mail"),
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
    with imap_folder(config, password, "pbem mail fetch --maildir FOLDER") as client:
        server = config.imap
        out = Fetched(mailbox=f"{config.folder} at {server.host}")
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
            size = imap_size(sizes)
            whole = size is None or size <= limits.value("MAX_MAIL_BYTES")  # too large: only its head is read
            _, parts = client.uid("fetch", uid, "(BODY.PEEK[])" if whole else f"(BODY.PEEK[HEADER]<0.{_HEAD}>)")
            data = next((p[1] for p in parts if isinstance(p, tuple)), b"")
            _process(campaign, f"message {uid}", data if whole else None, size or 0, out, key, seen, uid,
                     head=None if whole else data, answering=answering)
    return out


def fetch_all(folders: list[Path], opener, config: MailConfig, password: str | None, maildir: Path | None,
              say) -> list[PbemError]:
    """``fetch`` for each campaign of ``folders`` (``opener(folder)`` opens one for writing) from the
    one mailbox: each game takes its own mail and reports the rest as another game's.  One that
    cannot be read never stops the others: ``say(line, on_stderr)`` tells each; the errors met."""
    failed: list[PbemError] = []
    for folder in folders:
        say(f"{folder}:", False)
        try:
            camp = opener(folder)
            try:
                result = fetch(camp, config, password, maildir)
            finally:
                camp.close()
        except PbemError as e:
            failed.append(e)
            say(f"  {e.code}: {e}" + (f" ({e.detail})" if e.detail else ""), True)
            continue
        for line, err in result.lines():
            say(f"  {line}", err)
    return failed


@contextmanager
def imap_folder(config: MailConfig, password: str | None, otherwise: str):
    """The IMAP folder of ``config``, logged in and selected read only (nothing in it is ever
    changed): an ``imaplib`` client.  ``otherwise``: what to do without an IMAP server.

    :raises PbemError: no server configured, no password, the server or the folder fails."""
    import imaplib

    if config.imap is None:
        raise PbemError("no IMAP server configured", f"pbem mail config --imap HOST:PORT ..., or {otherwise}",
                        code="no-config")
    server = config.imap
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
            yield client
        finally:
            try:
                client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
    except (OSError, imaplib.IMAP4.error) as e:
        raise PbemError("reading mail failed", f"{server.host}:{server.port}: {e}", code="imap") from None


def imap_size(response) -> int | None:
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


def _headers(msg) -> Seen:
    import re

    from .mail_notes import REFUSED_HEADER
    from .mailbox_in import (
        automatic,
        bounce_report,
        from_address,
        header,
        raw_header,
        reply_address,
        thread_ids,
    )

    game = raw_header(msg, "X-Pbem-Game").lower()
    return Seen(header(msg, "From"), header(msg, "Subject"), header(msg, "Date", 60), reply_address(msg),
                 from_address(msg), automatic(msg), bounce_report(msg), thread_ids(msg),
                 raw_header(msg, "Message-ID")[:300], raw_header(msg, "References")[:2000],
                 game if re.fullmatch(r"[0-9a-f]{32}", game) else "", header(msg, REFUSED_HEADER, 400))


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
    seen_headers = Seen()
    out.new += 1
    texts: list[str] = []

    def refuse(reason: str) -> None:
        note.refusals.append(Refusal(label, note.sender, note.subject, reason, seen_headers.reply_to, note.date))

    def take(h: Seen) -> None:
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
    note.for_us = note.for_us or seen_headers.game == game or _names_game(game, note.subject, seen_headers.thread,
                                                                           texts)
    if note.kind == "empty" and note.automatic and seen_headers.game == game and seen_headers.refused:
        note.kind, note.refused_there = "answer", seen_headers.refused  # a pbem mailbox's answer: why it refused
    if not note.for_us:  # a message naming another game (its turn files, tag, thread or pbem header) is that
        # game's, even refused here (too large, damaged past reading): a campaign judges and answers only its own
        named = (_named_games(note.subject, seen_headers.thread) | set(note.others)
                 | ({seen_headers.game[:8]} if seen_headers.game else set())) - {game[:8]}
        if named and (note.kind == "empty" or note.refusals):
            note.kind, note.others = "elsewhere", sorted(named)
            note.unread = ", ".join(dict.fromkeys(r.code for r in note.refusals))
            note.refusals = []
        elif note.guessed:  # a damaged turn file naming no game, in mail naming none: presumed ours
            note.for_us = True
    if note.refusals:
        note.kind = "refused"
    learned = _learn(campaign, note, seen_headers)
    if answering is not None:
        try:
            answer(campaign, note, seen_headers, answering, key, uid)
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
        if worth_keeping(note):
            keep(campaign, [note.line()[0]])
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


def _damaged_game(text: str, damaged) -> str:
    """The Game header of a damaged block (an ``armor.Damaged``), if it is still readable ('' if not):
    below its BEGIN line, or, its BEGIN line lost, above its END line."""
    import re

    lines = text.splitlines()
    if damaged.kind == "no-begin":
        start = damaged.line - 2
        while start >= 0 and "PBEM TURN" not in lines[start]:
            start -= 1
        found = re.findall(_GAME_LINE, "\n".join(lines[start + 1:damaged.line]))
        return found[-1] if found else ""
    m = re.search(_GAME_LINE, "\n".join(lines[max(0, damaged.line - 1):damaged.line + 8]))
    return m.group(1) if m else ""


def _ingest_texts(campaign, label: str, texts: list[str], note: Note, out: Fetched, refuse) -> None:
    from ..wire import armor

    game = campaign.genesis["game"]
    found = [(text, armor.scan(text)) for text in texts]
    ours = [b.raw for _, f in found for b in f.blocks if b.headers.get("Game") == game]
    others = {b.headers.get("Game", "?")[:8] for _, f in found for b in f.blocks if b.headers.get("Game") != game}
    damaged, named = [], False
    for text, f in found:
        for d in f.damaged:
            other = _damaged_game(text, d)
            if other and other != game:  # another game's mangled mail: not ours to judge or answer
                others.add(other[:8])
            else:
                damaged.append(d)
                named = named or other == game
    note.others = sorted(others)
    note.blocks_elsewhere = bool(others)
    note.guessed = bool(damaged) and not named
    if ours or named:
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


def _learn(campaign, note: Note, h: Seen) -> tuple[str, str] | None:
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

"""E-mail: ready-to-send messages, SMTP, IMAP, and a referee's mailbox run.

After a side acts, ``write_outbox`` puts a message in the campaign's
``outbox/``: addressed to the opponent (or, for a referee, one to each player
with that player's own file), the report as the body, the turn file inline
and attached.  ``send`` delivers the outbox by SMTP; ``fetch`` ingests new
messages from an IMAP folder (or a Maildir); ``run`` does both for a referee,
adjudicating in between, and answers a malformed message politely.  Passwords
come from the environment or a prompt and are never written anywhere.  Mail
coming in is hostile: see the mailbox promise below, and ``pbem.limits``.

Server settings live in ``<home>/mail.toml``; addresses, per campaign, in its
settings (``pbem mail address``).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .errors import PbemError
from .files import atomic_write

SECURITY = ("ssl", "starttls", "none")
CONFIG = "mail.toml"


@dataclass
class Server:
    host: str
    port: int
    security: str = "starttls"
    user: str = ""
    cafile: str = ""  # a CA certificate to trust besides the system's (a self-hosted server)

    def tls(self):
        import ssl

        return ssl.create_default_context(cafile=self.cafile or None)


@dataclass
class MailConfig:
    smtp: Server | None = None
    imap: Server | None = None
    sender: str = ""
    folder: str = "INBOX"


def load_config(home: Path) -> MailConfig:
    path = home / CONFIG
    if not path.exists():
        return MailConfig()
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise PbemError("the mail settings cannot be read", f"{path}: {e}", code="bad-config") from None
    servers = {}
    for kind in ("smtp", "imap"):
        entry = data.get(kind)
        if entry:
            if entry.get("security", "starttls") not in SECURITY or not isinstance(entry.get("port"), int):
                raise PbemError("the mail settings are wrong", f"{path} [{kind}]: security must be one of "
                                f"{', '.join(SECURITY)} and port a number", code="bad-config")
            servers[kind] = Server(str(entry["host"]), entry["port"], entry.get("security", "starttls"),
                                   str(entry.get("user", "")), str(entry.get("cafile", "")))
    return MailConfig(servers.get("smtp"), servers.get("imap"), str(data.get("from", "")),
                      str(data.get("folder", "INBOX")))


def save_config(home: Path, config: MailConfig) -> Path:
    """Write the settings (never a password)."""
    lines = []
    if config.sender:
        lines.append(f"from = {json.dumps(config.sender)}")
    lines.append(f"folder = {json.dumps(config.folder)}")
    for kind, server in (("smtp", config.smtp), ("imap", config.imap)):
        if server:
            lines += ["", f"[{kind}]", f"host = {json.dumps(server.host)}", f"port = {server.port}",
                      f"security = {json.dumps(server.security)}", f"user = {json.dumps(server.user)}"]
            if server.cafile:
                lines.append(f"cafile = {json.dumps(server.cafile)}")
    home.mkdir(parents=True, exist_ok=True)
    return atomic_write(home / CONFIG, "\n".join(lines) + "\n")


# --- composing ------------------------------------------------------------------

def address(campaign, side: str) -> str:
    return campaign.ledger.setting(f"email:{side}") or ""


def set_address(campaign, side: str, value: str) -> None:
    known = set(campaign.game.sides) | ({"referee"} if campaign.refereed else set())
    if side not in known:
        raise PbemError(f"no side '{side}' in this game", f"sides: {', '.join(sorted(known))}", code="bad-side")
    if "@" not in value or any(c in value for c in "\r\n"):
        raise PbemError(f"'{value}' is not an e-mail address", code="bad-address")
    campaign.ledger.begin()
    campaign.ledger.put_setting(f"email:{side}", value)
    campaign.ledger.commit()


def compose(campaign, to_side: str, files: list[Path], body: str, sender: str):
    from email.message import EmailMessage
    from email.utils import make_msgid

    genesis = campaign.genesis
    msg = EmailMessage()
    msg["From"] = sender or address(campaign, campaign.side) or f"{campaign.side}@pbem.invalid"
    msg["To"] = address(campaign, to_side) or f"{to_side}@pbem.invalid"
    first = files[0].name if files else ""
    msg["Subject"] = f"[pbem {genesis['game'][:8]}] {campaign.game.title}: {first}"
    msg["Message-ID"] = make_msgid(domain="pbem.invalid")
    msg["X-Pbem-Game"] = genesis["game"]
    inline = "\n".join(f.read_text() for f in files)
    msg.set_content(f"{body}\n\n--- turn file (also attached) ---\n\n{inline}")
    for f in files:
        msg.add_attachment(f.read_text(), subtype="plain", filename=f.name)
    return msg


def _outbox(campaign) -> Path:
    folder = campaign.dir / "outbox"
    folder.mkdir(exist_ok=True)
    return folder


def write_outbox(campaign, result, sender: str = "") -> list[Path]:
    """The ready-to-send messages for what ``pbem play`` just signed."""
    from .report import render

    out = []
    if result.paths:  # a referee: one message per player, each with its own file and view
        for path in result.paths:
            side = path.parent.name.removeprefix("to-")
            body = view_text(campaign, side, result.envelope.seq)
            out.append(_save(campaign, compose(campaign, side, [path], body, sender), f"{path.stem}-{side}"))
        return out
    if result.envelope is None or result.path is None:
        return []
    if campaign.refereed:
        targets = ["referee"] if campaign.side != "referee" else sorted(campaign.game.sides)
        body = f"{campaign.side} sends turn file #{result.envelope.seq} to the referee."
    else:
        targets = [campaign.opponent]
        body = render(campaign, "text", side=campaign.opponent)  # the opponent's view: nothing hidden of ours
    for side in targets:
        out.append(_save(campaign, compose(campaign, side, [result.path], body, sender), f"{result.path.stem}-{side}"))
    return out


def view_text(campaign, side: str, seq: int) -> str:
    """The body of a referee's message to ``side``: what its sealed view says (the referee may read it)."""
    from .refereeing import view_payload

    game = campaign.game
    match = campaign.match()
    events = [{"text": e["text"], "to": e["to"]} for e in campaign.ledger.events(seq - 2)]
    payload = view_payload(game, match["full"], seq, side, events, campaign.ledger.rolls(seq - 2))
    lines = [f"{game.title} -- your view ({side}) after envelope #{seq}", ""]
    lines += [f"  {text}" for text in payload["events"]]
    lines += [""] + game.describe(payload["view"])
    if payload["prompt"]:
        lines += ["", payload["prompt"]["text"]] + [f"  {i}. {label}" for i, (label, _) in
                                                  enumerate(payload["prompt"]["choices"], 1)]
        lines += ["", "Ingest the attached file (pbem ingest) and give your orders with pbem play."]
    elif payload["outcome"]:
        lines += ["", f"RESULT: {payload['outcome']['result']} -- {payload['outcome']['reason']}"]
    return "\n".join(lines)


def _save(campaign, msg, stem: str) -> Path:
    return atomic_write(_outbox(campaign) / f"{stem}.eml", bytes(msg))


# --- sending -------------------------------------------------------------------------

def pending_outbox(campaign) -> list[Path]:
    folder = campaign.dir / "outbox"
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


def send(campaign, config: MailConfig, password: str | None, files: list[Path] | None = None) -> list[Path]:
    """Send ``files`` (default: the whole outbox) and move each to outbox/sent/ once accepted."""
    import email
    import email.policy
    import smtplib

    if config.smtp is None:
        raise PbemError("no SMTP server configured", "pbem mail config --smtp HOST:PORT ...", code="no-config")
    files = pending_outbox(campaign) if files is None else files
    if not files:
        return []
    server = config.smtp
    try:
        if server.security == "ssl":
            client = smtplib.SMTP_SSL(server.host, server.port, context=server.tls(), timeout=30)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=30)
        with client:
            if server.security == "starttls":
                client.starttls(context=server.tls())
            if server.user:
                if not password:
                    raise PbemError("no SMTP password", "set PBEM_SMTP_PASSWORD or answer the prompt", code="no-password")
                client.login(server.user, password)
            sent = []
            done = campaign.dir / "outbox" / "sent"
            done.mkdir(parents=True, exist_ok=True)
            for path in files:
                # our own outbox: written by pbem, not bounded as incoming mail is
                client.send_message(email.message_from_bytes(path.read_bytes(), policy=email.policy.default))
                target = done / path.name
                path.replace(target)
                sent.append(target)
            return sent
    except (OSError, smtplib.SMTPException) as e:
        raise PbemError("sending mail failed", f"{server.host}:{server.port}: {e}", code="smtp") from None


# --- receiving ---------------------------------------------------------------------------
#
# The mailbox promise: every message is read once, on its own.  A message that cannot be
# used, for whatever reason (refused by the rules, damaged, past a bound of pbem.limits, or
# breaking the mail parser), is recorded as refused with a one-line reason and marked read
# in the same transaction: it never stops the messages behind it, and is never read again.
# Only what is not the message's fault (the network, the campaign busy or its secrets
# locked, a full disk) stops a run, before the message is marked: the next run reads it.

_ENVIRONMENT = {"busy", "locked", "no-secrets"}
_FULL = {"ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES", "EPERM"}


@dataclass
class Refusal:
    """A message (or one damaged block in it) that could not be used."""

    message: str  # which message: "message 7" (an IMAP UID) or a Maildir file's name
    sender: str  # its From, as shown (decoded, no control characters, shortened)
    subject: str
    reason: str  # "code: reason", then "  detail" on a second line
    reply_to: str = ""  # where a polite reply may go ('' for nowhere)

    def __iter__(self):  # unpacks as (sender, subject, reason), as it always has
        return iter((self.sender, self.subject, self.reason))

    @property
    def line(self) -> str:
        head, _, detail = self.reason.partition("\n")
        return head + (f" ({detail.strip()})" if detail.strip() else "")


@dataclass
class Fetched:
    accepted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    mailbox: str = ""  # what was read, as shown
    new: int = 0  # messages read this time
    total: int = 0  # messages in the mailbox

    def summary(self, replies: int | None = None) -> str:
        if not self.total:
            return f"nothing to read: {self.mailbox} holds no messages"
        if not self.new:
            return f"nothing new in {self.mailbox} ({self.total} message(s), all read before)"
        parts = [f"{len(self.accepted)} accepted"] if self.accepted else []
        messages = len({r.message for r in self.refused})
        if messages:
            parts.append(f"{messages} refused")
        if replies is not None and messages:
            parts.append(f"{replies} answered")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        return f"read {self.new} new message(s) from {self.mailbox}: " + (", ".join(parts) or "nothing in them for this game")

    def lines(self) -> list[tuple[str, bool]]:
        """What ``pbem mail fetch`` says: (line, on stderr)."""
        out = [(f"accepted {line}", False) for line in self.accepted]
        out += [(f"skipped {line}", False) for line in self.skipped]
        out += [(f"REFUSED a message from {r.sender or 'an unknown sender'} ({r.subject!r}, {r.message}): {r.reason}",
                 True) for r in self.refused]
        return out + [(self.summary(), False)]


def _reason(e: PbemError) -> str:
    detail = " ".join(str(e.detail).split())
    return f"{e.code}: {' '.join(str(e).split())}" + (f"\n  {detail[:300]}" if detail else "")


def fetch(campaign, config: MailConfig, password: str | None, maildir: Path | None = None) -> Fetched:
    """Ingest every message of the IMAP folder (or of ``maildir``) not yet processed; one
    transaction per message.

    The mailbox is only read, never changed: the messages processed are remembered in the
    campaign, with the reason of each one refused.  See the mailbox promise above.
    """
    if maildir is not None:
        return _fetch_maildir(campaign, Path(maildir))
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
                         head=None if whole else data)
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


def _fetch_maildir(campaign, folder: Path) -> Fetched:
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
        _process(campaign, name, data if whole else None, size, out, key, seen, name, head=None if whole else data)
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


def _process(campaign, label: str, raw: bytes | None, size: int, out: Fetched, key: str, seen: set[str],
             uid: str, head: bytes | None = None) -> None:
    """Read one message, ingest what it holds, record the outcome and mark it read.

    ``raw`` is None for a message too large to read: ``head``, its first bytes, tells who
    sent it.  Never raises for a fault of the message (see the mailbox promise); raises
    ``PbemError`` for one of the environment, before anything is marked."""
    import errno
    import sqlite3

    from .mailbox_in import _Budget, _one_line, header, message_texts, read_message, reply_address

    sender = subject = reply_to = ""
    before = len(out.refused)
    out.new += 1
    try:
        if raw is None:
            try:
                msg = _headers_only(head or b"")
                sender, subject, reply_to = header(msg, "From"), header(msg, "Subject"), reply_address(msg)
            except Exception:  # only to say who sent it: without it, the refusal stands all the same
                pass
            limits.check_size(size, "MAX_MAIL_BYTES", "the message")
        budget = _Budget()
        msg = read_message(raw or b"", budget=budget)
        sender, subject, reply_to = header(msg, "From"), header(msg, "Subject"), reply_address(msg)
        _ingest_texts(campaign, label, message_texts(msg, budget=budget), sender, subject, reply_to, out)
    except PbemError as e:
        campaign.ledger.rollback()
        if e.code in _ENVIRONMENT:
            raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: {_reason(e)}",
                            code=e.code) from None
        out.refused.append(Refusal(label, sender, subject, _reason(e), reply_to))
    except (sqlite3.OperationalError, OSError) as e:
        campaign.ledger.rollback()
        if isinstance(e, sqlite3.OperationalError) or errno.errorcode.get(e.errno or 0) in _FULL:
            raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: {type(e).__name__}: "
                            f"{_one_line(e)}", code="mail-stopped") from None
        out.refused.append(Refusal(label, sender, subject, f"bad-mail: the message cannot be used\n  "
                                   f"{type(e).__name__}: {_one_line(e)}", reply_to))
    except Exception as e:  # whatever a hostile message breaks: refused, never a jammed mailbox
        campaign.ledger.rollback()
        out.refused.append(Refusal(label, sender, subject, f"bad-mail: the message cannot be used\n  "
                                   f"{type(e).__name__}: {_one_line(e)}", reply_to))
    seen.add(uid)
    ordered = sorted(seen, key=lambda u: (len(u), u) if u.isdigit() else (0, u))
    reasons = [r.line for r in out.refused[before:]]
    campaign.ledger.begin()
    try:
        campaign.ledger.put_setting(key, json.dumps(ordered))
        if reasons:
            record = json.loads(campaign.ledger.setting(f"{key}#refused") or "{}")
            record[uid] = "; ".join(reasons)[:500]
            campaign.ledger.put_setting(f"{key}#refused", json.dumps(record, sort_keys=True))
        campaign.ledger.commit()
    except BaseException:
        campaign.ledger.rollback()
        raise


def _ingest_texts(campaign, label: str, texts: list[str], sender: str, subject: str, reply_to: str,
                  out: Fetched) -> None:
    from . import armor

    found = [armor.scan(text) for text in texts]
    good = ["".join(b.raw for b in f.blocks) for f in found if f.blocks]
    damaged = [d for f in found for d in f.damaged]
    if not good and not damaged:
        out.skipped.append(f"{label} ({subject!r}): no turn file in it")
        return
    for d in damaged:  # the rest of the message goes on: it may be another game's quoted mail
        out.refused.append(Refusal(label, sender, subject, _reason(d.error), reply_to))
    if not good:
        return
    known = {row[0] for row in campaign.ledger.views()}  # joins (referee) and views (players) are stored beside
    try:
        result = campaign.ingest([(label, text) for text in good], skip_other_games=True)
    except PbemError as e:
        if e.code in _ENVIRONMENT:
            raise
        campaign.ledger.rollback()
        out.refused.append(Refusal(label, sender, subject, _reason(e), reply_to))
        return
    out.accepted += [f"#{e.seq} from {e.author}" for e in result.accepted]
    out.accepted += [(f"the join of {side}" if seq == 0 else f"the view of {side} after #{seq}")
                     for digest, seq, side, *_ in campaign.ledger.views() if digest not in known]
    out.skipped += [f"#{e.seq} from {e.author}: {why}" for e, why in result.skipped]


def polite_reply(campaign, sender: str, subject: str, reason: str, from_address: str) -> Path:
    """An answer to a message that could not be used, in the outbox.  ``sender`` must be
    one clean address (``pbem.mailbox_in.reply_address``)."""
    from email.message import EmailMessage
    from email.utils import make_msgid

    from .mailbox_in import _CONTROL

    subject = _CONTROL.sub(" ", subject).strip()[:200] or "your message"
    msg = EmailMessage()
    msg["From"] = from_address or f"{campaign.side}@pbem.invalid"
    msg["To"] = sender
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Message-ID"] = make_msgid(domain="pbem.invalid")
    msg["Auto-Submitted"] = "auto-replied"  # RFC 3834: no auto-reply answers it back
    msg.set_content(
        "Hello,\n\nthank you for your message. It could not be used for our game, and nothing in it was "
        f"recorded:\n\n  {reason}\n\nPlease check that you sent the turn file pbem wrote for you (attached or "
        "pasted whole, from -----BEGIN PBEM TURN----- to -----END PBEM TURN-----), and send it again.\n\n"
        f"-- the pbem mailbox of {campaign.game.title}, game {campaign.genesis['game'][:8]}\n")
    return _save(campaign, msg, f"reply-{msg['Message-ID'].strip('<>').split('@')[0]}")


@dataclass
class RunResult:
    fetched: Fetched
    adjudicated: list[int] = field(default_factory=list)
    sent: list[Path] = field(default_factory=list)
    replies: list[Path] = field(default_factory=list)
    unanswered: dict[str, str] = field(default_factory=dict)  # message -> why no reply was written
    error: PbemError | None = None  # sending failed: the replies and files wait in the outbox

    def lines(self) -> list[tuple[str, bool]]:
        """What ``pbem mail run`` says: (line, on stderr)."""
        f = self.fetched
        out = [(f"accepted {line}", False) for line in f.accepted]
        out += [(f"skipped {line}", False) for line in f.skipped]
        for r in f.refused:
            if r.message in self.unanswered:
                out.append((f"refused a message from {r.sender or 'an unknown sender'} ({r.subject!r}, {r.message}): "
                            f"{r.line}; not answered: {self.unanswered[r.message]}", False))
            else:
                out.append((f"answered a malformed message from {r.sender}: {r.line}", False))
        out += [(f"adjudicated #{seq}", False) for seq in self.adjudicated]
        out += [(f"sent {path.name}", False) for path in self.sent]
        out.append((f.summary(len(self.replies)), False))
        if self.error is not None:
            out.append((f"sending failed, the outbox waits for the next run: {self.error.code}: {self.error}", True))
        return out


def run(campaign, identity, config: MailConfig, smtp_password: str | None, imap_password: str | None,
        maildir: Path | None = None) -> RunResult:
    """A referee's mailbox, once: read new mail, adjudicate every time it is the referee's
    turn, send each player its file, answer malformed mail.  Safe to repeat (e.g. from cron)."""
    fetched = fetch(campaign, config, imap_password, maildir)
    result = RunResult(fetched)
    by_message: dict[str, list[Refusal]] = {}
    for refusal in fetched.refused:
        by_message.setdefault(refusal.message, []).append(refusal)
    own = {a.lower() for a in (config.sender, address(campaign, "referee")) if a}
    for label, refusals in by_message.items():
        first = refusals[0]
        if not first.reply_to:
            result.unanswered[label] = "no usable sender address (or sent by a machine)"
            continue
        if first.reply_to.lower() in own:
            result.unanswered[label] = "it came from this mailbox's own address"
            continue
        reason = "\n  ".join(r.reason.replace("\n  ", "\n    ") for r in refusals)
        try:
            result.replies.append(polite_reply(campaign, first.reply_to, first.subject, reason, config.sender))
        except (ValueError, TypeError) as e:  # the header library refused something in it
            result.unanswered[label] = f"the answer could not be written ({e})"
    campaign.mail_outbox = True  # what it signs owes its mail: the next command writes it if this one is killed
    for _ in range(1000):
        waiting = campaign.waiting()
        if waiting is None or waiting["side"] != campaign.side:
            break
        played = campaign.play(identity, [], None)
        if played.envelope is None:
            break
        result.adjudicated.append(played.envelope.seq)
        write_outbox(campaign, played, config.sender)
        campaign.exported(played.envelope)
    if pending_outbox(campaign):
        try:
            result.sent = send(campaign, config, smtp_password)
        except PbemError as e:
            result.error = e
    return result

"""Turn files out of real mail: messages, mbox files, Maildir folders, stdin.

Players paste turn files into mail bodies, attach them, quote them in
replies and forward them; mail programs encode them as quoted-printable or
base64, wrap them in HTML, or nest a forwarded message inside another.  This
module walks every MIME part of every message and returns the plain texts
that may hold armored blocks; ``pbem.wire.armor.find_blocks`` does the rest (it
already ignores quoting, re-wrapping and line ends).

Mail is hostile until checked: a message is measured before it is parsed
(``pbem.limits``: its size, its count of MIME parts) and its structure is walked
without recursion, to a bounded depth.  Whatever goes wrong in a message is a
``PbemError`` naming it, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import limits
from ..errors import PbemError
from ..limits import LimitError

if TYPE_CHECKING:  # the email package costs ~15 ms to import: only when mail is read
    from email.message import EmailMessage, Message


class _Pattern:
    """A regular expression compiled when first used: compiling this module's eleven took about 2 ms
    of every cold command that imports it, and reading a plain turn file uses one of them."""

    __slots__ = ("args", "compiled")

    def __init__(self, *args: Any) -> None:
        self.args, self.compiled = args, None

    def __getattr__(self, name: str) -> Any:  # match, search, sub, finditer, fullmatch...
        if self.compiled is None:
            self.compiled = re.compile(*self.args)
        return getattr(self.compiled, name)


_TAG = _Pattern(r"<[^>]+>")
_BREAK = _Pattern(r"<\s*(br|/p|/div|/pre|/blockquote|/li|/tr|p|div|pre|blockquote)\b[^>]*>", re.I)
_DROP = _Pattern(r"<(script|style|head)\b.*?</\1\s*>", re.I | re.S)
_HEADER = _Pattern(rb"^[A-Za-z][A-Za-z0-9-]*:[ \t]", re.M)
_BOUNDARY = _Pattern(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.I)
_DELIMITER = _Pattern(rb"(?m)^--([^\r\n]{1,200})")
CONTROL_CHARS = _Pattern(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")  # never shown as they are: a space instead


def html_to_text(markup: str) -> str:
    """Good enough to read an armored block out of an HTML-only mail."""
    import html

    text = _DROP.sub("", markup)
    text = _BREAK.sub("\n", text)
    text = _TAG.sub("", text)
    return html.unescape(text).replace("\xa0", " ")


class PartBudget:
    """The MIME parts a message may still have (its forwarded messages share it)."""

    def __init__(self) -> None:
        self.parts = limits.value("MAX_MIME_PARTS")

    def take(self, count: int = 1) -> None:
        self.parts -= count
        if self.parts < 0:
            bound = limits.value("MAX_MIME_PARTS")
            raise LimitError("the message has too many MIME parts", f"more than {bound} (set PBEM_MAX_MIME_PARTS "
                             "to allow more)", code="too-many-parts")


def read_message(data: bytes, *, depth: int = 0, budget: PartBudget | None = None) -> Message:
    """Parse one message after measuring it; its structure checked (parts, depth) without recursion.

    :raises LimitError: too large, too many parts, nested too deeply.
    """
    import email
    import email.policy

    limits.check_size(len(data), "MAX_MAIL_BYTES", "the message")
    budget = budget or PartBudget()
    # Count the parts before parsing: the parser's time grows with them, a bound must come first.
    names = {m.group(1) or m.group(2) for m in _BOUNDARY.finditer(data)}
    if len(names) > budget.parts:
        budget.take(len(names))
    if names:
        delimiters = sum(1 for m in _DELIMITER.finditer(data) if m.group(1).rstrip().removesuffix(b"--") in names)
        if delimiters - len(names) > budget.parts:  # each multipart has one closing delimiter
            budget.take(delimiters - len(names))
    try:
        message = email.message_from_bytes(data, policy=email.policy.default)
    except RecursionError:
        raise LimitError("the message is nested too deeply", f"more than {limits.MAX_MIME_DEPTH} levels of MIME parts "
                         "and forwarded messages", code="too-deep") from None
    stack = [(message, depth)]
    while stack:
        part, level = stack.pop()
        budget.take()
        if level > limits.MAX_MIME_DEPTH:
            raise LimitError("the message is nested too deeply",
                             f"more than {limits.MAX_MIME_DEPTH} levels of MIME parts and forwarded messages",
                             code="too-deep")
        payload = part.get_payload()
        if isinstance(payload, list):
            stack += [(p, level + 1) for p in reversed(payload)]
    return message


def parse_message(data: bytes) -> EmailMessage:
    """A message from its bytes (bounded: see ``read_message``)."""
    return read_message(data)  # type: ignore[return-value]


def _leaves(message: Message, depth: int) -> list[tuple[Message, int]]:
    """The non-multipart parts in order, with their depth, without recursion."""
    out, stack = [], [(message, depth)]
    while stack:
        part, level = stack.pop()
        payload = part.get_payload()
        if isinstance(payload, list):
            stack += [(p, level + 1) for p in reversed(payload)]
        else:
            out.append((part, level))
    return out


def message_texts(message: Message, *, depth: int = 0, budget: PartBudget | None = None) -> list[str]:
    """Every text in a message that may hold a turn file: bodies, attachments, forwarded messages.

    A forwarded message sent as an attachment is read as a message of its own, within the
    same bounds (its parts count against the same budget, its depth goes on from here).
    """
    texts: list[str] = []
    budget = budget or PartBudget()
    todo = _leaves(message, depth)
    while todo:
        part, level = todo.pop(0)
        ctype = part.get_content_type()
        if not (ctype.startswith("text/") or ctype == "application/octet-stream" or part.get_filename()):
            continue  # images and the like: not even decoded
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        charset = part.get_content_charset() or "utf-8"
        try:
            text = payload.decode(charset, errors="replace")
        except LookupError:
            text = payload.decode("utf-8", errors="replace")
        if ctype == "text/html":
            text = html_to_text(text)
        if "PBEM TURN" in text:
            texts.append(text)
        elif looks_like_mail(payload):
            inner = read_message(payload, depth=level + 1, budget=budget)
            todo[:0] = _leaves(inner, level + 1)
    return texts


_MAIL_HEADERS = _Pattern(rb"(?im)^(subject|date|message-id|mime-version|received|content-type|return-path|"
                           rb"delivered-to|to|x-[a-z-]+):[ \t]")


def looks_like_mail(data: bytes) -> bool:
    """A message starts with header lines, one of them a mail header; a turn file starts with its BEGIN line."""
    text = data[:16000].replace(b"\r\n", b"\n")[:8000]
    if b"\n\n" not in text:
        return False
    head = text.split(b"\n\n", 1)[0]
    return (bool(_HEADER.match(head)) and b"BEGIN PBEM TURN" not in head
            and _MAIL_HEADERS.search(head) is not None)


def header(message: Message, name: str, width: int = 200) -> str:
    """A header as text to show: decoded where it can be, control characters (an encoded CR/LF)
    made spaces, at most ``width`` characters.  Never raises: a header is only shown."""
    try:
        value = str(message.get(name, "") or "")
    except Exception:  # a header the parser refuses (e.g. an encoded line break in an address)
        raw = next((v for k, v in message.raw_items() if k.lower() == name.lower()), "")
        try:
            from email.header import decode_header, make_header

            value = str(make_header(decode_header(str(raw))))
        except Exception:
            value = str(raw)
    value = CONTROL_CHARS.sub(" ", value).encode("utf-8", "replace").decode("utf-8").strip()  # no lone surrogates
    return value if len(value) <= width else value[:width - 3] + "..."


_ADDRESS = _Pattern(r"[^@\s<>\"(),;:\[\]\\]{1,64}@[A-Za-z0-9.-]{1,253}")
_MACHINES = ("mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon", "noreply", "no-reply", "do-not-reply",
             "donotreply")


def raw_header(message: Message, name: str) -> str:
    """A header's value as it stands (never raises; '' if missing)."""
    try:
        value = next((v for k, v in message.raw_items() if k.lower() == name.lower()), "")
    except Exception:
        return ""
    return CONTROL_CHARS.sub(" ", str(value)).strip()


def automatic(message: Message) -> str:
    """Why ``message`` was sent by a machine, not written by a person ('' if nothing says so).

    RFC 3834: an automatic message is never answered automatically.  Auto-Submitted other
    than "no" (vacation notices, auto-replies, auto-generated mail), a bulk, junk or list
    Precedence, mailing-list headers, the auto-reply headers of common mail programs, a
    delivery or read report, an empty Return-Path (a bounce) or a sender such as MAILER-DAEMON."""
    auto = raw_header(message, "Auto-Submitted").lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"an automatic message (Auto-Submitted: {auto[:40]})"
    precedence = raw_header(message, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"an automatic message (Precedence: {precedence})"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"):
        if raw_header(message, name):
            return f"an automatic message ({name})"
    for name in ("List-Id", "List-Unsubscribe", "List-Post"):
        if raw_header(message, name):
            return f"a mailing list's message ({name})"
    try:
        ctype = message.get_content_type()
    except Exception:
        ctype = ""
    if ctype == "multipart/report":
        return "a delivery or read report"
    if raw_header(message, "Return-Path").replace(" ", "") == "<>":
        return "a bounce (its Return-Path is empty)"
    local = from_address(message).partition("@")[0].lower()
    if local in _MACHINES:
        return f"sent by a machine ({local})"
    return ""


def from_address(message: Message) -> str:
    """The one clean address in From ('' if there is none, or several)."""
    return _one_address(message, "From")


def _one_address(message: Message, name: str) -> str:
    try:
        addresses = getattr(message.get(name), "addresses", ())
        if len(addresses) != 1:
            return ""
        addr = str(addresses[0].addr_spec)
    except Exception:  # e.g. an encoded line break in the address: the parser refuses it, so do we
        return ""
    return addr if _ADDRESS.fullmatch(addr) else ""


def reply_address(message: Message) -> str:
    """The one address a polite reply may go to ('' if none is usable: missing, several,
    hidden line breaks, or the message says a machine sent it: no replies to auto-replies)."""
    if automatic(message):
        return ""
    if raw_header(message, "Reply-To"):
        return _one_address(message, "Reply-To")
    return from_address(message)


def thread_ids(message: Message) -> str:
    """The message ids a message answers (In-Reply-To and References), as one text."""
    return " ".join(raw_header(message, name)[:4000] for name in ("In-Reply-To", "References"))


def bounce_report(message: Message) -> str:
    """What a delivery status report says failed ('' if the message is not one, or says nothing).

    E.g. "delivery to alice@example.org failed: 5.1.1 (smtp; 550 no such user)"."""
    try:
        if message.get_content_type() != "multipart/report":
            return ""
        out = []
        for part in message.walk():
            if part.get_content_type() != "message/delivery-status":
                continue
            payload = part.get_payload()
            blocks = payload if isinstance(payload, list) else []
            for block in blocks:
                recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "")
                action = str(block.get("Action") or "").strip().lower()
                if not recipient or action not in ("failed", "delayed"):
                    continue
                who = CONTROL_CHARS.sub(" ", recipient.partition(";")[2].strip() or recipient)[:120]
                status = CONTROL_CHARS.sub(" ", str(block.get("Status") or "")).strip()[:20]
                why = CONTROL_CHARS.sub(" ", str(block.get("Diagnostic-Code") or "")).strip()[:160]
                out.append(f"delivery to {who} {'failed' if action == 'failed' else 'is delayed'}"
                           + (f": {status}" if status else "") + (f" ({why})" if why else ""))
        return "; ".join(out[:3])
    except Exception:  # a report we cannot read says nothing: the message is still automatic
        return ""


# --- mailboxes ---------------------------------------------------------------------

_MAILDIR_NAME = _Pattern(r"^(\d+)\.(?:[^.]*?M(\d+))?")


def maildir_messages(path: Path) -> list[tuple[str, Path]]:
    """(key, file) of every message in a Maildir (cur/ and new/), in order of delivery.

    ``key`` is the file's unique name (a mail program may move a message from new/ to
    cur/ and add flags after a colon: the key stays the same).  A folder with only cur/
    or only new/ is read as it is.

    :raises PbemError: the folder has neither cur/ nor new/, or cannot be read.
    """
    subs = [path / sub for sub in ("new", "cur") if (path / sub).is_dir()]
    if not subs:
        raise PbemError(f"{path} is not a Maildir", "it has no cur/ or new/ folder", code="unreadable")
    found: dict[str, Path] = {}
    try:
        for sub in subs:
            for entry in sub.iterdir():
                if entry.name.startswith(".") or not entry.is_file():
                    continue
                found.setdefault(entry.name.split(":", 1)[0], entry)
    except OSError as e:
        raise PbemError(f"cannot read the Maildir {path}", e.strerror or str(e), code="unreadable") from None

    def order(item: tuple[str, Path]) -> tuple:
        key, file = item
        m = _MAILDIR_NAME.match(key)
        try:
            stamp = file.stat().st_mtime_ns
        except OSError:
            stamp = 0
        return (int(m.group(1)) if m else stamp // 10**9, int(m.group(2) or 0) if m else 0, stamp, key)

    return sorted(found.items(), key=order)


def read_file(file: Path) -> bytes:
    """A message file's bytes, measured before it is read."""
    try:
        limits.check_size(file.stat().st_size, "MAX_MAIL_BYTES", "the message")
        return file.read_bytes()
    except OSError as e:
        raise PbemError(f"cannot read {file}", e.strerror or str(e), code="unreadable") from None


def texts_of(data: bytes, source: str) -> list[str]:
    """The texts of one message that may hold turn files.

    :raises PbemError: the message is past a bound or cannot be read at all; the detail
        names ``source``.  Nothing else escapes.
    """
    try:
        budget = PartBudget()
        return message_texts(read_message(data, budget=budget), budget=budget)
    except PbemError as e:
        e.detail = f"{source}: {e.detail}" if e.detail else source
        raise
    except Exception as e:  # the mail parser's own failures: a hostile message, never a traceback
        raise PbemError("the message cannot be read", f"{source}: {type(e).__name__}: {one_line(e)}",
                        code="bad-mail") from None


def one_line(e: BaseException) -> str:
    """An error's words on one line, without control characters, at most 160 characters."""
    text = CONTROL_CHARS.sub(" ", str(e)).strip()
    return text if len(text) <= 160 else text[:157] + "..."


def texts_from_source(path: Path | None, data: bytes | None = None) -> list[tuple[str, str]]:
    """(source, text) pairs from a file, a Maildir folder, an mbox file, or raw bytes (stdin).

    A plain text file (a saved turn file) is returned as it is.

    :raises PbemError: an empty Maildir (nothing to read), a Maildir without any turn file,
        a message past a bound (``pbem.limits``) or unreadable.
    """
    if path is not None and path.is_dir():
        messages = maildir_messages(path)
        if not messages:
            raise PbemError("nothing to read", f"{path}: the Maildir holds no messages", code="no-mail")
        out = [(f"{path}/{key}", text) for key, file in messages
               for text in texts_of(read_file(file), f"{path}/{key}")]
        if not out:
            raise PbemError("no turn file found", f"{path}: none of its {len(messages)} message(s) holds a "
                            "'-----BEGIN PBEM TURN-----' block", code="no-turn-file")
        return out
    if data is None:
        assert path is not None
        data = read_file(path)
    name = str(path) if path else "<stdin>"
    if data.startswith(b"From "):  # an mbox: messages separated by "From " lines
        messages = [m for m in re.split(rb"(?m)^From .*\r?\n", data) if m.strip()]
        return [(f"{name}#{i + 1}", text) for i, raw in enumerate(messages)
                for text in texts_of(raw, f"{name}#{i + 1}")]
    if looks_like_mail(data):
        return [(name, text) for text in texts_of(data, name)]
    try:
        return [(name, data.decode("utf-8"))]
    except UnicodeDecodeError as e:
        raise PbemError("not a turn file", f"{name} is not UTF-8 text ({e.reason} at byte {e.start})",
                        code="no-turn-file") from None


def input_texts(name: str, data: bytes, path: Path | None = None) -> tuple[list[tuple[str, str]], bool]:
    """The texts of one input as ``pbem ingest`` reads it — a saved message or mbox (its turn
    files), or a turn file as text — and whether it was mail (where other games' blocks are
    skipped, not refused). ``name`` names it in messages; ``path`` is its file, if any.

    :raises PbemError: past the size bound, empty, binary, not UTF-8, a message with no turn file.
    """
    most = limits.value("MAX_MAIL_BYTES")
    if len(data) > most:
        raise LimitError(f"{name} is larger than {limits.size(most)}", "set PBEM_MAX_MAIL_BYTES to read larger files")
    rename = (lambda text: text.replace("<stdin>", name, 1)) if path is None and name != "-" else (lambda text: text)
    if data.startswith(b"From ") or looks_like_mail(data):
        try:
            found = texts_from_source(path, data)
        except PbemError as e:
            e.detail = rename(e.detail)
            raise
        if not found:
            raise PbemError("no turn file found", f"{name}: the message holds no '-----BEGIN PBEM TURN-----' block",
                            code="no-turn-file")
        return [(rename(source), text) for source, text in found], True
    if not data.strip():
        raise PbemError("empty turn file", f"{name} is empty", code="no-turn-file")
    if b"\0" in data:
        raise PbemError("not a turn file", f"{name} is binary, not text", code="no-turn-file")
    try:
        return [(name, data.decode("utf-8"))], False
    except UnicodeDecodeError as e:
        raise PbemError("not a turn file", f"{name} is not UTF-8 text ({e.reason} at byte {e.start})",
                        code="no-turn-file") from None

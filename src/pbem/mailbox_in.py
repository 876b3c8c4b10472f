"""Turn files out of real mail: messages, mbox files, Maildir folders, stdin.

Players paste turn files into mail bodies, attach them, quote them in
replies and forward them; mail programs encode them as quoted-printable or
base64, wrap them in HTML, or nest a forwarded message inside another.  This
module walks every MIME part of every message and returns the plain texts
that may hold armored blocks; ``pbem.armor.find_blocks`` does the rest (it
already ignores quoting, re-wrapping and line ends).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the email package costs ~15 ms to import: only when mail is read
    from email.message import EmailMessage, Message

_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<\s*(br|/p|/div|/pre|/blockquote|/li|/tr|p|div|pre|blockquote)\b[^>]*>", re.I)
_DROP = re.compile(r"<(script|style|head)\b.*?</\1\s*>", re.I | re.S)
_HEADER = re.compile(rb"^[A-Za-z][A-Za-z0-9-]*:[ \t]", re.M)


def html_to_text(markup: str) -> str:
    """Good enough to read an armored block out of an HTML-only mail."""
    import html

    text = _DROP.sub("", markup)
    text = _BREAK.sub("\n", text)
    text = _TAG.sub("", text)
    return html.unescape(text).replace("\xa0", " ")


def message_texts(message: Message) -> list[str]:
    """Every text in a message that may hold a turn file: bodies, attachments, forwarded messages."""
    texts: list[str] = []
    import email
    import email.policy

    for part in message.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        payload = part.get_payload(decode=True)
        if ctype == "message/rfc822" or payload is None:
            continue  # walk() descends into forwarded messages by itself
        charset = part.get_content_charset() or "utf-8"
        try:
            text = payload.decode(charset, errors="replace")
        except LookupError:
            text = payload.decode("utf-8", errors="replace")
        if ctype == "text/html":
            text = html_to_text(text)
        elif not (ctype.startswith("text/") or part.get_filename() or ctype == "application/octet-stream"):
            continue
        if "BEGIN PBEM TURN" in text:
            texts.append(text)
        elif ctype == "message/rfc822" or _looks_like_mail(payload):
            texts += message_texts(email.message_from_bytes(payload, policy=email.policy.default))
    return texts


_MAIL_HEADERS = re.compile(rb"(?im)^(subject|date|message-id|mime-version|received|content-type|return-path|"
                           rb"delivered-to|to|x-[a-z-]+):[ \t]")


def _looks_like_mail(data: bytes) -> bool:
    """A message starts with header lines, one of them a mail header; a turn file starts with its BEGIN line."""
    text = data.replace(b"\r\n", b"\n")[:8000]
    if b"\n\n" not in text:
        return False
    head = text.split(b"\n\n", 1)[0]
    return (bool(_HEADER.match(head)) and b"BEGIN PBEM TURN" not in head
            and _MAIL_HEADERS.search(head) is not None)


def parse_message(data: bytes) -> EmailMessage:
    import email
    import email.policy

    return email.message_from_bytes(data, policy=email.policy.default)  # type: ignore[return-value]


def texts_from_source(path: Path | None, data: bytes | None = None) -> list[tuple[str, str]]:
    """(source, text) pairs from a file, a Maildir folder, an mbox file, or raw bytes (stdin).

    A plain text file (a saved turn file) is returned as it is.
    """
    if path is not None and path.is_dir():
        import mailbox

        box = mailbox.Maildir(path, factory=None, create=False)
        return [(f"{path}/{key}", text) for key in sorted(box.keys())
                for text in message_texts(parse_message(box.get_bytes(key)))]
    if data is None:
        assert path is not None
        data = path.read_bytes()
    name = str(path) if path else "<stdin>"
    if data.startswith(b"From "):  # an mbox: messages separated by "From " lines
        messages = [m for m in re.split(rb"(?m)^From .*\r?\n", data) if m.strip()]
        return [(f"{name}#{i + 1}", text) for i, raw in enumerate(messages)
                for text in message_texts(parse_message(raw))]
    if _looks_like_mail(data):
        return [(name, text) for text in message_texts(parse_message(data))]
    return [(name, data.decode("utf-8"))]

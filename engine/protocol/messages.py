"""Table talk in a turn file: the shape of its ``messages`` field, checked by every copy.

Messages ride beside the actions: signed with the turn, never an action of the rules and never
part of the state, so a message can neither count as a decision nor change a state hash.  Their
text, and the opening of a message sealed to one party, are pbem's (``pbem.play.messages``); the
rules only bound what travels.  Imports nothing.
"""

from __future__ import annotations

from typing import Any

MESSAGE_TEXT = 1000  # characters of one message: a remark, not a letter
MESSAGES = 8  # messages in one turn file
_BOX_TEXT = 32768  # base64 of a sealed message: its longest text, escaped as JSON (12 KB), with room to spare
_HEX = frozenset("0123456789abcdef")


def check_messages(messages: Any, parties: list[str], author: str) -> None:
    """A turn's ``messages``: public ``{"say": text}`` or ``{"to": party, "box": ..., "copy": ...}``
    sealed to one other party (``box``) and to its author (``copy``, so its own tool can show it).

    :raises ValueError: naming what is wrong.
    """
    def bad(why: str) -> ValueError:
        return ValueError(f"{author}'s messages: {why}")

    if not isinstance(messages, list) or not 1 <= len(messages) <= MESSAGES:
        raise bad(f"a list of 1 to {MESSAGES} messages")
    for i, m in enumerate(messages, 1):
        if isinstance(m, dict) and set(m) == {"say"}:
            if not plain_text(m["say"]):
                raise bad(f"message {i} is not a text of 1 to {MESSAGE_TEXT} characters without control characters")
            continue
        if not isinstance(m, dict) or set(m) != {"to", "box", "copy"}:
            raise bad(f"message {i} is neither {{say}} nor {{to, box, copy}}")
        if m["to"] not in parties or m["to"] == author:
            raise bad(f"message {i} is sealed to {m['to']!r}, not another party ({', '.join(parties)})")
        for box in (m["box"], m["copy"]):
            if not (isinstance(box, dict) and set(box) == {"epk", "ct"} and isinstance(box["epk"], str)
                    and len(box["epk"]) == 64 and set(box["epk"]) <= _HEX and isinstance(box["ct"], str) and 0 < len(box["ct"]) <= _BOX_TEXT):
                raise bad(f"message {i}'s sealed box is malformed")


def plain_text(text: Any) -> bool:
    """A message's text: 1 to MESSAGE_TEXT characters, not blank, no control character but a
    line break (nothing that could steer the terminal that shows it)."""
    return (isinstance(text, str) and 1 <= len(text) <= MESSAGE_TEXT and bool(text.strip())
            and not any((ord(c) < 32 and c != "\n") or 127 <= ord(c) < 160 for c in text))

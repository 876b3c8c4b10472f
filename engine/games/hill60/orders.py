"""Orders in words, for the operations prompt (it takes words because standing orders ride on an
operation, RULES.md 9): a listed choice by its words, and

    assault Hill 60 from Kabak Kuyu; advance; then dig in at Hill 60 or end turn
    naval bombardment of Hill 60; then assault Hill 60 from Kabak Kuyu or end turn
    hits in order 5th Connaught Rangers, 18aus, NZ Mounted Rifles      (or 'hits in order: ask')

Units by id or name (any unambiguous start of it), spaces by name, case and spaces ignored.  What
the rules allow is checked when the order is applied (``rules.apply``, ``standing``), not here.
A listed choice is found as ``find_choice`` finds it (its number, its words, a start of them).
"""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.protocol.core import IllegalAction, Prompt, find_choice, order_part

from . import data


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def space(text: str) -> str:
    found = [s for s in data.SPACES if _words(s) == _words(text)]
    if not found:
        raise IllegalAction(f"no space '{text.strip()}'; the spaces are {', '.join(data.SPACES)}")
    return found[0]


def unit(side: str, text: str) -> str:
    words = _words(text)
    mine = [u for u in data.UNITS if u.side == side]
    for test in (lambda u: u.id == words, lambda u: _words(u.name) == words, lambda u: _words(u.name).startswith(words)):
        found = [u.id for u in mine if test(u)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise IllegalAction(f"'{text.strip()}' could be {', '.join(found)}")
    raise IllegalAction(f"no unit of yours called '{text.strip()}'")


def operation(side: str, text: str) -> dict[str, Any]:
    """One operation in the words of its label (2.2): the action it orders."""
    t = _words(order_part(text))
    if t == "end turn":
        return {"do": "end"}
    m = re.fullmatch(r"move (.+) to (.+)", t)
    if m:
        return {"do": "move", "unit": unit(side, m[1]), "to": space(m[2])}
    m = re.fullmatch(r"assault (.+) from (.+)", t)
    if m:
        return {"do": "assault", "space": space(m[1]), "from": space(m[2])}
    m = re.fullmatch(r"dig in at (.+)", t)
    if m:
        return {"do": "dig", "space": space(m[1])}
    m = re.fullmatch(r"naval bombardment of (.+)", t)
    if m:
        return {"do": "bombard", "space": space(m[1])}
    raise IllegalAction(f"'{text.strip()}' is not an operation: move UNIT to SPACE, assault SPACE from SPACE, "
                        f"dig in at SPACE, naval bombardment of SPACE, end turn")


def parse(state: dict[str, Any], side: str, text: str, prompt: Prompt) -> dict[str, Any]:
    """The action ``text`` orders at ``prompt`` (the operations prompt, which takes words)."""
    m = re.fullmatch(r"\s*hits in order:?\s*(.*?)\s*", text, re.I | re.S)
    if m:  # 9.1
        if _words(m[1]) in ("ask", "ask me", "none"):
            return {"do": "hits", "order": []}
        return {"do": "hits", "order": [unit(side, part) for part in m[1].split(",") if part.strip()]}
    first, *rest = [part.strip() for part in text.split(";")]
    try:  # a listed choice: its number, its words (the odds shown after them too) or their start
        action = dict(find_choice(prompt, first).action)
    except IllegalAction:
        if not rest:
            raise
        action = operation(side, first)
    orders: dict[str, Any] = {}
    for part in rest:  # 9.2, 9.3
        words = _words(part)
        if words in ("advance", "advance if taken", "advance if cleared", "stay"):
            orders["advance"] = words != "stay"
        elif words.startswith("then "):
            orders["then"] = [operation(side, alt) for alt in re.split(r"\s+or\s+", part.strip()[5:], flags=re.I)]
        else:
            raise IllegalAction(f"'{part}' is not a standing order: say 'advance', 'stay' or 'then OPERATION or "
                                f"OPERATION' (9.2, 9.3)")
    if orders:
        action["orders"] = orders
    return action


def label(action: dict[str, Any]) -> str:
    """An action in the words that order it (an operation's label, its standing orders after it)."""
    do = action.get("do")
    if do == "hits":
        return "hits in order " + (", ".join(data.UNIT_BY_ID[u].name for u in action["order"]) or "ask")
    words = {"end": lambda a: "end turn", "move": lambda a: f"move {data.UNIT_BY_ID[a['unit']].name} to {a['to']}",
             "assault": lambda a: f"assault {a['space']} from {a['from']}", "dig": lambda a: f"dig in at {a['space']}",
             "bombard": lambda a: f"naval bombardment of {a['space']}"}
    if do not in words:
        return str(action)
    parts = [words[do](action)]
    orders = action.get("orders") or {}
    if "advance" in orders:
        parts.append("advance" if orders["advance"] else "stay")
    if "then" in orders:
        parts.append("then " + " or ".join(label(alt) for alt in orders["then"]))
    return "; ".join(parts)

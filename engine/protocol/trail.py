"""What of a match state its hash covers and a ledger stores, and what is kept beside it.

Protocol 3 keeps the logs that grow with the history out of the hashed state: each side's
private log (``pbem_engine.hidden.private``) and each shared deck's messages with the numbers of
the envelopes that made them (``pbem_engine.hidden.deck_table``). Hashing them with every
envelope made a long game's total hashing grow with the square of its length. Each record keeps
``trail``, a running digest of its log, in their place, so the state hash still covers every
entry; the entries themselves are stored by envelope beside the state (``logged_in``) and put
back when a state is read (``with_logs``). Earlier protocols keep the logs in the hashed state:
their histories keep their hashes.

Imports only ``pbem_engine.canonical``: ``match`` and the ledger's readers use it.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.canonical import state_hash

# what each kind of record keeps beside the hashed state
BESIDE = {"private": ("log",), "decks": ("log", "envelopes")}


def kept_beside(match: dict[str, Any]) -> bool:
    """Whether ``match`` keeps its logs beside its hashed state (protocol 3)."""
    return any("trail" in r for kind in BESIDE for r in match.get(kind, {}).values())


def hashed(match: dict[str, Any]) -> dict[str, Any]:
    """The match state as its hash covers it and a ledger stores it: in protocol 3 without the
    logs, which grow with the history and are already in it (each record's ``trail`` digests its
    log, so the hash still covers every entry); before, the match itself."""
    if not kept_beside(match):
        return match
    return dict(match, **{kind: {name: {k: v for k, v in r.items() if k not in fields}
                                 for name, r in match[kind].items()}
                          for kind, fields in BESIDE.items() if kind in match})


def logged_in(match: dict[str, Any], seq: int) -> dict[str, dict[str, list[Any]]] | None:
    """What envelope ``seq`` added to the logs, in protocol 3 (None before: the logs are in the
    hashed state): ``{"private": {side: entries}, "decks": {deck: messages}}``, only what it
    added; what a ledger stores beside that state."""
    if not kept_beside(match):
        return None
    added: dict[str, dict[str, list[Any]]] = {}
    for side, r in sorted(match.get("private", {}).items()):
        first = _since(r["log"], seq, lambda e: e["envelope"])
        if first < len(r["log"]):
            added.setdefault("private", {})[side] = r["log"][first:]
    for deck, r in sorted(match.get("decks", {}).items()):
        first = _since(r["envelopes"], seq, lambda n: n)
        if first < len(r["log"]):
            added.setdefault("decks", {})[deck] = r["log"][first:]
    return added


def _since(entries: list[Any], seq: int, envelope: Any) -> int:
    """The index of the first of the last entries made by envelope ``seq`` (appended in order)."""
    first = len(entries)
    while first and envelope(entries[first - 1]) == seq:
        first -= 1
    return first


def with_logs(match: dict[str, Any], added: list[tuple[int, dict[str, dict[str, list[Any]]]]]) -> dict[str, Any]:
    """A stored protocol-3 state (``hashed``) with its logs put back from what each envelope up to
    it added (``logged_in``), as ``(seq, added)`` in envelope order; any other state as it is."""
    if not kept_beside(match):
        return match
    logs: dict[str, list[Any]] = {side: [] for side in match.get("private", {})}
    decks: dict[str, tuple[list[Any], list[int]]] = {deck: ([], []) for deck in match.get("decks", {})}
    for seq, rows in added:
        for side, entries in rows.get("private", {}).items():
            logs[side].extend(entries)
        for deck, messages in rows.get("decks", {}).items():
            decks[deck][0].extend(messages)
            decks[deck][1].extend([seq] * len(messages))
    out = dict(match)
    if "private" in match:
        out["private"] = {side: dict(r, log=logs[side]) for side, r in match["private"].items()}
    if "decks" in match:
        out["decks"] = {deck: dict(r, log=decks[deck][0], envelopes=decks[deck][1]) for deck, r in match["decks"].items()}
    return out


def match_hash(match: dict[str, Any]) -> str:
    """The state hash of a match: hex SHA-256 of the canonical JSON of what ``hashed`` keeps."""
    return state_hash(hashed(match))

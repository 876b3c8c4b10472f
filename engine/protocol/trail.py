"""What of a match state its hash covers and a ledger stores, and what is kept beside it.

Protocol 3 keeps each side's private log (``pbem_engine.hidden.private``) out of the hashed
state: the log grows with the history, and hashing it with every envelope made a long game's
total hashing grow with the square of its length. Each record keeps ``trail``, a running digest
of its log, in its place, so the state hash still covers every entry; the entries themselves
are stored by envelope beside the state (``logged_in``) and put back when a state is read
(``with_logs``). Earlier protocols keep the log in the hashed state: their histories keep
their hashes. Imports only ``pbem_engine.canonical``: ``match`` and the ledger's readers use it.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.canonical import state_hash


def kept_beside(match: dict[str, Any]) -> bool:
    """Whether ``match`` keeps its private logs beside its hashed state (protocol 3)."""
    return any("trail" in r for r in match.get("private", {}).values())


def hashed(match: dict[str, Any]) -> dict[str, Any]:
    """The match state as its hash covers it and a ledger stores it: in protocol 3 without the
    private logs, which grow with the history and are already in it (each record's ``trail``
    digests its log, so the hash still covers every entry); before, the match itself."""
    if not kept_beside(match):
        return match
    return dict(match, private={side: {k: v for k, v in r.items() if k != "log"}
                                for side, r in match["private"].items()})


def logged_in(match: dict[str, Any], seq: int) -> dict[str, list[dict[str, Any]]] | None:
    """What envelope ``seq`` added to each side's private log, in protocol 3 (None before: the
    log is in the hashed state): what a ledger stores beside that state."""
    if not kept_beside(match):
        return None
    added = {}
    for side, r in sorted(match["private"].items()):
        entries = r["log"]
        first = len(entries)
        while first and entries[first - 1]["envelope"] == seq:  # entries are appended in envelope order
            first -= 1
        if first < len(entries):
            added[side] = entries[first:]
    return added


def with_logs(match: dict[str, Any], added: list[dict[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    """A stored protocol-3 state (``hashed``) with its private logs put back from what each
    envelope up to it added (``logged_in``), in envelope order; any other state as it is."""
    if not kept_beside(match):
        return match
    logs: dict[str, list[dict[str, Any]]] = {side: [] for side in match["private"]}
    for rows in added:
        for side, entries in rows.items():
            logs[side].extend(entries)
    return dict(match, private={side: dict(r, log=logs[side]) for side, r in match["private"].items()})


def match_hash(match: dict[str, Any]) -> str:
    """The state hash of a match: hex SHA-256 of the canonical JSON of what ``hashed`` keeps."""
    return state_hash(hashed(match))

"""What of a match state its hash covers and a ledger stores, and what is kept beside it.

Protocol 3 keeps the logs that grow with the history out of the hashed state: each side's
private log (``pbem_engine.hidden.private``) and each shared deck's messages with the numbers of
the envelopes that made them (``pbem_engine.hidden.deck_table``). Hashing them with every
envelope made a long game's total hashing grow with the square of its length. Each record keeps
``trail``, a running digest of its log, in their place, so the state hash still covers every
entry; the entries themselves are stored by envelope beside the state (``logged_in``) and put
back when a state is read (``with_logs``). Earlier protocols keep the logs in the hashed state:
their histories keep their hashes.

Protocol 4 also takes out what is a function of those logs and grew with the game in protocol 3:
a side's ``opened`` items and, at the end, its ``chosen`` ones (each now an entry of its log,
``pbem_engine.hidden.private``), and each shuffle's locked cards, key hashes and released keys
(``deck``, ``hashes``, ``keys``: the shuffle's step messages, key releases and plays carry them,
in the deck's log).  Such a record names them in ``logged``; ``with_logs`` rebuilds them from the
log.  And a game's own maps whose
entries are only ever added (its ``frozen_entries``: the block game's eliminated and re-concealed
blocks) leave it the same way: ``match["frozen"]`` keeps, for each, a running digest of its
entries in the order added (``folded``), and the ledger stores each envelope's new entries.

Imports only ``pbem_engine.canonical``: ``match`` and the ledger's readers use it.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from pbem_engine.canonical import canonical_json, digest, state_hash

# what each kind of record keeps beside the hashed state
BESIDE = {"private": ("log",), "decks": ("log", "envelopes")}


def kept_beside(match: dict[str, Any]) -> bool:
    """Whether ``match`` keeps its logs beside its hashed state (protocol 3 and later)."""
    if "frozen" in match:
        return True
    for kind in BESIDE:
        records = match.get(kind)
        if records:  # every record of a match is made under the same protocol: one says it
            return "trail" in next(iter(records.values()))
    return False


def hashed(match: dict[str, Any]) -> dict[str, Any]:
    """The match state as its hash covers it and a ledger stores it: from protocol 3 without the
    logs, which grow with the history and are already in it (each record's ``trail`` digests its
    log, so the hash still covers every entry), and from protocol 4 without what the logs give
    (``logged``); before, the match itself."""
    if not kept_beside(match):
        return match
    out = dict(match, **{kind: {name: _hashed(kind, r, fields) for name, r in match[kind].items()}
                         for kind, fields in BESIDE.items() if kind in match})
    if "frozen" in match:  # the game's frozen maps: their digests are in match["frozen"]
        out["game"] = {k: v for k, v in match["game"].items() if k not in match["frozen"]}
    return out


# -- a game's frozen maps (protocol 4) ---------------------------------------------------------

def frozen_start(game_state: dict[str, Any], keys: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """``match["frozen"]`` before any entry is digested: one record for each of the game's frozen
    maps present in its first state (a map the game adds later stays in the hashed state)."""
    return {k: {"n": 0, "since": 0, "seq": 0, "trail": ""} for k in keys if type(game_state.get(k)) is dict}


def folded(match: dict[str, Any], seq: int) -> dict[str, dict[str, Any]]:
    """``match["frozen"]`` once envelope ``seq`` is applied: each map's entries added since the last
    one folded into its running digest, ``trail_i = hex(H("trail", trail_(i-1), C([key_i, value_i])))``,
    in the order they were added; ``n`` counts them, and the last envelope that added any, ``seq``,
    added those from ``since`` on (what ``logged_in`` stores).  Records unchanged are shared.

    :raises RuntimeError: a map lost entries (the game broke its frozen maps' promise)."""
    out = {}
    for key, rec in match["frozen"].items():
        entries = match["game"].get(key)
        n = len(entries) if type(entries) is dict else -1
        if n < rec["n"]:
            raise RuntimeError(f"the game's {key!r} lost entries: a frozen map only grows")
        if n == rec["n"]:
            out[key] = rec
            continue
        running = rec["trail"]
        for entry in islice(entries.items(), rec["n"], None):
            running = digest("trail", running, canonical_json(list(entry), strict=False)).hex()
        out[key] = {"n": n, "since": rec["n"], "seq": seq, "trail": running}
    return out


def _hashed(kind: str, record: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    logged = record.get("logged", ())
    out = {k: v for k, v in record.items() if k not in fields and (kind == "decks" or k not in logged)}
    if kind == "decks" and logged:  # each shuffle without its locked cards, key hashes and keys
        out["state"] = dict(record["state"], shuffles=[{k: v for k, v in sh.items() if k not in logged}
                                                       for sh in record["state"]["shuffles"]])
    return out


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
    for key, rec in sorted(match.get("frozen", {}).items()):
        if rec["seq"] == seq and rec["n"] > rec["since"]:  # in the order added: pairs, not an object
            added.setdefault("frozen", {})[key] = [list(e) for e in islice(match["game"][key].items(),
                                                                           rec["since"], rec["n"])]
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
    frozen: dict[str, dict[str, Any]] = {key: {} for key in match.get("frozen", {})}
    for seq, rows in added:
        for key, pairs in rows.get("frozen", {}).items():
            frozen[key].update(pairs)
        for side, entries in rows.get("private", {}).items():
            logs[side].extend(entries)
        for deck, messages in rows.get("decks", {}).items():
            decks[deck][0].extend(messages)
            decks[deck][1].extend([seq] * len(messages))
    out = dict(match)
    if frozen:
        out["game"] = dict(match["game"], **frozen)
    if "private" in match:
        out["private"] = {side: _private_back(dict(r, log=logs[side])) for side, r in match["private"].items()}
    if "decks" in match:
        out["decks"] = {deck: _deck_back(dict(r, log=decks[deck][0], envelopes=decks[deck][1]))
                        for deck, r in match["decks"].items()}
    return out


def _private_back(record: dict[str, Any]) -> dict[str, Any]:
    """A protocol-4 side's ``opened`` and ``chosen`` items, from its log's entries."""
    if not record.get("logged"):
        return record
    record["opened"] = {e["open"]: e["item"] for e in record["log"] if "open" in e}
    chosen = {tok: item for e in record["log"] if "chosen" in e for tok, item in e["chosen"].items()}
    if chosen:
        record["chosen"] = dict(sorted(chosen.items()))
    return record


STEPS = ("lock", "shuffle", "shuffle-rekey", "rekey")  # a shuffle's messages (pbem_engine.hidden.deck)


def _deck_back(record: dict[str, Any]) -> dict[str, Any]:
    """A protocol-4 deck's shuffles with their locked cards, key hashes and released keys, from its
    log: each step message carries the whole deck as it leaves it, a re-keying its author's key
    hashes, a key release (``[shuffle, position, key]`` each) or a play its author's keys."""
    if not record.get("logged"):
        return record
    shuffles = [dict(sh, deck=[], hashes={sh["first"]: [], sh["second"]: []}, keys={sh["first"]: {}, sh["second"]: {}})
                for sh in record["state"]["shuffles"]]
    for msg in record["log"]:
        op = msg["op"]
        if op in STEPS:
            sh = shuffles[msg["number"]]
            sh["deck"] = list(msg["deck"])
            if op in ("shuffle-rekey", "rekey"):
                sh["hashes"][msg["side"]] = list(msg["hashes"])
        elif op == "keys":
            for number, i, key in msg["keys"]:
                shuffles[number]["keys"][msg["side"]][str(i)] = key
        elif op == "play":
            shuffles[msg["ref"][0]]["keys"][msg["side"]][str(msg["ref"][1])] = msg["key"]
    record["state"] = dict(record["state"], shuffles=shuffles)
    return record


def match_hash(match: dict[str, Any]) -> str:
    """The state hash of a match: hex SHA-256 of the canonical JSON of what ``hashed`` keeps."""
    return state_hash(hashed(match))

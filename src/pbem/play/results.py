"""The end of a game: its result record, signed by each side, and a player's finished games as
one table for a league.

A result record says who won and how, in words every copy computes alike from the same history:
the rules module's outcome (winner, the result in the module's words, which names the victory
level where the rules have levels, and why), or in table-top mode the result a player ended the
game with, or a game lost on time as the invitation's clock agreed (``pbem.play.clock.forfeit``).
It names the final envelope by its hash, so anyone holding the history checks it with ``pbem
verify``.  It is made once nothing more is owed (every hidden item opened, a refereed game
disclosed).

Each side signs the record with its own key (Ed25519 over ``pbem/v1/result\\0`` + the canonical
JSON of the record): its tool does so when it signs the file that ends the game, or with ``pbem
result``.  ``result.json`` in the campaign folder holds the record and the signatures this copy
has; the other side's is added from its own ``result.json`` (``pbem result --add FILE``), checked
against its pinned key and against the record this copy computed.  Signed by every side, the
result is agreed: in table-top mode, where a player's own words end the game, that is the
agreement the result needs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem_engine.canonical import canonical_json

from ..chain import teams
from ..chain.history import pinned_key
from ..errors import PbemError
from ..store.files import atomic_write
from ..wire.keys import Identity

if TYPE_CHECKING:  # only for annotations: the campaign is handed in
    from .campaign import Campaign

RESULT_FILE = "result.json"
DOMAIN = b"pbem/v1/result\0"
MAX_FILE = 64 * 1024  # a result file from outside: a record and a few signatures
COLUMNS = ("game", "module", "title", "scenario", "mode", "you", "side", "opponents", "winner", "winner_name",
           "result", "reason", "how", "final_seq", "final_hash", "ended", "signed_by", "agreed", "folder")


def record(camp: Campaign) -> dict[str, Any] | None:
    """The result record of a finished game, as every copy computes it; None while anything is owed."""
    genesis = camp.genesis
    body = genesis["body"]
    if camp.waiting() is not None:
        from .clock import forfeit  # a game lost on time: only when something is still owed

        lost = forfeit(camp)
        if lost is None or lost["at_zero"] != "loss":
            return None
        outcome = {"winner": lost["claimed_by"], "result": f"{lost['claimed_by']} wins on time",
                   "reason": lost["result"]}
        how = "time"  # the game ended at the envelope the claim names, whatever the late side signed after
        final = (lost["seq"], (camp.ledger.envelope_index(lost["seq"]) or ("",))[0])
    else:
        outcome = camp.outcome()
        if outcome is None:  # a refereed game disclosed before its end, say
            return None
        how = "players" if genesis["engine"]["module"] == "tabletop" else "rules"
    head = final if how == "time" else camp.ledger.head()
    assert head is not None
    names = {side: entry["name"] for side, entry in sorted(body["sides"].items())}
    out = {"v": 1, "game": genesis["game"], "module": genesis["engine"]["module"],
           "module_version": genesis["engine"]["module_version"], "title": camp.game.title,
           "scenario": body["scenario"], "mode": body["mode"],
           "sides": {side: {"name": names[side], "key": body["sides"][side]["key"]} for side in names},
           "winner": outcome["winner"], "result": outcome["result"], "reason": outcome["reason"] or "",
           "how": how, "final": {"seq": head[0], "hash": head[1]}}
    if body.get("mode") == "referee":
        out["referee"] = {"name": body["referee"]["name"], "key": body["referee"]["key"]}
    return out


def signers(camp: Campaign) -> list[str]:
    """Who may sign the record: every side, and a refereed game's referee."""
    body = camp.genesis["body"]
    return sorted(body["sides"]) + (["referee"] if body.get("mode") == "referee" else [])


def held(camp: Campaign) -> dict[str, Any]:
    """``result.json`` as this copy holds it, its signatures checked: {"record", "signatures"}, or {}."""
    path = camp.dir / RESULT_FILE
    if not path.exists():
        return {}
    try:
        data = _parse(path.read_bytes(), str(path))
        rec = record(camp)
        if data["record"] != rec:
            return {}
        return {"record": rec, "signatures": _checked(camp, rec, data["signatures"], str(path))}
    except PbemError:  # a damaged file is made again by the next signature
        return {}


def sign(camp: Campaign, identity: Identity) -> dict[str, Any]:
    """Sign the record with our key (once) and keep it in ``result.json``; what it holds now.

    :raises PbemError: ``not-over`` (nothing to sign yet), ``wrong-key``."""
    rec = record(camp)
    if rec is None:
        raise PbemError("the game is not over", "a result is signed once nothing more is owed (pbem status)",
                        code="not-over")
    teams.refuse_non_commander(camp.genesis, camp.side, identity.public, pinned_key(camp.genesis, camp.side),
                               "its result")
    now = held(camp) or {"record": rec, "signatures": {}}
    if camp.side not in now["signatures"]:
        now["signatures"][camp.side] = identity.sign(DOMAIN + canonical_json(rec)).hex()
        _write(camp, now)
    return now


def signed_at_end(camp: Campaign, identity: Identity, played: Any) -> Any:
    """After ``play`` (``played``, its result): if our file ended the game, we sign its result."""
    # a team member's copy leaves the result to the side's commander: its key is the one pinned for it
    if played.envelope is not None and identity.public == pinned_key(camp.genesis, camp.side) \
            and camp.waiting() is None and record(camp) is not None:
        sign(camp, identity)
    return played


def add(camp: Campaign, data: bytes, source: str) -> list[str]:
    """Add the signatures in another copy's ``result.json`` to ours; the sides that signed, all told.

    :raises PbemError: ``not-over``; ``bad-result``: not a result file, another game or result,
        a signature that does not check against its side's pinned key."""
    rec = record(camp)
    if rec is None:
        raise PbemError("the game is not over here", "ingest the last turn files first", code="not-over")
    theirs = _parse(data, source)
    if theirs["record"] != rec:
        differ = sorted(k for k in set(rec) | set(theirs["record"]) if rec.get(k) != theirs["record"].get(k))
        raise PbemError("that result is not the one this copy computed",
                        f"{source}: {', '.join(differ[:4])} differ; both copies must hold the whole history "
                        "(pbem verify)", code="bad-result")
    now = held(camp) or {"record": rec, "signatures": {}}
    now["signatures"].update(_checked(camp, rec, theirs["signatures"], source))
    _write(camp, now)
    return sorted(now["signatures"])


def _parse(data: bytes, source: str) -> dict[str, Any]:
    if len(data) > MAX_FILE:
        raise PbemError("not a result file", f"{source}: over {MAX_FILE} bytes", code="bad-result")
    try:
        parsed = json.loads(data)
    except ValueError:
        raise PbemError("not a result file", f"{source}: not JSON", code="bad-result") from None
    if not (isinstance(parsed, dict) and isinstance(parsed.get("record"), dict)
            and isinstance(parsed.get("signatures"), dict)):
        raise PbemError("not a result file", f"{source}: expected a record and its signatures", code="bad-result")
    return parsed


def _checked(camp: Campaign, rec: dict[str, Any], signatures: dict[str, Any], source: str) -> dict[str, str]:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    message = DOMAIN + canonical_json(rec)
    out = {}
    for side, signature in sorted(signatures.items()):
        key = pinned_key(camp.genesis, side) if side in signers(camp) else None
        try:
            if key is None or not isinstance(signature, str):
                raise ValueError(side)
            Ed25519PublicKey.from_public_bytes(key).verify(bytes.fromhex(signature), message)
        except (InvalidSignature, ValueError):
            raise PbemError("a signature of the result does not check", f"{source}: {str(side)[:40]}'s, against "
                            "its key pinned in the invitation", code="bad-result") from None
        out[side] = signature
    return out


def _write(camp: Campaign, data: dict[str, Any]) -> None:
    atomic_write(camp.dir / RESULT_FILE, json.dumps(data, indent=1, sort_keys=True) + "\n")


# --- a player's finished games --------------------------------------------------------

def finished(home: Path, opener: Any) -> list[dict[str, Any]]:
    """A row for every finished game recorded under ``home`` (``opener(path)`` opens a campaign
    read only), oldest first: the record, the signatures held, and this player's side."""
    from ..store.games import known  # the rest of this module is loaded by every pbem play

    rows = []
    for directory in known(home):
        try:
            camp = opener(directory)
        except PbemError:
            continue
        try:
            rec = record(camp)
            if rec is None:
                continue
            signed = held(camp).get("signatures", {})
            rows.append({"record": rec, "signatures": signed, "you": camp.identity_name, "side": camp.side,
                         "ended": camp.ledger.received_at(rec["final"]["seq"]) or "",
                         "agreed": sorted(signed) == signers(camp), "folder": str(directory)})
        except PbemError:
            continue
        finally:
            camp.ledger.close()
    return rows


def as_csv(rows: list[dict[str, Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        rec = row["record"]
        names = {side: entry["name"] for side, entry in rec["sides"].items()}
        writer.writerow([rec["game"], rec["module"], rec["title"], rec["scenario"], rec["mode"], row["you"],
                         row["side"], "; ".join(f"{n} ({s})" for s, n in names.items() if s != row["side"]),
                         rec["winner"] or "", names.get(rec["winner"], ""), rec["result"], rec["reason"],
                         rec["how"], rec["final"]["seq"], rec["final"]["hash"], row["ended"],
                         " ".join(sorted(row["signatures"])), "yes" if row["agreed"] else "no", row["folder"]])
    return out.getvalue()


def as_json(rows: list[dict[str, Any]]) -> str:
    return json.dumps([dict(row, signatures=dict(sorted(row["signatures"].items()))) for row in rows],
                      indent=1, sort_keys=True) + "\n"

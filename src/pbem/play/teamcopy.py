"""A team member's copy of a side's campaign (``pbem team export`` / ``pbem team import``).

The side's player (or any member holding a copy) exports the history and the side's secrets,
the secrets sealed to one member's key pinned in the invitation (``pbem.chain.teams``).  The
member's tool re-checks the whole history from the genesis, opens the secrets with its own key,
and checks them against what the side committed (the next link it would reveal must hash to the
side's last revealed link, its private secret to the side's private anchor) before anything is
written: a copy made from a damaged or foreign export is refused, and no campaign is left behind.

In a refereed game the side's secrets include its box key, which opens the views the referee
seals to the side, and the copy carries those views (``views``: each view block as the referee
signed it), checked against the commitments of the history and opened with that key before the
copy is written: a member reads the side's views, and no other side's, which are sealed to keys
it never holds.

The functions take the campaign class as ``cls`` (``pbem.play.campaign`` would be a cycle).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem_engine.canonical import NotCanonical, canonical_json, parse_json
from pbem_engine.protocol import chain as chain_mod

from ..chain import history, teams
from ..errors import PbemError, RefusedTurn
from ..wire.armor import find_blocks
from ..wire.envelope import open_block
from ..wire.keys import Identity
from . import chains

if TYPE_CHECKING:
    from .campaign import Campaign

KIND = "pbem-team-copy"
FORMAT = 1
MAX_BYTES = 64 * 1024 * 1024  # a long game's history: some thousands of turn files of a few KB


def _refuse(what: str, detail: str) -> None:
    raise RefusedTurn(what, detail, code="bad-team-copy")


def team_of(genesis: dict[str, Any], side: str) -> list[dict[str, str]]:
    """Who plays ``side`` ({name, key}): its player (the commander) then its members; only the
    player for a side of one."""
    entry = genesis["body"]["sides"][side]
    members = teams.members(genesis, side)
    return [{"name": entry["name"], "key": entry["key"]}, *members] if members else []


def export(camp: Campaign, to: str) -> tuple[str, dict[str, str]]:
    """The text of a copy of ``camp`` for ``to`` (a name or a fingerprint): a member of its side, or
    its player (a member's copy hands back what only it holds: a renewed chain, items it hid by
    choice); and that person's entry.

    :raises PbemError: ``not-member`` (no such member of this side), ``no-secrets``."""
    from ..wire.keys import fingerprint

    genesis = camp.genesis
    listed = team_of(genesis, camp.side)
    found = [m for m in listed if to in (m["name"], fingerprint(teams.key_bytes(m["key"])))]
    if not found:
        names = ", ".join(m["name"] for m in listed) or "none (the invitation names no members)"
        raise PbemError(f"{to!r} is not on {camp.side}'s team", f"its team: {names}", code="not-member")
    member = found[0]
    key = teams.key_bytes(member["key"])
    texts = [camp.ledger.raw(seq) for seq in range(camp.ledger.head()[0] + 1)]
    if any(t is None for t in texts):
        raise PbemError("this campaign's history has a gap", "pbem verify names it", code="gap")
    secrets = canonical_json(camp.chain_secrets(), strict=False)
    doc = {"kind": KIND, "v": FORMAT, "game": genesis["game"], "side": camp.side, "member": member["name"],
           "history": texts, "secrets": teams.seal_secrets(genesis["game"], camp.side, key, secrets)}
    if camp.refereed:  # the side's views, as the referee signed them (only the side's box key opens them)
        doc["views"] = [raw for _, _, side, raw, _ in camp.ledger.views(camp.side) if side == camp.side]
    return json.dumps(doc, indent=1, sort_keys=True) + "\n", member


def _read(text: str) -> dict[str, Any]:
    if len(text) > MAX_BYTES:
        _refuse("team copy too large", f"more than {MAX_BYTES // 2**20} MB")
    try:
        doc = json.loads(text)
    except ValueError as e:
        _refuse("not a team copy", f"it is not JSON: {e}")
    fields = {"kind", "v", "game", "side", "member", "history", "secrets"}
    if not isinstance(doc, dict) or doc.get("kind") != KIND or set(doc) - {"views"} != fields:
        _refuse("not a team copy", "pbem team export writes one")
    if "views" in doc and not (isinstance(doc["views"], list) and all(isinstance(t, str) for t in doc["views"])):
        _refuse("not a team copy", "its views must be a list of view blocks")
    if type(doc["v"]) is not int or doc["v"] != FORMAT or not all(isinstance(doc[k], str) for k in ("game", "side", "member")):
        _refuse("unsupported team copy", f"format {doc['v']!r}; this pbem reads format {FORMAT}")
    if not isinstance(doc["history"], list) or not doc["history"] or not all(isinstance(t, str) for t in doc["history"]):
        _refuse("not a team copy", "its history must be a list of turn files, the genesis first")
    return doc


def replayed(doc: dict[str, Any]) -> tuple[dict[str, Any], list[history.Applied]]:
    """Every envelope of the copy's history checked from its genesis, in order: (genesis content, applied)."""
    applied: list[history.Applied] = []
    genesis: dict[str, Any] | None = None
    for n, text in enumerate(doc["history"]):
        blocks = find_blocks(text)
        if len(blocks) != 1:
            _refuse("damaged team copy", f"its history's entry {n} is not one turn file")
        env = open_block(blocks[0])
        if env.seq != n:
            _refuse("damaged team copy", f"its history's entry {n} is envelope #{env.seq}")
        prev = applied[-1] if applied else None
        applied.append(history.apply(env, genesis, prev.match if prev else None,
                                     (prev.envelope.seq, prev.envelope.hash) if prev else None))
        genesis = genesis or env.content
    assert genesis is not None
    if ("views" in doc) != (genesis["body"].get("mode") == "referee"):
        _refuse("damaged team copy", "the views of a refereed game come with its copy, and only with it")
    return genesis, applied


def _check_secrets(data: dict[str, Any], genesis: dict[str, Any], side: str, match: dict[str, Any],
                   private_anchor: str | None = None) -> None:
    """The opened secrets are the side's: its next link hashes to its last revealed one, and its private
    secret (a game with hidden pools) to its private anchor; in a refereed game its box key is the one
    it joined with, and ``private_anchor`` is the anchor its views record."""
    from ..store.vault import secrets_problem

    problem = secrets_problem(data, genesis["game"], side)
    chosen, renewals = data.get("chosen") or {}, data.get("renewals") or []
    if not (isinstance(chosen, dict) and all(isinstance(v, str) for v in chosen.values())
            and isinstance(renewals, list) and all(isinstance(r, dict) for r in renewals)):
        problem = problem or "its items hidden by choice or its renewed chains are not what pbem writes"
    if problem:
        _refuse("the team copy's secrets are not this side's", problem)
    refereed = "public" in match  # a refereed game: the chains everyone checks are the public state's
    if refereed:
        from ..chain.referee import box_check

        box = (match["public"].get("boxes") or {}).get(side)
        if not isinstance(data.get("box"), str) or box is None or not box_check(genesis["game"], bytes.fromhex(data["box"]), box):
            _refuse("the team copy's secrets are not this side's", f"their box key is not the one {side} joined with")
        match = match["public"]
    record = (match.get("chains") or {}).get(side)
    if record is None:
        _refuse("the team copy is from before the side joined", f"{side} has no chain yet: export after its join")
    chain = chains.chain_for(data, record["index"] + 1)
    local = record["index"] + 1 - chain["from"]
    try:
        checkpoints = [bytes.fromhex(c) for c in chain["checkpoints"]]
        link = chain_mod.next_link(genesis["game"], side, bytes.fromhex(chain["secret"]), chain["length"], local,
                                   checkpoints, record.get("renewed", record["link"]))
    except (TypeError, ValueError):
        link = b""
    if local > chain["length"] or chain_mod.reveal_problem(genesis["game"], side, record, link.hex()) is not None:
        _refuse("the team copy's secrets are not this side's", f"they do not give {side}'s next chain link")
    hidden = data.get("private")
    anchor = (match.get("private") or {}).get(side, {}).get("anchor") if isinstance(match.get("private"), dict) else None
    if refereed:  # the anchor the side's join committed to, as the referee's views record it
        anchor = private_anchor
    if hidden and anchor:
        from pbem_engine.hidden.private import anchor as anchor_of

        if anchor_of(genesis["game"], side, bytes.fromhex(hidden)) != anchor:
            _refuse("the team copy's secrets are not this side's", f"the private secret is not {side}'s")


def seed_of(identity: Identity) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return identity.private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                          serialization.NoEncryption())


def _opened(doc: dict[str, Any], genesis: dict[str, Any], identity: Identity) -> dict[str, Any]:
    """The copy's secrets, opened with ``identity``'s key (its player's or a member's)."""
    side = doc["side"]
    if not any(teams.key_bytes(m["key"]) == identity.public for m in team_of(genesis, side)):
        raise PbemError(f"'{identity.name}' is not on {side}'s team in this game",
                        f"{identity.fingerprint} is not among the keys the invitation names for it", code="not-member")
    plain = teams.open_secrets(genesis["game"], side, seed_of(identity), identity.public, doc["secrets"])
    try:
        data = parse_json(plain.rstrip(b" "))
    except NotCanonical as e:
        _refuse("damaged team copy", f"its secrets: {e}")
    if not isinstance(data, dict):
        _refuse("damaged team copy", "its secrets are not an object")
    return data


def update(camp: Campaign, text: str, identity: Identity) -> int:
    """Bring an existing copy of the side up to a team copy: the envelopes it lacks ingested (each
    checked as any file), and the secrets merged (a renewed chain, the items hidden by choice),
    checked against the side's commitments first.  Returns the envelopes added.

    :raises PbemError: ``bad-team-copy`` (another game or side), ``not-member``, ``bad-box``, or
        the ingest's own refusal: nothing is changed then."""
    doc = _read(text)
    genesis, applied = replayed(doc)
    if genesis["game"] != camp.genesis["game"] or doc["side"] != camp.side:
        _refuse("a team copy of another game or side", f"it is {doc['side']}'s in game {genesis['game']}; this "
                f"campaign is {camp.side}'s in {camp.genesis['game']}")
    data = _opened(doc, genesis, identity)
    views = _views(doc, genesis, camp.side, applied, data)
    _check_secrets(data, genesis, camp.side, applied[-1].match, _recorded_anchor(views, camp.side))  # its shape
    ours = camp.chain_secrets()
    renewals = {r["from"]: r for r in [*(ours.get("renewals") or []), *(data.get("renewals") or [])]
                if isinstance(r, dict) and isinstance(r.get("from"), int)}
    merged = dict(data, chosen={**(ours.get("chosen") or {}), **(data.get("chosen") or {})},
                  renewals=[renewals[k] for k in sorted(renewals)])
    if not merged["chosen"]:
        del merged["chosen"]
    if not merged["renewals"]:
        del merged["renewals"]
    head = camp.ledger.head()[0]
    newer = doc["history"][head + 1:]
    _check_secrets(merged, genesis, camp.side, applied[-1].match if newer else camp.match(),
                   _recorded_anchor(views, camp.side))
    if newer:  # a refereed game's views with them (those already held are skipped)
        camp.ingest([(f"team copy #{head + 1 + n}", t) for n, t in enumerate(newer)]
                    + [(f"team copy view #{v.seq}", v.raw) for v, _, _ in views if v.seq > head])
    camp.chain_secrets(keep=merged)
    return len(newer)


def import_copy(cls: type[Campaign], directory: Path, text: str, identity: Identity,
                lock: bytes | None = None) -> tuple[Campaign, str]:
    """A member's campaign from an export: checked whole before anything is written.  Returns the
    campaign and its side.

    :raises PbemError: ``bad-team-copy``, ``not-member``, ``bad-box``, or the history's own refusal."""
    doc = _read(text)
    genesis, applied = replayed(doc)
    side = doc["side"]
    if genesis["game"] != doc["game"] or side not in genesis["body"]["sides"]:
        _refuse("damaged team copy", "its game or side is not its history's")
    data = _opened(doc, genesis, identity)
    views = _views(doc, genesis, side, applied, data)
    _check_secrets(data, genesis, side, applied[-1].match, _recorded_anchor(views, side))
    hidden = bytes.fromhex(data["private"]) if data.get("private") else None
    extra = {k: v for k, v in data.items() if k not in ("game", "side", "secret", "length", "checkpoints", "private")}
    camp = cls.start_new(directory, side, identity.name, genesis["game"], bytes.fromhex(data["secret"]),
                         data["length"], hidden, lock, extra)
    camp.store(applied, [], views, owed=[])
    return camp, side


def _views(doc: dict[str, Any], genesis: dict[str, Any], side: str, applied: list[history.Applied],
           data: dict[str, Any]) -> list:
    """A refereed copy's views of the side, checked against the history and opened with the side's box
    key (``pbem.play.refereeing.team_views``); none in a two-player game."""
    if "views" not in doc:
        return []
    from .refereeing import team_views

    if not isinstance(data.get("box"), str):
        _refuse("the team copy's secrets are not this side's", "they hold no box key to open the side's views")
    try:
        box = bytes.fromhex(data["box"])
    except ValueError:
        _refuse("the team copy's secrets are not this side's", "their box key is not hex")
    return team_views(genesis, side, applied, doc["views"], box)


def _recorded_anchor(views: list, side: str) -> str | None:
    """The private anchor of ``side`` its latest view records (a refereed game with hidden pools)."""
    if not views:
        return None
    record = (json.loads(views[-1][2]).get("private") or {}).get(side)
    return record.get("anchor") if isinstance(record, dict) else None

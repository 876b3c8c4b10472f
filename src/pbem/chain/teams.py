"""Team games: a side played by several people, each with a key pinned in the invitation.

A side entry of a genesis may carry ``members: [{"name", "key"}, ...]`` (the people who play the
side besides its named player, its commander) and ``signs``: ``"commander"`` (only the side's own
``key`` signs its turn files; the members follow the game with the side's view and verify it) or
``"any"`` (any member's key signs for the side as well).  A side without ``members`` is a side as
before: one key, so every older campaign and golden game reads byte for byte as it did.

Every turn file names its signer: the payload carries the signing public key (``Signer:`` in the
armor is its fingerprint, checked against it), and a signature verifies under that key alone, so
the check is whether that key may sign for the envelope's author side (``may_sign``).

The side's hash chain and private secret are the side's, not a member's: ``seal_secrets`` seals
them to one member's pinned key (X25519 from its Ed25519 key, ``pbem.chain.referee.seal_box``),
so that a member's copy can reveal the side's next link (``pbem team export`` / ``import``).

In a refereed game the same holds, and a member's turn carries the side's orders sealed to the
referee: the referee's tool and every copy accept it as the side's where ``signs`` is ``"any"``
(``may_sign``).  The side's secrets then include its box key, so a member reads the views the
referee seals to the side, and never another side's (``pbem.play.teamcopy``).
"""

from __future__ import annotations

import base64
import functools
import re
from typing import Any

from ..errors import PbemError, RefusedTurn
from ..wire.keys import small_order
from . import referee

SIGNS = ("commander", "any")
MAX_MEMBERS = 7  # besides the commander: a side of eight
NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")  # a member's name goes in a file name (PBEM_HOME, mail)
PURPOSE = "team"  # the sealed secrets' purpose (its key derivation and associated data)


def _refuse(what: str) -> None:
    raise RefusedTurn("invitation refused", what, code="bad-genesis")


@functools.lru_cache(maxsize=64)
def key_bytes(text: str) -> bytes:
    """A key pinned in the genesis (base64, checked by ``check``) as bytes."""
    return base64.b64decode(text)


def members(genesis: dict[str, Any], side: str) -> list[dict[str, str]]:
    """The members of ``side`` besides its commander ({name, key}); none for a side of one."""
    entry = (genesis["body"].get("sides") or {}).get(side)
    return list(entry.get("members") or []) if isinstance(entry, dict) else []


def signs(genesis: dict[str, Any], side: str) -> str:
    """Who signs for ``side``: "commander" (its named player only) or "any" (any member too)."""
    entry = (genesis["body"].get("sides") or {}).get(side)
    return entry.get("signs", "commander") if isinstance(entry, dict) else "commander"


def member_signs(genesis: dict[str, Any], side: str, public: bytes) -> bool:
    """Whether ``public`` is a member of ``side`` who may sign for it (not its commander: the caller
    compares the pinned key first, the one path every older history takes)."""
    if signs(genesis, side) != "any":
        return False
    return any(key_bytes(m["key"]) == public for m in members(genesis, side))


def member_named(genesis: dict[str, Any], side: str, public: bytes) -> str | None:
    """The name of ``side``'s member whose key is ``public``, or None."""
    for m in members(genesis, side):
        if key_bytes(m["key"]) == public:
            return m["name"]
    return None


def side_of_member(genesis: dict[str, Any], public: bytes) -> tuple[str, str] | None:
    """(side, member name) of the member whose key is ``public``, or None."""
    for side in sorted(genesis["body"].get("sides") or {}):
        name = member_named(genesis, side, public)
        if name is not None:
            return side, name
    return None


def may_sign(genesis: dict[str, Any], side: str, public: bytes, pinned: bytes | None) -> bool:
    """Whether ``public`` may sign for ``side`` (``pinned``: the side's own key)."""
    return pinned is not None and (public == pinned or member_signs(genesis, side, public))


def refuse_signer(genesis: dict[str, Any], side: str, public: bytes, pinned: bytes | None, plays: str) -> None:
    """Before signing for ``side`` with ``public``: a clear refusal if that key may not.

    :raises PbemError: ``wrong-key`` (a member whose side only its commander signs for says so)."""
    if may_sign(genesis, side, public, pinned):
        return
    name = member_named(genesis, side, public)
    if name is not None:
        raise PbemError(f"only {side}'s commander signs its turn files", f"{name} is a member of {side}: the "
                        "invitation says signs=commander, so this copy follows and verifies the game", code="wrong-key")
    raise PbemError("wrong identity for this campaign", f"{side} plays with '{plays}'", code="wrong-key")


def refuse_non_commander(genesis: dict[str, Any], side: str, public: bytes, pinned: bytes | None, what: str) -> None:
    """Before signing ``what`` for ``side`` (a take-back, a leave notice, a result): only the side's
    own key signs anything but its turns (spec 20), so a member is told whose it is to sign.

    :raises PbemError: ``wrong-key``."""
    if pinned is not None and public == pinned:
        return
    name, plays = member_named(genesis, side, public), genesis["body"]["sides"][side].get("name", side)
    if name is not None:
        raise PbemError(f"only {side}'s commander signs {what}", f"{name} is a member of {side}: ask {plays}, "
                        "whose key the invitation pins for the side", code="wrong-key")
    raise PbemError("wrong identity for this campaign", f"{side} plays with '{plays}'", code="wrong-key")


def pin(body: dict[str, Any], game_name: str, teams: dict[str, list[dict[str, str]]] | None, signs: str) -> None:
    """Put each team (``{side: [{name, key}]}``) and who signs for it into a genesis ``body`` being
    made (its ``sides`` already named).

    :raises PbemError: ``bad-side``, a team for a side the game has not."""
    for side, team in sorted((teams or {}).items()):
        if side not in body["sides"]:
            raise PbemError(f"{game_name} has no side '{side}'", f"sides: {', '.join(body['sides'])}", code="bad-side")
        body["sides"][side].update(members=team, signs=signs)


def check(body: dict[str, Any]) -> None:
    """The ``members`` and ``signs`` of each side entry, if any: 1 to ``MAX_MEMBERS`` members, each
    exactly a name and an Ed25519 key; no key pinned twice in the genesis (a side's, a member's, a
    witness's, the referee's), no name twice in a side.

    :raises RefusedTurn: ``bad-genesis``, naming what is wrong."""
    sides = body.get("sides") or {}
    teams = {side: entry for side, entry in sides.items() if "members" in entry or "signs" in entry}
    if not teams:
        return
    seen = [entry.get("key") for entry in sides.values()] + [w.get("key") for w in body.get("witnesses") or []
                                                             if isinstance(w, dict)]
    if isinstance(body.get("referee"), dict):
        seen.append(body["referee"].get("key"))
    for side, entry in sorted(teams.items()):
        listed = entry.get("members")
        if entry.get("signs") not in SIGNS:
            _refuse(f"side {side}: 'signs' must be one of {', '.join(SIGNS)}")
        if not isinstance(listed, list) or not 1 <= len(listed) <= MAX_MEMBERS:
            _refuse(f"side {side}: 'members' must list 1 to {MAX_MEMBERS} members")
        names = {entry.get("name")}
        for member in listed:
            if not isinstance(member, dict) or set(member) != {"name", "key"}:
                _refuse(f"side {side}: each member must give exactly a 'name' and a 'key'")
            name, text = member["name"], member["key"]
            if not (isinstance(name, str) and NAME.match(name)) or name in names:
                _refuse(f"side {side}: member name {name!r} must be 1-32 lowercase letters, digits, '-' or '_', "
                        "once in the side")
            try:
                key = base64.b64decode(text, validate=True) if isinstance(text, str) else b""
            except ValueError:
                key = b""
            if len(key) != 32 or small_order(key):
                _refuse(f"side {side}: member {name}'s 'key' must be an Ed25519 public key (32 bytes, base64)")
            if text in seen:
                _refuse(f"side {side}: member {name}'s key is pinned twice in the invitation")
            names.add(name)
            seen.append(text)


def terms(genesis: dict[str, Any], fingerprint) -> list[str]:
    """Each team side's members as a joiner reads them, and who signs for it."""
    lines = []
    for side in sorted(genesis["body"].get("sides") or {}):
        for m in members(genesis, side):
            may = "may sign for the side" if signs(genesis, side) == "any" else "follows; only the commander signs"
            lines.append(f"{side:8} member {m['name']} (key {fingerprint(key_bytes(m['key']))}): {may}")
    return lines


# --- the side's secrets, sealed to a member ------------------------------------

def _x25519_public(ed25519_public: bytes) -> bytes:
    from nacl.bindings import crypto_sign_ed25519_pk_to_curve25519

    return crypto_sign_ed25519_pk_to_curve25519(ed25519_public)


def _aad(game_id: str, side: str, member: bytes) -> bytes:
    return f"pbem/v1/team|{game_id}|{side}|".encode() + member


def seal_secrets(game_id: str, side: str, member: bytes, plaintext: bytes) -> dict[str, str]:
    """The side's secrets (canonical JSON) sealed to member key ``member`` (its Ed25519 public key)."""
    return referee.seal_box(_x25519_public(member), plaintext, game_id, PURPOSE, _aad(game_id, side, member))


def open_secrets(game_id: str, side: str, seed: bytes, member: bytes, box: Any) -> bytes:
    """Open what ``seal_secrets`` sealed, with the member's Ed25519 seed.

    :raises RefusedTurn: ``bad-box`` (another member's copy, or changed after sealing)."""
    from nacl.bindings import crypto_sign_ed25519_sk_to_curve25519

    private = crypto_sign_ed25519_sk_to_curve25519(seed + member)
    return referee.open_box(private, box, game_id, PURPOSE, _aad(game_id, side, member))

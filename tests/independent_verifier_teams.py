"""Team sides for the independent verifier (tests/independent_verifier.py), written from docs/spec.md
section 20 alone: the standard library only, and the verifier's own refusal handed in, so that
neither module imports the other's names.

A side entry of a genesis may carry ``members`` (1 to 7 objects, each exactly a name and a 32-byte
key) and ``signs`` ("commander" or "any"), together, in a genesis of any mode (20.1: refereed
too); no key is pinned twice in the genesis (a side's, a member's, a witness's, the referee's), no
name twice in a side.  A chain
envelope of kind ``turn`` by such a side is well signed by the side's own key or, where
``signs`` is "any", by a member's; any other kind only by the side's own key.  Like the verifier's check of
the sides' keys, it leaves the small-order test to pbem (section 6).
"""

from __future__ import annotations

import base64
import re
from typing import Any

NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
MOST = 7


def _bytes(text: Any) -> bytes:
    try:
        return base64.b64decode(text, validate=True) if isinstance(text, str) else b""
    except ValueError:
        return b""


def check(genesis: dict[str, Any], refused: type[Exception]) -> dict[str, Any]:
    """``genesis`` (its content) if every side's ``members``/``signs`` are absent or as section 20 says.

    :raises refused: ``bad-genesis`` (``refused(code, reason, seq)``)."""
    body = genesis["body"]
    sides = body.get("sides", {})
    pinned = [entry.get("key") for entry in sides.values() if isinstance(entry, dict)]
    pinned += [w.get("key") for w in body.get("witnesses") or [] if isinstance(w, dict)]
    if isinstance(body.get("referee"), dict):
        pinned.append(body["referee"].get("key"))
    for side, entry in sorted(sides.items()):
        if not isinstance(entry, dict) or not ({"members", "signs"} & set(entry)):
            continue

        def bad(why: str, side: str = side) -> Exception:
            return refused("bad-genesis", f"side {side}: {why}", 0)

        if body.get("mode") not in ("sealed", "unsealed", "referee"):
            raise bad("a game of mode sealed, unsealed or referee")
        if entry.get("signs") not in ("commander", "any"):
            raise bad("signs is 'commander' or 'any'")
        members = entry.get("members")
        if not isinstance(members, list) or not 1 <= len(members) <= MOST:
            raise bad(f"members: a list of 1 to {MOST}")
        names = {entry.get("name")}
        for member in members:
            if not isinstance(member, dict) or set(member) != {"name", "key"}:
                raise bad("each member exactly a name and a key")
            if not isinstance(member["name"], str) or not NAME.fullmatch(member["name"]) or member["name"] in names:
                raise bad(f"a member name like a side's, once in the side: {member['name']!r}")
            if len(_bytes(member["key"])) != 32 or pinned.count(member["key"]):
                raise bad(f"member {member['name']}: a 32-byte key pinned once in the genesis")
            names.add(member["name"])
            pinned.append(member["key"])
    return genesis


def member_signs(genesis: dict[str, Any], side: str, kind: str, public: bytes) -> bool:
    """Whether ``public``, not the side's own key, may sign a ``kind`` envelope for ``side``."""
    entry = genesis["body"].get("sides", {}).get(side)
    if not isinstance(entry, dict) or entry.get("signs") != "any" or kind != "turn":
        return False
    return any(_bytes(member.get("key")) == public for member in entry.get("members", []))

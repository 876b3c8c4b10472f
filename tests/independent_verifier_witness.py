"""Witnesses for the independent verifier (tests/independent_verifier.py), written from docs/spec.md
section 19 alone: the standard library only, and the verifier's own refusal handed in, so that
neither module imports the other's names.

A genesis may name witnesses, who author nothing: the verifier checks the member's shape (a list
of 1 to 8 objects, each exactly a name and a 32-byte key, no name or key twice, no side's key nor
the referee's, no side named ``witness``) and otherwise reads the history as one without witnesses
(an envelope by a witness is refused as by an unknown author, section 5.3).  In a refereed game the
adjudications also commit to the witnesses' view (section 19.1, checked by the referee verifier's
public state); ``check_view`` checks a witness view block against it.  Like the verifier's check
of the sides' keys, it leaves the small-order test to pbem (section 6).
"""

from __future__ import annotations

import base64
import re
from typing import Any

NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
MOST = 8


def check(genesis: dict[str, Any], refused: type[Exception]) -> dict[str, Any]:
    """``genesis`` (its content) if its ``witnesses`` member is absent or as section 19 says.

    :raises refused: ``bad-genesis`` (``refused(code, reason, seq)``)."""
    body = genesis["body"]
    if "witnesses" not in body:
        return genesis
    entries = body["witnesses"]

    def bad(why: str) -> Exception:
        return refused("bad-genesis", f"witnesses: {why}", 0)

    if body.get("mode") not in ("sealed", "unsealed", "referee"):
        raise bad("in a game of mode sealed, unsealed or referee")
    if not isinstance(entries, list) or not 1 <= len(entries) <= MOST:
        raise bad(f"a list of 1 to {MOST}")
    if "witness" in body.get("sides", {}):
        raise bad("no side may be named 'witness'")
    names: set[str] = set()
    keys = {entry.get("key") for entry in body.get("sides", {}).values() if isinstance(entry, dict)}
    if isinstance(body.get("referee"), dict):
        keys.add(body["referee"].get("key"))
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) != {"name", "key"}:
            raise bad("each exactly a name and a key")
        if not isinstance(entry["name"], str) or not NAME.fullmatch(entry["name"]) or entry["name"] in names:
            raise bad(f"a name like a side's, once each: {entry['name']!r}")
        try:
            key = base64.b64decode(entry["key"], validate=True) if isinstance(entry["key"], str) else b""
        except ValueError:
            key = b""
        if len(key) != 32 or entry["key"] in keys:
            raise bad(f"{entry['name']}: a 32-byte key, no side's and no other witness's")
        names.add(entry["name"])
        keys.add(entry["key"])
    return genesis


def check_view(view: Any, adjudication: Any, referee_key: bytes, canonical, refused: type[Exception]) -> dict[str, Any]:
    """Section 19.1: a witness view block (an opened envelope) beside ``adjudication``: signed by the
    referee, answering that adjudication, its ``{nonce, view}`` the one the adjudication's ``watch``
    commits to.  ``canonical``: the verifier's C().  Returns the view.

    :raises refused: ``wrong-key`` or ``bad-view``."""
    import hashlib

    if view.public != referee_key:
        raise refused("wrong-key", "a witness view is signed by the referee", view.seq)
    body = view.body
    if view.kind != "view" or view.seq != adjudication.seq or view.prev != adjudication.hash \
            or body.get("to") != "witness" or not isinstance(body.get("view"), dict):
        raise refused("bad-view", "a witness view answers its adjudication, to 'witness'", view.seq)
    digest = hashlib.sha256(canonical({"nonce": body.get("nonce"), "view": body["view"]})).hexdigest()
    if digest != adjudication.body.get("watch"):
        raise refused("bad-view", "a witness view the adjudication did not commit to", view.seq)
    return body["view"]

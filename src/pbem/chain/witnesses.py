"""Witnesses: keys named in the invitation that receive the public part of every turn file.

A genesis may carry ``witnesses: [{"name", "key"}, ...]`` (absent by default, so every game made
before it reads as it did).  A witness signs nothing and never changes the game: its copy holds
what any holder of the turn files holds (``pbem watch``), and its reports show the public view.
Naming witnesses at genesis, signed by the creator and agreed by the joiner, is what tells the
players who may watch: a turn file is public except what is sealed to a side, so a witness sees
exactly what a player of neither side would.

In a refereed game the referee names the witnesses and mails them its files (sent/``FOLDER``/):
the whole chain (the players' orders sealed to the referee, its commitments) and, beside each
adjudication, the view of no side (``OBSERVER``), committed in the adjudication and sent in the
clear (``pbem.chain.referee.watch_digest``).  Every module's view hides its hidden items as
tokens whoever asks, and the events and rolls told to one side only are left out of it, so it
holds nothing any player does not see.  After the disclosure the witness replays everything.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from ..errors import RefusedTurn
from ..wire.keys import small_order

OBSERVER = "witness"  # the side a witness copy reads as: no side of the game may bear this name
FOLDER = "witness"  # a referee's files for the witnesses, in sent/: not sent/to-SIDE/, which are the players'
MAX_WITNESSES = 8
NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")  # names a witness on the command line and in mail addresses


def _refuse(what: str) -> None:
    raise RefusedTurn("invitation refused", what, code="bad-genesis")


def listed(genesis: dict[str, Any]) -> list[dict[str, str]]:
    """The witnesses a genesis names ({name, key}), in its order; none for an older genesis."""
    return list(genesis["body"].get("witnesses") or [])


def key_of(genesis: dict[str, Any], name: str) -> bytes | None:
    """The Ed25519 public key pinned for witness ``name``, or None."""
    for entry in listed(genesis):
        if entry["name"] == name:
            return base64.b64decode(entry["key"])
    return None


def check(body: dict[str, Any]) -> None:
    """The ``witnesses`` field of a genesis body, if present: a list of 1 to ``MAX_WITNESSES``
    entries, each exactly a name and an Ed25519 key that is no side's, none twice.

    :raises RefusedTurn: ``bad-genesis``, naming what is wrong."""
    if "witnesses" not in body:
        return
    entries = body["witnesses"]
    if not isinstance(entries, list) or not 1 <= len(entries) <= MAX_WITNESSES:
        _refuse(f"'witnesses' must list 1 to {MAX_WITNESSES} witnesses")
    if OBSERVER in (body.get("sides") or {}):
        _refuse(f"a game with witnesses cannot have a side named {OBSERVER!r}")
    seen_names: set[str] = set()
    seen_keys = {entry.get("key") for entry in (body.get("sides") or {}).values() if isinstance(entry, dict)}
    if isinstance(body.get("referee"), dict):
        seen_keys.add(body["referee"].get("key"))
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) != {"name", "key"}:
            _refuse("each witness must give exactly a 'name' and a 'key'")
        name, key_text = entry["name"], entry["key"]
        if not (isinstance(name, str) and NAME.match(name)):
            _refuse(f"witness name {name!r} must be 1-32 lowercase letters, digits, '-' or '_', starting with a letter")
        try:
            key = base64.b64decode(key_text, validate=True) if isinstance(key_text, str) else b""
        except ValueError:
            key = b""
        if len(key) != 32:
            _refuse(f"witness {name}: 'key' must be an Ed25519 public key (32 bytes, base64)")
        if small_order(key):
            _refuse(f"witness {name}: 'key' is a small-order key")
        if name in seen_names or key_text in seen_keys:
            _refuse(f"witness {name}: a name or key given twice (or a player's or the referee's key)")
        seen_names.add(name)
        seen_keys.add(key_text)


def terms(genesis: dict[str, Any], fingerprint) -> list[str]:
    """The invitation's witnesses as a joiner reads them: each sees every turn file's public part."""
    sees = ("the referee's files and the view of no side it commits to; everything once it discloses"
            if genesis["body"].get("mode") == "referee" else "what is not sealed to a side")
    return [f"witness  {entry['name']} (key {fingerprint(base64.b64decode(entry['key']))}): receives every "
            f"turn file; sees {sees}" for entry in listed(genesis)]

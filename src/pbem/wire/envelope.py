"""Signed envelopes: the content of a turn file and its Ed25519 signature.

The payload is ``signature (64) | public key (32) | canonical JSON``.  The
signature covers a domain prefix plus the JSON bytes and is checked before
the JSON is parsed; only then is the content read, re-encoded to prove it is
canonical, and compared with the readable header.  Whether the signing key is
the one pinned for the author at genesis is the ledger's check.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache, cached_property
from typing import Any

from pbem_engine.canonical import NotCanonical, canonical_json, parse_canonical

from ..errors import ArmorError, SignatureError
from . import armor as armor_mod
from .keys import Identity, fingerprint

DOMAIN = b"pbem/v1/envelope\0"
FORMAT = 1
KINDS = ("genesis", "join", "turn", "claim", "view", "leave", "takeback", "fork")  # takeback, fork: pbem.play.takeback
FIELDS = {"v", "game", "seq", "prev", "author", "kind", "engine", "body", "state"}
MAX_SEQ = 2**31 - 1  # no game holds two billion turn files; bounds every sum made of a seq


class Envelope:
    """A signed envelope: ``payload`` is signature | public key | canonical JSON, ``raw`` the
    armored block as received (or as written).  Equal when their payloads are."""

    def __init__(self, payload: bytes, raw: str) -> None:
        self.payload, self.raw = payload, raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Envelope) and other.payload == self.payload

    def __hash__(self) -> int:
        return hash(self.payload)

    @property
    def signature(self) -> bytes:
        return self.payload[:64]

    @property
    def public(self) -> bytes:
        return self.payload[64:96]

    @property
    def body_bytes(self) -> bytes:
        return self.payload[96:]

    @cached_property
    def content(self) -> dict[str, Any]:
        return json.loads(self.body_bytes)

    @cached_property
    def hash(self) -> str:
        return hashlib.sha256(self.body_bytes).hexdigest()

    @property
    def seq(self) -> int:
        return self.content["seq"]

    @property
    def author(self) -> str:
        return self.content["author"]

    @property
    def kind(self) -> str:
        return self.content["kind"]

    @property
    def game(self) -> str:
        return self.content["game"]


def headers_for(content: dict[str, Any], public: bytes) -> dict[str, str]:
    return {"Game": content["game"], "Seq": str(content["seq"]), "From": content["author"],
            "Kind": content["kind"], "Signer": fingerprint(public)}


def seal(identity: Identity, content: dict[str, Any]) -> Envelope:
    """Sign ``content`` and armor it."""
    body = canonical_json(content)
    payload = identity.sign(DOMAIN + body) + identity.public + body
    text = armor_mod.armor(headers_for(content, identity.public), payload)
    return Envelope(payload, text)


@cache
def _ed25519() -> tuple[Any, type[Exception]]:
    """pyca's Ed25519 public-key reader and the exception of a bad signature, imported at the first
    signature libsodium does not accept: the verdict on every such payload is pyca's."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes, InvalidSignature


@cache
def _sodium() -> tuple[Any, type[Exception]] | None:
    """libsodium's Ed25519 check (PyNaCl, by pyca too): about a third faster than pyca's OpenSSL
    one, and about half its import time.  It accepts only what pyca accepts (the same equation,
    with canonical encodings and no small-order point), so it is asked first and pyca only for the
    verdict on what it refuses: the verdicts are pyca's (tests/test_signature_check.py)."""
    try:
        from nacl.bindings import crypto_sign_open
        from nacl.exceptions import CryptoError
    except ImportError:  # a dependency; without it pyca checks every signature
        return None
    return crypto_sign_open, CryptoError


def sodium_accepts(payload: bytes) -> bool:
    """Whether libsodium accepts the payload's signature: never where ``check_signature`` would
    refuse it (it asks libsodium first).  For the checks made ahead of the replay, on a thread or
    in the worker: one call, holding the GIL the least; what it does not accept the replay checks."""
    sodium = _sodium()
    if len(payload) < 97 or sodium is None:
        return False
    sodium_open, refused = sodium
    try:
        sodium_open(payload[:64] + DOMAIN + payload[96:], payload[64:96])
    except (refused, ValueError, TypeError):
        return False  # a bad signature, or an edge case libsodium refuses and pyca may accept
    return True


def check_signature(payload: bytes) -> None:
    """The Ed25519 signature of a payload (safe to run in another thread: it releases the GIL).

    :raises ArmorError: too short to hold a signed envelope.
    :raises SignatureError: the signature does not verify.
    """
    if len(payload) < 97:
        raise ArmorError("damaged turn file", "the body is too short to hold a signed envelope")
    if sodium_accepts(payload):
        return
    public_key, invalid = _ed25519()  # pyca decides what libsodium does not accept
    try:
        public_key(payload[64:96]).verify(payload[:64], DOMAIN + payload[96:])
    except (invalid, ValueError):
        raise SignatureError("bad signature", "the turn file was changed after it was signed, or was not signed by the key it names") from None


def open_block(block: armor_mod.Block, *, signature_checked: bool = False) -> Envelope:
    """Verify a block's signature, then parse and check its content.

    ``signature_checked``: the caller has already run ``check_signature`` on this payload.

    :raises SignatureError: the signature does not verify.
    :raises ArmorError: content not canonical, fields missing, header disagrees.
    """
    payload = block.payload
    if not signature_checked:
        check_signature(payload)
    public, body = payload[64:96], payload[96:]
    try:
        content = parse_canonical(body)
    except NotCanonical as e:
        raise ArmorError("malformed envelope", f"signed content is not canonical JSON: {e}") from None
    _check_fields(content)
    expected = headers_for(content, public)
    if block.headers != expected:
        wrong = [k for k in armor_mod.HEADERS if block.headers.get(k) != expected[k]]
        raise ArmorError("header does not match the signed content",
                         "; ".join(f"{k}: header says {block.headers.get(k)!r}, signed {expected[k]!r}" for k in wrong),
                         code="header-mismatch")
    envelope = Envelope(payload, block.raw)
    envelope.__dict__["content"] = content  # already parsed
    return envelope


_FIELD_TYPES = (("game", str), ("seq", int), ("prev", str), ("author", str), ("kind", str), ("engine", dict),
                ("body", dict), ("state", str))


def _check_fields(content: Any) -> None:
    if not isinstance(content, dict) or set(content) != FIELDS:
        got = sorted(content) if isinstance(content, dict) else type(content).__name__
        raise ArmorError("malformed envelope", f"expected fields {sorted(FIELDS)}, got {got}")
    if type(content["v"]) is not int or content["v"] != FORMAT:  # True == 1 in Python
        raise ArmorError("unsupported turn file format", f"format {content['v']!r}; this pbem reads format {FORMAT}")
    for name, kind in _FIELD_TYPES:  # parsed JSON: exact types (a bool is not an int here)
        if type(content[name]) is not kind:
            raise ArmorError("malformed envelope", f"field '{name}' must be {kind.__name__}")
    if content["kind"] not in KINDS:
        raise ArmorError("malformed envelope", f"unknown kind {content['kind']!r}")
    if not 0 <= content["seq"] <= MAX_SEQ:
        raise ArmorError("malformed envelope", f"sequence number {content['seq']} is outside 0..{MAX_SEQ}")


def read_envelopes(text: str) -> list[Envelope]:
    """Every envelope in a text, each verified; raises on the first bad one."""
    return [open_block(block) for block in armor_mod.find_blocks(text)]

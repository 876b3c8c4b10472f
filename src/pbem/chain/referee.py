"""Referee mode on the wire: sealed orders, public checks, committed states, per-player views.

Every party holds the whole chain of envelopes, but what is in them differs
in who can read it:

* a player's turn carries its orders sealed to the referee (X25519 + HKDF +
  ChaCha20-Poly1305, the envelope's game, number and author as associated
  data), so the other players cannot read them;
* the referee's adjudication carries a commitment to the full state,
  ``H(state | game | n | full match | HMAC(salt, n))``, and the hash of each
  player's view;
* each player's view travels beside the chain, in a ``view`` block signed by
  the referee and sealed to that player alone;
* in a game with witnesses (``pbem.chain.witnesses``) the adjudication also commits to the
  view of no side (``watch``: the hash of a ``view`` block's ``{nonce, view}``), which the
  referee sends in the clear to the witnesses only: it holds what every player sees, so it is
  sealed to no one (``watch_digest``).

Everyone checks the *public* state: signatures, links, chain reveals, whose
envelope may come next (``public_advance``).  The referee also replays the
full state.  When the referee discloses its salt and its box key (a
``disclose`` turn), anyone can decrypt every order, replay the full game,
check every commitment and every view they were sent.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey,
    X25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import canonical_json, digest
from pbem_engine.protocol.referee import REFEREE

from ..errors import RefusedTurn

# --- sealed boxes -----------------------------------------------------------

def box_keypair() -> tuple[bytes, bytes]:
    key = X25519PrivateKey.generate()
    return (key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                              serialization.NoEncryption()),
            key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def _aead_key(shared: bytes, game_id: str, purpose: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=bytes.fromhex(game_id),
                info=b"pbem/v1/box\0" + purpose.encode()).derive(shared)


PAD = 256


def seal_box(recipient: bytes, plaintext: bytes, game_id: str, purpose: str, aad: bytes) -> dict[str, str]:
    """Encrypt JSON to ``recipient``'s X25519 key with a fresh ephemeral key.

    The JSON is padded with spaces to a multiple of 256 bytes, so that the length of
    sealed orders says little about them (JSON readers ignore trailing spaces).
    """
    plaintext += b" " * (-len(plaintext) % PAD)
    eph = X25519PrivateKey.generate()
    key = _aead_key(eph.exchange(X25519PublicKey.from_public_bytes(recipient)), game_id, purpose)
    nonce = hashlib.sha256(aad).digest()[:12]  # unique per (game, number, author): the key is fresh anyway
    epk = eph.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return {"epk": epk.hex(), "ct": base64.b64encode(ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)).decode()}


def open_box(private: bytes, box: Any, game_id: str, purpose: str, aad: bytes) -> bytes:
    try:
        eph = X25519PublicKey.from_public_bytes(bytes.fromhex(box["epk"]))
        key = _aead_key(X25519PrivateKey.from_private_bytes(private).exchange(eph), game_id, purpose)
        return ChaCha20Poly1305(key).decrypt(hashlib.sha256(aad).digest()[:12], base64.b64decode(box["ct"]), aad)
    except (InvalidTag, KeyError, TypeError, ValueError):
        raise RefusedTurn("sealed content does not open", f"{purpose}: wrong key, or changed after sealing",
                          code="bad-box") from None


def orders_aad(game_id: str, seq: int, author: str) -> bytes:
    return f"pbem/v1/orders|{game_id}|{seq}|{author}".encode()


def private_aad(game_id: str, side: str) -> bytes:
    return f"pbem/v1/private|{game_id}|{side}".encode()


def view_aad(game_id: str, seq: int, side: str) -> bytes:
    return f"pbem/v1/view|{game_id}|{seq}|{side}".encode()


# --- commitments ---------------------------------------------------------------

def commitment(full: dict[str, Any], seq: int, salt: bytes) -> str:
    mix = hmac.digest(salt, b"pbem/v1/state-salt\0" + seq.to_bytes(8, "big"), "sha256")
    return digest("state", full["game_id"], str(seq), canonical_json(full, strict=False), mix).hex()


def salt_anchor(game_id: str, salt: bytes) -> str:
    return digest("referee-salt", game_id, salt).hex()


def box_check(game_id: str, private: bytes, public_hex: str) -> bool:
    key = X25519PrivateKey.from_private_bytes(private).public_key()
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex() == public_hex


# --- the public state, which every party computes -----------------------------------

def watch_digest(body: dict[str, Any]) -> str:
    """The hash an adjudication commits to for the witnesses' view: of its ``nonce`` (random, so the
    hash of a public position cannot be matched against guesses by whoever holds a player's file)
    and the ``view`` itself."""
    return hashlib.sha256(canonical_json({"nonce": body.get("nonce"), "view": body.get("view")},
                                         strict=False)).hexdigest()


def public_start(genesis: dict[str, Any]) -> dict[str, Any]:
    body = genesis["body"]
    public = {"mode": "referee", "game_id": genesis["game"], "seq": 0, "players": sorted(body["sides"]),
              "chains": {REFEREE: {"link": body["anchor"], "index": 0}}, "boxes": {REFEREE: body["referee"]["box"]},
              "adjudicate": False, "commit": None, "views": {}, "disclosed": None}
    if body.get("witnesses"):  # only then: every older game's public state (and its hash) stays as it was
        public["watch"] = None
    return public


def public_advance(public: dict[str, Any], seq: int, author: str, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """What anyone can check of envelope ``seq`` without reading sealed content.

    :raises RefusedTurn: out-of-turn envelope, bad link, malformed body.
    """
    new = json.loads(json.dumps(public))
    new["seq"] = seq
    players = public["players"]
    if kind != "turn":
        raise RefusedTurn(f"unexpected {kind} envelope", f"#{seq}: in a referee game the players' joins travel "
                          "inside the referee's first envelope", code="bad-kind")
    for side, join in sorted(body.get("joins", {}).items()) if author == REFEREE else ():
        if side in public["chains"]:
            raise RefusedTurn("a player joined twice", f"#{seq}: {side}", code="bad-join")
        new["chains"][side] = {"link": _hex(join.get("anchor"), "anchor"), "index": 0}
        new["boxes"][side] = _hex(join.get("box"), "box key")
        public = dict(public, chains=new["chains"], adjudicate=all(p in new["chains"] for p in players))
    if any(p not in public["chains"] for p in players):
        raise RefusedTurn("not every player has joined", f"#{seq} from {author}", code="not-joined")
    if public["disclosed"]:
        raise RefusedTurn("the referee has disclosed the game", f"#{seq}: no envelope follows a disclosure", code="game-over")
    chain = public["chains"].get(author)
    if chain is None:
        raise RefusedTurn("unknown author", f"#{seq}: {author} is not a party to this game", code="unknown-author")
    reveal = _hex(body.get("reveal"), "reveal")
    if protocol.chain_step(public["game_id"], author, bytes.fromhex(reveal)).hex() != chain.get("renewed", chain["link"]):
        raise RefusedTurn(f"{author}'s revealed link is not its committed chain", f"#{seq}", code="bad-reveal")
    new["chains"][author] = {"link": reveal, "index": chain["index"] + 1}
    if "renew" in body:  # a new chain (spec 8.1): its next link must hash to this anchor
        why = protocol.renewal_problem(author, {"link": reveal}, body["renew"], "sealed")  # malformed, or the link
        if why:
            raise RefusedTurn("a malformed chain renewal", f"#{seq}: {why[1]}", code=why[0])
        new["chains"][author]["renewed"] = body["renew"]
    if author == REFEREE:
        if "disclose" in body:
            new["disclosed"] = seq
            return new
        if not public["adjudicate"]:
            raise RefusedTurn("nothing for the referee to adjudicate", f"#{seq}", code="nothing-to-do")
        new["adjudicate"] = False
        new["commit"] = _hex(body.get("commit"), "commit")
        views = body.get("views")
        if not isinstance(views, dict) or sorted(views) != players:
            raise RefusedTurn("an adjudication must commit to one view per player", f"#{seq}", code="bad-views")
        new["views"] = {p: _hex(views[p], "view hash") for p in players}
        if "watch" in public:  # a game with witnesses: the view of no side, committed beside the players'
            new["watch"] = _hex(body.get("watch"), "witnesses' view hash")
        elif "watch" in body:
            raise RefusedTurn("a view for witnesses in a game without any", f"#{seq}", code="bad-views")
        return new
    if public["adjudicate"]:
        raise RefusedTurn("waiting for the referee", f"#{seq} from {author}: envelope #{public['seq']} is not "
                          "adjudicated yet", code="owes-adjudication")
    if not isinstance(body.get("orders"), dict):
        raise RefusedTurn("a player's turn carries sealed orders", f"#{seq} from {author}", code="bad-actions")
    new["adjudicate"] = True
    return new


def _hex(value: Any, what: str) -> str:
    if not (isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)):
        raise RefusedTurn(f"malformed {what}", "expected 64 hex digits", code="bad-envelope")
    return value

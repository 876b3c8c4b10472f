#!/usr/bin/env python3
"""Test vectors for docs/spec.md, made by pbem's own modules from the golden games.

    .venv/bin/python docs/vectors/make.py           # (re)write docs/vectors/*.json
    .venv/bin/python docs/vectors/make.py --check   # compare with the files, exit 1 on a difference

Every value here is computed by the code the specification describes (``pbem`` and
``pbem_engine``), never typed in: ``tests/test_spec_vectors.py`` runs ``vectors()`` again and
compares it with the committed JSON, so the vectors, and the document that quotes them,
cannot drift from the code unnoticed.  Run it from anywhere; it reads ``tests/golden/``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

from pbem.chain import history, referee
from pbem.wire.envelope import read_envelopes
from pbem.wire.keys import fingerprint
from pbem_engine.canonical import NotCanonical, canonical_json, digest, parse_canonical
from pbem_engine.chance.dice import Dice
from pbem_engine.hidden import private
from pbem_engine.hidden.deck_group import Keys, encode
from pbem_engine.hidden.referee_deck import order_key
from pbem_engine.protocol import chain as chains
from pbem_engine.protocol import referee as referee_protocol
from pbem_engine.protocol.match import declarations_hash, referee_mix, roll_seed

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent.parent / "tests" / "golden"


def _envelopes(module: str) -> list[tuple[str, Any]]:
    """(file name, envelope) of a golden game, in file-name order (the order of the chain)."""
    out = []
    for path in sorted((GOLDEN / module / "turns").glob("*.pbem")):
        [env] = read_envelopes(path.read_text(encoding="utf-8"))
        out.append((path.name, env))
    return out


def _replay(module: str) -> list[tuple[str, Any, history.Applied]]:
    """Every envelope applied by pbem's own history checks, from the genesis."""
    out, genesis, match, head = [], None, None, None
    for name, env in _envelopes(module):
        applied = history.apply(env, genesis, match, head)
        genesis = genesis or env.content
        match, head = applied.match, (env.seq, env.hash)
        out.append((name, env, applied))
    return out


def _link(content: dict[str, Any]) -> str | None:
    body = content["body"]
    return body.get("anchor") if content["kind"] in ("genesis", "join") else body.get("reveal")


# --- a whole small game: barrage -------------------------------------------------------------

def game_vectors(module: str) -> dict[str, Any]:
    played = _replay(module)
    genesis = played[0][1].content
    sides = genesis["body"]["sides"]
    files, rolls = [], []
    for name, env, applied in played:
        c = env.content
        index = applied.match["chains"][c["author"]]["index"]
        link = _link(c)
        before = chains.chain_step(c["game"], c["author"], bytes.fromhex(link)).hex() if index else None
        files.append({"file": name, "seq": c["seq"], "author": c["author"], "kind": c["kind"],
                      "signer": fingerprint(env.public), "public_key": env.public.hex(),
                      "payload_bytes": len(env.payload), "json_bytes": len(env.body_bytes),
                      "envelope_hash": env.hash, "prev": c["prev"], "state": c["state"],
                      "link": {"index": index, "value": link, "hashes_to": before}})
        for r in applied.rolls:
            actor = next(e for n, e, _ in played if e.seq == r["declared_in"])
            count = next(i for i in range(len(actor.content["body"]["actions"]))
                         if declarations_hash(actor.content["body"]["actions"][:i + 1]) == r["declarations"]) + 1
            rolls.append({"purpose": r["purpose"], "spec": r["spec"], "values": r["values"],
                          "result": r.get("result"), "mode": r["mode"], "actor": r["actor"],
                          "declared_in": r["declared_in"], "resolved_in": r["resolved_in"],
                          "actor_link": r["links"][0], "other_link": r["links"][1],
                          "declared_actions": count,
                          "declarations_json": canonical_json(actor.content["body"]["actions"][:count]).decode(),
                          "declarations": r["declarations"], "seed": r["seed"],
                          "first_block": hmac.digest(bytes.fromhex(r["seed"]), bytes(8), "sha256").hex()})
    join = played[1][1]
    return {"game": genesis["game"], "module": genesis["engine"]["module"],
            "protocol": genesis["body"].get("protocol", 1), "mode": genesis["body"]["mode"],
            "chain_length": genesis["body"]["chain"],
            "keys": {s: {"base64": sides[s]["key"], "hex": base64.b64decode(sides[s]["key"]).hex(),
                         "fingerprint": fingerprint(base64.b64decode(sides[s]["key"]))} for s in sorted(sides)},
            "files": files, "rolls": rolls,
            "example_signature": {"file": played[1][0], "json": join.body_bytes.decode(),
                                  "signature": join.signature.hex(), "public_key": join.public.hex(),
                                  "signed_message_hex": (b"pbem/v1/envelope\0" + join.body_bytes).hex()}}


def at_once_vectors() -> dict[str, Any]:
    """Protocol 2's rolls sealed at once (declared and resolved in one envelope): the block game."""
    whole = game_vectors("gallipoli-blocks")
    return {"game": whole["game"], "module": whole["module"], "protocol": whole["protocol"],
            "note": "rolls resolved in the envelope that declared them; the other link is the one the other "
                    "side revealed in the envelope just before",
            "rolls": [dict(r, declarations_json=None) if len(r["declarations_json"]) > 2000 else r
                      for r in whole["rolls"] if r["declared_in"] == r["resolved_in"]][:3]}


# --- private draws: Trench Raid ------------------------------------------------------------------

def private_vectors() -> dict[str, Any]:
    played = _replay("raid")
    final = played[-1][2].match
    game = final["game_id"]
    out: dict[str, Any] = {"game": game, "module": "raid", "sides": {}}
    for side, record in sorted(final["private"].items()):
        secret = bytes.fromhex(record["secret"])
        pools = {p: list(items) for p, items in record["initial"].items()}
        draws = []
        for entry in record["log"]:
            if "add" in entry:
                pools[entry["add"]] = sorted(pools[entry["add"]] + entry["items"])
                continue
            assert "choose" not in entry, "the raid has no hidden choices"
            remaining = pools[entry["pool"]]
            for offset, tok in enumerate(entry["tokens"]):
                j, n = entry["j"] + offset, entry["n"] + offset
                size = len(remaining)
                index = private.draw_index(secret, j, entry["link"], size)
                item = remaining.pop(index)
                nonce = private.nonce(secret, n)
                assert private.token(game, side, n, item, nonce) == tok
                draws.append({"envelope": entry["envelope"], "pool": entry["pool"], "j": j, "n": n,
                              "link": entry["link"], "pool_size": size, "index": index, "item": item,
                              "nonce": nonce, "token": tok})
        out["sides"][side] = {"private_anchor": record["anchor"], "private_secret": record["secret"],
                              "initial_pools": record["initial"], "draws": draws}
    return out


# --- a shared deck: Assault on Gallipoli's Action Cards ---------------------------------------------

def deck_vectors() -> dict[str, Any]:
    """The first shuffle of a deck dealt to private hands, from the turn files alone: both sides'
    permutations from their revealed private secrets, the order they give, and the cards played."""
    envs = _envelopes("assault-on-gallipoli")
    game = envs[0][1].game
    secrets = {e.author: bytes.fromhex(e.content["body"]["private_secret"])
               for _, e in envs if "private_secret" in e.content["body"]}
    revealed = {}  # link -> (envelope, side)
    for _, e in envs:
        link = _link(e.content)
        if link:
            revealed[link] = (e.seq, e.author)
    steps, played, cards, deck = [], [], None, None
    order: list[int] = []
    for _, e in envs:
        for deck_id, msg in e.content["body"].get("decks", []):
            if msg["op"] == "begin" and msg["number"] == 0 and deck is None:
                deck, cards = deck_id, list(msg["cards"])
                order = list(range(len(cards)))
            if deck_id != deck:
                continue
            if msg["op"] in ("shuffle", "shuffle-rekey") and msg["number"] == 0:
                keys = Keys(secrets[msg["side"]], game, deck_id, msg["side"], 0)
                perm = keys.permutation(len(msg["deck"]), msg["nonce"])
                order = [order[p] for p in perm]  # out[j] = in[perm[j]]
                steps.append({"envelope": e.seq, "op": msg["op"], "side": msg["side"], "number": 0,
                              "nonce": msg["nonce"], "nonce_revealed_in": revealed[msg["nonce"]][0],
                              "nonce_revealed_by": revealed[msg["nonce"]][1], "keys_seed": keys.seed.hex(),
                              "permutation_seed": hmac.digest(keys.seed, digest("deck-permutation", msg["nonce"]),
                                                              "sha256").hex(),
                              "permutation": perm})
            if msg["op"] == "play" and msg["ref"][0] == 0:
                played.append({"envelope": e.seq, "side": msg["side"], "ref": msg["ref"], "card": msg["card"]})
    final = [cards[i] for i in order]
    assert all(final[p["ref"][1]] == p["card"] for p in played), "the derived order does not give the cards played"
    return {"game": game, "module": "assault-on-gallipoli", "deck": deck, "cards": cards,
            "private_secrets": {s: k.hex() for s, k in sorted(secrets.items())},
            "steps": steps, "order": final, "played": played,
            "card_encoding": {"card": cards[0], "value_hex": f"{encode(game, deck, cards[0]):0512x}"}}


# --- primitives ------------------------------------------------------------------------------------

def _refused(data: bytes) -> str:
    try:
        parse_canonical(data)
    except NotCanonical as e:
        return str(e)
    raise AssertionError(f"{data!r} is canonical")


def _renewal(game: str, side: str, secret: bytes) -> dict[str, Any]:
    """Section 8.1: a chain of 3 renewed beside its link 2; the reveals in order, with their index."""
    old, new_secret = chains.chain_links(game, side, secret, 3), bytes(range(32, 64))
    new = chains.chain_links(game, side, new_secret, 3)
    return {"game": game, "side": side, "length": 3, "old_links": [x.hex() for x in old],
            "new_secret": new_secret.hex(), "new_links": [y.hex() for y in new],
            "reveals": [{"index": 1, "reveal": old[1].hex()},
                        {"index": 2, "reveal": old[2].hex(), "renew": new[0].hex()},
                        {"index": 3, "reveal": new[1].hex()}, {"index": 4, "reveal": new[2].hex()}]}


def _referee_renewal(game: str) -> dict[str, Any]:
    """Section 8.1: the referee's new chain beside its link 49 of a chain of 64, fixed by its salt."""
    salt, index, length = bytes(range(64, 96)), 49, 64
    secret = referee_protocol.renewal_secret(salt, index)
    links = chains.chain_links(game, "referee", secret, length)
    return {"game": game, "salt": salt.hex(), "index": index, "length": length, "secret": secret.hex(),
            "anchor": referee_protocol.renewal_anchor(game, salt, index, length), "first_link": links[1].hex()}


def primitive_vectors() -> dict[str, Any]:
    seed = hashlib.sha256(b"pbem spec vector").digest()
    game, side = "00112233445566778899aabbccddeeff", "red"
    secret = bytes([1]) * 32
    dice = Dice(seed)
    blocks = [hmac.digest(seed, c.to_bytes(8, "big"), "sha256").hex() for c in range(3)]
    d6 = [dice.roll(6, "vector") for _ in range(10)]
    big = Dice(seed)  # a die of 3,000,000,000 faces: words at or above 3,000,000,000 are rejected
    wide = [big.uniform(3_000_000_000) for _ in range(5)]
    words = [int.from_bytes(bytes.fromhex(b)[i:i + 4], "big") for b in blocks for i in range(0, 32, 4)]
    accepted = [
        ["dict", {"b": 1, "a": [True, False, None, -7, "é"]}],
        ["escapes", ["\x00\x1f\x7f\u2028\"\\/\b\f\n\r\t"]],
        ["key order by code point", {"\U0001F600": 1, "\ue000": 2, "Z": 3, "a": 4}],
        ["largest integers", [2**63 - 1, -(2**63 - 1)]],
    ]
    refused = [
        ("float", b"[1.0]"), ("exponent", b"[1e3]"), ("negative zero", b"[-0]"), ("NaN", b"[NaN]"),
        ("space", b'{"a": 1}'), ("keys out of order", b'{"b":1,"a":2}'), ("duplicate key", b'{"a":1,"a":1}'),
        ("escaped non-ASCII", b'["\\u00e9"]'), ("escaped solidus", b'["\\/"]'),
        ("uppercase hex escape", b'["\\u001F"]'),
        ("lone surrogate", b'["\\ud800"]'), ("escaped pair", b'["\\ud83d\\ude00"]'),
        ("integer 2**63", b"[9223372036854775808]"), ("integer -2**63", b"[-9223372036854775808]"),
        ("49 levels", b"[" * 49 + b"]" * 49), ("byte order mark", b"\xef\xbb\xbf{}"), ("trailing newline", b"{}\n"),
    ]
    return {
        "digest": [{"tag": "example", "parts": ["abc", "0001"], "parts_are": ["text", "hex"],
                    "preimage_hex": (b"pbem/v1/example\0" + (3).to_bytes(4, "big") + b"abc"
                                     + (2).to_bytes(4, "big") + b"\0\1").hex(),
                    "sha256": digest("example", "abc", b"\0\1").hex()}],
        "canonical": {"accepted": [{"what": w, "canonical_hex": canonical_json(v).hex(),
                                    "canonical": canonical_json(v).decode()} for w, v in accepted],
                      "refused": [{"what": w, "bytes_hex": b.hex(), "reason": _refused(b)} for w, b in refused]},
        "fingerprint": [{"public_key": k.hex(), "fingerprint": fingerprint(k)}
                        for k in (bytes(range(32)), base64.b64decode("3Eeo6ZRNmRAO5stbmI7NpOH/TTRdlub6xd7/xX9jgu0="))],
        "chain": {"game": game, "side": side, "secret": secret.hex(), "length": 3,
                  "links": [x.hex() for x in chains.chain_links(game, side, secret, 3)]},
        "chain_renewal": _renewal(game, side, secret),
        "referee_renewal": _referee_renewal(game),
        "dice": {"seed": seed.hex(), "blocks": blocks, "words": words[:16],
                 "d6": d6, "uniform_3000000000": wide,
                 "coin": Dice(seed).coin("vector"), "shuffle_10": Dice(seed).shuffle(list(range(10)), "vector"),
                 "draw_3_of_10": Dice(seed).draw(list(range(10)), 3, "vector")[0]},
        "roll_seed": {"game": game, "declared_in": 7, "actor_link": "11" * 32, "other_link": "22" * 32,
                      "actions_json": '[{"do":"fire"}]',
                      "declarations": declarations_hash([{"do": "fire"}]),
                      "seed": roll_seed(game, 7, "11" * 32, "22" * 32, declarations_hash([{"do": "fire"}])).hex()},
        "private": {"game": game, "side": side, "secret": secret.hex(),
                    "private_anchor": private.anchor(game, side, secret), "nonce_0": private.nonce(secret, 0),
                    "token_0": private.token(game, side, 0, "card-1", private.nonce(secret, 0)),
                    "draw_index_j0_of_10": private.draw_index(secret, 0, "22" * 32, 10),
                    "trail": _trail_vector()},
        "referee": {"game": game, "salt": "02" * 32, "referee_mix_5": referee_mix(bytes([2]) * 32, 5).hex(),
                    "salt_anchor": referee.salt_anchor(game, bytes([2]) * 32),
                    "commitment": {"full": {"game_id": game, "x": 1}, "seq": 5,
                                   "commit": referee.commitment({"game_id": game, "x": 1}, 5, bytes([2]) * 32)},
                    "deck_order_key": order_key(bytes([2]) * 32).hex()},
    }


def _trail_vector() -> dict[str, Any]:
    """Protocol 3's running digest of a private log (spec 10.1), over two entries, as
    ``private.log`` keeps it."""
    record: dict[str, Any] = {"log": [], "trail": ""}
    entries = [{"envelope": 4, "j": 0, "link": "22" * 32, "n": 0, "pool": "deck", "tokens": ["33" * 32]},
               {"choose": None, "envelope": 6, "n": 1, "token": "44" * 32}]
    steps = []
    for entry in entries:
        private.log(record, entry)
        steps.append({"entry_json": canonical_json(entry).decode(), "trail": record["trail"]})
    return {"start": "", "steps": steps}


def vectors() -> dict[str, Any]:
    """Every vector file: name -> content."""
    return {"primitives.json": primitive_vectors(), "barrage.json": game_vectors("barrage"),
            "at-once.json": at_once_vectors(), "private-draws.json": private_vectors(),
            "deck-shuffle.json": deck_vectors()}


def text(content: Any) -> str:
    return json.dumps(content, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    differ = []
    for name, content in vectors().items():
        path = HERE / name
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != text(content):
                differ.append(name)
        else:
            path.write_text(text(content), encoding="utf-8")
    for name in differ:
        print(f"{name} differs from what the code gives: run {Path(__file__).name} again and review the diff")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

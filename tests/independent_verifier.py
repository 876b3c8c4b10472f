#!/usr/bin/env python3
"""An independent verifier of pbem turn files, written from docs/spec.md alone.

It imports nothing of pbem (``pbem``, ``pbem_engine``): only Python's standard library and
PyNaCl for Ed25519.  Given the turn files of a two-player game it checks, as the spec says: the armor, tolerant of what mail does (section 2); the Ed25519 signature (3); the canonical
JSON, by its own encoder (4); the envelope's fields and headers (5); the chain of game id,
numbers, pinned keys, previous hashes and revealed links (5.3, 8, 8.1); every private opening against
its token, a revealed secret against its anchor and every nonce (10); the order of every shared-deck
shuffle once both secrets are out, against the cards played face up (11); take-backs (18, in
tests/independent_verifier_forks.py).

The state hash and which action rolled which dice need the game's rules, which this verifier
does not have (section 13).  Given each roll's envelope numbers, actor and spec (what ``pbem
audit`` prints), ``derive_rolls`` re-derives its seed from the revealed links and the signed
actions, and its dice from the seed (section 9).

    python tests/independent_verifier.py DIR_OR_FILES... [--rolls ROLLS.json]: OK or REFUSED #n: code: reason
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nacl.exceptions import CryptoError
from nacl.signing import VerifyKey

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling, run as a script or imported
import independent_verifier_forks as forks, independent_verifier_referee as refereed, independent_verifier_witness as witnessing, independent_verifier_teams as teaming  # noqa: E401, E402, E501

BEGIN, END = "-----BEGIN PBEM TURN-----", "-----END PBEM TURN-----"
HEADERS = ("Game", "Seq", "From", "Kind", "Signer")
DOMAIN = b"pbem/v1/envelope\x00"
FIELDS = {"v", "game", "seq", "prev", "author", "kind", "engine", "body", "state"}
KINDS = ("genesis", "join", "turn", "claim", "view", "leave", "takeback", "fork")
MAX_BLOCK, MAX_TEXT = 1_048_576, 10_485_760
MAX_DEPTH, MAX_INT, MAX_SEQ = 48, 2**63 - 1, 2**31 - 1
GENESIS_PREV = "0" * 64
TURN_FIELDS = {"reveal", "actions", "private", "private_secret", "private_chosen", "decks", "messages", "renew"}
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")


class Refused(Exception):
    """A file or a history that does not check out: ``code`` as the spec names it, ``seq`` the envelope."""

    def __init__(self, code: str, reason: str, seq: int | None = None) -> None:
        super().__init__(f"{'#%d: ' % seq if seq is not None else ''}{code}: {reason}")
        self.code, self.reason, self.seq = code, reason, seq


# --- section 1: the domain-tagged hash ------------------------------------------------------------

def H(tag: str, *parts: bytes | str) -> bytes:
    h = hashlib.sha256(b"pbem/v1/" + tag.encode() + b"\x00")
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(4, "big") + data)
    return h.digest()


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


# --- section 4: canonical JSON, encoded by hand ------------------------------------------------------

_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_SPECIAL = re.compile('[\x00-\x1f"\\\\\ud800-\udfff]')


def _string(text: str) -> str:
    if not _SPECIAL.search(text):
        return '"' + text + '"'
    out = []
    for ch in text:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        elif "\ud800" <= ch <= "\udfff":
            raise Refused("not-canonical", "a string holds a lone surrogate")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _encode(value: Any, depth: int, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True or value is False:
        out.append("true" if value else "false")
    elif isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise Refused("not-canonical", f"integer {value} out of range")
        out.append(str(value))
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, (list, dict)):
        if depth + 1 > MAX_DEPTH:
            raise Refused("not-canonical", f"nested deeper than {MAX_DEPTH}")
        out.append("[" if isinstance(value, list) else "{")
        for i, key in enumerate(range(len(value)) if isinstance(value, list) else sorted(value)):
            out.append("," if i else "")  # sorted(): Python orders str by code point, the spec's order
            if isinstance(value, dict):
                out.append(_string(key) + ":")
            _encode(value[key], depth + 1, out)
        out.append("]" if isinstance(value, list) else "}")
    else:
        raise Refused("not-canonical", f"{type(value).__name__} has no canonical form")


def canonical(value: Any) -> bytes:
    out: list[str] = []
    _encode(value, 0, out)
    return "".join(out).encode("utf-8")


def _no_number(text: str) -> Any:
    raise Refused("not-canonical", f"number {text} is not an integer")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise Refused("not-canonical", "a key appears twice")
    return dict(pairs)


def parse_canonical(data: bytes) -> Any:
    """Decode, then encode again by hand: the bytes must come back the same."""
    try:
        value = json.loads(data.decode("utf-8"), parse_float=_no_number, parse_constant=_no_number,
                           object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise Refused("not-canonical", f"not JSON: {e}") from None
    if canonical(value) != data:
        raise Refused("not-canonical", "not in canonical form")
    return value


# --- section 2: the armor -------------------------------------------------------------------------------

def _clean(line: str) -> str:
    return line.lstrip(" \t>").strip()


def _begin_like(cleaned: str) -> bool:
    squeezed = "".join(cleaned.split()).upper()
    return squeezed.startswith("---") and "BEGINPBEM" in squeezed and "ENDPBEM" not in squeezed


def find_blocks(text: str) -> list[tuple[dict[str, str], bytes]]:
    """Every block of a text: (headers, payload).  Refuses the whole text on any damaged block."""
    if len(text) > MAX_TEXT:
        raise Refused("too-large", "the text is too large")
    lines, blocks, i = text.splitlines(), [], 0
    while i < len(lines):
        if "PBEM" not in lines[i] and "pbem" not in lines[i]:
            i += 1
            continue
        cleaned = _clean(lines[i])
        if cleaned == END:
            raise Refused("truncated", f"line {i + 1}: an END line closes no block")
        if cleaned != BEGIN:
            if _begin_like(cleaned):
                raise Refused("bad-armor", f"line {i + 1}: a damaged BEGIN line")
            i += 1
            continue
        j = i + 1
        while j < len(lines):
            if "PBEM" in lines[j] or "pbem" in lines[j]:
                inner = _clean(lines[j])
                if inner == END:
                    break
                if inner == BEGIN or _begin_like(inner):
                    raise Refused("truncated", f"line {i + 1}: a block with no END line before the next BEGIN")
            j += 1
        else:
            raise Refused("truncated", f"line {i + 1}: a block with no END line")
        if len("\n".join(lines[i:j + 1])) - 1 > MAX_BLOCK:  # the spec's size: one per line end, less one
            raise Refused("too-large", f"line {i + 1}: a block over {MAX_BLOCK} characters")
        blocks.append(_parse_block(lines[i + 1:j]))
        i = j + 1
    return blocks


def _parse_block(lines: list[str]) -> tuple[dict[str, str], bytes]:
    tokens = iter(" ".join(_clean(line) for line in lines).split())
    headers: dict[str, str] = {}
    body: list[str] = []
    for token in tokens:
        if token.endswith(":"):  # a field's name; its value is the next token, whatever it is
            name, value = token[:-1], next(tokens, None)
            if name not in HEADERS or name in headers or value is None:
                raise Refused("bad-armor", f"header field {name!r} unknown, repeated or empty")
            headers[name] = value
        else:
            body.append(token)
    if set(headers) != set(HEADERS):
        raise Refused("bad-armor", "a header field is missing")
    text = "".join(body)
    if not text or len(text) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", text):
        raise Refused("bad-armor", "the body is not base64")
    payload = base64.b64decode(text, validate=True)
    if base64.b64encode(payload).decode() != text:
        raise Refused("bad-armor", "the body is not in canonical base64")
    return headers, payload


# --- sections 3, 5, 6: the signed envelope ------------------------------------------------------------------

def fingerprint(key: bytes) -> str:
    text = base64.b32encode(hashlib.sha256(b"pbem/v1/key\x00" + key).digest()[:10]).decode()
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


@dataclass
class Envelope:
    public: bytes
    json: bytes
    content: dict[str, Any]

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.json).hexdigest()

    def __getattr__(self, name: str) -> Any:  # seq, game, prev, author, kind, body, engine, state
        if name in FIELDS:
            return self.content[name]
        raise AttributeError(name)


def open_block(headers: dict[str, str], payload: bytes) -> Envelope:
    if len(payload) < 97:
        raise Refused("bad-armor", "the payload is too short to hold a signed envelope")
    signature, public, data = payload[:64], payload[64:96], payload[96:]
    try:
        VerifyKey(public).verify(DOMAIN + data, signature)
    except (CryptoError, ValueError):  # BadSignatureError is a CryptoError
        raise Refused("bad-signature", "the signature does not verify") from None
    content = parse_canonical(data)
    if not isinstance(content, dict) or set(content) != FIELDS:
        raise Refused("malformed", "not the nine envelope fields")
    types = {"v": int, "game": str, "seq": int, "prev": str, "author": str, "kind": str, "engine": dict, "body": dict, "state": str}
    if any(type(content[k]) is not t for k, t in types.items()) or content["v"] != 1:
        raise Refused("malformed", "a field of the wrong type, or a format other than 1")
    if content["kind"] not in KINDS or not 0 <= content["seq"] <= MAX_SEQ:
        raise Refused("malformed", "an unknown kind or a number out of range")
    expected = {"Game": content["game"], "Seq": str(content["seq"]), "From": content["author"],
                "Kind": content["kind"], "Signer": fingerprint(public)}
    if headers != expected:  # signed: the envelope's own number names it
        raise Refused("header-mismatch", "the readable header does not match the signed content", content["seq"])
    return Envelope(public, data, content)


# --- sections 5.3, 7, 8, 10, 11: the history ----------------------------------------------------------------

@dataclass
class Report:
    envelopes: list[Envelope] = field(default_factory=list)
    links: dict[int, tuple[str, int, str]] = field(default_factory=dict)  # seq -> (side, index, link hex)
    openings: int = 0
    secrets: dict[str, bytes] = field(default_factory=dict)
    deck_orders: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    deck_plays: int = 0

    @property
    def state(self) -> str:
        return self.envelopes[-1].state


def _key(genesis: dict[str, Any], side: str) -> bytes | None:
    entry = genesis["body"].get("sides", {}).get(side)
    try:
        return base64.b64decode(entry["key"], validate=True)
    except (ValueError, TypeError, KeyError, AttributeError):  # no key of this side, or not base64
        return None


def _hex(value: Any, what: str, seq: int) -> str:
    if not (isinstance(value, str) and HEX64.fullmatch(value)):
        raise Refused("malformed", f"{what} must be 64 hex", seq)
    return value


def verify_files(texts: list[str]) -> Report:
    """The turn files of one two-player game, in any order: every check of the module docstring."""
    found: list[Envelope] = []
    for n, text in enumerate(texts):
        try:
            found += [open_block(*block) for block in find_blocks(text)]
        except Refused as e:  # unsigned or unreadable: named by its header, for the reason only
            seq = re.search(r"^[\s>]*Seq:\s*(\d+)", text, re.M)
            raise Refused(e.code, e.reason, e.seq if e.seq is not None else int(seq[1]) if seq else n) from None
    kit = forks.Kit(H, Refused, lambda text: [open_block(*block) for block in find_blocks(text)], _key)
    found, report = sorted(forks.live(kit, found), key=lambda e: e.seq), Report()
    if any(e.kind == "genesis" and e.body.get("mode") == "referee" for e in found):  # section 12, in its own module
        return refereed.verify(found, sys.modules[__name__])
    chains, renewed = {}, {}  # side -> (index, link) revealed last; side -> its renewed chain's anchor (8.1)
    private: dict[str, dict[str, Any]] = {}  # side -> {"anchor", "openings": {token: opening}}
    decks = _Decks(report)
    for env in found:
        report.envelopes.append(env)
        if len(report.envelopes) == 1:
            genesis = _genesis(env)
            creator = env.author
            chains[creator] = (0, _hex(env.body.get("anchor"), "the anchor", 0))
            if "private_anchor" in env.body:
                private[creator] = {"anchor": _hex(env.body["private_anchor"], "private_anchor", 0), "openings": {}}
            report.links[0] = (creator, 0, chains[creator][1])
            continue
        head = report.envelopes[-2]
        _link_checks(env, genesis, head)
        if env.kind == "join":
            if env.seq != 1 or env.author in chains:
                raise Refused("bad-join", "a join is #1, by the side that did not create the game", env.seq)
            chains[env.author] = (0, _hex(env.body.get("anchor"), "the anchor", env.seq))
            if "private_anchor" in env.body:
                private[env.author] = {"anchor": _hex(env.body["private_anchor"], "private_anchor", env.seq),
                                       "openings": {}}
            report.links[env.seq] = (env.author, 0, chains[env.author][1])
            continue
        if env.kind == "fork":  # a take-back both sides signed (section 18)
            chains, renewed = forks.check(kit, env, genesis, head, chains, renewed, report.links)
            continue
        if env.kind != "turn":
            raise Refused("bad-kind", f"a {env.kind} is not part of the chain", env.seq)
        if set(env.body) - TURN_FIELDS:
            raise Refused("bad-body", f"a turn has no field {sorted(set(env.body) - TURN_FIELDS)[0]!r}", env.seq)
        if env.author not in chains or len(chains) < 2:
            raise Refused("not-joined", "a turn before both sides joined", env.seq)
        index, last = chains[env.author]
        reveal = _hex(env.body.get("reveal"), "the reveal", env.seq)
        if H("chain", genesis["game"], env.author, bytes.fromhex(reveal)).hex() != renewed.pop(env.author, last):
            raise Refused("bad-reveal", f"{env.author}'s link #{index + 1} does not hash to its link #{index} or anchor", env.seq)
        chains[env.author] = (index + 1, reveal)
        if "renew" in env.body:  # 8.1: the next link hashes to this anchor, which is not the link beside it
            renewed[env.author] = _hex(env.body["renew"] if env.body["renew"] != reveal else "", "renew", env.seq)
        report.links[env.seq] = (env.author, index + 1, reveal)
        _private(env, genesis["game"], private, report)
        talk = env.body.get("messages", [{"say": "-"}])  # table talk (spec 7.5): its shape; no rule reads it
        if type(talk) is not list or not 0 < len(talk) <= 8 or not all(type(m) is dict and (list(m) == ["say"] and type(m["say"]) is str and 0 < len(m["say"]) <= 1000 or sorted(m) == ["box", "copy", "to"] and m["to"] in chains and m["to"] != env.author) for m in talk):  # noqa: E501
            raise Refused("bad-messages", "messages: 1 to 8 of {say: text} or {to: the other side, box, copy}", env.seq)
        decks.read(env, {s: c[1] for s, c in chains.items()})
    decks.finish()
    return report


def _genesis(env: Envelope) -> dict[str, Any]:
    c, body = env.content, env.body
    if c["kind"] != "genesis" or c["seq"] or c["prev"] != GENESIS_PREV or not HEX32.fullmatch(c["game"]):
        raise Refused("not-genesis", "a history starts with a genesis: #0, prev 64 zeros, a 32-hex game id", 0)
    if body.get("mode") not in ("sealed", "unsealed"):
        raise Refused("unsupported", f"this verifier reads two-player games, not mode {body.get('mode')!r}", 0)
    if body.get("protocol", 1) not in (1, 2, 3, 4) or type(body.get("protocol", 1)) is not int:
        raise Refused("bad-genesis", "an unknown protocol", 0)
    sides = body.get("sides")
    if not isinstance(sides, dict) or not 2 <= len(sides) <= 8 or c["author"] not in sides:
        raise Refused("bad-genesis", "two to eight sides, the author one of them", 0)
    if any(_key(c, s) is None or len(_key(c, s)) != 32 for s in sides):
        raise Refused("bad-genesis", "every side's key is 32 bytes of base64", 0)
    if type(body.get("chain")) is not int or not 64 <= body["chain"] <= 65536:
        raise Refused("bad-genesis", "a chain of 64 to 65536 links", 0)
    if env.public != _key(c, c["author"]):
        raise Refused("wrong-key", "the genesis is not signed by its author's pinned key", 0)
    return teaming.check(witnessing.check(c, Refused), Refused)  # sections 19, 20


def _link_checks(env: Envelope, genesis: dict[str, Any], head: Envelope) -> None:
    """Section 5.3, in its order."""
    if env.game != genesis["game"]:
        raise Refused("wrong-game", "a turn file of another game", env.seq)
    if env.seq != head.seq + 1:
        raise Refused("gap", f"expected envelope #{head.seq + 1}", env.seq)
    key = _key(genesis, env.author)
    if key is None:
        raise Refused("unknown-author", f"{env.author!r} is not a party to this game", env.seq)
    if env.public != key and not teaming.member_signs(genesis, env.author, env.kind, env.public):  # a member: 20
        raise Refused("wrong-key", f"not signed by the key pinned for {env.author}", env.seq)
    if env.prev != head.hash:
        raise Refused("bad-prev", f"prev does not name envelope #{head.seq}", env.seq)
    stamp = genesis["engine"]
    if (env.engine.get("module"), env.engine.get("module_version")) != (stamp.get("module"),
                                                                         stamp.get("module_version")):
        raise Refused("module-version", "made with another game module or version", env.seq)


def _private(env: Envelope, game: str, private: dict[str, dict[str, Any]], report: Report) -> None:
    """Section 10: openings against their tokens at once; a revealed secret against its anchor and
    against the nonce of every opening its side ever made."""
    side, body = env.author, env.body
    record = private.get(side)
    given = body.get("private", {})
    if record is None:
        if given or "private_secret" in body:
            raise Refused("bad-private", "this game has no private pools", env.seq)
        return
    if not isinstance(given, dict) or set(given) - {"draws", "open"} or not isinstance(given.get("open", {}), dict):
        raise Refused("bad-private", "the private field holds draws and open", env.seq)
    for tok, opening in given.get("open", {}).items():
        if not (isinstance(opening, dict) and isinstance(opening.get("item"), str)
                and type(opening.get("n")) is int and isinstance(opening.get("nonce"), str)
                and HEX64.fullmatch(opening["nonce"])):
            raise Refused("bad-private", "an opening is {item, n, nonce}", env.seq)
        if H("item", game, side, str(opening["n"]), opening["item"], bytes.fromhex(opening["nonce"])).hex() != tok:
            raise Refused("cheating", f"{side}'s opening of {tok[:12]} does not match its token", env.seq)
        record["openings"][tok] = opening
        report.openings += 1
    if "private_secret" in body:
        secret = bytes.fromhex(_hex(body["private_secret"], "the private secret", env.seq))
        if H("private", game, side, secret).hex() != record["anchor"]:
            raise Refused("cheating", f"{side}'s secret is not the one it committed to", env.seq)
        for tok, opening in record["openings"].items():
            if hmac.digest(secret, b"pbem/v1/nonce\x00" + u64(opening["n"]), "sha256").hex() != opening["nonce"]:
                raise Refused("cheating", f"{side}'s opening of {tok[:12]} is not its secret's nonce", env.seq)
        report.secrets[side] = secret


# --- section 9: dice ---------------------------------------------------------------------------------------------

class Stream:
    """The words of HMAC-SHA256(seed, u64(counter)), and uniform draws from them by rejection."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.counter, self.words = seed, 0, []

    def word(self) -> int:
        if not self.words:
            block = hmac.digest(self.seed, u64(self.counter), "sha256")
            self.counter += 1
            self.words = [int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4)]
        return self.words.pop(0)

    def uniform(self, n: int) -> int:
        while True:
            x = self.word()
            if x < 2**32 - 2**32 % n:
                return x % n

    def shuffle(self, items: list[Any]) -> list[Any]:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def roll(stream: Stream, spec: str) -> tuple[list[Any] | None, Any]:
    """The values and result a spec of section 9.1 draws; None for a shuffle or a draw, whose
    items only the rules know (the stream is kept in step)."""
    pool = re.fullmatch(r"(\d+)d(\d+)(?:(>=|<=)(\d+))?", spec)
    if pool:
        count, sides, op, target = int(pool[1]), int(pool[2]), pool[3], pool[4]
        values = [1 + stream.uniform(sides) for _ in range(count)]
        if op is None:
            return values, sum(values)
        hits = [v for v in values if (v >= int(target) if op == ">=" else v <= int(target))]
        return values, len(hits)
    single = {"d10": (10, 1), "d10 (0-9)": (10, 0), "d100": (100, 1), "d100 (00-99)": (100, 0)}
    if spec in single:
        faces, low = single[spec]
        return [low + stream.uniform(faces)], None
    if spec == "coin":
        return [("heads", "tails")[stream.uniform(2)]], None
    shuffle, draw = re.fullmatch(r"shuffle (\d+)", spec), re.fullmatch(r"draw (\d+) of (\d+)", spec)
    if shuffle:
        stream.shuffle(list(range(int(shuffle[1]))))
    elif draw:
        for k in range(int(draw[1])):
            stream.uniform(int(draw[2]) - k)
    else:
        raise Refused("bad-roll", f"unknown dice spec {spec!r}")
    return None, None


def derive_rolls(report: Report, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each claimed roll (``declared_in``, ``resolved_in``, ``actor``, ``spec``, ``values`` and maybe
    ``result``), re-derived from the files: its two links, declarations, seed and dice.  The rolls of
    one action share one stream; the claims come in the order the rules rolled them."""
    envs = {e.seq: e for e in report.envelopes}
    genesis = report.envelopes[0].content
    out: list[dict[str, Any]] = []
    k = 0
    while k < len(claims):
        first = claims[k]
        n, r, actor = first["declared_in"], first["resolved_in"], first["actor"]
        group = [first]
        while k + len(group) < len(claims) and all(claims[k + len(group)][f] == first[f]
                                                   for f in ("declared_in", "resolved_in", "actor")):
            group.append(claims[k + len(group)])
        declaring = envs.get(n)
        if declaring is None or declaring.kind != "turn" or declaring.author != actor:
            raise Refused("bad-roll", f"no turn of {actor} declares a roll in #{n}", n)
        actions = declaring.body.get("actions", [])
        if r == n + 1:  # sealed: the other side's next envelope reveals b; every action is declared
            resolving, prefixes = envs.get(r), [len(actions)]
            if resolving is None or resolving.author == actor:
                raise Refused("bad-roll", f"#{r} is not the other side's answer to #{n}", r)
            other = report.links[r]
        elif r == n:  # at once (or unsealed): the other side's last link before n; a prefix, the rules know which
            before = [s for s in sorted(report.links) if s < n and report.links[s][0] != actor]
            if not before or (genesis["body"]["mode"] == "sealed" and before[-1] != n - 1):
                raise Refused("bad-roll", f"a roll resolved at once in #{n} follows no envelope of the other side", n)
            other, prefixes = report.links[before[-1]], list(range(1, len(actions) + 1))
        else:
            raise Refused("bad-roll", f"a roll declared in #{n} cannot be resolved in #{r}", r)
        own = report.links[n]
        for count in prefixes:
            declarations = H("declarations", canonical(actions[:count]))
            seed = H("roll", genesis["game"], str(n), bytes.fromhex(own[2]), bytes.fromhex(other[2]), declarations)
            stream = Stream(seed)
            drawn = [roll(stream, c["spec"]) for c in group]
            if all(v is None or (v == c["values"] and ("result" not in c or c["result"] in (None, res)))
                   for c, (v, res) in zip(group, drawn)):
                break
        else:
            raise Refused("bad-dice", f"the dice of the roll declared in #{n} do not follow from its links", r)
        for c, (values, result) in zip(group, drawn):
            out.append({"declared_in": n, "resolved_in": r, "actor": actor, "spec": c["spec"],
                        "links": [own, other], "declared_actions": count, "declarations": declarations.hex(),
                        "seed": seed.hex(), "values": values, "result": result})
        k += len(group)
    return out


# --- section 11: the order of a shared deck's shuffles ------------------------------------------------------------

class _Decks:
    """Every shuffle of cards from the box (``begin`` with cards only): both permutations, once both
    private secrets are out, give the order; each card later played face up from it must be the one
    at its position.  Each permuting step's nonce must be the other side's latest revealed link."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.shuffles: dict[tuple[str, int], dict[str, Any]] = {}
        self.plays: list[tuple[int, str, list[int], str]] = []

    def read(self, env: Envelope, latest: dict[str, str]) -> None:
        messages = env.body.get("decks", [])
        if not (isinstance(messages, list) and all(isinstance(m, list) and len(m) == 2 and isinstance(m[1], dict)
                                                   for m in messages)):
            raise Refused("bad-message", "decks is a list of [deck, message]", env.seq)
        for deck, msg in messages:
            op = msg.get("op")
            if op == "begin":
                self.shuffles[(deck, msg["number"])] = {"cards": msg["cards"], "refs": msg["refs"], "steps": []}
            elif op in ("shuffle", "shuffle-rekey"):
                other = next(s for s in sorted(latest) if s != env.author)
                if msg.get("nonce") != latest[other]:
                    raise Refused("bad-nonce", f"{env.author}'s {op} of {deck} is not keyed by {other}'s last link", env.seq)
                self.shuffles[(deck, msg["number"])]["steps"].append((env.author, len(msg["deck"]), msg["nonce"]))
            elif op == "play":
                self.plays.append((env.seq, deck, msg["ref"], msg["card"]))

    def finish(self) -> None:
        game, secrets = self.report.envelopes[0].game, self.report.secrets
        for (deck, number), shuffle in self.shuffles.items():
            if shuffle["refs"] or not all(side in secrets for side, _, _ in shuffle["steps"]):
                continue  # face-down cards reshuffled (their order is the last shuffle's), or not yet opened
            order = list(shuffle["cards"])
            for side, size, nonce in shuffle["steps"]:
                seed = hmac.digest(secrets[side], H("deck-keys", game, deck, side, str(number)), "sha256")
                perm = Stream(hmac.digest(seed, H("deck-permutation", nonce), "sha256")).shuffle(list(range(size)))
                order = [order[p] for p in perm]  # out[j] = in[perm[j]]
            self.report.deck_orders[(deck, number)] = order
        for seq, deck, ref, card in self.plays:
            order = self.report.deck_orders.get((deck, ref[0]))
            if order is not None and order[ref[1]] != card:
                raise Refused("cheating", f"{deck} position {ref} is {order[ref[1]]}, not {card}", seq)
            self.report.deck_plays += order is not None


# --- the command line ------------------------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    rolls_path = argv[argv.index("--rolls") + 1] if "--rolls" in argv else None
    paths = [Path(a) for a in argv if a != "--rolls" and a != rolls_path]
    files = [p for path in paths for p in (sorted(path.glob("*.pbem")) if path.is_dir() else [path])]
    try:
        report = verify_files([p.read_text(encoding="utf-8") for p in files])
        derived = derive_rolls(report, json.loads(Path(rolls_path).read_text())) if rolls_path else []
    except Refused as e:
        print(f"REFUSED {e}")
        return 1
    dice = sum(len(r["values"] or []) for r in derived)
    print(f"OK: {len(report.envelopes)} envelopes, {len(derived)} rolls ({dice} dice) re-derived, "
          f"{report.openings} openings, {len(report.deck_orders)} shuffles ({report.deck_plays} cards played) "
          f"checked; state {report.state[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

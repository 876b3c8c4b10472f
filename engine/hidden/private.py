"""Private randomness: a side's own deck or hidden set-up, drawn and committed.

Each side that owns private pools commits at genesis (or join) to a secret
``k`` by publishing ``H(private | game | side | k)``.  Its pools (its deck,
its cup of blocks) start from public contents the game declares; only the
owner knows which items leave them and in what order.

Draw ``j`` of ``side`` takes a uniform index into the pool's remaining items
(in sorted order) from ``Dice(HMAC(k, draw | j | p))``, where ``p`` is the
other side's last revealed chain link: the owner cannot choose what it
draws (``k`` is committed, ``p`` fixed by the other's chain).  Each drawn item
is published only as a commitment token

    token = H(item | game | side | n | item | nonce_n),  nonce_n = HMAC(k, nonce | n)

and opened (item, n, nonce) when the rules reveal it.  At the end the owner
reveals ``k`` and anyone re-derives every draw and every token; a token that
does not match is reported as cheating, naming the side and the envelope.

Texts shown to players mention hidden items as ``[[token]]``; the display
layer shows the owner the item and everyone else "a concealed item".
"""

from __future__ import annotations

import hmac
from typing import Any

from pbem_engine.canonical import canonical_json, digest
from pbem_engine.chance.dice import Dice


class PrivateError(Exception):
    """A private draw, opening or secret that does not check out."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def anchor(game_id: str, side: str, secret: bytes) -> str:
    return digest("private", game_id, side, secret).hex()


def nonce(secret: bytes, n: int) -> str:
    return hmac.digest(secret, b"pbem/v1/nonce\0" + n.to_bytes(8, "big"), "sha256").hex()


def token(game_id: str, side: str, n: int, item: str, nonce_hex: str) -> str:
    return digest("item", game_id, side, str(n), item, bytes.fromhex(nonce_hex)).hex()


def draw_index(secret: bytes, j: int, link: str, size: int) -> int:
    seed = hmac.digest(secret, b"pbem/v1/draw\0" + j.to_bytes(8, "big") + bytes.fromhex(link), "sha256")
    return Dice(seed).uniform(size)


def new_side(pools: dict[str, list[str]], anchor_hex: str, trail: bool = False, logged: bool = False
             ) -> dict[str, Any]:
    """The public record of one side's private pools, kept in the match state.

    ``trail`` (protocol 3): the state hash covers the log through ``trail``, a running digest
    of its entries, and not the log itself, which grows with the history (it is kept beside
    the hashed state: ``pbem_engine.protocol.trail``).  ``logged`` (protocol 4): each opening
    and the hidden choices published at the end are entries of the log too, and ``opened`` and
    ``chosen``, read from it, are left out of the hashed state as well."""
    return {"anchor": anchor_hex, "initial": {p: sorted(items) for p, items in sorted(pools.items())},
            "sizes": {p: len(items) for p, items in sorted(pools.items())}, "n": 0, "draws": 0,
            "log": [], "opened": {}, "secret": None, **({"trail": ""} if trail else {}),
            **({"logged": ["chosen", "opened"]} if logged else {})}


def log(record: dict[str, Any], entry: dict[str, Any]) -> None:
    """Append ``entry`` to a side's private log, and to its running digest where it keeps one."""
    record["log"].append(entry)
    if "trail" in record:
        record["trail"] = digest("trail", record["trail"], canonical_json(entry, strict=False)).hex()


def simulate(game_id: str, side: str, record: dict[str, Any], secret: bytes,
             chosen: dict[str, str] | None = None) -> tuple[dict[str, list[str]], dict[str, dict[str, Any]]]:
    """Replay a side's private log with its secret: (remaining pools, {token: opening}).

    ``chosen`` names the items the side chose to hide (its own record of them, or
    what it published at the end); a chosen token it cannot open is unchecked
    while the game goes on and cheating once the side has revealed its secret.

    :raises PrivateError: a logged token is not what the secret gives (cheating).
    """
    pools = {p: list(items) for p, items in record["initial"].items()}
    known: dict[str, dict[str, Any]] = {}
    chosen = {**record.get("chosen", {}), **(chosen or {})}
    for entry in record["log"]:
        if "open" in entry or "chosen" in entry:  # protocol 4's records of what was shown: no pool changes
            continue
        if "add" in entry:
            pools[entry["add"]] = sorted(pools[entry["add"]] + entry["items"])
            continue
        if "choose" in entry:
            tok, n = entry["token"], entry["n"]
            item = chosen.get(tok)
            if item is None:
                if record.get("secret"):
                    raise PrivateError("cheating", f"{side} never opened the item it hid in envelope #{entry['envelope']}")
                continue
            opening = {"item": item, "n": n, "nonce": nonce(secret, n)}
            pool = entry["choose"]
            if (pool is not None and item not in pools[pool]) or token(game_id, side, n, item, opening["nonce"]) != tok:
                raise PrivateError("cheating", f"{side}'s hidden choice in envelope #{entry['envelope']} is not "
                                   f"{'an item of its ' + pool if pool else 'what it sealed'}, committed with its secret")
            if pool is not None:
                pools[pool].remove(item)
            known[tok] = opening
            continue
        remaining = pools[entry["pool"]]
        for offset, tok in enumerate(entry["tokens"]):
            j = entry["j"] + offset
            item = remaining.pop(draw_index(secret, j, entry["link"], len(remaining)))
            n = entry["n"] + offset
            opening = {"item": item, "n": n, "nonce": nonce(secret, n)}
            if token(game_id, side, n, item, opening["nonce"]) != tok:
                raise PrivateError("cheating", f"{side}'s private draw #{j} in envelope #{entry['envelope']} "
                                   f"does not match the secret it committed to")
            known[tok] = opening
    return pools, known


def reveal_secret(game_id: str, side: str, record: dict[str, Any], secret_hex: Any, chosen: Any = None,
                  seq: int = 0) -> None:
    """Record ``side``'s secret, revealed at the end, and the items it chose to hide (``chosen``),
    once every draw and hidden choice of its log is checked against them.

    :raises PrivateError: a malformed or second secret, not the committed one, or cheating.
    """
    if record["secret"] is not None:
        raise PrivateError("bad-secret", f"{side} has already revealed its private secret")
    if not (isinstance(secret_hex, str) and len(secret_hex) == 64 and not secret_hex.strip("0123456789abcdef")):
        raise PrivateError("bad-secret", f"{side}'s private secret must be 64 hex digits")
    secret = bytes.fromhex(secret_hex)
    if anchor(game_id, side, secret) != record["anchor"]:
        raise PrivateError("cheating", f"{side}'s revealed private secret is not the one it committed to")
    chosen = chosen or {}
    if not (isinstance(chosen, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in chosen.items())):
        raise PrivateError("bad-secret", f"{side}'s hidden choices must map tokens to items")
    opened = dict(record, secret=secret_hex)  # with the secret out, every hidden item must open
    if chosen:
        opened["chosen"] = dict(sorted(chosen.items()))
    simulate(game_id, side, opened, secret)
    record.update(opened)
    if chosen and "logged" in record:  # protocol 4: published once, an entry of the log (trail)
        log(record, {"chosen": opened["chosen"], "envelope": seq})


def _check_private_body(given: Any) -> None:
    """The shape of an envelope's ``private`` field, checked before it is read."""
    if not isinstance(given, dict) or set(given) - {"draws", "open"}:
        raise PrivateError("bad-private", "the private field must hold only 'draws' and 'open'")
    draws, opened = given.get("draws", []), given.get("open", {})
    if not (isinstance(draws, list) and all(isinstance(d, list) and all(isinstance(t, str) for t in d) for d in draws)):
        raise PrivateError("bad-private", "private draws must be lists of tokens")
    if not isinstance(opened, dict):
        raise PrivateError("bad-private", "private openings must map tokens to openings")


class PrivateContext:
    """What ``dice.draw_private`` / ``reveal`` / ``add_private`` do during one envelope.

    Built once per envelope.  In *build* mode (the author's own tool, which
    knows its secret) it computes draws and finds openings and records both;
    in *replay* mode (everyone else, and verify) it takes them from the
    envelope body and checks every opening against its token.
    """

    def __init__(self, game_id: str, seq: int, author: str, records: dict[str, Any], links: dict[str, str],
                 body: dict[str, Any], secret: bytes | None = None, opening: str | None = None,
                 link_index: dict[str, int] | None = None, chosen: dict[str, str] | None = None) -> None:
        self.opening = opening  # the creator, whose anchor the joiner must not draw on
        self.link_index = link_index or {}
        self.game_id, self.seq, self.author = game_id, seq, author
        self.records = records  # side -> public private-record (copied by the caller)
        self.links = links  # side -> last revealed chain link
        self.build = secret is not None
        self.secret = secret
        given = body.get("private", {})
        if secret is None:  # replay: the body came from outside
            _check_private_body(given)
        self.draws_in: list[list[str]] = list(given.get("draws", []))
        self.open_in: dict[str, dict[str, Any]] = dict(given.get("open", {}))
        self.draws_out: list[list[str]] = []
        self.open_out: dict[str, dict[str, Any]] = {}
        self.chosen_out: list[tuple[str, str]] = []  # build mode: (token, item) hidden by choice, in order
        self._known: dict[str, dict[str, Any]] = {}
        self._pools: dict[str, list[str]] = {}
        self.chosen_known = dict(chosen or {})
        if secret is not None:  # what the author holds at the start of this envelope
            self._pools, self._known = simulate(game_id, author, records[author], secret, self.chosen_known)

    # -- build-mode knowledge ---------------------------------------------------
    def _simulated(self) -> tuple[dict[str, list[str]], dict[str, dict[str, Any]]]:
        return self._pools, self._known

    def own_item(self, side: str, tok: str) -> str | None:
        """The item behind one of ``side``'s own tokens, in its own tool only (build mode, its own
        envelope); None anywhere else. For rules its owner can check before signing."""
        if not self.build or side != self.author:
            return None
        opening = self._known.get(tok)
        return opening["item"] if opening else self.chosen_known.get(tok)

    def body(self) -> dict[str, Any]:
        """What build mode adds to the envelope body."""
        out: dict[str, Any] = {}
        if self.draws_out:
            out["draws"] = self.draws_out
        if self.open_out:
            out["open"] = self.open_out
        return out

    def finish(self) -> None:
        """Every draw the envelope carried must have been used."""
        if not self.build and len(self.draws_in) != len(self.draws_out):
            raise PrivateError("bad-private", f"the envelope carries {len(self.draws_in)} private draws, "
                               f"the rules made {len(self.draws_out)}")

    # -- what games call (through Dice) ------------------------------------------
    def draw(self, side: str, pool: str, count: int) -> list[str]:
        if side != self.author:
            raise PrivateError("not-owner", f"{side}'s private draw must happen in {side}'s own envelope")
        record = self.records[side]
        if pool not in record["sizes"]:
            raise PrivateError("bad-private", f"{side} has no private pool {pool!r}")
        if not 0 <= count <= record["sizes"][pool]:
            raise PrivateError("bad-private", f"cannot draw {count} from {side}'s {pool} of {record['sizes'][pool]}")
        other = next(s for s in sorted(self.links) if s != side)
        if self.opening == other and self.link_index[other] == 0:
            raise PrivateError("too-early", f"{side} cannot draw on {other}'s anchor, which it saw before committing "
                               f"its secret; wait for {other}'s opening reveal")
        entry = {"pool": pool, "j": record["draws"], "n": record["n"], "link": self.links[other],
                 "envelope": self.seq, "tokens": []}
        if self.build:
            pools, known = self._simulated()
            remaining = pools[pool]
            for offset in range(count):
                n, j = record["n"] + offset, record["draws"] + offset
                item = remaining.pop(draw_index(self.secret, j, entry["link"], len(remaining)))  # type: ignore[arg-type]
                opening = {"item": item, "n": n, "nonce": nonce(self.secret, n)}  # type: ignore[arg-type]
                tok = token(self.game_id, side, n, item, opening["nonce"])
                known[tok] = opening
                entry["tokens"].append(tok)
        else:
            index = len(self.draws_out)
            if index >= len(self.draws_in) or len(self.draws_in[index]) != count:
                raise PrivateError("bad-private", f"the envelope does not carry the {count} private draw(s) "
                                   f"of {side}'s {pool} the rules make here")
            entry["tokens"] = list(self.draws_in[index])
        self.draws_out.append(entry["tokens"])
        log(record, entry)
        record["n"] += count
        record["draws"] += count
        record["sizes"][pool] -= count
        return list(entry["tokens"])

    def choose(self, side: str, pool: str | None, value: Any) -> str:
        """Hide an item ``side`` chooses from its ``pool`` (a concealed set-up), or, with no
        pool, any text it wants sealed until later (a secret note, a plotted order): its token.

        The author's tool passes ``{"$hide": item}``; the signed action carries the
        token instead (``pbem`` swaps them, in order), which is what replays see.
        """
        if side != self.author:
            raise PrivateError("not-owner", f"only {side} can hide one of its items, in its own envelope")
        record = self.records[side]
        if pool is not None and (pool not in record["sizes"] or record["sizes"][pool] < 1):
            raise PrivateError("bad-private", f"{side} has nothing left to hide in {pool!r}")
        n = record["n"]
        if isinstance(value, dict) and "$hide" in value:
            if not self.build:
                raise PrivateError("bad-private", "a hidden choice must travel as its token")
            item = value["$hide"]
            pools, known = self._simulated()
            if not isinstance(item, str) or (pool is not None and item not in pools.get(pool, [])):
                raise PrivateError("bad-private", f"{item!r} is not in {side}'s {pool}")
            opening = {"item": item, "n": n, "nonce": nonce(self.secret, n)}  # type: ignore[arg-type]
            tok = token(self.game_id, side, n, item, opening["nonce"])
            if pool is not None:
                pools[pool].remove(item)
            known[tok] = opening
            self.chosen_out.append((tok, item))
        elif isinstance(value, str) and len(value) == 64:
            tok = value
        else:
            raise PrivateError("bad-private", f"a hidden choice must be a 64-hex token, got {value!r}")
        log(record, {"choose": pool, "n": n, "token": tok, "envelope": self.seq})
        record["n"] += 1
        if pool is not None:
            record["sizes"][pool] -= 1
        return tok

    def add(self, side: str, pool: str, items: list[str]) -> None:
        record = self.records[side]
        if pool not in record["sizes"]:
            raise PrivateError("bad-private", f"{side} has no private pool {pool!r}")
        log(record, {"add": pool, "items": sorted(items), "envelope": self.seq})
        record["sizes"][pool] += len(items)
        if self.build and self.author == side:
            pools, _ = self._simulated()
            pools[pool] = sorted(pools[pool] + list(items))

    def reveal(self, side: str, tok: str) -> str:
        record = self.records[side]
        if tok in record["opened"]:
            return record["opened"][tok]
        if self.build and side == self.author:
            opening = self._simulated()[1].get(tok)
            if opening is None:
                raise PrivateError("bad-opening", f"{side} holds no hidden item {tok[:12]}")
            self.open_out[tok] = opening
        else:
            opening = self.open_in.get(tok)
            if opening is None:
                raise PrivateError("bad-opening", f"the rules reveal {side}'s hidden item {tok[:12]} here, "
                                   f"but the envelope does not open it")
            if not (isinstance(opening, dict) and isinstance(opening.get("item"), str)
                    and isinstance(opening.get("n"), int) and isinstance(opening.get("nonce"), str)
                    and token(self.game_id, side, opening["n"], opening["item"], opening["nonce"]) == tok):
                raise PrivateError("cheating", f"{side}'s opening of hidden item {tok[:12]} in envelope "
                                   f"#{self.seq} does not match its commitment")
            self.open_out[tok] = opening
        record["opened"][tok] = opening["item"]
        if "logged" in record:
            log(record, {"open": tok, "item": opening["item"], "envelope": self.seq})
        return opening["item"]


def shuffle_hidden(value: Any, key: bytes) -> Any:
    """``value`` with every list made only of ``{"$hide": ...}`` items put in an order drawn
    from ``key`` (Fisher-Yates over HMAC-SHA256 output): items hidden together go out in an
    order only the holder of ``key`` knows, so their tokens' order tells nothing."""
    if isinstance(value, dict):
        return {k: shuffle_hidden(v, hmac.digest(key, k.encode(), "sha256")) for k, v in value.items()}
    if isinstance(value, list) and len(value) > 1 and all(isinstance(v, dict) and "$hide" in v for v in value):
        return Dice(key).shuffle(value, "the order of items hidden together")
    return value

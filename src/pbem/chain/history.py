"""Checking one envelope against the history before it, and replaying a history.

Used by ``ingest`` (one new envelope on top of the stored state) and by
``verify`` (every envelope from genesis).  The order of checks is the order
of trust: who signed it, whether it belongs here, then the rules, then the
claimed state hash.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from typing import Any

from pbem_engine.protocol import match as protocol, trail
from pbem_engine.canonical import NotCanonical, canonical_json, parse_json
from pbem_engine.protocol.core import Game, IllegalAction
from pbem_engine.registry import UnknownGame, get_game

from .. import __version__
from ..errors import PbemError, RefusedTurn
from ..wire.envelope import Envelope
from . import teams

GENESIS_PREV = "0" * 64


class Applied:
    """One envelope checked and applied: the match after it, and what it derived. ``state_json``
    is the state as hashed and stored; ``trail``, in protocol 3, the private log entries and deck
    messages the envelope added, stored beside it (``pbem_engine.protocol.trail``)."""

    __slots__ = ("envelope", "match", "state_json", "state_hash", "events", "rolls", "trail")

    def __init__(self, envelope: Envelope, match: dict[str, Any], state_json: bytes, state_hash: str,
                 events: list[dict[str, Any]] | None = None, rolls: list[dict[str, Any]] | None = None,
                 trail: bytes | None = None) -> None:
        self.envelope, self.match, self.state_json, self.state_hash = envelope, match, state_json, state_hash
        self.events = events if events is not None else []
        self.rolls = rolls if rolls is not None else []
        self.trail = trail


def engine_stamp(game: Game) -> dict[str, str]:
    return {"pbem": __version__, "module": game.name, "module_version": game.version}


def game_of(genesis: dict[str, Any]) -> Game:
    stamp = genesis["engine"]
    if stamp.get("module") == "tabletop":  # built from the pack the genesis carries
        return _tabletop(genesis)
    key = (str(stamp.get("module")), str(stamp.get("module_version")))
    if key in _GAMES:
        return _GAMES[key]
    try:
        game = get_game(str(stamp.get("module")))
    except UnknownGame as e:
        raise RefusedTurn("unknown game module", str(e), code="unknown-module") from None
    if stamp.get("module_version") != game.version:
        raise RefusedTurn("game module version differs",
                          f"this history was made with {game.name} version {stamp.get('module_version')}, "
                          f"this pbem has version {game.version}", code="module-version")
    _GAMES[key] = game
    return game


def _tabletop(genesis: dict[str, Any]) -> Game:
    from pbem_engine.registry import tabletop_game

    key = ("tabletop", genesis["game"])
    if key not in _GAMES:
        pack = genesis["body"].get("options", {}).get("pack")
        if not isinstance(pack, dict):
            raise RefusedTurn("a table-top genesis must carry its pack", "options.pack is missing", code="bad-genesis")
        game = tabletop_game(pack)
        if genesis["engine"].get("module_version") != game.version:
            raise RefusedTurn("game module version differs", f"table-top {genesis['engine'].get('module_version')} "
                              f"against {game.version}", code="module-version")
        _GAMES[key] = game
    return _GAMES[key]


_GAMES: dict[tuple[str, str], Game] = {}  # (module, version) -> module, checked once per process


def pinned_key(genesis: dict[str, Any], side: str) -> bytes | None:
    body = genesis["body"]
    entry = body.get("referee") if side == "referee" and body.get("mode") == "referee" else body.get("sides", {}).get(side)
    if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
        return None
    return _key_bytes(entry["key"])


def signs_for(genesis: dict[str, Any], side: str, public: bytes) -> bool:
    """Whether ``public`` may sign for ``side``: its pinned key, or a member of a team side that
    lets any member sign (``pbem.chain.teams``)."""
    return teams.may_sign(genesis, side, public, pinned_key(genesis, side))


@functools.lru_cache(maxsize=64)  # asked of every envelope: a campaign pins a few keys
def _key_bytes(text: str) -> bytes | None:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return None


def _where(env: Envelope) -> str:
    return f"envelope #{env.seq} ({env.author}, {env.kind})"


def apply(env: Envelope, genesis: dict[str, Any] | None, match: dict[str, Any] | None,
          head: tuple[int, str] | None, build: dict[str, Any] | None = None, *, own: bool = False) -> Applied:
    """Check ``env`` as the next envelope after ``head`` and apply it to ``match``.

    ``genesis`` is the content of envelope #0 (None when ``env`` is the genesis).  ``own``: the
    caller never reads ``match`` again, so its game state may be changed in place
    (``pbem_engine.protocol.match.advance``).

    :raises RefusedTurn: with a code naming the first check that failed.
    """
    c = env.content
    if (genesis or c)["body"].get("mode") == "referee":
        return _apply_referee(env, genesis, match, head, build)
    if genesis is None:
        return _apply_genesis(env)
    assert match is not None
    _check_link(env, genesis, head)
    game = game_of(genesis)
    if c["engine"].get("module") != game.name or c["engine"].get("module_version") != game.version:
        raise RefusedTurn("game module differs", f"{_where(env)} was made with {c['engine']}", code="module-version")
    try:
        if c["kind"] == "join":
            joins = len(genesis["body"]["sides"]) - (0 if genesis["body"].get("mode") == "referee" else 1)
            if not 1 <= c["seq"] <= joins:
                raise RefusedTurn("unexpected join", f"{_where(env)}: joins come right after the genesis", code="bad-join")
            new, events, rolls = protocol.join(match, c["author"], c["body"], game, c["seq"]), [
                {"text": f"{c['author']} joins the game"}], []
        elif c["kind"] == "turn":
            new, events, rolls = protocol.advance(game, match, c["seq"], c["author"], c["body"], build, own=own)
        elif c["kind"] == "fork":  # a take-back both sides signed (pbem.play.takeback)
            return _apply_fork(env, genesis, match, head, game)
        else:
            raise RefusedTurn(f"unexpected {c['kind']} envelope", f"{_where(env)}: not part of the chain here", code="bad-kind")
    except protocol.ProtocolError as e:
        raise RefusedTurn(str(e), _where(env), code=e.code) from None
    except IllegalAction as e:
        legal = ("; legal now: " + "; ".join(e.legal[:12]) + (" …" if len(e.legal) > 12 else "")) if e.legal else ""
        raise RefusedTurn("illegal action", f"{_where(env)}: {e}{legal}", code="illegal-action") from None
    return _finish(env, new, events, rolls)


def check_claim(env: Envelope, genesis: dict[str, Any], stored: tuple[str, str] | None,
                stored_state: str | None, match: dict[str, Any] | None = None) -> None:
    """A timeout claim: signed by a side's pinned key, naming an envelope we hold and its state,
    under a deadline agreed at genesis, against the side that owed the next envelope then.

    ``match``: the match after the envelope the claim names (for who owed what); a refereed
    game's waiting depends on the viewer, so there only the deadline and the parties are checked.

    :raises RefusedTurn: the claim does not refer to this campaign's history, or claims what
        the history does not support.
    """
    c = env.content
    where = f"timeout claim by {c['author']} at #{c['seq']}"
    if c["game"] != genesis["game"]:
        raise RefusedTurn("timeout claim of another game", f"{where} belongs to game {c['game']}", code="wrong-game")
    if not signs_for(genesis, c["author"], env.public):
        raise RefusedTurn("signed by the wrong key", f"{where} is not signed by a key that may sign for {c['author']}",
                          code="wrong-key")
    if stored is None:
        raise RefusedTurn("timeout claim about an envelope this campaign does not hold",
                          f"{where}: ingest envelope #{c['seq']} first", code="gap")
    if c["prev"] != stored[0] or c["state"] != stored_state:
        raise RefusedTurn("timeout claim about a different history",
                          f"{where} names envelope {c['prev'][:16]}…, this campaign holds {stored[0][:16]}…",
                          code="bad-prev")
    body = c["body"]
    if not (isinstance(body.get("owed_by"), str) and isinstance(body.get("since"), int)
            and isinstance(body.get("claimed_at"), str)):
        raise RefusedTurn("malformed timeout claim", f"{where}: needs owed_by, since and claimed_at", code="bad-claim")
    if genesis["body"].get("deadline_hours") is None and genesis["body"].get("clock") is None:
        raise RefusedTurn("timeout claim with no agreed deadline", f"{where}: the genesis sets no deadline, "
                          "so no one can be out of time", code="no-deadline")
    at_zero, said = (genesis["body"].get("clock") or {}).get("at_zero"), body.get("clock")
    if ("clock" in body or at_zero) and not (isinstance(said, dict) and said.get("at_zero") == at_zero
                                             and type(said.get("left_minutes")) is int and said["left_minutes"] <= 0):
        raise RefusedTurn("malformed timeout claim", f"{where}: a claim under a clock says the clock and what "
                          "the invitation agreed at zero", code="bad-claim")
    if body["owed_by"] == c["author"] or pinned_key(genesis, body["owed_by"]) is None:
        raise RefusedTurn("timeout claim against no opponent", f"{where} names {body['owed_by']!r}", code="not-owed")
    if match is not None and genesis["body"].get("mode") != "referee":
        owed = protocol.waiting_for(game_of(genesis), match)
        if owed is None or (owed["side"], owed["since"]) != (body["owed_by"], body["since"]):
            really = f"{owed['side']} owed the next envelope since #{owed['since']}" if owed else "the game was over"
            raise RefusedTurn("timeout claim against a side that owed nothing",
                              f"{where} says {body['owed_by']} owed since #{body['since']}; {really}", code="not-owed")


def _start(env: Envelope, creator: str | None = None) -> tuple[Game, dict[str, Any]]:
    """The checks every genesis passes, and the match it starts (``creator``: who must sign it)."""
    c = env.content
    where = _where(env)
    if c["kind"] != "genesis" or c["seq"] != 0 or c["prev"] != GENESIS_PREV or creator not in (None, c["author"]):
        raise RefusedTurn("not a genesis", f"{where}: a campaign starts with envelope #0 of kind genesis"
                          + (f", signed by the {creator}" if creator else ""), code="not-genesis")
    if not (len(c["game"]) == 32 and all(ch in "0123456789abcdef" for ch in c["game"])):
        raise RefusedTurn("bad game id", f"{where}: game id must be 32 hex digits", code="bad-genesis")
    if pinned_key(c, c["author"]) != env.public:
        raise RefusedTurn("genesis not signed by its author's key", where, code="wrong-key")
    from . import invitation  # only a genesis needs it: kept off the ingest path

    invitation.check(c)  # every field within bounds before anything is built from it
    game = game_of(c)
    try:
        return game, protocol.start(game, c["game"], c["author"], c["body"])
    except protocol.ProtocolError as e:
        raise RefusedTurn(str(e), where, code=e.code) from None


def _apply_genesis(env: Envelope) -> Applied:
    game, new = _start(env)
    c = env.content
    return _finish(env, new, [{"text": f"{c['author']} creates a game of {game.title} ({c['body']['scenario']})"}], [])


def _check_link(env: Envelope, genesis: dict[str, Any], head: tuple[int, str] | None) -> None:
    """Game, sequence, pinned key and previous hash: the checks every chain envelope passes."""
    c = env.content
    if c["game"] != genesis["game"]:
        raise RefusedTurn("turn file of another game", f"{_where(env)} belongs to game {c['game']}, this campaign is {genesis['game']}", code="wrong-game")
    if head is None or c["seq"] != head[0] + 1:
        raise RefusedTurn("gap in the sequence", f"{_where(env)}: the next envelope expected is #{(head or (-1,))[0] + 1}", code="gap")
    key = pinned_key(genesis, c["author"])
    if key is None:
        raise RefusedTurn("unknown author", f"{_where(env)}: '{c['author']}' is not a party to this game", code="unknown-author")
    # a team member signs a side's turns where its invitation lets any member sign; any other kind
    # is its commander's (spec 20)
    if env.public != key and (c["kind"] != "turn" or not teams.member_signs(genesis, c["author"], env.public)):
        member = teams.member_named(genesis, c["author"], env.public)
        raise RefusedTurn("signed by the wrong key", f"{_where(env)} is signed by {member}, a member of {c['author']} "
                          "who may not sign it" if member else f"{_where(env)} is signed by a key "
                          f"that is not the one pinned for {c['author']} at genesis", code="wrong-key")
    if c["prev"] != head[1]:
        raise RefusedTurn("broken link to the previous envelope", f"{_where(env)}: prev is {c['prev'][:16]}…, "
                          f"envelope #{head[0]} is {head[1][:16]}…", code="bad-prev")


def _apply_referee(env: Envelope, genesis: dict[str, Any] | None, match: dict[str, Any] | None,
                   head: tuple[int, str] | None, build: dict[str, Any] | None) -> Applied:
    """A referee-mode envelope: the public state always; the full state when the
    referee's secrets are at hand (``build``: {"referee_salt", "referee_box"})."""
    from . import referee

    c = env.content
    where = _where(env)
    events: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    if genesis is None:
        game, full = _start(env, referee.REFEREE)
        new = {"public": referee.public_start(c), "full": full if build else None}
        return _finish_referee(env, new, [{"text": f"the referee creates a game of {game.title}"}], [])
    assert match is not None and head is not None
    _check_link(env, genesis, head)
    if c["kind"] not in ("turn", "join", "fork"):
        raise RefusedTurn(f"unexpected {c['kind']} envelope", f"{where}: not part of a refereed chain", code="bad-kind")
    game = game_of(genesis)
    if c["engine"].get("module") != game.name or c["engine"].get("module_version") != game.version:
        raise RefusedTurn("game module differs", f"{where} was made with {c['engine']}", code="module-version")
    if c["kind"] == "fork":  # a take-back the referee decided (pbem.play.takeback)
        return _apply_referee_fork(env, genesis, match, head, build)
    body = c["body"]
    joins = _referee_joins(genesis, env, head) if "joins" in body else {}
    public = referee.public_advance(match["public"], c["seq"], c["author"], c["kind"],
                                    dict(body, joins=joins) if joins else body)
    full = match["full"]
    for side, join_body in sorted(joins.items()):
        events.append({"text": f"{side} joins the game"})
        if full is not None:
            try:
                full = protocol.join(full, side, opened_join(join_body, side, c["game"], build), game, c["seq"])
            except protocol.ProtocolError as e:
                raise RefusedTurn(str(e), where, code=e.code) from None
    if "disclose" in body:
        _check_disclosure(genesis, body["disclose"], where)
        events.append({"text": "the referee discloses its secrets: anyone can now replay the whole game"})
    elif full is not None and build:
        turn = {"reveal": body["reveal"], "actions": [], **({"renew": body["renew"]} if "renew" in body else {})}
        if c["author"] != referee.REFEREE:
            plain = referee.open_box(build["referee_box"], body["orders"], c["game"], "orders",
                                     referee.orders_aad(c["game"], c["seq"], c["author"]))
            turn["actions"] = _orders(plain, where)
        try:
            full, more, rolls = protocol.advance(game, full, c["seq"], c["author"], turn, dict(build, chain=genesis["body"]["chain"]))
            events += more
        except protocol.ProtocolError as e:
            raise RefusedTurn(str(e), where, code=e.code) from None
        except IllegalAction as e:
            raise RefusedTurn("illegal action", f"{where}: {e}", code="illegal-action") from None
        if c["author"] == referee.REFEREE and body.get("commit") != referee.commitment(full, c["seq"], build["referee_salt"]):
            raise RefusedTurn("the referee's state commitment does not match the replay", where, code="bad-commit")
    else:
        full = None  # a player's copy: the full state is the referee's until it discloses
    return _finish_referee(env, {"public": public, "full": full}, events, rolls)


def opened_join(body: dict[str, Any], side: str, game_id: str, build: dict[str, Any] | None) -> dict[str, Any]:
    """A join as the referee's replay reads it: the private secret the player sealed to the referee, opened."""
    from . import referee

    if "private_box" not in body or not build:
        return body
    plain = referee.open_box(build["referee_box"], body["private_box"], game_id, "private",
                             referee.private_aad(game_id, side))
    return dict(body, private_secret=plain.decode("ascii", "replace").rstrip(" "))  # sealed boxes are padded


def _orders(plain: bytes, where: str) -> list[dict[str, Any]]:
    """A player's decrypted orders: hostile until checked (depth, integers, a list of objects)."""
    try:
        actions = parse_json(plain)
    except NotCanonical as e:
        raise RefusedTurn("malformed orders", f"{where}: {e}", code="bad-actions") from None
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise RefusedTurn("malformed orders", f"{where}: orders must be a list of objects", code="bad-actions")
    return actions


def _referee_joins(genesis: dict[str, Any], env: Envelope, head: tuple[int, str]) -> dict[str, dict[str, Any]]:
    """The players' signed join blocks that the referee's first envelope carries: their bodies."""
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block

    where = _where(env)
    raw = env.content["body"]["joins"]
    if env.content["author"] != "referee" or head[0] != 0 or not isinstance(raw, dict):
        raise RefusedTurn("joins travel only in the referee's first envelope", where, code="bad-join")
    bodies = {}
    for side, text in sorted(raw.items()):
        try:
            blocks = find_blocks(text) if isinstance(text, str) else []
            join = open_block(blocks[0]) if len(blocks) == 1 else None
        except PbemError as e:
            raise RefusedTurn(f"{side}'s join inside {where} is damaged", str(e), code="bad-join") from None
        if join is None or join.kind != "join" or join.author != side or join.game != genesis["game"] \
                or join.seq != 0 or join.content["prev"] != head[1] or pinned_key(genesis, side) != join.public:
            raise RefusedTurn(f"{side}'s join inside {where} is not {side}'s signed join of this game", where,
                              code="bad-join")
        bodies[side] = join.content["body"]
    return bodies


def _check_disclosure(genesis: dict[str, Any], disclosed: Any, where: str) -> None:
    from . import referee

    try:
        salt, box = bytes.fromhex(disclosed["salt"]), bytes.fromhex(disclosed["box"])
    except (KeyError, TypeError, ValueError):
        raise RefusedTurn("malformed disclosure", where, code="bad-disclosure") from None
    body = genesis["body"]
    if referee.salt_anchor(genesis["game"], salt) != body["salt_anchor"] or not referee.box_check(
            genesis["game"], box, body["referee"]["box"]):
        raise RefusedTurn("the referee disclosed secrets other than those it committed to at genesis", where,
                          code="cheating")


def _finish_referee(env: Envelope, new: dict[str, Any], events: list[dict[str, Any]],
                    rolls: list[dict[str, Any]]) -> Applied:
    digest = hashlib.sha256(canonical_json(new["public"], strict=False)).hexdigest()
    if digest != env.content["state"]:
        raise RefusedTurn("state hash differs", f"{_where(env)}: the public state after it differs "
                          f"({env.content['state'][:16]}… signed, {digest[:16]}… computed)", code="state-mismatch")
    return Applied(env, new, canonical_json(new, strict=False), digest, events, rolls)


def _finish(env: Envelope, new: dict[str, Any], events: list[dict[str, Any]], rolls: list[dict[str, Any]]) -> Applied:
    state_json = canonical_json(trail.hashed(new), strict=False)
    digest = hashlib.sha256(state_json).hexdigest()
    if digest != env.content["state"]:
        raise RefusedTurn("state hash differs", f"{_where(env)}: its author computed state {env.content['state'][:16]}…, "
                          f"this pbem computes {digest[:16]}… (different rules or a forged result)", code="state-mismatch")
    added = trail.logged_in(new, env.seq)
    return Applied(env, new, state_json, digest, events, rolls, canonical_json(added, strict=False) if added else None)


# --- take-backs by agreement (pbem.play.takeback) ------------------------------

TAKEBACK_MOST = 16  # envelopes one take-back may abandon: they travel inside it, twice armored
SEEN = ("private", "decks", "private_secret", "renew", "disclose")  # what an abandoned envelope may not carry
HIDDEN = ("private", "hidden", "dealt", "deal_order")  # a refereed full state's hidden items: none may change


def open_proposal(text: Any, genesis: dict[str, Any]) -> Envelope:
    """A take-back proposal's text, checked on its own: one signed block, of this game, a side's
    pinned key, a body naming the envelope to go back to and carrying the envelopes it abandons.

    :raises RefusedTurn: ``bad-takeback`` (or the armor's and the signature's own refusals).
    """
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block

    blocks = find_blocks(text) if isinstance(text, str) else []
    if len(blocks) != 1:
        raise RefusedTurn("malformed take-back", "a take-back carries exactly one signed proposal", code="bad-takeback")
    prop = open_block(blocks[0])
    c, body = prop.content, prop.content["body"]
    where = f"take-back proposal by {c['author']} at #{c['seq']}"
    if prop.kind != "takeback" or set(body) != {"to", "to_hash", "abandon"}:
        raise RefusedTurn("malformed take-back", f"{where}: a proposal is a takeback with to, to_hash and abandon",
                          code="bad-takeback")
    if c["game"] != genesis["game"]:
        raise RefusedTurn("take-back of another game", f"{where} belongs to game {c['game']}", code="wrong-game")
    referee = genesis["body"].get("mode") == "referee" and c["author"] == "referee"  # its own take-back
    if pinned_key(genesis, c["author"]) != prop.public or c["author"] not in genesis["body"]["sides"] and not referee:
        raise RefusedTurn("signed by the wrong key", f"{where} is not signed by the key pinned for a side",
                          code="wrong-key")
    abandon = body["abandon"]
    if not (type(body["to"]) is int and isinstance(body["to_hash"], str) and isinstance(abandon, list)
            and 1 <= len(abandon) <= TAKEBACK_MOST and all(isinstance(t, str) for t in abandon)
            and body["to"] + len(abandon) == c["seq"]):
        raise RefusedTurn("malformed take-back", f"{where}: it must carry envelopes #{body['to']}+1..#{c['seq']} "
                          f"(1 to {TAKEBACK_MOST} of them)", code="bad-takeback")
    return prop


def replay_abandoned(prop: Envelope, genesis: dict[str, Any], match: dict[str, Any],
                     head: tuple[int, str], build: dict[str, Any] | None = None
                     ) -> tuple[list[Envelope], dict[str, Any]]:
    """The envelopes a proposal abandons, each checked as it was when first applied, from the match
    at the envelope it goes back to (``head``, ``match``); and the match at the head it abandons.

    The limit of a take-back: no abandoned envelope settled a roll, drew, opened or dealt a hidden
    item, revealed a private secret or renewed a chain.  Whoever has seen a result cannot undo the
    decision that caused it, and the chains then move past every link revealed (``fork_chains``).
    In a refereed game (``match`` {"public", "full"}) play goes back to a point where the referee
    owes nothing; the rolls and hidden items are checked where the full state is replayed (the
    referee's copy, or anyone's after the disclosure, ``build``), the rest everywhere.

    :raises RefusedTurn: ``past-roll`` (the limit), ``bad-takeback`` (not the history named).
    """
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block

    p = prop.content
    where = f"take-back proposal by {p['author']} to #{p['body']['to']}"
    if (p["body"]["to"], p["body"]["to_hash"]) != head:
        raise RefusedTurn("take-back of another history", f"{where}: this history's #{head[0]} is "
                          f"{head[1][:16]}…, the proposal names {p['body']['to_hash'][:16]}…", code="bad-takeback")
    refereed = "public" in match
    if refereed and (match["public"]["adjudicate"] or match["public"]["disclosed"] is not None):
        raise RefusedTurn("a refereed take-back goes back to an adjudication", f"{where}: after #{head[0]} the "
                          "referee still owed an adjudication; go back to one of the referee's", code="bad-target")
    game = game_of(genesis)
    envelopes = []
    for text in p["body"]["abandon"]:
        blocks = find_blocks(text)
        if len(blocks) != 1:
            raise RefusedTurn("malformed take-back", f"{where}: each abandoned envelope is one signed block",
                              code="bad-takeback")
        env = open_block(blocks[0])
        if env.kind != "turn":
            raise RefusedTurn("a take-back goes back over turns only", f"{where}: #{env.seq} is a {env.kind}",
                              code="past-roll")
        seen = [k for k in SEEN if k in env.content["body"]]
        applied = apply(env, genesis, match, head, build)
        full = (match.get("full"), applied.match.get("full")) if refereed else (None, None)
        seen += [k for k in HIDDEN if full[0] is not None and full[0].get(k) != full[1].get(k)]
        if applied.rolls or seen:
            what = "settled a roll" if applied.rolls else {"renew": "renewed a hash chain", "disclose":
                                                           "disclosed the referee's secrets"}.get(
                seen[0], "drew, opened or dealt a hidden item")
            raise RefusedTurn("a take-back cannot go back past a roll, a draw or a reveal",
                              f"{where}: envelope #{env.seq} ({env.author}) {what}; go back to #{env.seq} "
                              "or later", code="past-roll")
        match, head = applied.match, (env.seq, env.hash)
        envelopes.append(env)
    state = match_hash(match["public"] if refereed else match)  # a refereed copy's state hash is the public one
    if head != (p["seq"], p["prev"]) or state != p["state"]:
        raise RefusedTurn("take-back of another history", f"{where}: it abandons #{p['seq']} "
                          f"{p['prev'][:16]}…, its envelopes lead to {head[1][:16]}…", code="bad-takeback")
    rules = match["full"] if refereed else match  # a player's copy of a refereed game knows the end from its views
    if rules is not None and game.outcome(rules["game"]) is not None:
        raise RefusedTurn("the game is over", f"{where}: a finished game is not taken back", code="game-over")
    return envelopes, match


match_hash = trail.match_hash


def fork_chains(at: dict[str, Any], abandoned: dict[str, Any]) -> dict[str, Any]:
    """Each side's chain after a take-back: the last link it revealed, abandoned or not, so that no
    link seeds two rolls and neither side knows the other's next one.  (An unsealed roll may then
    be seeded by the other side's abandoned link: its actor committed its own chain long before it
    saw that link, and previews its unsealed rolls anyway.)"""
    return {side: dict(record) for side, record in sorted(abandoned["chains"].items())}


def fork_match(match: dict[str, Any], chains: dict[str, Any], seq: int) -> dict[str, Any]:
    """The match after a take-back numbered ``seq``: the one it goes back to, with ``fork_chains``."""
    new = dict(match, seq=seq, chains=chains)
    if "last" in new:
        new["last"] = None  # no roll sealed at once (match.at_once): it waits for a link revealed after
    return new


def fork_public(public: dict[str, Any], chains: dict[str, Any], seq: int) -> dict[str, Any]:
    """A refereed game's public state after a take-back numbered ``seq``: the one it goes back to, with
    ``fork_chains`` and no view committed (a player's view there is the one he holds from before;
    the witnesses' ``watch`` too, in a game with witnesses)."""
    return dict(public, seq=seq, chains=chains, views={}, commit=None, **({"watch": None} if "watch" in public else {}))


def _apply_fork(env: Envelope, genesis: dict[str, Any], match: dict[str, Any], head: tuple[int, str],
                game: Game) -> Applied:
    """The countersigned take-back: the match at the envelope it goes back to, with the chains as
    they stood at the abandoned head and no roll sealed at once on a link seen before it."""
    c = env.content
    if set(c["body"]) != {"proposal", "chains"}:
        raise RefusedTurn("malformed take-back", f"{_where(env)}: a fork carries the proposal and the chains",
                          code="bad-takeback")
    prop = open_proposal(c["body"]["proposal"], genesis)
    if prop.author == c["author"]:
        raise RefusedTurn("a take-back is countersigned by the opponent",
                          f"{_where(env)}: {c['author']} signed both the proposal and the acceptance", code="bad-takeback")
    abandoned, after = replay_abandoned(prop, genesis, match, head)
    chains = fork_chains(match, after)
    if c["body"]["chains"] != {s: {"index": r["index"], "link": r["link"]} for s, r in chains.items()}:
        raise RefusedTurn("take-back with the wrong chain links", f"{_where(env)}: the chains must go on from the "
                          "last link each side revealed in the abandoned envelopes", code="bad-takeback")
    new = fork_match(match, chains, c["seq"])
    text = (f"{c['author']} accepts {prop.author}'s take-back: play goes back to envelope #{head[0]}; "
            f"{len(abandoned)} envelope(s) abandoned by agreement")
    return _finish(env, new, [{"text": text}], [])


def _apply_referee_fork(env: Envelope, genesis: dict[str, Any], match: dict[str, Any], head: tuple[int, str],
                        build: dict[str, Any] | None) -> Applied:
    """A take-back in a refereed game, which the referee decides: signed by the referee, carrying the
    proposal (a player's, or its own).  The match after it is the one at ``to`` with the chains as
    at the abandoned head, and no view committed (each player's is the one he holds from ``to``)."""
    c = env.content
    if c["author"] != "referee":
        raise RefusedTurn("a take-back in a refereed game is the referee's to decide",
                          f"{_where(env)} is signed by {c['author']}, not the referee", code="bad-takeback")
    if set(c["body"]) != {"proposal", "chains"}:
        raise RefusedTurn("malformed take-back", f"{_where(env)}: a fork carries the proposal and the chains",
                          code="bad-takeback")
    prop = open_proposal(c["body"]["proposal"], genesis)
    abandoned, after = replay_abandoned(prop, genesis, match, head, build)
    chains = fork_chains(match["public"], after["public"])
    if c["body"]["chains"] != {s: {"index": r["index"], "link": r["link"]} for s, r in chains.items()}:
        raise RefusedTurn("take-back with the wrong chain links", f"{_where(env)}: the chains must go on from the "
                          "last link each party revealed in the abandoned envelopes", code="bad-takeback")
    public = fork_public(match["public"], chains, c["seq"])
    full = match["full"] and fork_match(match["full"], fork_chains(match["full"], after["full"]), c["seq"])
    who = "its own" if prop.author == "referee" else f"{prop.author}'s"
    text = (f"the referee grants {who} take-back: play goes back to envelope #{head[0]}; "
            f"{len(abandoned)} envelope(s) abandoned")
    # the full replay's line is the referee's own: a player's next view lists the events of the orders it
    # adjudicates (pbem.play.refereeing), and the replay after the disclosure re-derives it so
    return _finish_referee(env, {"public": public, "full": full}, [{"text": text, **({"to": ["referee"]} if build else {})}], [])


def state_after(match: dict[str, Any] | None, genesis: dict[str, Any] | None, content: dict[str, Any],
                head: tuple[int, str] | None = None) -> str:
    """The state hash an envelope with ``content`` leads to (computed before signing it)."""
    if genesis is None:
        game = game_of(content)
        return match_hash(protocol.start(game, content["game"], content["author"], content["body"]))
    game = game_of(genesis)
    if content["kind"] == "join":
        return match_hash(protocol.join(match, content["author"], content["body"]))  # type: ignore[arg-type]
    new, _, _ = protocol.advance(game, match, content["seq"], content["author"], content["body"])  # type: ignore[arg-type]
    return match_hash(new)


def read_invitation(text: str) -> dict[str, Any]:
    """The checked genesis content of an invitation's text (signature, bounds, the game set up).

    :raises PbemError: no genesis in it, or one that fails a check.
    """
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block

    geneses = [e for e in (open_block(b) for b in find_blocks(text)) if e.kind == "genesis"]
    if not geneses:
        raise RefusedTurn("no invitation found", "the file holds no genesis envelope", code="not-genesis")
    apply(geneses[0], None, None, None)
    return geneses[0].content

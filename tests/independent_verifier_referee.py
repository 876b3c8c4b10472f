"""The independent verifier's reading of a refereed game (docs/spec.md section 12), from the
spec alone: ``tests/independent_verifier.py`` hands it the envelopes of a game whose genesis says
``mode: "referee"``, and itself as ``iv`` (its armor, signature, canonical JSON and ``H``).

What anyone can check without the referee's secrets: every signature against the key the
genesis pins (the referee's, each player's), each join the referee's first envelope carries,
the chain of numbers and previous hashes, every party's revealed links (across its renewals,
8.1), whose envelope may come next, every envelope's ``state`` as the hash of the public
state (12.5), the referee's take-backs (18.1, ``independent_verifier_forks.check_refereed``), and
each witness view against the adjudication that commits to it (19.1).
Once the referee discloses: its salt and box key against what the genesis committed, and each
of the referee's renewals against the anchor its salt gives (8.1): the referee has no new chain
to choose.

Like the verifier it belongs to, it imports nothing of pbem: the standard library and PyNaCl.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
from types import ModuleType
from typing import Any

from nacl.bindings import crypto_scalarmult_base

REFEREE = "referee"
BESIDE = ("join", "view", "claim", "leave")  # beside the chain (a join travels in #1): signed, no step of it


def verify(found: list[Any], iv: ModuleType) -> Any:
    """``found``: the envelopes of the files, sorted by number.  Returns ``iv.Report`` with
    ``renewals`` ({party: count}) and ``referee_renewals_checked`` (against the disclosed salt).

    :raises iv.Refused: the first check that fails, with its code and envelope."""
    found = sorted(found, key=lambda e: (e.seq, e.kind != "genesis"))  # the players' joins are #0 too
    report = iv.Report()
    genesis = _genesis(found[0], iv)
    keys = _keys(genesis, iv)
    body = genesis.body
    public = {"mode": "referee", "game_id": genesis.game, "seq": 0, "players": sorted(body["sides"]),
              "chains": {REFEREE: {"link": body["anchor"], "index": 0}}, "boxes": {REFEREE: body["referee"]["box"]},
              "adjudicate": False, "commit": None, "views": {}, "disclosed": None}
    if body.get("witnesses"):  # 19.1: the witnesses' view is committed too
        public["watch"] = None
    _state(genesis, public, iv)
    report.envelopes.append(genesis)
    report.renewals, report.referee_renewals_checked = {}, 0
    renewed_at: list[tuple[int, str, int]] = []  # the referee's renewals: (link index beside it, anchor, seq)
    held: dict[int, str] = {0: genesis.hash}
    watched: list[Any] = []  # the witnesses' views (19.1), checked against their adjudications at the end
    for env in found[1:]:
        if env.kind in BESIDE:
            if env.game != genesis.game or keys.get(env.author) != env.public:
                raise iv.Refused("wrong-key", f"a {env.kind} not signed by a pinned key of this game", env.seq)
            if env.kind == "view" and env.body.get("to") == "witness":
                watched.append(env)
            continue
        if env.seq in held:
            if held[env.seq] != env.hash:
                raise iv.Refused("equivocation", f"two different envelopes #{env.seq}", env.seq)
            continue
        head = report.envelopes[-1]
        _link(env, genesis, head, keys, iv)
        if env.kind == "fork":  # a take-back the referee decided (18.1): the abandoned on the public state
            kit = iv.forks.Kit(iv.H, iv.Refused, lambda text: [iv.open_block(*b) for b in iv.find_blocks(text)],
                               lambda _genesis, party: keys.get(party))
            public = iv.forks.check_refereed(kit, env, genesis, head, public, lambda pub, e: _stated(
                e, _advance(pub, e, genesis, keys, iv, report, renewed_at), iv))
        else:
            public = _advance(public, env, genesis, keys, iv, report, renewed_at)
        _state(env, public, iv)
        held[env.seq] = env.hash
        report.envelopes.append(env)
    adjudications = {e.seq: e for e in report.envelopes}
    for view in watched:
        if view.seq not in adjudications or "watch" not in adjudications[view.seq].body:
            raise iv.Refused("bad-view", "a witness view beside no adjudication that commits to one", view.seq)
        iv.witnessing.check_view(view, adjudications[view.seq], keys[REFEREE], iv.canonical, iv.Refused)
    report.witness_views = len(watched)
    disclosed = public["disclosed"]
    if disclosed is not None:
        salt = bytes.fromhex(next(e for e in report.envelopes if e.seq == disclosed).body["disclose"]["salt"])
        for index, anchor, seq in renewed_at:
            if anchor != _renewal_anchor(genesis.game, salt, index, body["chain"], iv):
                raise iv.Refused("cheating", "the referee's new chain is not the one its salt gives (8.1)", seq)
            report.referee_renewals_checked += 1
    return report


def _genesis(env: Any, iv: ModuleType) -> Any:
    c, body = env.content, env.body
    if c["kind"] != "genesis" or c["seq"] or c["prev"] != iv.GENESIS_PREV or not iv.HEX32.fullmatch(c["game"]):
        raise iv.Refused("not-genesis", "a history starts with a genesis: #0, prev 64 zeros, a 32-hex game id", 0)
    sides, referee = body.get("sides"), body.get("referee")
    if c["author"] != REFEREE or not isinstance(referee, dict) or not isinstance(sides, dict) \
            or not 2 <= len(sides) <= 8 or REFEREE in sides:
        raise iv.Refused("bad-genesis", "a refereed game: created by the referee, for two to eight players", 0)
    if type(body.get("chain")) is not int or not 64 <= body["chain"] <= 65536:
        raise iv.Refused("bad-genesis", "a chain of 64 to 65536 links", 0)
    for what in ("anchor", "salt_anchor"):
        iv._hex(body.get(what), what, 0)
    iv._hex(referee.get("box"), "the referee's box key", 0)
    iv.teaming.check(iv.witnessing.check(env.content, iv.Refused), iv.Refused)  # 19, 20
    return env


def _keys(genesis: Any, iv: ModuleType) -> dict[str, bytes]:
    entries = {REFEREE: genesis.body["referee"], **genesis.body["sides"]}
    keys = {}
    for party, entry in entries.items():
        try:
            keys[party] = base64.b64decode(entry["key"], validate=True)
        except (TypeError, KeyError, ValueError):
            keys[party] = b""
        if len(keys[party]) != 32:
            raise iv.Refused("bad-genesis", f"{party}'s key is not 32 bytes of base64", 0)
    if genesis.public != keys[REFEREE]:
        raise iv.Refused("wrong-key", "the genesis is not signed by the referee's pinned key", 0)
    return keys


def _link(env: Any, genesis: Any, head: Any, keys: dict[str, bytes], iv: ModuleType) -> None:
    """Section 5.3, in its order."""
    if env.game != genesis.game:
        raise iv.Refused("wrong-game", "a turn file of another game", env.seq)
    if env.seq != head.seq + 1:
        raise iv.Refused("gap", f"expected envelope #{head.seq + 1}", env.seq)
    if env.author not in keys:
        raise iv.Refused("unknown-author", f"{env.author!r} is not a party to this game", env.seq)
    if env.public != keys[env.author] and not iv.teaming.member_signs(genesis.content, env.author, env.kind,
                                                                       env.public):  # a member: 20.1
        raise iv.Refused("wrong-key", f"not signed by the key pinned for {env.author}", env.seq)
    if env.prev != head.hash:
        raise iv.Refused("bad-prev", f"prev does not name envelope #{head.seq}", env.seq)
    stamp = genesis.engine
    if (env.engine.get("module"), env.engine.get("module_version")) != (stamp.get("module"), stamp.get("module_version")):
        raise iv.Refused("module-version", "made with another game module or version", env.seq)


def _joins(public: dict[str, Any], env: Any, genesis: Any, keys: dict[str, bytes], iv: ModuleType) -> None:
    """12.1: the players' signed joins, carried by the referee's first envelope."""
    joins = env.body.get("joins")
    if not isinstance(joins, dict) or env.seq != 1:
        raise iv.Refused("bad-join", "joins travel in the referee's first envelope, as {side: text}", env.seq)
    for side, text in sorted(joins.items()):
        blocks = iv.find_blocks(text) if isinstance(text, str) else []
        join = iv.open_block(*blocks[0]) if len(blocks) == 1 else None
        if join is None or join.kind != "join" or join.game != genesis.game or join.seq != 0 \
                or join.prev != genesis.hash or join.author != side or side not in genesis.body["sides"] \
                or join.public != keys[side] or side in public["chains"]:
            raise iv.Refused("bad-join", f"{side}'s join is not a signed join of this game", env.seq)
        public["chains"][side] = {"link": iv._hex(join.body.get("anchor"), "anchor", env.seq), "index": 0}
        public["boxes"][side] = iv._hex(join.body.get("box"), "box key", env.seq)
    public["adjudicate"] = all(p in public["chains"] for p in public["players"])


def _advance(public: dict[str, Any], env: Any, genesis: Any, keys: dict[str, bytes], iv: ModuleType,
             report: Any, renewed_at: list[tuple[int, str, int]]) -> dict[str, Any]:
    """12.5: the public state after ``env``."""
    new = copy.deepcopy(public)
    new["seq"], author, body, seq = env.seq, env.author, env.body, env.seq
    if env.kind != "turn":
        raise iv.Refused("bad-kind", f"a {env.kind} is not part of a refereed chain", seq)
    if author == REFEREE and "joins" in body:
        _joins(new, env, genesis, keys, iv)
    if any(p not in new["chains"] for p in new["players"]):
        raise iv.Refused("not-joined", "an envelope before every player joined", seq)
    if new["disclosed"] is not None:
        raise iv.Refused("game-over", "no envelope follows a disclosure", seq)
    chain = new["chains"][author]
    reveal = iv._hex(body.get("reveal"), "the reveal", seq)
    if iv.H("chain", genesis.game, author, bytes.fromhex(reveal)).hex() != chain.get("renewed", chain["link"]):
        raise iv.Refused("bad-reveal", f"{author}'s link #{chain['index'] + 1} does not hash to its link or anchor", seq)
    new["chains"][author] = {"link": reveal, "index": chain["index"] + 1}
    if "renew" in body:  # 8.1: the next link hashes to this anchor, which is not the link beside it
        new["chains"][author]["renewed"] = iv._hex(body["renew"] if body["renew"] != reveal else "", "renew", seq)
        report.renewals[author] = report.renewals.get(author, 0) + 1
        if author == REFEREE:
            renewed_at.append((chain["index"] + 1, body["renew"], seq))
    if author == REFEREE and "disclose" in body:
        _disclosure(body["disclose"], genesis, iv, seq)
        new["disclosed"] = seq
    elif author == REFEREE:
        if not new["adjudicate"]:
            raise iv.Refused("nothing-to-do", "nothing for the referee to adjudicate", seq)
        views = body.get("views")
        if not isinstance(views, dict) or sorted(views) != new["players"]:
            raise iv.Refused("bad-views", "an adjudication commits to one view per player", seq)
        new.update(adjudicate=False, commit=iv._hex(body.get("commit"), "commit", seq),
                   views={p: iv._hex(views[p], "view hash", seq) for p in new["players"]})
        if "watch" in new:  # 19.1
            new["watch"] = iv._hex(body.get("watch"), "the witnesses' view hash", seq)
        elif "watch" in body:
            raise iv.Refused("bad-views", "a witnesses' view in a game without witnesses", seq)
    else:
        if new["adjudicate"]:
            raise iv.Refused("owes-adjudication", "the referee has not adjudicated the envelope before", seq)
        if not isinstance(body.get("orders"), dict):
            raise iv.Refused("bad-actions", "a player's turn carries sealed orders", seq)
        new["adjudicate"] = True
    return new


def _disclosure(disclosed: Any, genesis: Any, iv: ModuleType, seq: int) -> None:
    """12.3: the salt against ``salt_anchor``, the box key against the genesis's public half."""
    salt = bytes.fromhex(iv._hex((disclosed or {}).get("salt"), "salt", seq))
    box = bytes.fromhex(iv._hex((disclosed or {}).get("box"), "box key", seq))
    if iv.H("referee-salt", genesis.game, salt).hex() != genesis.body["salt_anchor"] \
            or crypto_scalarmult_base(box).hex() != genesis.body["referee"]["box"]:
        raise iv.Refused("cheating", "the referee disclosed secrets other than those the genesis committed", seq)


def _renewal_anchor(game: str, salt: bytes, index: int, length: int, iv: ModuleType) -> str:
    """8.1: the referee's new chain beside its link ``index``, from its salt; its anchor."""
    link = hmac.digest(salt, b"pbem/v1/referee-renew\x00" + iv.u64(index), "sha256")
    for _ in range(length):
        link = iv.H("chain", game, REFEREE, link)
    return link.hex()


def _stated(env: Any, public: dict[str, Any], iv: ModuleType) -> dict[str, Any]:
    _state(env, public, iv)
    return public


def _state(env: Any, public: dict[str, Any], iv: ModuleType) -> None:
    if env.state != hashlib.sha256(iv.canonical(public)).hexdigest():
        raise iv.Refused("state-mismatch", "the state is not the hash of the public state (12.5)", env.seq)

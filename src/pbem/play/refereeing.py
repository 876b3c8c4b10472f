"""Referee-mode campaigns: the referee's flows (create, start, adjudicate, disclose)
and the players' (join, give orders, read their views).  The wire format and
the public checks are in ``pbem.chain.referee``; the full rules in ``engine``."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets as secrets_mod
from pathlib import Path
from typing import Any

from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import canonical_json
from pbem_engine.hidden.referee_deck import known as dealt_known

from ..chain import history, referee
from ..chain import teams as teams_mod
from ..chain.witnesses import FOLDER as WITNESS_FOLDER
from ..chain.witnesses import OBSERVER, listed
from ..errors import PbemError, RefusedTurn
from ..store.files import atomic_write
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block, seal
from ..wire.keys import Identity
from . import chains, referee_orders
from . import messages as talk
from .plays import Ask, PlayResult, turn_file_name
from .referee_orders import latest_view

REFEREE = referee.REFEREE


# --- creating and joining -------------------------------------------------------

def new_genesis(module: str, identity: Identity, players: dict[str, tuple[bytes, str]], scenario: str | None = None,
                options: dict[str, Any] | None = None, deadline_hours: int | None = None,
                chain: int = protocol.CHAIN_LENGTH, witnesses: list[dict[str, str]] | None = None,
                teams: dict[str, list[dict[str, str]]] | None = None, signs: str = "commander"
                ) -> tuple[Envelope, history.Applied, bytes, dict[str, str]]:
    """The referee's genesis of a game for ``players`` ({side: (public key, name)}): the envelope,
    as applied, the referee's chain secret and what its campaign keeps secret beside it (its salt
    and box key, hex).  ``Campaign.new_refereed`` creates the referee's campaign with them.
    ``witnesses``: [{name, key}] who watch (``pbem.chain.witnesses``); ``teams``: {side: [{name,
    key}]}, a side's members besides its player, and ``signs`` who of them signs (``pbem.chain.teams``)."""
    from pbem_engine.registry import UnknownGame, get_game

    try:
        if module == "tabletop":  # built from the pack its invitation carries (options.pack), as in a two-player game
            from pbem_engine.registry import tabletop_game

            if not isinstance((options or {}).get("pack"), dict):
                raise PbemError("table-top mode needs a data pack", "pbem new tabletop --referee --pack NAME-OR-DIR",
                                code="no-pack")
            game = tabletop_game(options["pack"])
        else:
            game = get_game(module)
    except UnknownGame as e:
        raise PbemError("unknown game module", str(e), code="unknown-module") from None
    if sorted(players) != sorted(game.sides):
        raise PbemError("name one player per side", f"{game.name} has sides {', '.join(game.sides)}; "
                        f"given: {', '.join(sorted(players)) or 'none'}", code="bad-side")
    keys = [k for k, _ in players.values()] + [identity.public]
    if len(set(keys)) != len(keys):
        raise PbemError("every party needs its own key", "the referee and the players must not share keys", code="bad-key")
    game_id = secrets_mod.token_hex(16)
    chain_secret, salt = secrets_mod.token_bytes(32), secrets_mod.token_bytes(32)
    box_private, box_public = referee.box_keypair()
    anchor = protocol.chain_links(game_id, REFEREE, chain_secret, chain)[0]
    body = {"mode": "referee", "protocol": protocol.PROTOCOLS[-1], "scenario": scenario or next(iter(game.scenarios)), "options": options or {},
            "title": game.title, "chain": chain, "anchor": anchor.hex(), "deadline_hours": deadline_hours,
            "referee": {"key": base64.b64encode(identity.public).decode(), "name": identity.name, "box": box_public.hex()},
            "sides": {side: {"key": base64.b64encode(key).decode(), "name": name} for side, (key, name) in players.items()},
            "salt_anchor": referee.salt_anchor(game_id, salt)}
    if witnesses:
        body["witnesses"] = witnesses
    teams_mod.pin(body, game.name, teams, signs)
    content = {"v": 1, "game": game_id, "seq": 0, "prev": history.GENESIS_PREV, "author": REFEREE, "kind": "genesis",
               "engine": history.engine_stamp(game), "body": body, "state": ""}
    content["state"] = _hash(referee.public_start(content))
    envelope = seal(identity, content)
    build = {"referee_salt": salt, "referee_box": box_private}
    applied = history.apply(envelope, None, None, None, build)  # refuses what the engine refuses (bad options...)
    return envelope, applied, chain_secret, {"salt": salt.hex(), "box": box_private.hex()}


def join_content(genesis: Envelope, side: str, anchor: str, box_public: str, hidden: bytes | None = None,
                 private_anchor: str | None = None) -> dict[str, Any]:
    """A player's join: a signed document the referee carries into its first envelope.  In a game
    with hidden pools it commits to the player's private secret and seals the secret to the
    referee, who draws, hides and opens the player's items with it (pbem_engine.hidden.referee_hidden)."""
    body: dict[str, Any] = {"anchor": anchor, "box": box_public}
    if hidden is not None:
        referee_box = bytes.fromhex(genesis.content["body"]["referee"]["box"])
        body["private_anchor"] = private_anchor
        body["private_box"] = referee.seal_box(referee_box, hidden.hex().encode(), genesis.game, "private",
                                               referee.private_aad(genesis.game, side))
    return {"v": 1, "game": genesis.game, "seq": 0, "prev": genesis.hash, "author": side, "kind": "join",
            "engine": genesis.content["engine"], "body": body, "state": ""}


def _hash(public: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(public, strict=False)).hexdigest()


# --- who owes what ----------------------------------------------------------------

def waiting(campaign, match: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Who owes what: now, or (the referee's report ``--at N``) in ``match``, a state of the past."""
    match = match or campaign.match()
    public = match["public"]
    if public["disclosed"] is not None:
        return None
    missing = [p for p in public["players"] if p not in public["chains"]]
    if missing:
        if campaign.side != REFEREE:  # a player cannot know who else has joined: the referee starts the game
            return {"side": REFEREE, "why": "start", "since": 0,
                    "text": "waiting for the referee to start the game once every player has joined"}
        if campaign.side == REFEREE:
            joined = {side for _, _, side, _, _ in campaign.ledger.views()}
            still = [p for p in missing if p not in joined]
            if not still:
                return {"side": REFEREE, "why": "start", "since": 0, "text": "every player has joined: start the game"}
            missing = still
        return {"side": missing[0], "why": "join", "since": 0, "text": f"waiting for {missing[0]} to join"}
    if public["adjudicate"]:
        return {"side": REFEREE, "why": "adjudicate", "since": public["seq"],
                "text": f"waiting for the referee to adjudicate envelope #{public['seq']}"}
    if campaign.side == REFEREE:
        full = protocol.waiting_for(campaign.game, match["full"])
        if full is None:
            return {"side": REFEREE, "why": "disclose", "since": public["seq"],
                    "text": "the game is over: the referee discloses it (pbem play)"}
        return full
    view = latest_view(campaign)
    if view is None or view["waiting"] is None:
        return {"side": REFEREE, "why": "disclose", "since": public["seq"],
                "text": "the game is over: waiting for the referee to disclose it"}
    return view["waiting"]


# --- views ---------------------------------------------------------------------------

def view_payload(game, full: dict[str, Any], seq: int, side: str, events: list[dict[str, Any]],
                 rolls: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``side`` is told after adjudication ``seq``: a function of the full state and
    the events of the envelopes it adjudicated, so anyone can re-derive it after disclosure."""
    state = full["game"]
    prompt = game.prompt(state)
    wait = protocol.waiting_for(game, full)
    mine = wait is not None and wait["side"] == side
    outcome = game.outcome(state)
    return {
        "seq": seq, "side": side, "view": game.view(state, side),
        "waiting": None if wait is None else (dict(wait) if mine else {"side": wait["side"], "why": wait["why"],
                                                                        "since": wait["since"],
                                                                        "text": f"waiting for {wait['side']}"}),
        "prompt": {"text": prompt.text, "choices": [[c.label, c.action] for c in prompt.choices]} if mine else None,
        "events": [e["text"] for e in events if e.get("to") is None or side in e["to"]],
        "rolls": [{k: r.get(k) for k in ("purpose", "spec", "values", "result", "declared_in")}
                  for r in rolls if r.get("to") is None or side in r["to"]],
        "outcome": None if outcome is None else {"winner": outcome.winner, "result": outcome.result,
                                                  "reason": outcome.reason},
        # a game with hidden pools: the public record of every side's tokens, from which our own
        # tool names our items with our secret and runs the rules for several orders a file
        **({"private": full["private"]} if "private" in full else {}),
        # and the items the referee hid for this side by the rules (a stand-up): its own to name
        # (none for the witnesses' view, the side of no one)
        **({"chosen": full["hidden"][side]["chosen"]} if "hidden" in full and side in full["hidden"] else {}),
        # a game with dealt decks: the public record of the decks the referee holds (positions,
        # cards face up), and the cards this side has seen (its hand, a hand shown to it)
        **({"dealt": full["dealt"], "cards": dealt_known(full["dealt"], full["deal_order"], side)}
           if "dealt" in full else {}),
    }


def _view_doc(identity: Identity, adjudication: Envelope, side: str, box: dict[str, Any]) -> Envelope:
    """A player's view block (``box``: its sealed view), or the witnesses' (``box``: ``{to, nonce, view}``)."""
    body = box if side == OBSERVER else {"to": side, "box": box}
    content = {"v": 1, "game": adjudication.game, "seq": adjudication.seq, "prev": adjudication.hash,
               "author": REFEREE, "kind": "view", "engine": adjudication.content["engine"],
               "body": body, "state": ""}
    return seal(identity, content)


def check_views(campaign, docs: list[Envelope], todo: list, result) -> list[tuple[Envelope, str, str]]:
    """Players: the views the referee sealed to us.  Referee: the players' joins.  Returns rows to store."""
    genesis = campaign.genesis
    out: list[tuple[Envelope, str, str]] = []
    known = {h for h, *_ in campaign.ledger.views()}
    new = {a.envelope.seq: a for a in todo}
    for doc in docs:
        if doc.hash in known:
            result.skipped.append((doc, "already received"))
            continue
        if doc.game != genesis["game"] or history.pinned_key(genesis, doc.author) != doc.public:
            raise RefusedTurn("a view or join not signed for this game", f"{doc.kind} from {doc.author}", code="wrong-key")
        if (doc.kind == "view") != (doc.author == REFEREE):  # a view is the referee's; a join, its player's
            raise RefusedTurn(f"a {doc.kind} signed by the wrong party", f"{doc.kind} from {doc.author}: views come "
                              "from the referee, joins from the players", code="wrong-key")
        if doc.kind == "join":
            if campaign.side != REFEREE:
                result.skipped.append((doc, "a join is for the referee"))
                continue
            if doc.seq != 0 or doc.content["prev"] != campaign.ledger.envelope_index(0)[0]:
                raise RefusedTurn("a join must answer this game's invitation", f"join from {doc.author}", code="bad-join")
            out.append((doc, doc.author, json.dumps(doc.content["body"])))
            known.add(doc.hash)
            continue
        side = doc.content["body"].get("to")
        if side != campaign.side:
            result.skipped.append((doc, f"a view for {side}"))
            continue
        if doc.seq in new:
            public, (stored_hash, author) = new[doc.seq].match["public"], (new[doc.seq].envelope.hash,
                                                                           new[doc.seq].envelope.author)
        else:
            index = campaign.ledger.envelope_index(doc.seq)
            if index is None:
                raise RefusedTurn("a view of an envelope this campaign does not hold",
                                  f"view #{doc.seq}: ingest the referee's envelope first", code="gap")
            (stored_hash, author), public = index, campaign.ledger.state(doc.seq)[1]["public"]
        out.append((doc, side, opened_view(doc, side, public, stored_hash, author, campaign.box_secret)))
        known.add(doc.hash)
    if campaign.side != REFEREE:
        _require_own_views(campaign, todo, {doc.seq for doc, _, _ in out})
    return out


def opened_view(doc: Envelope, side: str, public: dict[str, Any], stored_hash: str, author: str,
                box_secret) -> str:
    """What the view block ``doc`` for ``side`` says, once checked against the envelope it answers
    (``stored_hash``, by ``author``, the public state after it ``public``); ``box_secret()`` gives
    the side's box key (a witness's view is in the clear).

    :raises RefusedTurn: ``bad-view`` (not the view committed to), ``bad-box``."""
    # the view the referee committed to in that envelope: an adjudication (the referee's, not
    # its disclosure: a player's envelope or the disclosure keeps the last views, committing to none)
    committed = _committed(public, side) if author == REFEREE and public.get("disclosed") != doc.seq else None
    if doc.content["prev"] != stored_hash or committed is None or committed != _digest(doc):
        raise RefusedTurn("a view the referee did not commit to", f"view #{doc.seq} for {side}", code="bad-view")
    if side == OBSERVER:  # the witnesses' view travels in the clear
        return canonical_json(doc.content["body"].get("view"), strict=False).decode()
    return referee.open_box(box_secret(), doc.content["body"].get("box"), doc.game, "view",
                            referee.view_aad(doc.game, doc.seq, side)).decode()


def team_views(genesis: dict[str, Any], side: str, applied: list, texts: list[str],
               box: bytes) -> list[tuple[Envelope, str, str]]:
    """A team copy of a refereed game (``pbem.play.teamcopy``): the views ``texts`` the referee
    sealed to ``side`` beside the history ``applied``, each checked and opened with the side's box
    key ``box``, and none the history commits to for the side missing.  Rows to store.

    :raises RefusedTurn: ``bad-view``, ``wrong-key``, ``bad-box``, ``missing-view``."""
    at = {a.envelope.seq: a for a in applied}
    rows: dict[int, tuple[Envelope, str, str]] = {}
    for text in texts:
        blocks = find_blocks(text)
        doc = open_block(blocks[0]) if len(blocks) == 1 else None
        if doc is None or doc.kind != "view" or doc.game != genesis["game"] or doc.content["body"].get("to") != side:
            raise RefusedTurn("a view that is not this side's", f"a team copy of {side} carries only {side}'s views",
                              code="bad-view")
        if history.pinned_key(genesis, REFEREE) != doc.public:
            raise RefusedTurn("a view not signed by the referee", f"view #{doc.seq}", code="wrong-key")
        held = at.get(doc.seq)
        if held is None:
            raise RefusedTurn("a view of an envelope the copy does not hold", f"view #{doc.seq}", code="bad-view")
        rows[doc.seq] = (doc, side, opened_view(doc, side, held.match["public"], held.envelope.hash,
                                                 held.envelope.author, lambda: box))
    for a in applied:
        if _committed_view(a.envelope, a.match["public"], side) and a.envelope.seq not in rows:
            raise RefusedTurn("a view the copy lacks", f"envelope #{a.envelope.seq} commits to a view for {side} "
                              "that the team copy does not carry", code="missing-view")
    return [rows[seq] for seq in sorted(rows)]


def _committed(public: dict[str, Any], side: str) -> str | None:
    """The hash of ``side``'s view in a public state after an adjudication (the witnesses': ``watch``)."""
    return public.get("watch") if side == OBSERVER else public.get("views", {}).get(side)


def _digest(doc: Envelope) -> str:
    """The hash a view block's content is committed by: its sealed box, or the witnesses' clear view."""
    body = doc.content["body"]
    if body.get("to") == OBSERVER:
        return referee.watch_digest(body)
    return hashlib.sha256(canonical_json(body.get("box"))).hexdigest()


def _committed_view(env: Envelope, public: dict[str, Any], side: str) -> str | None:
    """The hash of the view the referee committed to for ``side`` in its envelope ``env``, if any."""
    if env.author != REFEREE or public.get("seq") != env.seq or public.get("disclosed") == env.seq:
        return None  # not the referee's, or its disclosure (which commits to no view)
    return _committed(public, side)


def _require_own_views(campaign, todo: list, arrived: set[int]) -> None:
    """A referee envelope that commits to a view for us must bring it: without it our tool would
    show an old prompt and we would sign out of turn (the file meant for the other player, or a
    damaged view block, is refused as a whole)."""
    stored = {seq for _, seq, *_ in campaign.ledger.views(campaign.side)}
    folder = WITNESS_FOLDER if campaign.side == OBSERVER else f"to-{campaign.side}"
    for applied in todo:
        env = applied.envelope
        if _committed_view(env, applied.match["public"], campaign.side) and env.seq not in arrived | stored:
            raise RefusedTurn("the referee's envelope came without your view",
                              f"envelope #{env.seq} commits to a view for {campaign.side} that the file does not carry "
                              f"(a file meant for another player, the referee's own copy, or a damaged block): ingest "
                              f"the file the referee wrote for you, in its sent/{folder}/ folder (the one "
                              f"mailed to you)",
                              code="missing-view")


def verify_views(campaign) -> int:
    """A player's check of every view the referee sent: each is signed by the referee, answers the
    envelope it names, is the box the referee committed to in that envelope, opens with our key to
    exactly what is stored; and none committed for us is missing. Returns how many were checked.

    :raises PbemError: ``bad-view`` naming the first that is not.
    """
    side, ledger = campaign.side, campaign.ledger
    genesis = campaign.genesis
    rows = {seq: (digest, raw, payload) for digest, seq, row_side, raw, payload in ledger.views(side) if row_side == side}
    secret = None
    checked = 0
    for seq, digest, author, kind, raw, _ in ledger.envelopes():
        if author != REFEREE or kind != "turn":
            continue
        public = ledger.state(seq)[1]["public"]
        env_hash = digest
        adjudication = public.get("seq") == seq and public.get("disclosed") != seq
        committed = _committed(public, side) if adjudication else None
        if committed is None:
            if seq in rows:
                raise PbemError("a view the referee did not commit to", f"view #{seq} for {side}", code="bad-view")
            continue
        if seq not in rows:
            raise PbemError("a view the referee sent you is missing", f"envelope #{seq} commits to a view for {side} "
                            "that this campaign does not hold", code="bad-view")
        row_digest, view_raw, payload = rows.pop(seq)
        where = f"view #{seq} for {side}"
        try:
            blocks = find_blocks(view_raw) if isinstance(view_raw, str) and isinstance(payload, str) else []
            doc = open_block(blocks[0]) if len(blocks) == 1 else None
        except PbemError:
            doc = None
        if doc is None or doc.hash != row_digest or doc.kind != "view" or doc.seq != seq:
            raise PbemError("a stored view is damaged", where, code="bad-view")
        box = doc.content["body"].get("box")
        if (history.pinned_key(genesis, REFEREE) != doc.public or doc.content["body"].get("to") != side
                or doc.content["prev"] != env_hash or _digest(doc) != committed):
            raise PbemError("a view the referee did not commit to", where, code="bad-view")
        if side == OBSERVER:
            opened = canonical_json(doc.content["body"].get("view"), strict=False)
        else:
            if secret is None:
                secret = campaign.box_secret()
            opened = referee.open_box(secret, box, doc.game, "view", referee.view_aad(doc.game, seq, side))
        if opened.decode() != payload:
            raise PbemError("a stored view differs from what the referee sealed", where, code="bad-view")
        checked += 1
    if rows:
        raise PbemError("a view the referee did not commit to", f"view #{min(rows)} for {side}", code="bad-view")
    return checked


# --- playing ---------------------------------------------------------------------------

def play(campaign, identity: Identity, orders: list[str], ask: Ask | None = None) -> PlayResult:
    """Our turn in a refereed game: the referee adjudicates (or starts, or discloses); a player
    seals his orders to the referee.  In a game with hidden pools a player gives every order
    his own tool can follow (``pbem.play.referee_orders``), in any game whose view is the whole state;
    where it is not (Hill 60), one order, the view's decision.

    :raises PbemError: not our turn, an order that is not a legal choice."""
    campaign.check_turn(identity)
    if campaign.side == REFEREE:
        return _adjudicate(campaign, identity)
    view = latest_view(campaign)
    if view is None or view["prompt"] is None:
        raise PbemError("no decision in your latest view", "wait for the referee's next file", code="not-your-turn")
    if referee_orders.follows_rules(campaign, view):
        start = len(campaign.draft() or [])
        actions, chosen, done = referee_orders.from_view(campaign, view, orders, ask)
        if not done:  # drafted: what the new orders do, in words, as a two-player game's play says it
            return PlayResult(None, None, [{"text": t} for t in referee_orders.said(campaign, view, actions, start)],
                              [], actions)
    else:
        action = referee_orders.one_order(campaign, view, orders, ask)
        if action is None:
            return PlayResult(None, None, [], [], [])
        actions, chosen = [action], []
    genesis = campaign.genesis
    head = campaign.ledger.head()
    seq = head[0] + 1
    box = referee.seal_box(bytes.fromhex(campaign.match()["public"]["boxes"][REFEREE]),
                           canonical_json(actions), genesis["game"], "orders",
                           referee.orders_aad(genesis["game"], seq, campaign.side))
    body = chains.renewed(campaign, {"reveal": campaign.next_link(), "orders": box})  # a new chain, when ours runs low
    if chosen:  # before the turn is stored: what we hid is never sent without our record of it
        campaign.remember_chosen(chosen)
    envelope = _sign_chain(campaign, identity, body)
    campaign.save_draft([])
    path = campaign.archive("sent", envelope)
    return PlayResult(envelope, path, [], [], actions)


def _sign_chain(campaign, identity: Identity, body: dict[str, Any], joins: dict[str, dict] | None = None,
                before_store=None) -> Envelope:
    """Sign the next chain envelope and store it; ``before_store(envelope)`` writes what must
    exist before it is stored (the players' files: a kill after the store must not lose them)."""
    genesis = campaign.genesis
    head = campaign.ledger.head()
    match = campaign.match()
    body = talk.attach(campaign, body, head[0] + 1)  # table talk beside it (pbem.play.messages)
    public_body = dict(body, joins=joins) if joins else body
    public = referee.public_advance(match["public"], head[0] + 1, campaign.side, "turn", public_body)
    content = {"v": 1, "game": genesis["game"], "seq": head[0] + 1, "prev": head[1], "author": campaign.side,
               "kind": "turn", "engine": history.engine_stamp(campaign.game), "body": body, "state": _hash(public)}
    envelope = seal(identity, content)
    applied = history.apply(envelope, genesis, match, head, campaign.replay_secrets())
    if before_store is not None:
        before_store(envelope)
    campaign.store([applied])
    return envelope


def _adjudicate(campaign, identity: Identity):
    """The referee resolves the last orders (or starts the game) and sends each player its view."""
    wait = waiting(campaign)
    if wait["why"] == "disclose":
        return disclose(campaign, identity)
    game, genesis = campaign.game, campaign.genesis
    secrets = campaign.replay_secrets()
    head = campaign.ledger.head()
    seq = head[0] + 1
    match = campaign.match()
    full = match["full"]
    body: dict[str, Any] = chains.renewed(campaign, {"reveal": campaign.next_link()})  # its salt's new chain, when low
    joins_bodies: dict[str, dict] = {}
    events: list[dict[str, Any]] = []
    if wait["why"] == "start":
        body["joins"] = {side: raw for _, _, side, raw, _ in campaign.ledger.views()}
        for _, _, side, _, payload in campaign.ledger.views():
            joins_bodies[side] = json.loads(payload)
            try:
                full = protocol.join(full, side, history.opened_join(joins_bodies[side], side, genesis["game"], secrets),
                                     game, seq)
            except (protocol.ProtocolError, RefusedTurn) as e:
                raise PbemError(f"cannot start the game: {side}'s join does not check", str(e),
                                code=getattr(e, "code", "bad-join")) from None
            events.append({"text": f"{side} joins the game"})
    else:
        events += campaign.ledger.events(head[0] - 1)  # the orders being adjudicated (envelope #head)
    try:
        turn = {"reveal": body["reveal"], "actions": [], **({"renew": body["renew"]} if "renew" in body else {})}
        new_full, new_events, rolls = protocol.advance(game, full, seq, REFEREE, turn,
                                                       dict(secrets, chain=genesis["body"]["chain"]))
    except protocol.ProtocolError as e:
        raise PbemError("cannot adjudicate", str(e), code=e.code) from None
    events += new_events
    if wait["why"] != "start":
        rolls = campaign.ledger.rolls(head[0] - 1) + rolls
    body["commit"] = referee.commitment(new_full, seq, secrets["referee_salt"])
    boxes = {}
    for side in sorted(game.sides):
        payload = view_payload(game, new_full, seq, side, events, rolls)
        player_box = bytes.fromhex(joins_bodies[side]["box"] if side in joins_bodies else match["public"]["boxes"][side])
        boxes[side] = referee.seal_box(player_box, canonical_json(payload), genesis["game"], "view",
                                       referee.view_aad(genesis["game"], seq, side))
    body["views"] = {side: hashlib.sha256(canonical_json(box)).hexdigest() for side, box in boxes.items()}
    watch = None
    if listed(genesis):  # the witnesses' view: the side of no one's, in the clear (pbem.chain.referee)
        watch = {"to": OBSERVER, "nonce": secrets_mod.token_hex(16),
                 "view": view_payload(game, new_full, seq, OBSERVER, events, rolls)}
        body["watch"] = referee.watch_digest(watch)
    paths: list[Path] = []
    envelope = _sign_chain(campaign, identity, body, joins_bodies or None,
                           before_store=lambda env: paths.extend(_send_views(campaign, identity, env, boxes, watch)))
    campaign.archive("sent", envelope)
    return PlayResult(envelope, paths[0] if paths else None, events, rolls, [], paths)


def _send_views(campaign, identity: Identity, adjudication: Envelope, boxes: dict[str, dict],
                watch: dict[str, Any] | None = None) -> list[Path]:
    """One file per player: the chain since the last adjudication, and that player's own view; and,
    in a game with witnesses, one for them in sent/witness/ (the chain and the witnesses' view),
    which ``pbem.mailbox.witness_mail`` mails.  Returns the players' files.
    Written (atomically) before the adjudication is stored, which is therefore not yet in the ledger."""
    previous = [seq for seq, _, author, _, _, _ in campaign.ledger.envelopes()
                if author == REFEREE and seq < adjudication.seq]
    since = previous[-1] if previous else 0
    chain = [raw for seq, _, _, _, raw, _ in campaign.ledger.envelopes() if since < seq < adjudication.seq]
    chain.append(adjudication.raw)
    paths = []
    for side, box in sorted(boxes.items()):
        doc = _view_doc(identity, adjudication, side, box)
        folder = campaign.dir / "sent" / f"to-{side}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / turn_file_name(adjudication)
        atomic_write(path, "".join(chain) + doc.raw)
        paths.append(path)
    if watch is not None:  # not in sent/to-*/: a witness is no player to mail a view in words
        folder = campaign.dir / "sent" / WITNESS_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / turn_file_name(adjudication), "".join(chain) + _view_doc(identity, adjudication,
                                                                                        OBSERVER, watch).raw)
    return paths


def disclose(campaign, identity: Identity):
    """Publish the referee's salt and box key: anyone can now replay the whole game."""
    body = {"reveal": campaign.next_link(), "disclose": campaign.referee_disclosure()}
    envelope = _sign_chain(campaign, identity, body)
    path = campaign.archive("sent", envelope)
    return PlayResult(envelope, path, [], [], [])


# --- checking a disclosed game -------------------------------------------------------------

def verify_disclosed(ledger, side: str | None) -> tuple[int, int]:
    """Replay a disclosed referee game in full: every order, roll and commitment; and every
    view ``side`` received must be the one re-derived from the committed state.  Returns the
    numbers of views and dice checked.

    :raises PbemError: the first discrepancy.
    """
    rows = list(ledger.envelopes())
    envelopes = [open_block(find_blocks(raw)[0]) for _, _, _, _, raw, _ in rows]
    disclosure = next((e for e in envelopes if "disclose" in e.content["body"]), None)
    if disclosure is None:
        return 0, 0
    secrets = {"referee_salt": bytes.fromhex(disclosure.content["body"]["disclose"]["salt"]),
               "referee_box": bytes.fromhex(disclosure.content["body"]["disclose"]["box"])}
    genesis = envelopes[0].content
    game = history.game_of(genesis)
    applied = history.apply(envelopes[0], None, None, None, secrets)
    match, head = applied.match, (0, envelopes[0].hash)
    received = {seq: json.loads(payload) for _, seq, s, _, payload in ledger.views(side)} if side else {}
    checked = dice = 0
    pending_events: list = []
    pending_rolls: list = []
    for env in envelopes[1:]:
        applied = history.apply(env, genesis, match, head, secrets)
        dice += sum(len(r["values"]) for r in applied.rolls)
        pending_events += applied.events
        pending_rolls += applied.rolls
        if env.author == REFEREE and "commit" in env.content["body"]:
            if env.seq in received:
                expected = view_payload(game, applied.match["full"], env.seq, side, pending_events, pending_rolls)
                if canonical_json(expected) != canonical_json(received[env.seq]):
                    raise PbemError("a view you received is not what the committed state gives",
                                    f"view after envelope #{env.seq}: the referee told {side} something else",
                                    code="bad-view")
                checked += 1
            pending_events, pending_rolls = [], []
        match, head = applied.match, (env.seq, env.hash)
    return checked, dice

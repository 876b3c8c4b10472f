"""The protocol state machine: how signed envelopes advance a game.

This is the pure half of a turn file: signatures and armor are checked by
``pbem.envelope`` before anything here runs.  A *match* state wraps the game
module's state with what the protocol needs: each side's last revealed hash
chain link, and a roll that has been declared but not yet resolved.

Hash chains.  Each side picks a secret ``x[N]`` and publishes the anchor
``x[0]``, where ``x[i-1] = H(chain | game | side | x[i])``.  Every envelope a
side signs after joining reveals its next link; anyone checks it against the
previous one, nobody can predict the next one, and nobody can skip one.

Sealed dice.  When an action needs randomness, its dice are seeded by

    seed = H(roll | game | n | a | b | H(actions of envelope n))

where ``a`` is the link the actor revealed in envelope ``n`` (the one holding
the decision) and ``b`` is the link the *other* side reveals in its next
envelope.  The actor cannot preview or re-roll (``b`` is unknown when it
signs); the other side cannot bias (``b`` was fixed by its anchor at genesis).
Until ``b`` arrives, the action is *pending* and the game waits for it.
"""

from __future__ import annotations

import hmac
from typing import Any

from pbem_engine.hidden import private  # pbem_engine.protocol.referee only in a referee game
from pbem_engine.hidden.deck_group import DeckError  # the deck modules themselves only where a game deals decks
from pbem_engine.canonical import canonical_json, digest
from pbem_engine.protocol.chain import (CHAIN_LENGTH, RENEW_BEFORE, chain_checkpoints, chain_link, chain_links,  # noqa: F401
                    chain_step, checkpoint_every, next_link, renewal_problem, reveal_problem)  # the protocol's public names
from pbem_engine.protocol import trail
from pbem_engine.protocol.messages import check_messages
from pbem_engine.protocol.core import (Game, IllegalAction, Prompt, RulesError, copy_state, flat_entries, forced, frozen_entries,
                   restore, snapshot, step)
from pbem_engine.chance.dice import Dice, DiceNotReady, NoDice, NoPrivateItems

MODES = ("sealed", "unsealed", "referee")


class ProtocolError(Exception):
    """An envelope that breaks the protocol (wrong chain link, wrong turn...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def declarations_hash(actions: list[Any]) -> str:
    return digest("declarations", canonical_json(actions, strict=False)).hex()  # actions came in canonical JSON


def roll_seed(game_id: str, declared_in: int, actor_link: str, other_link: str, declarations: str) -> bytes:
    return digest("roll", game_id, str(declared_in), bytes.fromhex(actor_link), bytes.fromhex(other_link),
                  bytes.fromhex(declarations))


# --- genesis and join -------------------------------------------------------

def start(game: Game, game_id: str, creator: str, body: dict[str, Any]) -> dict[str, Any]:
    """The match state after the genesis envelope."""
    if body.get("mode") not in MODES:
        raise ProtocolError("bad-genesis", f"unknown dice mode {body.get('mode')!r}; known: {', '.join(MODES)}")
    sides = sorted(body.get("sides", {}))
    if sides != sorted(game.sides):
        raise ProtocolError("bad-genesis", f"genesis names sides {sides}, {game.name} has {sorted(game.sides)}")
    if creator not in sides and body.get("mode") != "referee":
        raise ProtocolError("bad-genesis", f"genesis author {creator!r} is not a side")
    scenario = body.get("scenario")
    if scenario not in game.scenarios:
        raise ProtocolError("bad-genesis", f"{game.name} has no scenario {scenario!r}; known: {', '.join(game.scenarios)}")
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise ProtocolError("bad-genesis", "options must be an object")
    try:
        state = game.setup(scenario, options)
    except RulesError as e:
        raise ProtocolError("bad-genesis", f"{game.name} cannot set up {scenario!r} with options {options}: {e}") from None
    version = protocol_of(body)
    if body["mode"] == "referee":
        from pbem_engine.protocol import referee

        return referee.start(game, game_id, creator, body, state, _anchor(body, creator), ProtocolError, version)
    match = {
        "game_id": game_id,
        "module": game.name,
        "mode": body["mode"],
        "seq": 0,
        "chains": {creator: _anchor(body, creator)},
        "pending": None,
        "game": state,
    }
    if version >= 2:  # who sent the last turn, for rolls sealed at once (at_once)
        match["last"] = None
    pools = game.private_pools(state) if hasattr(game, "private_pools") else {}
    if pools:  # only games with hidden pools carry this record (other histories keep their hashes)
        match["private"] = {s: private.new_side(pools.get(s, {}), "", trail=version >= 3, logged=version >= 4)
                            for s in sorted(game.sides)}
        match["private"][creator]["anchor"] = _private_anchor(body, creator)
    dealt = game.dealt_decks() if hasattr(game, "dealt_decks") else {}
    if dealt:  # only games with decks dealt to private hands carry this record (pbem_engine.hidden.deck_table)
        from pbem_engine.hidden import deck_table

        match["decks"] = deck_table.new_record(game_id, list(game.sides), dealt, trail=version >= 3,
                                               logged=version >= 4)
    frozen = trail.frozen_start(state, frozen_entries(game)) if version >= 4 else {}
    if frozen:  # the game's maps that only grow: beside the hashed state, a digest in it (trail.folded)
        match["frozen"] = trail.folded(dict(match, frozen=frozen), 0)
    if pools or body["mode"] == "unsealed":
        # The joiner saw the creator's anchor before committing its own secrets, so it could
        # grind them against it: nothing the joiner draws or rolls at once may use a creator
        # link older than the join.  The creator's first reveal after the join unlocks that.
        match["opening"] = creator
    return match


# 2: forced rolls sealed at once (at_once); 3: private logs beside the hashed state (trail); 4: and
# what they give (openings, hidden choices, a shuffle's locked cards: trail.hashed)
PROTOCOLS = (1, 2, 3, 4)


def protocol_of(body: dict[str, Any]) -> int:
    """The protocol version a genesis pins: histories keep the rules they were started under."""
    version = body.get("protocol", 1)
    if type(version) is not int or version not in PROTOCOLS:
        raise ProtocolError("bad-genesis", f"unknown protocol version {version!r}; known: {PROTOCOLS}")
    return version


def needs_opening(game: Game, match: dict[str, Any], side: str) -> bool:
    """Whether ``side`` must wait for the creator's first link after the join."""
    creator = match.get("opening")
    return creator is not None and side != creator and match["chains"][creator]["index"] == 0


def _private_anchor(body: dict[str, Any], side: str) -> str:
    value = body.get("private_anchor")
    if not (isinstance(value, str) and len(value) == 64 and _is_hex(value)):
        raise ProtocolError("bad-anchor", f"{side} must commit to its private secret (private_anchor, 64 hex digits)")
    return value


def _anchor(body: dict[str, Any], side: str) -> dict[str, Any]:
    anchor = body.get("anchor")
    if not (isinstance(anchor, str) and len(anchor) == 64 and _is_hex(anchor)):
        raise ProtocolError("bad-anchor", f"{side}'s chain anchor must be 64 hex digits")
    return {"link": anchor, "index": 0}


def _is_hex(text: str) -> bool:
    return not text.strip("0123456789abcdef")  # nothing left once the lowercase hex digits go


def join(match: dict[str, Any], side: str, body: dict[str, Any], game: Game | None = None, seq: int = 1
         ) -> dict[str, Any]:
    """The match state after a join envelope (the joiner's anchor)."""
    if match["mode"] == "referee":
        assert game is not None
        from pbem_engine.protocol import referee

        return referee.join(game, match, seq, side, _anchor(body, side), ProtocolError, body)
    if side in match["chains"]:
        raise ProtocolError("bad-join", f"{side} created this game and cannot also join it")
    match = dict(match, chains=dict(match["chains"], **{side: _anchor(body, side)}), seq=1)
    if "private" in match:
        match["private"] = dict(match["private"], **{side: dict(match["private"][side],
                                                                 anchor=_private_anchor(body, side))})
    return match


# --- turns ------------------------------------------------------------------

def waiting_for(game: Game, match: dict[str, Any]) -> dict[str, Any] | None:
    """Who owes the next envelope and why; None when the game is over."""
    if match["mode"] == "referee":
        from pbem_engine.protocol import referee

        return referee.waiting_for(game, match)
    pending = match["pending"]
    if not pending and game.outcome(match["game"]) is not None:
        dealt = any(r["log"] for r in match.get("decks", {}).values())  # both sides' keys are checked at the end
        owed = [s for s, r in sorted(match.get("private", {}).items()) if (r["log"] or dealt) and r["secret"] is None]
        if owed:
            return {"side": owed[0], "why": "secret", "since": match["seq"],
                    "text": f"waiting for {owed[0]} to reveal its private secret, so that its hidden draws can be checked"}
        return None
    if pending:
        other = _other(game, pending["side"])
        return {"side": other, "why": "reveal", "since": pending["declared_in"],
                "text": f"waiting for {other}'s reveal since envelope #{pending['declared_in']}"}
    if len(match["chains"]) == len(game.sides) and _opening_owed(game, match, match.get("opening")):
        creator = match["opening"]
        return {"side": creator, "why": "reveal", "since": match["seq"],
                "text": f"waiting for {creator}'s opening reveal (its first link after the join)"}
    if len(match["chains"]) < len(game.sides):
        missing = [s for s in game.sides if s not in match["chains"]][0]
        return {"side": missing, "why": "join", "since": 0, "text": f"waiting for {missing} to join"}
    prompt = game.prompt(match["game"])
    if prompt.side is None:
        return None
    if "decks" in match:  # the side to decide waits for the other's shuffle step or keys (pbem_engine.hidden.deck_table)
        from pbem_engine.hidden import deck_table

        other = _other(game, prompt.side)
        if deck_table.owed(match["decks"], other):
            names = getattr(game, "deck_names", {})
            return {"side": other, "why": "deck", "since": match["seq"],
                    "text": f"waiting for {other}'s deck file: {deck_table.describe_owed(match['decks'], other, names)}"}
    return {"side": prompt.side, "why": "decide", "since": match["seq"], "text": f"{prompt.side}: {prompt.text}"}


def _opening_owed(game: Game, match: dict[str, Any], side: str | None) -> bool:
    """The creator owes a reveal-only opening envelope: the joiner is to act first."""
    creator = match.get("opening")
    if creator is None or side != creator or match["chains"][creator]["index"] > 0:
        return False
    prompt = game.prompt(match["game"])
    return prompt.side is not None and prompt.side != creator


def _other(game: Game, side: str) -> str:
    sides = game.sides  # two or more, all different: the first that is not ``side``
    return sides[0] if sides[0] != side else sides[1]


TURN_FIELDS = frozenset({"reveal", "actions", "private", "private_secret", "private_chosen", "decks", "messages",
                         "renew"})


def advance(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any],
            build: dict[str, Any] | None = None, *, own: bool = False
            ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply a turn envelope: check the reveal, resolve a pending roll, apply actions.

    Returns ``(match, events, rolls)``.  The input is never modified, unless ``own``: a replay
    that never looks at ``match`` again (verify, from the genesis forward) hands its game state
    over, and the actions change it in place rather than a copy; after a refusal it is spoiled.
    ``build`` is for the author's own tool: ``{"secret": its private secret}``; on return
    ``build["private"]`` holds the private draws and openings to put in the body.

    :raises ProtocolError: bad reveal, not this side's envelope to send, game over, a
        private draw or opening that does not check out (code ``cheating`` when it is one).
    :raises IllegalAction: an action the rules refuse (its message says what is legal).
    """
    try:
        return _advance(game, match, seq, side, body, build, own)
    except (private.PrivateError, NoPrivateItems) as e:
        raise ProtocolError(getattr(e, "code", "bad-private"), str(e)) from None
    except DeckError as e:  # a deck message refused: its code, and the side and envelope in its text
        raise ProtocolError(e.code, str(e) if e.side is None or str(e).startswith(e.side) else f"{e.side}: {e}") from None


def _advance(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any],
             build: dict[str, Any] | None, own: bool = False) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    if any(s not in match["chains"] for s in game.sides):
        raise ProtocolError("not-joined", "the game has not been joined yet")
    actions = body.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise ProtocolError("bad-actions", "actions must be a list of objects")
    if side not in match["chains"]:
        raise ProtocolError("unknown-author", f"{side} is not a party to this game")
    chains = dict(match["chains"])
    chains[side] = _check_reveal(match["game_id"], side, chains[side], body.get("reveal"))
    if "renew" in body:  # a new chain: its next link must hash to this anchor (pbem_engine.protocol.chain)
        refereed = match["mode"] == "referee"  # there the referee's own must be its salt's (_advance_referee)
        why = renewal_problem(side, chains[side], body["renew"], "sealed" if refereed else match["mode"])
        if why:
            raise ProtocolError(*why)
        chains[side] = dict(chains[side], renewed=body["renew"], **({} if refereed else {"seen": chains[_other(game, side)]["index"]}))
    if match["mode"] == "referee":  # the referee adjudicates even the move that ends the game
        return _advance_referee(game, match, seq, side, body, chains, build)
    unknown = sorted(set(body) - TURN_FIELDS)
    if "messages" in body:  # table talk (pbem_engine.protocol.messages): checked, never applied
        try:
            check_messages(body["messages"], list(game.sides), side)
        except ValueError as e:
            raise ProtocolError("bad-messages", str(e)) from None
    if unknown:  # nothing travels, and nothing is stored, that the protocol does not read
        raise ProtocolError("bad-body", f"a turn has no field {unknown[0]!r}; its fields are {', '.join(sorted(TURN_FIELDS))}")
    over = game.outcome(match["game"]) is not None
    if over and (actions or body.get("private_secret") is None):
        raise ProtocolError("game-over", "the game is over; only private secrets may still be revealed")
    records = (match["private"] if own else _copy_records(match["private"])) if "private" in match else None
    ctx = None
    if records is not None:
        ctx = private.PrivateContext(match["game_id"], seq, side, records, {s: c["link"] for s, c in chains.items()},
                                     body, (build or {}).get("secret"), match.get("opening"),
                                     {s: c["index"] for s, c in chains.items()}, (build or {}).get("chosen"))
    state, pending = match["game"], match["pending"]
    events: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    decks = (match["decks"] if own else copy_state(match["decks"])) if "decks" in match else None
    if decks is not None:
        from pbem_engine.hidden import deck_table
    owes_deck = decks is not None and not over and bool(deck_table.owed(decks, side))
    if decks is not None:
        if ctx is None:
            raise ProtocolError("bad-genesis", "a game with dealt decks must have private secrets")
        other = _other(game, side)
        ctx.decks = deck_table.DeckContext(match["game_id"], seq, side, decks, body, chains[other]["link"],
                                           (build or {}).get("secret"))
        if not over:
            events += [{"text": t} for t in ctx.decks.settle()]
    elif body.get("decks") is not None:
        raise ProtocolError("bad-body", "this game has no dealt decks")

    owned = own  # whether ``state`` is this envelope's own copy yet
    if pending:
        if pending["side"] == side:
            raise ProtocolError("owes-reveal", f"waiting for {_other(game, side)}'s reveal of the roll "
                                f"declared in envelope #{pending['declared_in']}; {side} cannot act yet")
        actor_link = {"side": pending["side"], "index": pending["index"], "link": pending["link"]}
        other_link = {"side": side, "index": chains[side]["index"], "link": body["reveal"]}
        state, new_events, new_rolls = _resolve(game, match, state, pending["action"], pending["declared_in"], seq,
                                                actor_link, other_link, pending["declarations"], "sealed", ctx, own)
        events += new_events
        rolls += new_rolls
        pending = None
        owned = True  # step gave _resolve a copy of its own, or it is ours already
    elif not actions and body.get("private_secret") is None and not _opening_owed(game, match, side) \
            and not owes_deck:
        raise ProtocolError("nothing-to-do", f"{side} sent no actions and owes no reveal")

    # A roll reached by forced actions only is sealed by links already revealed: see at_once().
    forced = at_once(match, side, _other(game, side))
    frozen, flat = frozen_entries(game), flat_entries(game)
    # The actions change one copy of the state in place (``owned``), with a snapshot before each
    # that may need one.
    for i, action in enumerate(actions):
        if pending:
            raise ProtocolError("after-roll", f"action {i + 1} follows a roll that waits for "
                                f"{_other(game, side)}'s reveal; it belongs in a later envelope")
        mark = _mark(ctx)
        prompt = game.prompt(state)
        forced = forced and is_forced(prompt)
        # A roll this action makes is resolved here (at_once, or unsealed dice) or waits for the
        # other side's reveal.  One that waits needs the way back: a snapshot before the action,
        # and it must be the last action, so only the last one takes one.
        now = "sealed" if forced else "unsealed" if match["mode"] == "unsealed" else None
        keep = now is None and i == len(actions) - 1
        if not owned:  # the copy's snapshot is also the action's: the state is unchanged between
            taken = snapshot(state, frozen, flat)
            state, owned = restore(taken), True
            before = taken if keep else None
        else:
            before = snapshot(state, frozen, flat) if keep else None
        dice = _with(NoDice() if now is None else _AtOnce(_seeding(game, match, seq, side, body, chains, actions, i,
                                                                    now, ctx, mark)), ctx)
        try:
            state, new_events = step(game, state, side, action, dice, prompt=prompt, in_place=True)
            events += new_events
            if now is not None and dice.source is not None:  # it rolled: resolved at once, in this one go
                rolls += [dict(r, **dice.source) for r in dice.rolls]
                forced = False  # a second roll after this one's result is known must wait
        except DiceNotReady:
            if _mark(ctx) != mark:
                raise ProtocolError("bad-private", f"action {i + 1} both changes {side}'s private pools and rolls "
                                    "shared dice; the rules must split it in two") from None
            if before is None:  # a roll that waits, with more actions after it
                raise ProtocolError("after-roll", f"action {i + 2} follows a roll that waits for "
                                    f"{_other(game, side)}'s reveal; it belongs in a later envelope") from None
            state = restore(before)
            declarations = declarations_hash(as_signed(actions[:i + 1], ctx))
            pending = {"side": side, "action": action, "declared_in": seq, "link": body["reveal"],
                       "index": chains[side]["index"], "declarations": declarations}
            events.append({"text": f"{side} declares: {_label(game, state, action)} "
                                   f"(dice wait for {_other(game, side)}'s reveal)"})
        except IllegalAction as e:
            if now is not None and dice.source is not None:  # refused once its dice were rolled: as a
                raise  # roll resolved after a first try without them was refused (unnumbered)
            raise IllegalAction(f"action {i + 1}: {e}", e.legal) from None
    new = dict(match, seq=seq, chains=chains, pending=pending, game=state)
    if "last" in match:
        new["last"] = side
    if ctx is not None and records is not None:
        ctx.finish()
        if decks is not None:
            ctx.decks.finish()
            new["decks"] = decks
        if body.get("private_secret") is not None:
            _reveal_secret(match["game_id"], side, records[side], body["private_secret"], body.get("private_chosen"), seq)
            events.append({"text": f"{side} reveals its private secret: all its hidden draws check out"})
            if decks is not None and all(r["secret"] for r in records.values()) \
                    and any(r["log"] for r in decks.values()):
                checked = deck_table.audit(match["game_id"], decks, {s: bytes.fromhex(r["secret"])
                                                                     for s, r in records.items()},
                                           {s: r["anchor"] for s, r in records.items()})
                events.append({"text": f"every shared deck checks out: {checked} deck messages recomputed "
                                       "from both sides' secrets"})
        new["private"] = records
        if build is not None:
            build["private"] = ctx.body()
            build["chosen_out"] = ctx.chosen_out
            if decks is not None and ctx.decks.out:
                build["decks"] = ctx.decks.body()
    elif body.get("private_secret") is not None:
        raise ProtocolError("bad-private", "this game has no private pools")
    if "frozen" in match:  # protocol 4: the entries the envelope added to the game's frozen maps
        new["frozen"] = trail.folded(new, seq)
    return new, events, rolls


def _advance_referee(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any],
                     chains: dict[str, Any], build: dict[str, Any] | None
                     ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    salt = (build or {}).get("referee_salt")
    if salt is None:
        raise ProtocolError("needs-referee-secret", "only the referee (or anyone after it discloses its "
                            "secrets) can replay the full state of a referee game")

    def seeded(declared_in, actor, ref, declarations):
        seed = digest("roll", match["game_id"], str(declared_in), bytes.fromhex(actor["link"]),
                      bytes.fromhex(ref["link"]), bytes.fromhex(declarations), referee_mix(salt, declared_in))
        source = {"actor": actor["side"], "declared_in": declared_in, "resolved_in": seq, "mode": "referee",
                  "links": [actor, ref], "declarations": declarations, "seed": seed.hex()}
        return Dice(seed), source

    from pbem_engine.protocol import referee
    from pbem_engine.hidden.referee_deck import order_key  # the order of the shuffles of decks the referee holds

    referee.check_renewal(match["game_id"], side, chains[side], body, build, ProtocolError)
    return referee.advance(game, match, seq, side, body, chains, seeded, declarations_hash, ProtocolError,
                           order_key(salt))


def referee_mix(salt: bytes, n: int) -> bytes:
    """The referee's secret share of envelope ``n``'s seed (disclosed at the end)."""
    return hmac.digest(salt, b"pbem/v1/referee-roll\0" + n.to_bytes(8, "big"), "sha256")


def swap_hidden(value: Any, tokens: list[str]) -> Any:
    """``value`` with each ``{"$hide": item}``, in order, replaced by the next of ``tokens``: the
    actions as they are signed, carrying the tokens of what their author hid, never the items.

    :raises ProtocolError: ``bad-private``, a hidden item that no token was committed for.
    """
    tokens = list(tokens)

    def swap(value: Any) -> Any:
        if isinstance(value, dict):
            if "$hide" in value:
                if not tokens:
                    raise ProtocolError("bad-private", f"a hidden choice was not committed: {value}")
                return tokens.pop(0)
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    return swap(value)


def has_hidden(value: Any) -> bool:
    """Whether ``value`` holds a ``{"$hide": item}`` (an item its author hides by choice)."""
    if isinstance(value, dict):
        return "$hide" in value or any(has_hidden(v) for v in value.values())
    return isinstance(value, list) and any(has_hidden(v) for v in value)


def as_signed(actions: list[Any], ctx: private.PrivateContext | None) -> list[Any]:
    """In the author's own tool, the actions up to a roll as they will be signed (``swap_hidden``),
    so that the dice its draft shows are the dice everyone computes."""
    tokens = [tok for tok, _ in ctx.chosen_out] if ctx is not None else []
    return swap_hidden(actions, tokens) if tokens else actions


is_forced = forced  # a decision with exactly one legal choice: whoever takes it chooses nothing


def at_once(match: dict[str, Any], side: str, other: str) -> bool:
    """Whether a roll ``side`` reaches now, by forced actions only, is sealed at once.

    A sealed roll's seed joins a link of each side that the other could not know when it
    last chose.  The usual pair is the actor's link in the declaring envelope and the other
    side's link in its next one.  When the envelope just before this one is the other
    side's, and ``side`` has chosen nothing since (every action of this envelope up to the
    roll had a single legal choice), the other side's link in that envelope already is
    such a link: it chose everything in it without knowing ``side``'s link in this one,
    and ``side`` chose everything before it without knowing its link.  So the roll is
    resolved in this envelope and the hand-over that would only carry a reveal is saved.
    """
    return match["mode"] == "sealed" and match.get("last", side) == other


class _AtOnce(Dice):
    """The dice of an action whose roll, if it makes one, is resolved in this envelope (``at_once``,
    or unsealed play).  Seeded when the rules first ask for randomness (where a first try with
    ``NoDice`` would stop), by ``seeding``, which makes the checks made there and gives the seed
    and the record of its inputs (``source``).  The action is so applied once, with the dice
    ``_resolve`` would give it after going back to the state before it."""

    def __init__(self, seeding: Any) -> None:
        super().__init__(b"")
        self._seeding = seeding
        self.source: dict[str, Any] | None = None  # set once rolled: what each roll's record adds

    def _seeded(self) -> None:
        if self.source is None:
            self._seed, self.source = self._seeding()

    def uniform(self, n: int) -> int:
        self._seeded()
        return super().uniform(n)

    def _faces(self, count: int, sides: int, low: int) -> list[int]:
        self._seeded()
        return super()._faces(count, sides, low)


def _seeding(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any], chains: dict[str, Any],
             actions: list[Any], i: int, mode: str, ctx: private.PrivateContext | None, mark: Any) -> Any:
    """For ``_AtOnce``: at action ``i``'s first roll, the checks a roll resolved at once must pass
    (in the order ``_advance`` makes them after a first try), then its seed and ``_resolve``'s record."""

    def seeding() -> tuple[bytes, dict[str, Any]]:
        if _mark(ctx) != mark:
            raise ProtocolError("bad-private", f"action {i + 1} both changes {side}'s private pools and rolls "
                                "shared dice; the rules must split it in two")
        declarations = declarations_hash(as_signed(actions[:i + 1], ctx))
        own = {"side": side, "index": chains[side]["index"], "link": body["reveal"]}
        other = _other(game, side)
        if mode == "unsealed" and (needs_opening(game, dict(match, chains=chains), side)
                                   or match["chains"][side].get("seen", -1) == chains[other]["index"]):
            # The actor uses the other side's last revealed link: no round trip, but the actor could
            # compute the roll before signing (labelled UNSEALED everywhere); never on a link it saw
            # before committing its chain (the other's anchor, or the link it had when it renewed).
            raise ProtocolError("too-early", f"{side} cannot roll unsealed dice on {other}'s link, which it "
                                f"saw before committing its chain; wait for {other}'s next reveal")
        # at_once(): the other side's link of the envelope just before this one; unsealed: its last
        other_link = {"side": other, "index": chains[other]["index"], "link": chains[other]["link"]}
        seed = roll_seed(match["game_id"], seq, own["link"], other_link["link"], declarations)
        return seed, {"actor": side, "declared_in": seq, "resolved_in": seq, "mode": mode,
                      "links": [own, other_link], "declarations": declarations, "seed": seed.hex()}

    return seeding


def _copy_records(records: dict[str, Any]) -> dict[str, Any]:
    """A copy of the sides' private records that an envelope may change: what ``PrivateContext``
    and ``_reveal_secret`` change in place (the sizes, the openings, the record's own fields) is
    copied; the log is a new list sharing its entries, which are only ever appended, never changed
    (a deep copy of a long game's log cost more than the state's)."""
    return {side: dict(r, sizes=dict(r["sizes"]), log=list(r["log"]), opened=dict(r["opened"]))
            for side, r in records.items()}


def _mark(ctx: private.PrivateContext | None) -> tuple[int, list[tuple[int, int]]] | None:
    """How far the private pools have changed: compared only with a mark of the same context
    (the same records, in the same order), so neither sorted nor a tuple.  Items drawn or hidden
    count up ``n``, items put back the sizes; an opening (an entry of the log in protocol 4)
    changes no pool."""
    if ctx is None:
        return None
    return len(ctx.draws_out), [(r["n"], sum(r["sizes"].values())) for r in ctx.records.values()]


def _with(dice: Dice, ctx: private.PrivateContext | None) -> Dice:
    dice.private = ctx
    dice.decks = getattr(ctx, "decks", None)
    return dice


def _reveal_secret(game_id: str, side: str, record: dict[str, Any], secret_hex: Any, chosen: Any = None,
                   seq: int = 0) -> None:
    try:  # a draw that the committed secret does not give: cheating, named
        private.reveal_secret(game_id, side, record, secret_hex, chosen, seq)
    except private.PrivateError as e:
        raise ProtocolError(e.code, str(e)) from None


def _resolve(game: Game, match: dict[str, Any], state: dict[str, Any], action: dict[str, Any], declared_in: int,
             resolved_in: int, actor: dict[str, Any], other: dict[str, Any], declarations: str, mode: str,
             ctx: private.PrivateContext | None = None, in_place: bool = False
             ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply ``action`` with dice seeded by both links; every roll records its inputs.  ``in_place``:
    ``state`` is the caller's own (``advance`` with ``own``), changed rather than copied."""
    seed = roll_seed(match["game_id"], declared_in, actor["link"], other["link"], declarations)
    dice = _with(Dice(seed), ctx)
    state, events = step(game, state, actor["side"], action, dice, in_place=in_place)
    source = {"actor": actor["side"], "declared_in": declared_in, "resolved_in": resolved_in, "mode": mode,
              "links": [actor, other], "declarations": declarations, "seed": seed.hex()}
    return state, events, [dict(r, **source) for r in dice.rolls]


def _check_reveal(game_id: str, side: str, chain: dict[str, Any], reveal: Any) -> dict[str, Any]:
    why = reveal_problem(game_id, side, chain, reveal)  # against the last link, or the anchor of a renewal
    if why:
        raise ProtocolError("bad-reveal", why)
    return {"link": reveal, "index": chain["index"] + 1}


def _label(game: Game, state: dict[str, Any], action: dict[str, Any]) -> str:
    for choice in game.prompt(state).choices:
        if choice.action == action:
            return choice.label
    describe = getattr(game, "action_label", None)  # free play: the module words its own actions
    return describe(action) if describe else str(action)

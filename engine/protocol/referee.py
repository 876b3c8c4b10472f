"""Referee mode: a referee adjudicates for two or more players who see only their own views.

The full history is the same kind of state machine as sealed mode, with one
more party: the referee, whose hash chain is anchored in the genesis it signs.
Players' envelopes carry their orders (encrypted to the referee by ``pbem``;
here they are plain actions) and their next chain link; every player envelope
is followed by a referee envelope that *adjudicates* it: it reveals the
referee's next link and resolves any roll the orders declared with

    seed = H(roll | game | n | player's link in envelope n | referee's link | H(orders))

The referee cannot bias a roll (its link was fixed at genesis, the player's
was unknown to it until the orders came); the players cannot preview one (the
referee's next link is secret until it adjudicates).

The referee's seed also mixes in ``HMAC(salt, n)``, a secret the referee
committed to at genesis: without it a player who guessed an opponent's
orders (a small set) could recompute that opponent's rolls from the links.
Everything the referee knows is in the full state; what a player is sent is
``game.view(state, player)``; the referee commits to each full state, and
once it discloses its salt (and the key that opens the orders) anyone can
re-run the game and check every view they received.

Protocol 2 (pinned in the genesis) adds two things.  Games with hidden pools
(``private_pools``): the referee holds every side's secret and so draws,
hides and opens for any side (pbem_engine.hidden.referee_hidden).  And forced decisions
(one legal choice) are played by the referee's replay, never by a player's
file: after each order, and after each adjudication, until a real decision,
the end of the game, or (when a player's orders are applied) a roll.  A
forced roll at adjudication takes its own seed, the decision's side's last
link and the referee's new one, numbered so that no two rolls share one.
Games whose shared decks are dealt to private hands (``dealt_decks``) get a deck the
referee holds (pbem_engine.hidden.referee_deck) in place of the two-sided mental-poker deck: the same
interface for the rules, every shuffle's order keyed by the referee's salt and every
party's latest link, each player's view naming only the cards it has seen.
"""

from __future__ import annotations

import hmac
from typing import Any

from pbem_engine.hidden import referee_hidden  # referee_deck (and the deck modules) only where a game deals decks
from pbem_engine.protocol.core import Game, IllegalAction, copy_state, forced, step
from pbem_engine.chance.dice import Dice, DiceNotReady, NoDice
from pbem_engine.protocol.chain import chain_links

REFEREE = "referee"


def start(game: Game, game_id: str, creator: str, body: dict[str, Any], state: dict[str, Any],
          anchor: dict[str, Any], error: type[Exception], version: int = 1) -> dict[str, Any]:
    if creator != REFEREE:
        raise error("bad-genesis", "a referee game is created by the referee")
    match = {"game_id": game_id, "module": game.name, "mode": "referee", "seq": 0,
             "chains": {REFEREE: anchor}, "pending": None, "adjudicate": False, "game": state}
    dealt = game.dealt_decks() if hasattr(game, "dealt_decks") else {}
    if dealt and version < 2:
        raise error("bad-genesis", f"{game.name} deals shared decks to private hands; referee mode deals them "
                    "from protocol 2 on")
    pools = game.private_pools(state) if hasattr(game, "private_pools") else {}
    if pools and version < 2:
        raise error("bad-genesis", f"{game.name} has hidden pools; referee mode holds them from protocol 2 on")
    if dealt:  # the referee holds the deck: the public record, and the order only it knows
        from pbem_engine.hidden import referee_deck

        try:
            match["dealt"], match["deal_order"] = referee_deck.new_record(list(game.sides), dealt)
        except referee_deck.DeckError as e:
            raise error("bad-genesis", f"{game.name}: {e}") from None
    if version >= 2:  # older histories keep their state hashes
        match["protocol"] = version
    if pools:
        from pbem_engine.hidden.private import new_side

        match["private"] = {side: new_side(pools.get(side, {}), "") for side in sorted(game.sides)}
        match["hidden"] = referee_hidden.new_record(list(game.sides))
    return match


def renewal_secret(salt: bytes, index: int) -> bytes:
    """The secret of the referee's new chain when it renews beside its link ``index``: fixed by the
    salt it committed to at genesis, so the referee has no chain to choose.  A chain it chose could
    be ground against the players' links it already holds, which later rolls meet with its new links
    (docs/threat-model.md, section 5, "Chain renewal"); a player's new chain only ever meets links
    the referee has not revealed yet, so a player chooses his freely."""
    return hmac.digest(salt, b"pbem/v1/referee-renew\0" + index.to_bytes(8, "big"), "sha256")


def renewal_anchor(game_id: str, salt: bytes, index: int, length: int) -> str:
    """The anchor (hex) the referee's renewal beside its link ``index`` must carry."""
    return chain_links(game_id, REFEREE, renewal_secret(salt, index), length)[0].hex()


def check_renewal(game_id: str, side: str, chain: dict[str, Any], body: dict[str, Any],
                  build: dict[str, Any] | None, error: type[Exception]) -> None:
    """The full replay of a renewal (the referee's, or anyone's after disclosure): the referee's
    new anchor must be the one its salt gives for the genesis's chain length (``build["chain"]``).
    ``chain``: the side's chain after the renewing envelope's reveal."""
    if side != REFEREE or "renew" not in body:
        return
    salt, length = (build or {}).get("referee_salt"), (build or {}).get("chain")
    if salt is None or type(length) is not int:
        raise error("needs-referee-secret", "the referee's renewal is checked with its salt and the chain length")
    if body["renew"] != renewal_anchor(game_id, salt, chain["index"], length):
        raise error("cheating", f"the referee's new chain anchor beside its link #{chain['index']} is not the one "
                    "its salt committed at genesis gives: it chose its own chain")


def waiting_for(game: Game, match: dict[str, Any]) -> dict[str, Any] | None:
    missing = [s for s in game.sides if s not in match["chains"]]
    if missing:
        return {"side": missing[0], "why": "join", "since": 0, "text": f"waiting for {missing[0]} to join"}
    if match["adjudicate"] or match["pending"]:
        return {"side": REFEREE, "why": "adjudicate", "since": match["seq"],
                "text": f"waiting for the referee to adjudicate envelope #{match['seq']}"}
    prompt = game.prompt(match["game"])
    if prompt.side is None:
        return None
    return {"side": prompt.side, "why": "decide", "since": match["seq"], "text": f"{prompt.side}: {prompt.text}"}


def join(game: Game, match: dict[str, Any], seq: int, side: str, anchor: dict[str, Any],
         error: type[Exception], body: dict[str, Any] | None = None) -> dict[str, Any]:
    if side not in game.sides or side in match["chains"]:
        raise error("bad-join", f"{side} is not a player still to join")
    chains = dict(match["chains"], **{side: anchor})
    joined = all(s in chains for s in game.sides)
    match = dict(match, chains=chains, seq=seq, adjudicate=joined)  # the referee then sends the first views
    if "hidden" in match:
        hidden, records = referee_hidden.join(match["game_id"], match["hidden"], match["private"], side,
                                              body or {}, error)
        match = dict(match, hidden=hidden, private=records)
    return match


def _dice(dice: Dice, ctx: Any, decks: Any = None) -> Dice:
    dice.private = ctx
    dice.decks = decks
    return dice


def _mark(ctx: Any, decks: Any) -> tuple[Any, Any]:
    """Changes to private pools and dealt decks so far (an action that makes one and then rolls
    is refused: the roll waits, and the change would be made twice)."""
    return (ctx.mark() if ctx is not None else None, decks.mark() if decks is not None else None)


def run_forced(game: Game, state: dict[str, Any], ctx: Any, error: type[Exception], dice_for=None,
               decks: Any = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play every forced decision, of any side, until a real one or the end of the game; in a
    game with hidden pools also a decision the rules fix in all but the order of the items it
    hides (``game.forced_action``: the block game's stand-up), ordered with its owner's secret.
    ``dice_for(k, side, action)`` gives the k-th forced action its dice; without it a forced
    roll stops the run (it is played at adjudication).  ``decks``: the dealt decks
    (pbem_engine.hidden.referee_deck), the rules' ``dice.decks``.

    :raises referee_hidden.Unknowable: in a player's own tool, the rules open another's item."""
    events: list[dict[str, Any]] = []
    k = 0
    while game.outcome(state) is None:
        prompt = game.prompt(state)
        if prompt.side is None:
            break
        if forced(prompt):
            action = prompt.choices[0].action
        elif ctx is not None and hasattr(game, "forced_action") and game.forced_action(state, prompt) is not None:
            action = ctx.ordered(prompt.side, game.forced_action(state, prompt))  # fixed but for its order
        else:
            break
        mark = _mark(ctx, decks)
        try:
            state, more = step(game, state, prompt.side, action,
                               _dice(dice_for(k, prompt.side, action) if dice_for else NoDice(), ctx, decks),
                               prompt=prompt)
        except DiceNotReady:
            if _mark(ctx, decks) != mark:
                raise error("bad-private", f"{prompt.side}'s forced decision both changes its private pools and "
                            "rolls dice; the rules must split it in two") from None
            break
        events += more
        k += 1
    return state, events


def run_orders(game: Game, state: dict[str, Any], side: str, actions: list[dict[str, Any]], ctx: Any,
               auto: bool, error: type[Exception], decks: Any = None
               ) -> tuple[dict[str, Any], list[dict[str, Any]], int | None]:
    """A player's orders in turn (with the forced decisions between them when ``auto``): the
    state, events, and the index of the last order if it waits for dice (else None).

    :raises IllegalAction: an order the rules refuse.
    :raises referee_hidden.Unknowable: in a player's own tool, the rules open another's item."""
    events: list[dict[str, Any]] = []
    for i, action in enumerate(actions):
        if i and auto:
            state, more = run_forced(game, state, ctx, error, decks=decks)
            events += more
        mark = _mark(ctx, decks)
        try:
            state, more = step(game, state, side, action, _dice(NoDice(), ctx, decks))
        except DiceNotReady:
            if _mark(ctx, decks) != mark:
                raise error("bad-private", f"order {i + 1} both changes {side}'s private pools and rolls dice; "
                            "the rules must split it in two") from None
            if i != len(actions) - 1:
                raise error("after-roll", f"order {i + 2} follows a roll the referee must resolve first") from None
            return state, events, i
        except IllegalAction as e:
            raise IllegalAction(f"order {i + 1}: {e}", e.legal) from None
        events += more
    if auto and actions:
        state, more = run_forced(game, state, ctx, error, decks=decks)
        events += more
    return state, events, None


def advance(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any], chains: dict[str, Any],
            seeded, declarations, error: type[Exception], deck_key: bytes | None = None
            ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """One envelope of a referee game: a player's orders, or the referee's adjudication.

    ``seeded(declared_in, actor, ref, declarations)`` gives the referee's dice for a roll and
    what to record of it: ``(Dice, source)``.  ``deck_key``: the referee's key for the order
    of its shuffles (pbem_engine.hidden.referee_deck.order_key), in a game with dealt decks."""
    actions = body.get("actions", [])
    state, pending = match["game"], match["pending"]
    auto = match.get("protocol", 1) >= 2
    events: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    ctx = None
    new = dict(match)
    if "hidden" in match:
        new["private"], new["hidden"] = copy_state(match["private"]), dict(match["hidden"])
        ctx = referee_hidden.AllSides(match["game_id"], seq, new["private"], new["hidden"],
                                      referee_hidden.links(chains, REFEREE))
    decks = None
    if "dealt" in match:
        if deck_key is None:
            raise error("needs-referee-secret", "only the referee's replay deals the shared decks")
        from pbem_engine.hidden import referee_deck

        new["dealt"], new["deal_order"] = copy_state(match["dealt"]), copy_state(match["deal_order"])
        decks = referee_deck.RefereeDeck(new["dealt"], new["deal_order"],
                                         referee_deck.seeder(deck_key, match["game_id"], seq, chains))
    if side == REFEREE:
        if not (match["adjudicate"] or pending):
            raise error("nothing-to-do", "there is nothing for the referee to adjudicate")
        if actions:
            raise error("bad-actions", "the referee adjudicates; it gives no orders")
        ref = {"side": REFEREE, "index": chains[REFEREE]["index"], "link": body["reveal"]}
        used: list[tuple[Dice, dict[str, Any]]] = []
        if pending:
            actor = {"side": pending["side"], "index": pending["index"], "link": pending["link"]}
            dice, source = seeded(pending["declared_in"], actor, ref, pending["declarations"])
            used.append((dice, source))
            state, events = step(game, state, actor["side"], pending["action"], _dice(dice, ctx, decks))
        if auto:
            def dice_for(k: int, decider: str, action: dict[str, Any]) -> Dice:
                actor = {"side": decider, "index": chains[decider]["index"], "link": chains[decider]["link"]}
                dice, source = seeded(seq, actor, ref, declarations([{"forced": k}, action]))
                used.append((dice, source))
                return dice

            state, more = run_forced(game, state, ctx, error, dice_for, decks)
            events += more
        rolls = [dict(r, **source) for dice, source in used for r in dice.rolls]
        if ctx is not None:
            ctx.finish()
        return dict(new, seq=seq, chains=chains, pending=None, adjudicate=False, game=state), events, rolls
    if match["adjudicate"] or pending:
        raise error("owes-adjudication", f"waiting for the referee to adjudicate envelope #{match['seq']}")
    if not actions:
        raise error("nothing-to-do", f"{side} sent no orders")
    state, events, waits = run_orders(game, state, side, actions, ctx, auto, error, decks)
    if waits is not None:
        pending = {"side": side, "action": actions[waits], "declared_in": seq, "link": body["reveal"],
                   "index": chains[side]["index"], "declarations": declarations(actions[:waits + 1])}
        events.append({"text": f"{side} gives orders; the referee resolves them", "to": [side, REFEREE]})
    if ctx is not None:
        ctx.finish()
    return dict(new, seq=seq, chains=chains, pending=pending, adjudicate=True, game=state), events, rolls

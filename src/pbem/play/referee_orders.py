"""A player's orders in a refereed game, from its own view (``pbem.play.refereeing`` signs them).

In a game with hidden items (pools, or decks the referee deals) the view is the whole state
with every hidden item a token, so the player's tool runs the rules on it as in a two-player
game: with its own private secret (pbem_engine.hidden.referee_hidden.OwnSide) and the cards the referee
named to it (pbem_engine.hidden.referee_deck.OwnDeck), order after order, the forced decisions played as
the referee will play them, until the decision passes, a roll waits for the referee's dice, or
the rules open an item only the referee can open.  The referee applies the same orders with
the same function (pbem_engine.protocol.referee.run_orders).  In a game whose view is not the whole state
(Hill 60), the player gives the one decision the view offers.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol import referee as rules_referee
from pbem_engine.protocol.core import Choice, IllegalAction, Prompt, find_choice, forced
from pbem_engine.protocol.referee import REFEREE

from ..errors import PbemError
from .plays import Ask, free_order


def latest_view(campaign) -> dict[str, Any] | None:
    """The last view the referee sealed to us, or None before the game starts."""
    rows = campaign.ledger.views(campaign.side)
    return json.loads(rows[-1][4]) if rows else None


def own_knowledge(campaign, view: dict[str, Any]) -> dict[str, str]:
    """What a player may name in a view: what the rules opened, its own items (from its secret,
    the items it hid and those the referee hid for it), and the dealt cards it has seen."""
    from pbem_engine.hidden.referee_hidden import known

    from ..chain.hidden import public_knowledge

    game_id = campaign.genesis["game"]
    out = public_knowledge(game_id, {"private": view.get("private", {})})
    if campaign.side in view.get("private", {}) and campaign.private_secret():
        chosen = {**view.get("chosen", {}), **campaign.chosen_items()}
        out.update(known(game_id, view["private"], campaign.side, bytes.fromhex(campaign.private_secret()), chosen))
    out.update(dealt_public(view))
    out.update(view.get("cards", {}))  # the dealt cards the referee names to us: our hand, a hand shown us
    return out


def dealt_public(view: dict[str, Any]) -> dict[str, str]:
    """The cards of the referee's dealt decks that anyone may name: those face up."""
    from pbem_engine.hidden.referee_deck import face_up

    return face_up(view["dealt"]) if "dealt" in view else {}


def follows_rules(campaign, view: dict[str, Any]) -> bool:
    """Whether our tool can run the rules on this view: it is the whole state (hidden items are
    tokens), and the referee plays the forced decisions between orders (protocol 2).  Not where
    the module's view hides part of the state (``partial_view``: Hill 60)."""
    if "private" in view or "dealt" in view:
        return True
    return campaign.genesis["body"].get("protocol", 1) >= 2 and not getattr(campaign.game, "partial_view", False)


class Draft(NamedTuple):
    """Our orders so far, run on the view: where they lead."""

    state: dict[str, Any] | None  # None: the rules went where only the referee can follow
    prompt: Prompt | None  # the next decision as our tool shows it, if it is still ours
    known: dict[str, str]  # what we may name there
    chosen: list[tuple[str, str]]  # what the orders hide: (token, item)
    events: list[dict[str, Any]] = []  # what the orders did, in the rules' words (tokens unnamed)


def run(campaign, view: dict[str, Any], actions: list[dict[str, Any]]) -> Draft:
    """``actions`` run on ``view`` as the referee will run them.

    :raises IllegalAction, protocol.ProtocolError, PrivateError, DeckError: an order the rules refuse."""
    from pbem_engine.hidden.referee_deck import OwnDeck
    from pbem_engine.hidden.referee_hidden import OwnSide, Unknowable
    from pbem_engine.hidden.referee_hidden import known as own_known

    from ..chain.hidden import public_knowledge
    from .turns import shown

    game, side = campaign.game, campaign.side
    game_id = campaign.genesis["game"]
    secret = bytes.fromhex(campaign.private_secret()) if "private" in view else b""
    chosen = {**view.get("chosen", {}), **campaign.chosen_items()}
    public = campaign.match()["public"]
    links = {side: {side: public["chains"][side]["link"], REFEREE: public["chains"][REFEREE]["link"]}}
    seq = campaign.ledger.head()[0] + 1
    ctx = OwnSide(game_id, seq, json.loads(json.dumps(view["private"])), side, secret, chosen, links) \
        if "private" in view else None
    decks = OwnDeck(view["dealt"], view.get("cards", {}), side) if "dealt" in view else None
    try:
        state, events, waits = rules_referee.run_orders(game, json.loads(json.dumps(view["view"])), side, actions,
                                                   ctx, True, protocol.ProtocolError, decks)
    except Unknowable:
        state, events, waits = None, [], None
    hidden = ctx.chosen() if ctx is not None else []
    if state is None or waits is not None or game.outcome(state) is not None:
        return Draft(state if waits is None else None, None, {}, hidden, events)
    prompt = game.prompt(state)
    if prompt.side != side:
        return Draft(state, None, {}, hidden, events)
    mine = {**public_knowledge(game_id, {"private": ctx.records}),
            **own_known(game_id, ctx.records, side, secret, {**chosen, **dict(hidden)})} if ctx is not None else {}
    if decks is not None:  # the dealt cards we may name: face up, our hand, a hand shown to us
        mine.update(decks.known())
    return Draft(state, shown(campaign, {"private": ctx.records if ctx is not None else {}, "game": state}, prompt, mine),
                 mine, hidden, events)


def from_view(campaign, view: dict[str, Any], orders: list[str], ask: Ask | None
              ) -> tuple[list[dict[str, Any]], list[tuple[str, str]], bool]:
    """Orders in a game whose view is the whole state: order after order (from ``orders``, then
    ``ask``) until our tool can follow no further.  Returns (actions, the items they hide as
    (token, item), done): not done when orders run out while the decision is ours (the actions
    are kept as a draft)."""
    from pbem_engine.hidden.deck_group import DeckError
    from pbem_engine.hidden.private import PrivateError

    from ..chain.hidden import show
    from .turns import shuffle_order

    game, side = campaign.game, campaign.side
    actions = list(campaign.draft() or [])
    drafted = len(actions)
    queue = list(orders)
    refusal: str | None = None
    events: list[dict[str, Any]] = [{"text": t} for t in view["events"]]
    while True:
        try:
            draft = run(campaign, view, actions)
        except (IllegalAction, protocol.ProtocolError, PrivateError, DeckError) as e:
            if drafted and len(actions) == drafted:  # a draft the rules now refuse: start again
                campaign.draft_is_damaged(f"the rules refuse it: {str(e)[:200]}")
                actions, drafted = [], 0
                continue
            if not ask or queue or not actions:
                raise PbemError("cannot play this", str(e), code="illegal-action") from None
            actions.pop()  # the order just given: refused, asked again
            refusal = str(e)
            continue
        if draft.prompt is None:
            if queue:
                raise PbemError(f"{len(queue)} order(s) come after this turn file is signed",
                                f"'{queue[0]}' would follow the point where the referee must resolve your orders; "
                                "nothing was signed. Give the rest in your next turn", code="too-many-orders")
            return actions, draft.chosen, True
        drafted = 0
        if forced(draft.prompt):  # one legal choice (the referee plays those between orders, not before the first)
            actions.append(draft.prompt.choices[0].action)
            continue
        fixed = without_choice(game, draft)
        if fixed is not None:  # the rules fix it, in words only our tool can write: never asked of a person
            actions.append(shuffle_order(campaign, free_order(game, draft.state, side, draft.prompt, fixed,
                                                              draft.known), len(actions)))
            continue
        sealed = sealed_choice(game, draft)
        if sealed is not None:  # an order we sealed earlier, read by our tool alone: never asked again
            actions.append(sealed)
            continue
        campaign.situation = (draft.state, draft.known)  # what a simulated player may see
        order = queue.pop(0) if queue else (ask(draft.prompt, [dict(e, text=show(e["text"], draft.known, game))
                                                               for e in events], [], refusal) if ask else None)
        events = []
        refusal = None
        if order is None:
            campaign.save_draft(actions)
            return actions, [], False
        if order.strip().lower() in ("undo", "take back"):
            if actions:
                actions.pop()
            continue
        try:
            if draft.prompt.free and hasattr(game, "parse_order"):  # free play: orders in the game's words
                actions.append(shuffle_order(campaign, free_order(game, draft.state, side, draft.prompt, order,
                                                                  draft.known), len(actions)))
            else:
                actions.append(find_choice(draft.prompt, order).action)
        except IllegalAction as e:
            if queue or not ask:
                raise PbemError(f"'{order}' is not a legal order", str(e), code="illegal-order") from None
            refusal = str(e)


def without_choice(game, draft: Draft) -> str | None:
    """The game's ``order_without_choice`` at ``draft``'s decision (pbem.play.turns.no_choice in a
    two-player game): an order the rules fix, which our tool writes with what it knows of our
    hidden items (the Gallipoli 1915 Entente's daylight draw, the block game's Allied set-up)."""
    words = getattr(game, "order_without_choice", None)
    return words(draft.state, draft.prompt) if words is not None and draft.prompt.free else None


def sealed_choice(game, draft: Draft) -> dict[str, Any] | None:
    """The game's ``sealed_choice`` at ``draft``'s decision: the action an order we sealed earlier
    gives, read with what only our tool knows (Assault on Gallipoli's lead order)."""
    taken = getattr(game, "sealed_choice", None)
    if taken is None or draft.state is None or draft.prompt is None:
        return None
    return taken(draft.state, game.prompt(draft.state), draft.known)


def offered(campaign, view: dict[str, Any]) -> tuple[Draft, int]:
    """Our draft run on to the decision our tool offers (past what ``from_view`` takes without
    asking: one legal choice, an order the rules fix), and how many orders the draft holds."""
    actions = list(campaign.draft() or [])
    try:
        draft = run(campaign, view, actions)
    except Exception:  # whatever the rules say of a draft we did not choose: offer the view's decision
        draft, actions = run(campaign, view, []), []
    count = len(actions)
    while draft.prompt is not None:  # what play takes alone, never offered (from_view)
        fixed = without_choice(campaign.game, draft)
        sealed = sealed_choice(campaign.game, draft) if fixed is None else None
        if forced(draft.prompt):
            actions = actions + [draft.prompt.choices[0].action]
        elif fixed is not None:
            actions = actions + [free_order(campaign.game, draft.state, campaign.side, draft.prompt, fixed,
                                            draft.known)]
        elif sealed is not None:
            actions = actions + [sealed]
        else:
            break
        draft = run(campaign, view, actions)
    return draft, count


def decision(campaign, view: dict[str, Any]) -> tuple[Prompt | None, int]:
    """The decision our tool offers now, after our draft (None once the draft would be signed),
    and how many orders the draft holds: what 'pbem play' lists, for the browser page."""
    draft, count = offered(campaign, view)
    return draft.prompt, count


def shown_decision(campaign) -> tuple[Prompt | None, int]:
    """The decision asked of us now, as every face of pbem shows it (``pbem play``, ``status``, the
    report, the page): after our draft, with our own items by name; and how many orders the draft
    holds.  (None, 0) when no decision of ours is pending."""
    from ..chain.hidden import show_prompt

    view = latest_view(campaign)
    if view is None or view["prompt"] is None:
        return None, 0
    if follows_rules(campaign, view):
        return decision(campaign, view)
    prompt = Prompt(campaign.side, view["prompt"]["text"],
                    tuple(Choice(label, action) for label, action in view["prompt"]["choices"]))
    return show_prompt(prompt, own_knowledge(campaign, view), campaign.game), 0


def take_back(campaign) -> str | None:
    """Drop our last drafted order; what it was, in the words our tool listed it (None: no draft)."""
    view = latest_view(campaign)
    actions = list(campaign.draft() or [])
    if view is None or not actions:
        return None
    try:
        words = "; ".join(said(campaign, view, actions, len(actions) - 1))
    except Exception:  # whatever the rules say of a draft we did not choose: it is taken back all the same
        words = ""
    campaign.take_back()
    return words or "your last drafted order"


def said(campaign, view: dict[str, Any], actions: list[dict[str, Any]], start: int) -> list[str]:
    """What ``actions[start:]`` do after the ones before, in the rules' words with our own items
    named: what 'pbem play' echoes of orders it drafts, and 'pbem undo' of the one it takes back.

    :raises IllegalAction, ...: as ``run``."""
    from ..chain.hidden import show

    before, after = run(campaign, view, actions[:start]), run(campaign, view, actions)
    known = {**own_knowledge(campaign, view), **before.known, **after.known}
    words = [show(e["text"], known, campaign.game) for e in after.events[len(before.events):]]
    if not words and before.prompt is not None and start == len(actions) - 1:  # an order that says nothing
        words = [c.label for c in before.prompt.choices if c.action == actions[-1]][:1]
    return words


def one_order(campaign, view: dict[str, Any], orders: list[str], ask: Ask | None) -> dict[str, Any] | None:
    """A game whose view is not the whole state: the one decision the view offers."""
    prompt = Prompt(campaign.side, view["prompt"]["text"],
                    tuple(Choice(label, action) for label, action in view["prompt"]["choices"]))
    refusal = None
    queue = list(orders)
    campaign.situation = (view["view"], {})  # what a simulated player may see: the view the rules gave us
    while True:
        order = queue.pop(0) if queue else (ask(prompt, [{"text": t} for t in view["events"]], [], refusal)
                                             if ask else None)
        if order is None:
            return None
        try:
            return find_choice(prompt, order).action
        except IllegalAction as e:
            if not ask or queue:
                raise PbemError(f"'{order}' is not a legal order", str(e), code="illegal-order") from None
            refusal = str(e)

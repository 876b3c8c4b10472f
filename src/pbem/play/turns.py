"""Our own turn: the decision as our tool shows it, choosing actions, and signing them.

Kept out of ``campaign.py`` (which every ``pbem ingest`` loads) because only ``pbem play``
and the demo need it.  The prompt a player sees is the game's public prompt with our own
hidden items named (``hidden.show_prompt``) and, for games that can tell, the uses our
hidden items rule out left out (``game.playable``); its numbers are what ``pbem play N`` takes.
"""

from __future__ import annotations

import hmac
import json
from typing import TYPE_CHECKING, Any

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol.core import IllegalAction, Prompt, find_choice, forced

from ..errors import PbemError
from ..store.lock import crash_point
from ..wire.keys import Identity
from . import takeback
from .plays import BY_SEALED_ORDER, Ask, PlayResult, free_order

if TYPE_CHECKING:  # only for annotations: the campaign imports this module, not the other way round
    from .campaign import Campaign


def shown(camp: Campaign, match: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> Prompt:
    """The prompt as our tool shows it: our own hidden items by name, and the game's display
    hook (what our hidden items rule out is not offered; the odds of each roll)."""
    game = camp.game
    if "private" in match:
        from ..chain.hidden import show_prompt

        prompt = show_prompt(prompt, known, game)
    if hasattr(game, "playable"):
        prompt = game.playable(match["game"], prompt, known)
    return prompt


def _draft(camp: Campaign, reveal: str) -> list[dict[str, Any]]:
    """The draft, if the game still takes it: a draft the rules refuse (edited by hand, or
    hostile) is ignored with a warning, like a damaged one."""
    actions = camp.draft() or []
    if actions:
        try:
            camp.preview(actions, reveal)
        except Exception as e:  # whatever the engine says of actions we did not choose
            camp.draft_is_damaged(f"the rules refuse it: {str(e)[:200] or type(e).__name__}")
            return []
    return actions


def ahead(camp: Campaign) -> tuple[dict[str, Any], Prompt, bool]:
    """Where ``play`` would stop asking: after our draft and the choices that are forced (a
    prompt with one legal choice is never shown), the match, the prompt there (our own hidden
    items by name) and whether it is ours to decide (False where our file would be signed: a roll
    waits for the other's reveal, our draw for his deck file, or the decision passes)."""
    match = camp.match()
    reveal = camp.next_link()
    actions = _draft(camp, reveal)
    if actions or match["pending"]:  # a roll waiting for our reveal is resolved first, as play does
        match, _, _ = camp.preview(actions, reveal)
    while True:
        known = camp.knowledge(match) if "private" in match else {}
        prompt = shown(camp, match, camp.game.prompt(match["game"]), known)
        ours = not match["pending"] and prompt.side == camp.side and not camp.waits_for_deck(match)
        taken = no_choice(camp, match, prompt, len(actions), known) if ours else None
        if taken is None:
            return match, prompt, ours
        actions = actions + [taken[0]]
        match, _, _ = camp.preview(actions, reveal)


def no_choice(camp: Campaign, match: dict[str, Any], prompt: Prompt, index: int,
              known: dict[str, str]) -> tuple[dict[str, Any], str] | None:
    """The action, and its words, of a decision that leaves us no choice: a prompt with one legal
    choice, or one whose action the rules fix but for what only our tool can write (the game's
    ``forced_action``: the block game's stand-up, its blocks in an order only we know; or its
    ``order_without_choice``, words our tool reads with what it knows of our hidden items; or its
    ``sealed_choice``, an order we sealed earlier that only our tool can read: Assault on Gallipoli's
    lead order).
    None where there is something to decide."""
    if forced(prompt):
        return prompt.choices[0].action, prompt.choices[0].label
    game, state = camp.game, match["game"]
    fixed, sealed, words = (getattr(game, hook, None) for hook in ("forced_action", "sealed_choice",
                                                                   "order_without_choice"))
    if fixed is None and sealed is None and words is None:
        return None
    rules = game.prompt(state)  # the rules' own prompt (``prompt`` is the one play shows), asked once
    action = fixed(state, rules) if fixed is not None else None
    if action is None and sealed is not None:  # an order we sealed earlier, read by our tool alone
        action = sealed(state, rules, known)
        if action is not None:
            return action, BY_SEALED_ORDER
    order = words(state, rules) if words is not None and action is None and prompt.free else None
    if order is not None:  # in the game's words, as a person would type it
        action = free_order(game, state, camp.side, prompt, order, known)
    if action is None:
        return None
    return shuffle_order(camp, action, index), order or (prompt.choices[0].label if prompt.choices else "as the rules fix it")


def shown_prompt(camp: Campaign) -> Prompt:
    """The decision as ``play`` offers it (``ahead``); where ``play`` would sign without asking
    anything, a prompt of no side that says so."""
    _, prompt, ours = ahead(camp)
    if ours or prompt.side != camp.side:
        return prompt
    return Prompt(None, "nothing for you to decide now: 'pbem play' signs your turn file as it is")


def needs_person(camp: Campaign) -> bool:
    """Whether the turn file we owe needs a person: a decision the rules give us with more than
    one legal choice.  A file that only reveals our link, carries deck steps or the end-of-game
    secret, or takes forced choices, our tool writes alone (``pbem.play.unattended``)."""
    waiting = camp.waiting()
    if waiting is None or waiting["side"] != camp.side or waiting["why"] == "secret":
        return False
    return ahead(camp)[2]


def shuffle_order(camp: Campaign, action: dict[str, Any], index: int) -> dict[str, Any]:
    """Lists of items hidden together (blocks entering concealed) go out in an order only we
    know: their tokens' order must not tell which is which.  The order is keyed by our private
    secret, so our own tool reproduces it (drafts, golden games)."""
    hidden = camp.private_secret()
    if not hidden:
        return action
    from ..chain.hidden import shuffle_hidden

    head_seq = camp.ledger.head()[0]  # type: ignore[index]
    return shuffle_hidden(action, hmac.digest(bytes.fromhex(hidden), b"pbem/v1/order\0" + json.dumps(
        [head_seq, index]).encode(), "sha256"))


def play(camp: Campaign, identity: Identity, orders: list[str], ask: Ask | None = None) -> PlayResult:
    """Our turn in a two-player game: choose actions (from ``orders``, then ``ask``) until the
    decision passes, then sign; or keep a draft when orders run out while the decision is ours.

    :raises PbemError: not our turn, an order that is not a legal choice."""
    game, side = camp.game, camp.side
    waiting = camp.check_turn(identity)
    takeback.check_not_waiting(camp)  # what our take-back proposal abandons stays the head until answered
    reveal = camp.next_link()
    if waiting["why"] == "secret":  # the game is over: open every hidden draw to the opponent
        body = {"reveal": reveal, "actions": [], **_secret_fields(camp)}
        try:
            envelope = camp.sign_turn(identity, body)
        except protocol.ProtocolError as e:  # the end-of-game check of the shared decks names a cheat
            raise PbemError("the end-of-game check failed", str(e), code=e.code) from None
        crash_point("play:stored")
        path = camp.archive("sent", envelope)
        crash_point("play:sent")
        return PlayResult(envelope, path, [], [], [])
    actions = _draft(camp, reveal)
    queue = list(orders)
    listed: list | None = None
    unused: list[str] = []
    taken: list[str] = []  # the forced choices taken for us, in order
    refusal: str | None = None
    while True:
        try:
            match, events, rolls = camp.preview(actions, reveal)
        except (IllegalAction, protocol.ProtocolError) as e:
            raise PbemError("cannot play this", str(e), code="illegal-action") from None
        prompt = game.prompt(match["game"])
        known: dict[str, str] = {}
        if "private" in match:  # show our own hidden items by name; no one else's
            from ..chain.hidden import show, unread

            known = camp.knowledge(match)
            pending = unread(match, side, known)
            events = [dict(e, text=show(e["text"], known, game, pending)) for e in events]
        deck_blocked = camp.waits_for_deck(match)  # our draw or shuffle waits for the other's file
        fixed = None
        if not match["pending"] and prompt.side == side:
            prompt = shown(camp, match, prompt, known)
            fixed = no_choice(camp, match, prompt, len(actions), known)  # nothing to decide: taken for us
        deck_wait = deck_blocked and (not queue or fixed is not None)  # (an order may still be one the deck allows)
        if match["pending"] or prompt.side != side or deck_wait:
            if queue and len(queue) == len(orders):  # nothing to decide at all (a reveal, forced choices): say so
                words = next((o for o in queue if not o.strip().isdigit()), None)
                if words is not None:  # an order in words where there is none to give: refused, not dropped
                    raise PbemError(f"'{words}' is not a legal order", "there is nothing for you to decide now: "
                                    "'pbem play' without orders signs your turn file", code="illegal-order")
                unused = list(queue)  # a number, as from a list once shown: said, and the file signed
                queue = []
            if queue:  # orders past the point where this turn file is signed: refuse, sign nothing
                why = ("a roll waits for your opponent's reveal" if match["pending"]
                       else "your draw or shuffle waits for your opponent's deck file" if deck_wait
                       else f"the next decision is {prompt.side}'s" if prompt.side else "the game ends")
                raise PbemError(f"{len(queue)} order(s) come after this turn file is signed",
                                f"'{queue[0]}' would follow the point where {why}; nothing was signed. Give the orders "
                                f"up to there now, the rest in your next turn", code="too-many-orders")
            break
        if fixed is not None:  # never shown or asked
            actions.append(fixed[0])
            taken.append(fixed[1])
            if queue and _names(queue[0], prompt):  # typed all the same (as it was once listed): it is this one
                queue.pop(0)
            continue
        camp.situation = (match["game"], known)  # what a simulated player may see
        if listed is None:  # the list a player saw ('pbem play' without orders): numbers refer to it
            listed = list(prompt.choices)
        given = bool(queue)
        order = queue.pop(0) if queue else (ask(prompt, events, rolls, refusal) if ask else None)
        refusal = None
        if given and order is not None and order.strip().isdigit() and prompt.choices != tuple(listed):
            order = _as_listed(order.strip(), listed, prompt)
        if order is None:
            camp.save_draft(actions)
            return PlayResult(None, None, events, rolls, actions)
        if order.strip().lower() in ("undo", "take back"):
            if actions:
                actions.pop()
            continue
        try:
            if prompt.free and hasattr(game, "parse_order"):  # free play: orders in the game's words
                action = free_order(game, match["game"], side, prompt, order, known)
                actions.append(shuffle_order(camp, action, len(actions)))
            else:
                actions.append(find_choice(prompt, order).action)
        except IllegalAction as e:
            if queue or not ask:
                raise PbemError(f"'{order}' is not a legal order", str(e), code="illegal-order") from None
            refusal = str(e)
    body: dict[str, Any] = {"reveal": reveal, "actions": actions}
    if _ends_owing_our_secret(game, match, side) and not protocol.has_hidden(actions):
        # open our hidden draws in this file, not one more (unless it hides something itself: the
        # opening of what it hides is known only once it is signed, so that goes in the next file)
        body.update(_secret_fields(camp))
    try:
        envelope = camp.sign_turn(identity, body)
    except protocol.ProtocolError as e:
        if "private_secret" not in body:
            raise
        raise PbemError("the end-of-game check failed", str(e), code=e.code) from None
    crash_point("play:stored")
    camp.save_draft([])  # after the turn is stored: a kill between leaves a draft of an older head, ignored
    path = camp.archive("sent", envelope)
    crash_point("play:sent")
    result = PlayResult(envelope, path, events, rolls, actions)
    result.unused, result.forced = unused, taken
    return result


def _secret_fields(camp: Campaign) -> dict[str, Any]:
    fields: dict[str, Any] = {"private_secret": camp.private_secret()}
    chosen = camp.chosen_items()
    if chosen:  # the items we hid by choice, opened at last
        fields["private_chosen"] = chosen
    return fields


def _ends_owing_our_secret(game: Any, match: dict[str, Any], side: str) -> bool:
    """Our orders end the game and we shall owe our private secret: it may go with them (once the
    game is decided nothing is left to hide), saving the file that would carry only it."""
    record = match.get("private", {}).get(side)
    if record is None or record["secret"] is not None or match["pending"] or game.outcome(match["game"]) is None:
        return False
    return bool(record["log"]) or any(r["log"] for r in match.get("decks", {}).values())


def _names(order: str, prompt: Prompt) -> bool:
    """Whether ``order`` is, in words, the one choice of a prompt that leaves none (never a number:
    a number refers to the list shown, which never holds such a prompt)."""
    if order.strip().isdigit() or not prompt.choices:
        return False
    try:  # its words, or an unambiguous beginning of them, as any order is read
        return find_choice(prompt._replace(choices=prompt.choices[:1]), order).action == prompt.choices[0].action
    except IllegalAction:
        return False


def _as_listed(number: str, listed: list, prompt: Prompt) -> str:
    """Choice ``number`` of the list as first shown, as a choice of the prompt now (several
    numbers in one command all refer to that list, not to a list re-counted after each)."""
    n = int(number)
    if not 1 <= n <= len(listed):
        raise PbemError(f"there is no choice {n}", f"the list shown had {len(listed)} choices", code="illegal-order")
    wanted = listed[n - 1]
    for i, choice in enumerate(prompt.choices, 1):
        if choice.action == wanted.action:
            return str(i)
    raise PbemError(f"choice {n} is no longer offered", f"'{wanted.label}' was number {n} in the list shown; after "
                    "your earlier orders it is not a legal choice (give later orders in words)", code="illegal-order")


def take_back(camp: Campaign) -> str | None:
    """Drop the last drafted action; what it did, in the words ``play`` showed when it was drafted
    (our own hidden items by name), or None when there is no draft."""
    actions = _draft(camp, camp.next_link())
    if not actions:
        return None
    reveal = camp.next_link()
    try:
        before = len(camp.preview(actions[:-1], reveal)[1])
        match, events, _ = camp.preview(actions, reveal)
        known = camp.knowledge(match) if "private" in match else {}
        from ..chain.hidden import show

        words = "; ".join(show(e["text"], known, camp.game) for e in events[before:])
    except (IllegalAction, protocol.ProtocolError):
        words = ""
    camp.take_back()
    return words or "your last drafted order"


def drafted(camp: Campaign) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """Our unsigned draft as ``play`` would go on from it: its actions, the events and rolls they
    make (our own hidden items by name), and the match they lead to (the stored one when there is
    no draft).  Read only: for a page that shows the draft (``pbem serve``)."""
    match = camp.match()
    waiting = camp.waiting()
    if camp.refereed or waiting is None or waiting["side"] != camp.side:
        return [], [], [], match
    reveal = camp.next_link()
    actions = _draft(camp, reveal)
    if not actions:
        return [], [], [], match
    match, events, rolls = camp.preview(actions, reveal)
    if "private" in match:
        from ..chain.hidden import show

        known = camp.knowledge(match)
        events = [dict(e, text=show(e["text"], known, camp.game)) for e in events]
    return actions, events, rolls, match

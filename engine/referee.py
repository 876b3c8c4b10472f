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
re-run the game and check every view they received.  Games with hidden
pools (``private_pools``) are not yet supported in referee mode.
"""

from __future__ import annotations

from typing import Any

from .core import Game, IllegalAction, step
from .dice import DiceNotReady, NoDice

REFEREE = "referee"


def start(game: Game, game_id: str, creator: str, body: dict[str, Any], state: dict[str, Any],
          anchor: dict[str, Any], error: type[Exception]) -> dict[str, Any]:
    if creator != REFEREE:
        raise error("bad-genesis", "a referee game is created by the referee")
    match = {"game_id": game_id, "module": game.name, "mode": "referee", "seq": 0,
             "chains": {REFEREE: anchor}, "pending": None, "adjudicate": False, "game": state}
    if hasattr(game, "private_pools"):
        raise error("bad-genesis", f"{game.name} has hidden pools; referee mode does not draw them yet")
    return match


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
         error: type[Exception]) -> dict[str, Any]:
    if side not in game.sides or side in match["chains"]:
        raise error("bad-join", f"{side} is not a player still to join")
    chains = dict(match["chains"], **{side: anchor})
    joined = all(s in chains for s in game.sides)
    return dict(match, chains=chains, seq=seq, adjudicate=joined)  # the referee then sends the first views


def advance(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any], chains: dict[str, Any],
            resolve, declarations, error: type[Exception]
            ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """One envelope of a referee game: a player's orders, or the referee's adjudication."""
    actions = body.get("actions", [])
    state, pending = match["game"], match["pending"]
    events: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    if side == REFEREE:
        if not (match["adjudicate"] or pending):
            raise error("nothing-to-do", "there is nothing for the referee to adjudicate")
        if actions:
            raise error("bad-actions", "the referee adjudicates; it gives no orders")
        if pending:
            actor = {"side": pending["side"], "index": pending["index"], "link": pending["link"]}
            ref = {"side": REFEREE, "index": chains[REFEREE]["index"], "link": body["reveal"]}
            state, events, rolls = resolve(state, pending["action"], pending["declared_in"], actor, ref,
                                           pending["declarations"])
        return dict(match, seq=seq, chains=chains, pending=None, adjudicate=False, game=state), events, rolls
    if match["adjudicate"] or pending:
        raise error("owes-adjudication", f"waiting for the referee to adjudicate envelope #{match['seq']}")
    if not actions:
        raise error("nothing-to-do", f"{side} sent no orders")
    for i, action in enumerate(actions):
        if pending:
            raise error("after-roll", f"order {i + 1} follows a roll the referee must resolve first")
        try:
            state, new_events = step(game, state, side, action, NoDice())
            events += new_events
        except DiceNotReady:
            pending = {"side": side, "action": action, "declared_in": seq, "link": body["reveal"],
                       "index": chains[side]["index"], "declarations": declarations(actions[:i + 1])}
            events.append({"text": f"{side} gives orders; the referee resolves them", "to": [side, REFEREE]})
        except IllegalAction as e:
            raise IllegalAction(f"order {i + 1}: {e}", e.legal) from None
    return dict(match, seq=seq, chains=chains, pending=pending, adjudicate=True, game=state), events, rolls

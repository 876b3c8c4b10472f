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

from typing import Any

from .canonical import canonical_json, digest
from .core import Game, IllegalAction, RulesError, step
from .dice import Dice, DiceNotReady, NoDice

CHAIN_LENGTH = 4096
MODES = ("sealed", "unsealed")


class ProtocolError(Exception):
    """An envelope that breaks the protocol (wrong chain link, wrong turn...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- hash chains ------------------------------------------------------------

def chain_step(game_id: str, side: str, link: bytes) -> bytes:
    """The link before ``link`` in ``side``'s chain for this game."""
    return digest("chain", game_id, side, link)


def chain_links(game_id: str, side: str, secret: bytes, length: int = CHAIN_LENGTH) -> list[bytes]:
    """All links ``x[0]..x[length]`` of the chain whose last link is ``secret``."""
    links = [secret]
    for _ in range(length):
        links.append(chain_step(game_id, side, links[-1]))
    links.reverse()
    return links


def declarations_hash(actions: list[Any]) -> str:
    return digest("declarations", canonical_json(actions)).hex()


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
    if creator not in sides:
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
    return {
        "game_id": game_id,
        "module": game.name,
        "mode": body["mode"],
        "seq": 0,
        "chains": {creator: _anchor(body, creator)},
        "pending": None,
        "game": state,
    }


def _anchor(body: dict[str, Any], side: str) -> dict[str, Any]:
    anchor = body.get("anchor")
    if not (isinstance(anchor, str) and len(anchor) == 64 and _is_hex(anchor)):
        raise ProtocolError("bad-anchor", f"{side}'s chain anchor must be 64 hex digits")
    return {"link": anchor, "index": 0}


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def join(match: dict[str, Any], side: str, body: dict[str, Any]) -> dict[str, Any]:
    """The match state after the other side's join envelope (its anchor)."""
    if side in match["chains"]:
        raise ProtocolError("bad-join", f"{side} created this game and cannot also join it")
    match = dict(match, chains=dict(match["chains"], **{side: _anchor(body, side)}), seq=1)
    return match


# --- turns ------------------------------------------------------------------

def waiting_for(game: Game, match: dict[str, Any]) -> dict[str, Any] | None:
    """Who owes the next envelope and why; None when the game is over."""
    pending = match["pending"]
    if pending:
        other = _other(game, pending["side"])
        return {"side": other, "why": "reveal", "since": pending["declared_in"],
                "text": f"waiting for {other}'s reveal since envelope #{pending['declared_in']}"}
    if len(match["chains"]) < len(game.sides):
        missing = [s for s in game.sides if s not in match["chains"]][0]
        return {"side": missing, "why": "join", "since": 0, "text": f"waiting for {missing} to join"}
    prompt = game.prompt(match["game"])
    if prompt.side is None:
        return None
    return {"side": prompt.side, "why": "decide", "since": match["seq"], "text": f"{prompt.side}: {prompt.text}"}


def _other(game: Game, side: str) -> str:
    return next(s for s in game.sides if s != side)


def advance(game: Game, match: dict[str, Any], seq: int, side: str, body: dict[str, Any]
            ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply a turn envelope: check the reveal, resolve a pending roll, apply actions.

    Returns ``(match, events, rolls)``.  The input is never modified.

    :raises ProtocolError: bad reveal, not this side's envelope to send, game over.
    :raises IllegalAction: an action the rules refuse (its message says what is legal).
    """
    if len(match["chains"]) < len(game.sides):
        raise ProtocolError("not-joined", "the game has not been joined yet")
    if game.outcome(match["game"]) is not None:
        raise ProtocolError("game-over", "the game is over; no more turns are accepted")
    chains = dict(match["chains"])
    chains[side] = _check_reveal(match["game_id"], side, chains[side], body.get("reveal"))
    actions = body.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise ProtocolError("bad-actions", "actions must be a list of objects")
    state, pending = match["game"], match["pending"]
    events: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []

    if pending:
        if pending["side"] == side:
            raise ProtocolError("owes-reveal", f"waiting for {_other(game, side)}'s reveal of the roll "
                                f"declared in envelope #{pending['declared_in']}; {side} cannot act yet")
        actor_link = {"side": pending["side"], "index": pending["index"], "link": pending["link"]}
        other_link = {"side": side, "index": chains[side]["index"], "link": body["reveal"]}
        state, new_events, new_rolls = _resolve(game, match, state, pending["action"], pending["declared_in"], seq,
                                                actor_link, other_link, pending["declarations"], "sealed")
        events += new_events
        rolls += new_rolls
        pending = None
    elif not actions:
        raise ProtocolError("nothing-to-do", f"{side} sent no actions and owes no reveal")

    for i, action in enumerate(actions):
        if pending:
            raise ProtocolError("after-roll", f"action {i + 1} follows a roll that waits for "
                                f"{_other(game, side)}'s reveal; it belongs in a later envelope")
        try:
            state, new_events = step(game, state, side, action, NoDice())
            events += new_events
        except DiceNotReady:
            declarations = declarations_hash(actions[:i + 1])
            own = {"side": side, "index": chains[side]["index"], "link": body["reveal"]}
            if match["mode"] == "unsealed":
                # The actor uses the other side's last revealed link: no round trip, but the
                # actor could compute the roll before signing.  Labelled UNSEALED everywhere.
                other = _other(game, side)
                other_link = {"side": other, "index": chains[other]["index"], "link": chains[other]["link"]}
                state, new_events, new_rolls = _resolve(game, match, state, action, seq, seq, own, other_link,
                                                        declarations, "unsealed")
                events += new_events
                rolls += new_rolls
                continue
            pending = {"side": side, "action": action, "declared_in": seq, "link": body["reveal"],
                       "index": chains[side]["index"], "declarations": declarations}
            events.append({"text": f"{side} declares: {_label(game, state, action)} "
                                   f"(dice wait for {_other(game, side)}'s reveal)"})
        except IllegalAction as e:
            raise IllegalAction(f"action {i + 1}: {e}", e.legal) from None
    new = dict(match, seq=seq, chains=chains, pending=pending, game=state)
    return new, events, rolls


def _resolve(game: Game, match: dict[str, Any], state: dict[str, Any], action: dict[str, Any], declared_in: int,
             resolved_in: int, actor: dict[str, Any], other: dict[str, Any], declarations: str, mode: str
             ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply ``action`` with dice seeded by both links; every roll records its inputs."""
    seed = roll_seed(match["game_id"], declared_in, actor["link"], other["link"], declarations)
    dice = Dice(seed)
    state, events = step(game, state, actor["side"], action, dice)
    source = {"actor": actor["side"], "declared_in": declared_in, "resolved_in": resolved_in, "mode": mode,
              "links": [actor, other], "declarations": declarations, "seed": seed.hex()}
    return state, events, [dict(r, **source) for r in dice.rolls]


def _check_reveal(game_id: str, side: str, chain: dict[str, Any], reveal: Any) -> dict[str, Any]:
    if not (isinstance(reveal, str) and len(reveal) == 64 and _is_hex(reveal)):
        raise ProtocolError("bad-reveal", f"{side}'s envelope must reveal its next chain link (64 hex digits)")
    if chain_step(game_id, side, bytes.fromhex(reveal)).hex() != chain["link"]:
        raise ProtocolError("bad-reveal", f"{side}'s revealed link #{chain['index'] + 1} does not hash to "
                            f"link #{chain['index']}: not the committed chain")
    return {"link": reveal, "index": chain["index"] + 1}


def _label(game: Game, state: dict[str, Any], action: dict[str, Any]) -> str:
    for choice in game.prompt(state).choices:
        if choice.action == action:
            return choice.label
    return str(action)

"""Hidden items in a refereed game: every side's private pools, held by the referee.

A refereed game with private pools (concealed blocks, hands, secret notes) uses the same
commitment tokens as a two-player game (pbem_engine.hidden.private), so the full state a referee holds
is the state the two players would share: every hidden item is a token.  What changes is
who can open them:

* each player commits to its private secret when it joins (``private_anchor``), and seals
  the secret itself to the referee (the product opens the box; here it arrives in hex);
* the referee's replay holds every side's secret (``match["hidden"]``), so it draws, hides
  and opens for any side at any point of the rules (``AllSides``), where a two-player game
  must wait for the owner's own file;
* a player's own tool holds only its own secret and runs the rules on its view to give
  several orders in one file (``OwnSide``): it stops where the rules would open another
  side's item, as it stops at a roll (``Unknowable``);
* a draw takes its randomness from the owner's secret and the referee's last revealed link
  (neither the owner nor the referee chose them), and the referee's disclosure of its box
  key opens every secret the players sealed to it, so anyone replays every draw.

Hidden choices travel as ``{"$hide": item}`` inside the orders sealed to the referee; the
token is computed, by the referee's replay and by the player's own tool alike, from the
side's secret.
"""

from __future__ import annotations

from typing import Any

import hmac

from pbem_engine.hidden.private import PrivateContext, PrivateError, anchor, shuffle_hidden, simulate


class Unknowable(Exception):
    """The rules open another side's hidden item: only the referee can go on from here."""


def new_record(sides: list[str]) -> dict[str, Any]:
    """``match["hidden"]`` at the genesis: each side's secret (from its join) and chosen items."""
    return {side: {"secret": None, "chosen": {}} for side in sorted(sides)}


def join(game_id: str, hidden: dict[str, Any], records: dict[str, Any], side: str, body: dict[str, Any],
         error: type[Exception]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A player's private anchor and (opened) secret; the secret must be the one it committed to."""
    committed, secret = body.get("private_anchor"), body.get("private_secret")
    if not (isinstance(committed, str) and len(committed) == 64):
        raise error("bad-join", f"{side} must commit to its private secret (private_anchor)")
    if not (isinstance(secret, str) and len(secret) == 64):
        raise error("bad-join", f"{side} must seal its private secret to the referee")
    try:
        ok = anchor(game_id, side, bytes.fromhex(secret)) == committed
    except ValueError:
        ok = False
    if not ok:
        raise error("cheating", f"{side} sealed to the referee a private secret other than the one it committed to")
    records = dict(records, **{side: dict(records[side], anchor=committed)})
    hidden = dict(hidden, **{side: {"secret": secret, "chosen": {}}})
    return hidden, records


def links(chains: dict[str, Any], referee: str) -> dict[str, dict[str, str]]:
    """What each side's draws are keyed by: its own last link and the referee's, per side."""
    return {side: {side: chain["link"], referee: chains[referee]["link"]}
            for side, chain in sorted(chains.items()) if side != referee}


class AllSides:
    """The referee's replay: build mode for every side, each with its own secret."""

    def __init__(self, game_id: str, seq: int, records: dict[str, Any], hidden: dict[str, Any],
                 side_links: dict[str, dict[str, str]]) -> None:
        self.game_id, self.seq = game_id, seq
        self.records = records  # copied by the caller, changed in place
        self.hidden = hidden  # copied by the caller: chosen items are added
        self.side_links = side_links
        self._contexts: dict[str, PrivateContext] = {}
        self._ordered: dict[str, int] = {}

    def _ctx(self, side: str) -> PrivateContext:
        if side not in self._contexts:
            secret = self.hidden.get(side, {}).get("secret")
            if secret is None:
                raise PrivateError("bad-private", f"{side} has no private secret in this game")
            self._contexts[side] = PrivateContext(self.game_id, self.seq, side, self.records, self.side_links[side],
                                                  {}, bytes.fromhex(secret), None, None,
                                                  dict(self.hidden[side]["chosen"]))
        return self._contexts[side]

    def mark(self) -> tuple[int, ...]:
        """Changes to any side's private record (an action that draws and then rolls is refused)."""
        return tuple(len(r["log"]) for _, r in sorted(self.records.items()))

    def finish(self) -> None:
        """The items hidden in this envelope join their side's chosen items."""
        for side, ctx in sorted(self._contexts.items()):
            if ctx.chosen_out:
                chosen = dict(self.hidden[side]["chosen"], **dict(ctx.chosen_out))
                self.hidden[side] = dict(self.hidden[side], chosen=chosen)
                ctx.chosen_out = []

    def ordered(self, side: str, action: Any) -> Any:
        """A decision the rules fix in all but the order of the items it hides together
        (``game.forced_action``), put in an order keyed by ``side``'s secret, as its own tool
        orders them in a two-player game: the other side cannot tell which token is which."""
        ctx = self._ctx(side)
        n = self._ordered[side] = self._ordered.get(side, -1) + 1
        key = hmac.digest(ctx.secret, b"pbem/v1/referee-order\0" + self.seq.to_bytes(8, "big") + n.to_bytes(8, "big"),
                          "sha256")
        return shuffle_hidden(action, key)

    # -- what games call (through Dice) ------------------------------------------
    def draw(self, side: str, pool: str, count: int) -> list[str]:
        return self._ctx(side).draw(side, pool, count)

    def choose(self, side: str, pool: str | None, value: Any) -> str:
        if not (isinstance(value, dict) and "$hide" in value):
            raise PrivateError("bad-private", "in a refereed game a hidden choice travels as its item, "
                                              "sealed to the referee")
        return self._ctx(side).choose(side, pool, value)

    def add(self, side: str, pool: str, items: list[str]) -> None:
        self._ctx(side).add(side, pool, items)

    def reveal(self, side: str, tok: str) -> str:
        return self._ctx(side).reveal(side, tok)

    def own_item(self, side: str, tok: str) -> str | None:
        return self._ctx(side).own_item(side, tok)


class OwnSide(AllSides):
    """A player's own tool: build mode for its side only; another side's hidden item is unknowable."""

    def __init__(self, game_id: str, seq: int, records: dict[str, Any], side: str, secret: bytes,
                 chosen: dict[str, str], side_links: dict[str, dict[str, str]]) -> None:
        super().__init__(game_id, seq, records, {side: {"secret": secret.hex(), "chosen": dict(chosen)}}, side_links)
        self.side = side

    def _ctx(self, side: str) -> PrivateContext:
        if side != self.side:
            raise Unknowable(f"the rules open {side}'s hidden items here")
        return super()._ctx(side)

    def add(self, side: str, pool: str, items: list[str]) -> None:
        super()._ctx(self.side).add(side, pool, items)  # items put back are public: any context logs them

    def reveal(self, side: str, tok: str) -> str:
        opened = self.records[side]["opened"].get(tok)
        if opened is not None:  # already public
            return opened
        return super().reveal(side, tok)

    def chosen(self) -> list[tuple[str, str]]:
        """What this side hid in its orders: (token, item), in order."""
        ctx = self._contexts.get(self.side)
        return list(ctx.chosen_out) if ctx else []


def known(game_id: str, records: dict[str, Any], side: str, secret: bytes, chosen: dict[str, str]) -> dict[str, str]:
    """What a side's tokens are, from its secret: ``{token: item}``."""
    _, openings = simulate(game_id, side, records[side], secret, chosen)
    return {tok: o["item"] for tok, o in openings.items()}

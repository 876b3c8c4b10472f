"""Shared decks dealt to private hands, on the wire: pbem_engine.hidden.deck inside the turn files.

A game whose module declares ``dealt_decks()`` (table-top mode: a pack deck marked
``dealt = "private"``) keeps the public state of each such deck in ``match["decks"]``:

    {deck_id: {"state": <pbem_engine.hidden.deck state>, "log": [messages in order], "envelopes": [n, ...]}}

Every deck message travels in the turn body's ``decks`` field, ``[[deck_id, message], ...]``, in
the order the envelope makes them.  The author's tool computes them from its private secret
(build mode, like pbem_engine.hidden.private.PrivateContext); every other copy takes them from the body and
checks each with ``pbem_engine.hidden.deck.apply`` (replay mode).  A message that is not the one the rules
make here (another op, another count, another nonce, keys for other positions) is refused.

What an envelope carries, in order:

1. *What its author owes* (``owed``), before any action: the next step of a shuffle under way
   when it is the author's, then its keys for every position in the other side's hand that lack
   them (the other side's draws).  So shuffle steps and key releases ride on the files the game
   sends anyway; a side owes a file of its own only when the other keeps the decision and waits
   for it (``match.waiting_for``: "deck").
2. *What its actions make*: ``begin`` and the author's first step of a shuffle, ``draw``,
   ``play`` (face up, with the author's key: checked at once), ``return``, ``keys`` (a hand shown).

The nonce of a permuting step is the other side's latest revealed chain link: fixed before the
step, and not the author's to choose, so no one can grind a shuffle.  At the end, when both
private secrets are revealed, ``audit`` recomputes every message (pbem_engine.hidden.deck_audit).
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from pbem_engine.canonical import canonical_json, digest
from pbem_engine.hidden import deck as D
from pbem_engine.hidden.deck_audit import audit as deck_audit

REF_PREFIX = "deck:"


def ref_text(deck_id: str, ref: list[int]) -> str:
    """A position as a hand holds it: ``deck:<deck>:<shuffle>:<position>``."""
    return f"{REF_PREFIX}{deck_id}:{ref[0]}:{ref[1]}"


def parse_ref(text: Any) -> tuple[str, list[int]] | None:
    if not isinstance(text, str) or not text.startswith(REF_PREFIX):
        return None
    parts = text[len(REF_PREFIX):].split(":")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit() or len(text) > 200:
        return None
    return parts[0], [int(parts[1]), int(parts[2])]


def new_record(game_id: str, sides: list[str], decks: dict[str, list[str]], trail: bool = False,
               logged: bool = False) -> dict[str, Any]:
    """``match["decks"]`` at the genesis: every marked deck in its box. ``trail`` (protocol 3): the
    state hash covers each deck's log through a running digest of it (pbem_engine.protocol.trail);
    ``logged`` (protocol 4): and not each shuffle's locked cards, key hashes and released keys,
    which its log's messages carry."""
    return {d: {"state": D.new_deck(game_id, d, sorted(sides), cards), "log": [], "envelopes": [],
                **({"trail": ""} if trail else {}), **({"logged": ["deck", "hashes", "keys"]} if logged else {})}
            for d, cards in sorted(decks.items())}


def _other(sides: list[str], side: str) -> str:
    return sides[1 - sides.index(side)]


def owed(records: dict[str, Any], side: str) -> list[tuple[str, str, Any]]:
    """What ``side`` owes now, in the order it is sent: (deck, "step", kind) and (deck, "keys", refs)."""
    out: list[tuple[str, str, Any]] = []
    for deck_id, rec in sorted(records.items()):
        state = rec["state"]
        sh = state["shuffles"][-1] if state["shuffles"] else None
        if sh is not None and len(sh["done"]) < len(D.plan(sh)):
            kind, author = D.plan(sh)[len(sh["done"])]
            if author == side:
                out.append((deck_id, "step", kind))
        refs = [ref for ref in D.hand(state, D.other(state, side)) if D.released(state, side, ref) is None]
        if refs:
            out.append((deck_id, "keys", refs))
        shown = [r for r in D.hand(state, side) if D.released(state, side, r) is None]
        if D.asked(state, side) and shown:  # the other asked to see this side's hand (Espionage)
            out.append((deck_id, "show", shown))
    return out


def describe_owed(records: dict[str, Any], side: str, names: dict[str, str]) -> str:
    parts = []
    for deck_id, what, detail in owed(records, side):
        name = names.get(deck_id, deck_id)
        parts.append(f"its {detail} of {name}" if what == "step" else
                     f"its keys for the {len(detail)} card(s) the other side drew from {name}" if what == "keys" else
                     f"its hand of {name} (the other side asked to see it)")
    return ", ".join(parts)


@lru_cache(maxsize=16)
def _step_cached(state_json: str, side: str, secret: bytes, nonce: str) -> str:
    """A shuffle step is 1 to 3 seconds of exponentiations: a draft previewed after every order
    computes the same step again and again."""
    return json.dumps(D.step(json.loads(state_json), side, secret, nonce))


class DeckContext:
    """The deck messages of one envelope: built by its author (``secret``), or read and checked."""

    def __init__(self, game_id: str, seq: int, author: str, records: dict[str, Any], body: dict[str, Any],
                 nonce: str, secret: bytes | None = None) -> None:
        self.game_id, self.seq, self.author = game_id, seq, author
        self.records = records  # copied by the caller
        self.nonce = nonce  # the other side's latest revealed chain link
        self.secret = secret
        self.build = secret is not None
        given = body.get("decks", [])
        if not self.build and not (isinstance(given, list) and all(
                isinstance(m, list) and len(m) == 2 and isinstance(m[0], str) and isinstance(m[1], dict) for m in given)):
            raise D.DeckError("bad-message", "the decks field must be a list of [deck, message]", author)
        self.incoming: list[list[Any]] = list(given) if not self.build else []
        self.out: list[list[Any]] = []

    # -- the transport -------------------------------------------------------------------
    def _send(self, deck_id: str, expected: dict[str, Any], check: tuple[str, ...] = ()) -> dict[str, Any]:
        """Build mode: ``expected`` goes out.  Replay: the next incoming message must be for this
        deck, this op, by the author, and agree with ``expected`` on ``check`` (all of it when empty)."""
        if self.build:
            msg = expected
        else:
            where = f"{self.author}'s deck message {len(self.out) + 1} in envelope #{self.seq}"
            if len(self.out) >= len(self.incoming):
                raise D.DeckError("missing", f"{where}: the rules make {expected['op']} of {deck_id} here, "
                                  "the envelope does not carry it", self.author)
            got_deck, msg = self.incoming[len(self.out)]
            if got_deck != deck_id or msg.get("op") != expected["op"] or msg.get("side", self.author) != self.author:
                raise D.DeckError("unexpected", f"{where}: carries {msg.get('op')!r} of {got_deck!r}; the rules "
                                  f"make {expected['op']} of {deck_id} here", self.author)
            for field in check or tuple(expected):
                if msg.get(field) != expected.get(field):
                    raise D.DeckError("unexpected", f"{where}: its {field} is not the one the rules make "
                                      f"({expected['op']} of {deck_id})", self.author)
        rec = self.records[deck_id]
        try:
            rec["state"] = D.apply(rec["state"], msg)
        except D.DeckError as e:
            raise D.DeckError(e.code, f"{self.author}'s {msg.get('op')} of {deck_id} in envelope #{self.seq}: {e}",
                              e.side or self.author) from None
        rec["log"].append(msg)
        rec["envelopes"].append(self.seq)
        if "trail" in rec:
            rec["trail"] = digest("trail", rec["trail"], canonical_json([self.seq, msg], strict=False)).hex()
        self.out.append([deck_id, msg])
        return msg

    def _secret(self) -> bytes:
        assert self.secret is not None
        return self.secret

    # -- what the author owes, before its actions ------------------------------------------
    def settle(self) -> list[str]:
        """Send what the author owes (see ``owed``); returns event texts."""
        events = []
        for deck_id, what, detail in owed(self.records, self.author):
            state = self.records[deck_id]["state"]
            if what == "step":
                self._step(deck_id)
            else:
                self._send(deck_id, D.release(state, self.author, self.secret, detail) if self.build else
                           {"op": "keys", "side": self.author, "refs": detail}, ("side",))
                if not self.build:
                    got = [e[:2] for e in self.records[deck_id]["log"][-1]["keys"]]
                    if got != detail:
                        raise D.DeckError("unexpected", f"{self.author}'s keys of {deck_id} in envelope #{self.seq} "
                                          f"are for {got}, the rules ask for {detail}", self.author)
                if what == "keys":
                    events.append(f"{self.author} releases its keys for the {len(detail)} card(s) "
                                  f"{D.other(state, self.author)} drew")
                else:
                    events.append(f"{self.author} shows its hand of {deck_id} to {D.other(state, self.author)}, "
                                  "who asked: " + " ".join(f"[[{ref_text(deck_id, r)}|card]]" for r in detail))
        return events

    def _step(self, deck_id: str) -> None:
        state = self.records[deck_id]["state"]
        sh = state["shuffles"][-1]
        kind, _ = D.plan(sh)[len(sh["done"])]
        nonce = self.nonce if kind in ("shuffle", "shuffle-rekey") else ""
        if self.build:
            msg = json.loads(_step_cached(json.dumps(state, sort_keys=True), self.author, self._secret(), nonce))
            self._send(deck_id, msg)
        else:
            check = ("side", "number", "nonce") if nonce else ("side", "number")
            self._send(deck_id, {"op": kind, "side": self.author, "number": sh["number"], "nonce": nonce}, check)

    # -- what actions do (called by the game, through Dice.decks) --------------------------
    def shuffle(self, side: str, deck_id: str) -> int:
        """``side`` starts a shuffle of everything not in a hand or on the table: the box, the
        discards (face up) and the pile (face down), and sends its first step. Returns the card count."""
        self._mine(side)
        state = self.records[deck_id]["state"]
        places = D.public_places(state)
        cards = [c for c in state["cards"] if places.get(c) == "box" or
                 (isinstance(places.get(c), list) and D.where(state, places[c]) == "discard")]
        refs = [list(r) for r in state["pile"]]
        if not cards and not refs:
            raise D.DeckError("empty", "nothing to shuffle: every card is in a hand or on the table", side)
        self._send(deck_id, D.begin(state, side, cards, refs))
        sh = self.records[deck_id]["state"]["shuffles"][-1]
        if D.plan(sh)[0][1] == side:
            self._step(deck_id)
        return len(cards) + len(refs)

    def ready(self, deck_id: str) -> str | None:
        """Why ``deck_id`` cannot be drawn from now, or None."""
        state = self.records[deck_id]["state"]
        if not state["shuffles"]:
            return "it has not been shuffled yet"
        sh = state["shuffles"][-1]
        if len(sh["done"]) < len(D.plan(sh)):
            kind, author = D.plan(sh)[len(sh["done"])]
            return f"its shuffle waits for {author}'s {kind}"
        return None

    def draw(self, side: str, deck_id: str, count: int) -> list[str]:
        self._mine(side)
        state = self.records[deck_id]["state"]
        refs = [list(r) for r in state["pile"][:count]]
        self._send(deck_id, D.draw(state, side, count))
        return [ref_text(deck_id, r) for r in refs]

    def play(self, side: str, text: str, to: str = "table") -> str:
        """Play a card of ``side``'s hand face up: its name, checked against both keys."""
        self._mine(side)
        deck_id, ref = self._ref(text)
        state = self.records[deck_id]["state"]
        if self.build:
            msg = self._send(deck_id, D.play(state, side, self._secret(), ref, to))
        else:
            msg = self._send(deck_id, {"op": "play", "side": side, "ref": ref, "to": to}, ("side", "ref", "to"))
        return msg["card"]

    def give_back(self, side: str, text: str) -> None:
        self._mine(side)
        deck_id, ref = self._ref(text)
        self._send(deck_id, D.give_back(self.records[deck_id]["state"], side, ref))

    def discard(self, side: str, text: str) -> None:
        """Move a card played face up to the table onto the discard pile, so that the next shuffle
        takes it (a game keeping its own discard pile moves its cards there before reshuffling)."""
        self._mine(side)
        deck_id, ref = self._ref(text)
        self._send(deck_id, D.discard(self.records[deck_id]["state"], side, ref))

    def show(self, side: str, deck_id: str) -> int:
        """Release ``side``'s keys for every card of its hand from ``deck_id``: the other side reads them."""
        self._mine(side)
        state = self.records[deck_id]["state"]
        refs = [r for r in D.hand(state, side) if D.released(state, side, r) is None]
        if not refs:
            raise D.DeckError("empty", f"{side} holds no card of {deck_id} to show", side)
        if self.build:
            self._send(deck_id, D.release(state, side, self._secret(), refs))
        else:
            self._send(deck_id, {"op": "keys", "side": side}, ("side",))
            got = [e[:2] for e in self.records[deck_id]["log"][-1]["keys"]]
            if got != refs:
                raise D.DeckError("unexpected", f"{side} shows {got}, not its hand {refs}", side)
        return len(refs)

    def ask(self, side: str, deck_id: str) -> bool:
        """``side`` asks to see the other's hand of ``deck_id`` (Espionage): the other's next file
        carries its keys.  False when every card of that hand is already shown."""
        self._mine(side)
        self._send(deck_id, D.ask(self.records[deck_id]["state"], side))
        return D.asked(self.records[deck_id]["state"], D.other(self.records[deck_id]["state"], side))

    def take(self, side: str, text: str) -> None:
        """``side`` takes a card the other has shown from the other's hand into its own."""
        self._mine(side)
        deck_id, ref = self._ref(text)
        self._send(deck_id, D.take(self.records[deck_id]["state"], side, ref))

    def give(self, side: str, text: str) -> None:
        """``side`` hands a card of its hand to the other: its key (unless already shown), then the move."""
        self._mine(side)
        deck_id, ref = self._ref(text)
        state = self.records[deck_id]["state"]
        if D.released(state, side, ref) is None:
            if self.build:
                self._send(deck_id, D.release(state, side, self._secret(), [ref]))
            else:
                self._send(deck_id, {"op": "keys", "side": side}, ("side",))
                got = [e[:2] for e in self.records[deck_id]["log"][-1]["keys"]]
                if got != [ref]:
                    raise D.DeckError("unexpected", f"{side} releases keys for {got}, not for the card it gives "
                                      f"({ref})", side)
        self._send(deck_id, D.move(self.records[deck_id]["state"], side, ref))

    def blocked(self, side: str, deck_id: str, count: int) -> list[str]:
        """The top ``count`` positions ``side`` cannot draw face down: it released its own key for
        them (they were in the other's hand, then returned face down), so the other could read them."""
        state = self.records[deck_id]["state"]
        return [ref_text(deck_id, r) for r in state["pile"][:count] if D.released(state, side, r) is not None]

    def pile(self, deck_id: str) -> list[str]:
        state = self.records[deck_id]["state"]
        return [ref_text(deck_id, r) for r in state["pile"]]

    def _mine(self, side: str) -> None:
        if side != self.author:
            raise D.DeckError("not-owner", f"{side}'s deck message must be in {side}'s own envelope", side)

    def _ref(self, text: str) -> tuple[str, list[int]]:
        parsed = parse_ref(text)
        if parsed is None or parsed[0] not in self.records:
            raise D.DeckError("bad-ref", f"{text!r} is no position of a dealt deck", self.author)
        return parsed

    def finish(self) -> None:
        if not self.build and len(self.out) != len(self.incoming):
            raise D.DeckError("unexpected", f"envelope #{self.seq} carries {len(self.incoming)} deck messages, "
                              f"the rules made {len(self.out)}", self.author)

    def body(self) -> list[list[Any]]:
        return copy.deepcopy(self.out)


# -- what a side's tool can read ------------------------------------------------------------
@lru_cache(maxsize=512)
def _read(game_id: str, deck_id: str, cards: tuple[str, ...], value: str, mine: int, theirs: str) -> str | None:
    table = D.card_table(game_id, deck_id, cards)
    return table.get(pow(int(value, 16), mine * int(theirs, 16) % D.Q, D.P))


def known(records: dict[str, Any], side: str, secret: bytes) -> dict[str, str]:
    """Every dealt position ``side`` can name: its hand (once the other side's key is in),
    cards shown to it, and every card face up.  ``{ref text: card}``."""
    out: dict[str, str] = {}
    for deck_id, rec in sorted(records.items()):
        state = rec["state"]
        opponent = D.other(state, side)
        for sh in state["shuffles"]:
            if len(sh["done"]) < len(D.plan(sh)):
                continue
            keys = None
            for i, at in enumerate(sh["at"]):
                if str(i) in sh["cards"] and at != "gone":
                    out[ref_text(deck_id, [sh["number"], i])] = sh["cards"][str(i)]
                    continue
                theirs = sh["keys"][opponent].get(str(i))
                if at in ("gone", "pile") or theirs is None:
                    continue
                keys = keys or D.Keys(secret, state["game"], deck_id, side, sh["number"])
                card = _read(state["game"], deck_id, tuple(state["cards"]), sh["deck"][i], keys.unlock(i), theirs)
                if card is not None:
                    out[ref_text(deck_id, [sh["number"], i])] = card
    return out


def hands(records: dict[str, Any]) -> dict[str, dict[str, int]]:
    """How many cards of each dealt deck each side holds (public)."""
    out: dict[str, dict[str, int]] = {}
    for deck_id, rec in sorted(records.items()):
        for side in rec["state"]["sides"]:
            out.setdefault(side, {})[deck_id] = len(D.hand(rec["state"], side))
    return out


# -- the end of the game ----------------------------------------------------------------------
def audit(game_id: str, records: dict[str, Any], secrets: dict[str, bytes], anchors: dict[str, str]) -> int:
    """Recompute every deck message from both revealed secrets; returns how many were checked.

    :raises DeckError: ``cheating`` (or the refusal apply gives), naming the side, the step and the
        envelope that carried it."""
    logs = json.dumps([game_id, {d: [r["log"], r["envelopes"], r["state"]["cards"], r["state"]["sides"]]
                                 for d, r in sorted(records.items())}, sorted(anchors.items())], sort_keys=True)
    return _audit(logs, tuple(sorted(secrets.items())))


@lru_cache(maxsize=4)
def _audit(logs: str, secrets: tuple[tuple[str, bytes], ...]) -> int:
    """The audit of one history, once per process: the reveal that ends a game is checked by its
    author's tool before signing, again when stored, and by every later verify."""
    game_id, decks, anchor_items = json.loads(logs)
    anchors, keys = dict(anchor_items), dict(secrets)
    records = {d: {"log": log, "envelopes": envs, "state": {"cards": cards, "sides": sides}}
               for d, (log, envs, cards, sides) in decks.items()}
    return _audit_records(game_id, records, keys, anchors)


def _audit_records(game_id: str, records: dict[str, Any], secrets: dict[str, bytes], anchors: dict[str, str]) -> int:
    checked = 0
    for deck_id, rec in sorted(records.items()):
        if not rec["log"]:
            continue
        cards = rec["state"]["cards"]
        start = D.new_deck(game_id, deck_id, list(rec["state"]["sides"]), cards)
        try:
            result = deck_audit(start, rec["log"], secrets, anchors)
        except D.DeckError as e:
            envelope = ""
            if e.step and e.step.startswith("#"):
                n = int(e.step[1:].split()[0])
                envelope = f" (envelope #{rec['envelopes'][n - 1]})"
            raise D.DeckError(e.code, f"deck {deck_id}{envelope}: {e}", e.side, f"{e.step}{envelope}") from None
        checked += result["messages"]
    return checked


def messages(records: dict[str, Any]) -> list[dict[str, Any]]:
    """Every deck message in order, as ``pbem audit`` lists it: deck, envelope, side, op and what
    it did, in public terms (a card is named only once it is played face up)."""
    rows = []
    for deck_id, rec in sorted(records.items()):
        for msg, envelope in zip(rec["log"], rec["envelopes"]):
            op = msg.get("op")
            if op == "begin":
                text = (f"shuffle {msg['number']} begins: {len(msg['cards'])} card(s) face up (box, discards), "
                        f"{len(msg['refs'])} face down (the pile); {msg['first']} shuffles first")
            elif op in ("lock", "shuffle", "shuffle-rekey", "rekey"):
                text = f"step {op} of shuffle {msg['number']} ({len(msg['deck'])} cards)"
            elif op == "draw":
                text = f"draws {msg['count']}"
            elif op == "keys":
                text = f"releases {len(msg['keys'])} key(s): " + " ".join(f"{s}:{i}" for s, i, _ in msg["keys"])
            elif op == "play":
                text = f"plays {msg['card']} ({msg['ref'][0]}:{msg['ref'][1]}) to the {msg['to']}, with its key"
            elif op == "ask":
                text = "asks to see the other side's hand"
            elif op in ("take", "move", "return", "discard"):
                text = {"take": "takes", "move": "hands over", "return": "returns face down",
                        "discard": "discards"}[op] + f" {msg['ref'][0]}:{msg['ref'][1]}"
            else:
                text = op
            side = msg.get("side", msg.get("first", ""))  # a shuffle is begun by the side that shuffles first
            rows.append({"deck": deck_id, "envelope": envelope, "side": side, "op": op, "text": text})
    return rows


def counts(records: dict[str, Any]) -> dict[str, int]:
    """Shuffles dealt, cards drawn, keys released, cards played, cards moved between hands."""
    out = {"shuffles": 0, "draws": 0, "keys": 0, "plays": 0, "moves": 0, "messages": 0}
    for rec in records.values():
        for msg in rec["log"]:
            op = msg.get("op")
            out["messages"] += 1
            out["shuffles"] += op == "rekey"
            out["draws"] += msg.get("count", 0) if op == "draw" else 0
            out["keys"] += len(msg.get("keys", [])) if op == "keys" else 0
            out["plays"] += op == "play"
            out["moves"] += op in ("take", "move")
    return out


def verdict(game_id: str, records: dict[str, Any], private: dict[str, Any]) -> str:
    """The shared decks' part of ``pbem verify``'s summary: once both private secrets are revealed,
    every deck message recomputed from them (pbem_engine.hidden.deck_audit; raises DeckError naming the cheat)."""
    if not any(r["log"] for r in records.values()):
        return ""
    n = counts(records)
    def many(count: int, what: str) -> str:
        return f"{count} {what}{'' if count == 1 else 's'}"

    what = ", ".join([many(n["shuffles"], "shuffle"), many(n["draws"], "draw"), many(n["keys"], "key release"),
                      many(n["plays"], "play")] + ([many(n["moves"], "card") + " moved between hands"] if n["moves"] else []))
    if all(r.get("secret") for r in private.values()):
        checked = audit(game_id, records, {s: bytes.fromhex(r["secret"]) for s, r in private.items()},
                        {s: r["anchor"] for s, r in private.items()})
        return f"shared decks: {what}; all {checked} deck messages recomputed from both sides' secrets"
    return (f"shared decks: {what} checked as played; the full re-check (every shuffle recomputed) waits for "
            "both private secrets, revealed at the end")

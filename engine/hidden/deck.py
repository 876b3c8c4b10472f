"""A shared deck whose draws are private to the drawer (mental poker), for two sides.

Commutative locks in the style of SRA / Pohlig-Hellman.  A card is a number m
in the subgroup of quadratic residues modulo the RFC 3526 2048-bit safe prime
p = 2q+1 (the subgroup has prime order q).  A key is an exponent k in [1, q-1]:
``m^k mod p`` locks the card, ``d = k^-1 mod q`` unlocks it, and locks commute,
so each side can add or remove its own lock whatever the other's.

Every key and permutation is derived from a side's committed private secret
(the one pbem_engine.hidden.private uses), so when that secret is revealed at the end of
the game anyone can recompute every message (pbem_engine.hidden.deck_audit).

pbem_engine.hidden.deck_group holds the group, the card encoding and the key derivation.

A shuffle (a fresh deck, reshuffled discards, or cards still face down in the
pile) is three or four public messages, each a pure function of the public
deck and its author's secret; ``first`` is the side that shuffles first:

  lock           second side, in place: removes its old position keys from
                 cards still under them and locks every card with its shuffle
                 key.  Only when the shuffle takes face-down cards: a fresh
                 deck is public and skips it.
  shuffle        first side: permutes, removes its old position keys, locks
                 every card with its shuffle key.
  shuffle-rekey  second side: permutes, removes its shuffle key (if it
                 locked) and locks position j with its own key k_j; publishes
                 a hash of each position's unlock key.
  rekey          first side, in place: removes its shuffle key, locks
                 position j with its own key k_j; publishes the key hashes.

This is the textbook four-step SRA deal (both lock and permute, then both swap
their shuffle lock for per-position locks) with the second side's shuffle lock
folded away on a fresh deck: one exponentiation per card and one message less.
Each side permutes once, under a lock only it knows, so neither knows the
order; position j ends as m^(kA_j kB_j) and opens only with both unlock keys.

To draw position j, the other side releases its unlock key for j; only the
drawer holds the second key.  Anyone checks a released key against the hash
published at re-keying, at once.  A card played face up is proved by its
owner releasing its own key: anyone unlocks the position and compares.

Espionage (look at the other's hand, take a card): ``ask`` makes the other side owe its keys
for every card of its hand not yet shown; once they are in, ``take`` moves one of those cards
to the asker's hand, which now holds both keys.  ``move`` is the holder handing a card over
after releasing its own key.  Either way both sides know the card (the former holder held it)
and no message names it; a card whose keys both sides have released can no longer be drawn
face down by either, only reshuffled.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pbem_engine.canonical import digest

# The group, cards and keys, re-exported so that callers need pbem_engine.hidden.deck alone.
from pbem_engine.hidden.deck_group import (  # noqa: F401
    ELEMENT_HEX,
    WIDTH,
    DeckError,
    Keys,
    P,
    Q,
    card_table,
    element,
    encode,
    hexed,
    is_member,
)

_HASH = re.compile(r"[0-9a-f]{64}")


def key_hash(state: dict[str, Any], side: str, number: int, j: int, unlock: int) -> str:
    """What re-keying publishes for each position: a commitment to the unlock key released later."""
    return digest("deck-key", state["game"], state["deck"], side, str(number), str(j), hexed(unlock)).hex()


# -- the public deck ---------------------------------------------------------------------
def new_deck(game_id: str, deck_id: str, sides: list[str], cards: list[str]) -> dict[str, Any]:
    """The public state of a deck before its first shuffle: every card in the box."""
    if len(sides) != 2 or sides[0] == sides[1]:
        raise DeckError("bad-sides", "a shared deck is for two sides")
    card_table(game_id, deck_id, tuple(cards))
    return {"game": game_id, "deck": deck_id, "sides": list(sides), "cards": list(cards), "box": list(cards),
            "shuffles": [], "pile": []}


def other(state: dict[str, Any], side: str) -> str:
    if side not in state["sides"]:
        raise DeckError("bad-side", f"{side!r} does not play deck {state['deck']}")
    return state["sides"][1 - state["sides"].index(side)]


def plan(shuffle: dict[str, Any]) -> list[tuple[str, str]]:
    """The steps of a shuffle, in order: (kind, side)."""
    first, second = shuffle["first"], shuffle["second"]
    steps = [("shuffle", first), ("shuffle-rekey", second), ("rekey", first)]
    if any("ref" in s for s in shuffle["sources"]):
        steps.insert(0, ("lock", second))
    return steps


def _position(state: dict[str, Any], ref: Any) -> tuple[dict[str, Any], int]:
    if not (isinstance(ref, list) and len(ref) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in ref)
            and 0 <= ref[0] < len(state["shuffles"]) and 0 <= ref[1] < len(state["shuffles"][ref[0]]["at"])):
        raise DeckError("bad-ref", f"{ref!r} is no position of deck {state['deck']}")
    return state["shuffles"][ref[0]], ref[1]


def where(state: dict[str, Any], ref: list[int]) -> str:
    """Where a position is: "dealing" (its shuffle is under way), "pile", a side's name (its hand),
    "table", "discard" or "gone" (taken into a later shuffle)."""
    sh, i = _position(state, ref)
    return sh["at"][i]


def released(state: dict[str, Any], side: str, ref: list[int]) -> str | None:
    sh, i = _position(state, ref)
    return sh["keys"][side].get(str(i))


def _input(state: dict[str, Any], shuffle: dict[str, Any]) -> list[int]:
    """The values a shuffle starts from: encoded cards, or the current locks of face-down positions."""
    table = {c: m for m, c in card_table(state["game"], state["deck"], tuple(state["cards"])).items()}
    out = []
    for s in shuffle["sources"]:
        if "card" in s:
            out.append(table[s["card"]])
        else:
            old, i = _position(state, s["ref"])
            out.append(int(old["deck"][i], 16))
    return out


# -- building messages (the author's own tool, which knows its secret) ---------------
def begin(state: dict[str, Any], first: str, cards: list[str] = (), refs: list[list[int]] = ()) -> dict[str, Any]:
    """Start a shuffle of public ``cards`` (from the box or the discard pile) and of face-down
    positions ``refs`` (from the pile).  Public: anyone may send it, as the rules say."""
    return {"op": "begin", "number": len(state["shuffles"]), "first": first, "cards": list(cards),
            "refs": [list(r) for r in refs]}


def step(state: dict[str, Any], side: str, secret: bytes, nonce: str = "") -> dict[str, Any]:
    """The next step of the shuffle under way, computed by ``side`` (see the module's docstring)."""
    sh = _current(state)
    kind, author = plan(sh)[len(sh["done"])]
    if author != side:
        raise DeckError("not-your-step", f"the next step of shuffle {sh['number']} is {author}'s {kind}")
    values = _input(state, sh) if not sh["done"] else [int(x, 16) for x in sh["deck"]]
    return _compute(state, sh, kind, side, secret, values, nonce)


def _compute(state: dict[str, Any], sh: dict[str, Any], kind: str, side: str, secret: bytes,
             values: list[int], nonce: str) -> dict[str, Any]:
    game, deck, number, n = state["game"], state["deck"], sh["number"], len(values)
    keys = Keys(secret, game, deck, side, number)
    locked = ("lock", side) in plan(sh)  # did this side put a shuffle lock on, to be removed?
    if kind in ("lock", "shuffle"):
        strip = [1] * n  # remove this side's old position keys from face-down cards
        for j, s in enumerate(sh["sources"]):
            if "ref" in s:
                strip[j] = Keys(secret, game, deck, side, s["ref"][0]).unlock(s["ref"][1])
        order = list(range(n)) if kind == "lock" else keys.permutation(n, nonce)
        exponents = [strip[order[j]] * keys.shuffle % Q for j in range(n)]
    else:
        order = list(range(n)) if kind == "rekey" else keys.permutation(n, nonce)
        off = pow(keys.shuffle, -1, Q) if kind == "rekey" or locked else 1
        exponents = [off * keys.position(j) % Q for j in range(n)]
    out = {"op": kind, "side": side, "number": number,
           "deck": [hexed(pow(values[order[j]], exponents[j], P)) for j in range(n)]}
    if kind in ("shuffle", "shuffle-rekey"):
        out["nonce"] = nonce
    if kind in ("shuffle-rekey", "rekey"):
        out["hashes"] = [key_hash(state, side, number, j, keys.unlock(j)) for j in range(n)]
    return out


def draw(state: dict[str, Any], side: str, count: int = 1) -> dict[str, Any]:
    """``side`` takes the top ``count`` positions of the pile into its hand (public)."""
    return {"op": "draw", "side": side, "count": count}


def release(state: dict[str, Any], side: str, secret: bytes, refs: list[list[int]]) -> dict[str, Any]:
    """``side`` releases its unlock keys for ``refs``: the other side's draws (sent ahead for a
    refill if the rules say who draws them), or, for cards in its own hand, showing them to the
    other side (Espionage) or handing them over."""
    out = []
    for ref in refs:
        sh, i = _position(state, ref)
        out.append([ref[0], i, hexed(Keys(secret, state["game"], state["deck"], side, sh["number"]).unlock(i))])
    return {"op": "keys", "side": side, "keys": out}


def play(state: dict[str, Any], side: str, secret: bytes, ref: list[int], to: str = "table") -> dict[str, Any]:
    """``side`` plays the card at ``ref`` face up (to the table or the discard pile): it names the
    card and releases its own key so that anyone can check the claim."""
    card = read(state, side, secret, ref)
    sh, i = _position(state, ref)
    unlock = Keys(secret, state["game"], state["deck"], side, sh["number"]).unlock(i)
    return {"op": "play", "side": side, "ref": list(ref), "card": card, "key": hexed(unlock), "to": to}


def move(state: dict[str, Any], side: str, ref: list[int]) -> dict[str, Any]:
    """Move a card from ``side``'s hand to the other's (after ``side`` released its key for it)."""
    return {"op": "move", "side": side, "ref": list(ref)}


def ask(state: dict[str, Any], side: str) -> dict[str, Any]:
    """``side`` asks to see the other's hand (Espionage): the other then owes its keys for every
    card of its hand not yet shown (pbem_engine.hidden.deck_table sends them in its next file)."""
    return {"op": "ask", "side": side}


def take(state: dict[str, Any], side: str, ref: list[int]) -> dict[str, Any]:
    """``side`` takes a card from the other's hand, one the other has shown (released its key for)."""
    return {"op": "take", "side": side, "ref": list(ref)}


def asked(state: dict[str, Any], side: str) -> bool:
    """Whether ``side`` owes a show of its hand (the other asked)."""
    return side in state.get("asked", [])


def discard(state: dict[str, Any], side: str, ref: list[int]) -> dict[str, Any]:
    """Put a card that is face up on the table onto the discard pile."""
    return {"op": "discard", "side": side, "ref": list(ref)}


def give_back(state: dict[str, Any], side: str, ref: list[int], top: bool = False) -> dict[str, Any]:
    """Return a card from ``side``'s hand to the pile, face down, at the bottom (or the top)."""
    return {"op": "return", "side": side, "ref": list(ref), "top": top}


# -- what a side can read ----------------------------------------------------------------
def read(state: dict[str, Any], side: str, secret: bytes, ref: list[int]) -> str:
    """The card at ``ref``, unlocked with ``side``'s own key and the other side's released key.

    :raises DeckError: ``key-missing`` (the other has not released its key), ``not-a-card`` (the
        value is no card: the other side's key or its shuffle is wrong), ``duplicate-card``."""
    sh, i = _position(state, ref)
    opponent = other(state, side)
    if sh["at"][i] in ("table", "discard", "gone") and str(i) in sh["cards"]:
        return sh["cards"][str(i)]
    theirs = sh["keys"][opponent].get(str(i))
    if theirs is None or len(sh["done"]) < len(plan(sh)):
        raise DeckError("key-missing", f"{opponent} has not released its key for position {ref}", opponent)
    mine = Keys(secret, state["game"], state["deck"], side, sh["number"]).unlock(i)
    value = pow(int(sh["deck"][i], 16), mine * int(theirs, 16) % Q, P)
    card = card_table(state["game"], state["deck"], tuple(state["cards"])).get(value)
    if card is None:
        raise DeckError("not-a-card", f"position {ref} does not open to a card with {opponent}'s key: "
                        f"{opponent}'s share or its shuffle is wrong (the audit names the step)", opponent)
    elsewhere = public_places(state).get(card)
    if elsewhere is not None and elsewhere != list(ref):
        raise DeckError("duplicate-card", f"position {ref} opens to {card}, which is already at {elsewhere}: "
                        f"{opponent}'s shuffle copied a card (the audit names the step)", opponent)
    return card


def known(state: dict[str, Any], side: str, secret: bytes) -> dict[tuple[int, int], str]:
    """Every position ``side`` can read now: its hand, cards shown to it, cards face up."""
    out = {}
    for sh in state["shuffles"]:
        if len(sh["done"]) < len(plan(sh)):
            continue
        for i, at in enumerate(sh["at"]):
            if at == "gone" or (str(i) not in sh["keys"][other(state, side)] and str(i) not in sh["cards"]):
                continue
            out[(sh["number"], i)] = read(state, side, secret, [sh["number"], i])
    return out


def hand(state: dict[str, Any], side: str) -> list[list[int]]:
    """The positions in ``side``'s hand, in the order they came."""
    return [[sh["number"], i] for sh in state["shuffles"] for i, at in enumerate(sh["at"]) if at == side]


def public_places(state: dict[str, Any]) -> dict[str, Any]:
    """Cards whose place everyone knows: in the box, or face up at a position."""
    places: dict[str, Any] = {c: "box" for c in state["box"]}
    for sh in state["shuffles"]:
        for i, card in sh["cards"].items():
            if sh["at"][int(i)] != "gone":
                places[card] = [sh["number"], int(i)]
    return places


# -- checking a message and applying it (everyone, at once) --------------------------
def _current(state: dict[str, Any]) -> dict[str, Any]:
    if not state["shuffles"] or len(state["shuffles"][-1]["done"]) == len(plan(state["shuffles"][-1])):
        raise DeckError("no-shuffle", f"no shuffle of deck {state['deck']} is under way")
    return state["shuffles"][-1]


def apply(state: dict[str, Any], msg: dict[str, Any]) -> dict[str, Any]:
    """Check a deck message against the public state and return the new state (the old one is
    untouched).  Everything that can be checked without secrets is checked here.

    :raises DeckError: the message is refused; ``side`` names its author when it is at fault.
    """
    if not isinstance(msg, dict) or not isinstance(msg.get("op"), str) or msg["op"] not in _APPLY:
        raise DeckError("bad-message", f"not a deck message: {str(msg)[:60]}")
    if msg["op"] != "begin":
        other(state, msg.get("side"))
    new = copy.deepcopy(state)
    _APPLY[msg["op"]](new, msg)
    return new


def _begin(state: dict[str, Any], msg: dict[str, Any]) -> None:
    if state["shuffles"] and len(state["shuffles"][-1]["done"]) < len(plan(state["shuffles"][-1])):
        raise DeckError("busy", "a shuffle is already under way")
    if msg.get("number") != len(state["shuffles"]):
        raise DeckError("bad-number", f"the next shuffle of deck {state['deck']} is #{len(state['shuffles'])}")
    first = msg.get("first")
    cards, refs = msg.get("cards"), msg.get("refs")
    if not isinstance(cards, list) or not isinstance(refs, list) or not cards + refs \
            or not all(isinstance(c, str) for c in cards):
        raise DeckError("bad-message", "a shuffle needs cards (names) and/or positions")
    if len(set(cards)) != len(cards) or len({str(r) for r in refs}) != len(refs):
        raise DeckError("bad-source", "a card or position is named twice")
    places = public_places(state)
    sources = []
    for card in cards:  # a card from the box, or face up on the discard pile
        at = places.get(card)
        if at == "box":
            state["box"].remove(card)
        elif at is not None and where(state, at) == "discard":
            state["shuffles"][at[0]]["at"][at[1]] = "gone"
        else:
            raise DeckError("bad-source", f"{card!r} is neither in the box nor on the discard pile")
        sources.append({"card": card})
    for ref in refs:  # a face-down card of the pile
        if where(state, ref) != "pile":
            raise DeckError("bad-source", f"position {ref} is not in the pile")
        sh, i = _position(state, ref)
        sh["at"][i] = "gone"
        state["pile"].remove(list(ref))
        sources.append({"ref": list(ref)})
    second = other(state, first)
    state["shuffles"].append({"number": msg["number"], "first": first, "second": second, "sources": sources,
                              "done": [], "deck": [], "hashes": {first: [], second: []},
                              "keys": {first: {}, second: {}}, "at": ["dealing"] * len(sources), "cards": {}})


def _step(state: dict[str, Any], msg: dict[str, Any]) -> None:
    sh = _current(state)
    kind, author = plan(sh)[len(sh["done"])]
    where_ = f"{msg['op']} of shuffle {sh['number']}"
    if (msg["op"], msg["side"]) != (kind, author) or msg.get("number") != sh["number"]:
        raise DeckError("out-of-turn", f"{msg['side']}'s {where_} is out of turn: the next step is {author}'s {kind}",
                        msg["side"])
    deck = msg.get("deck")
    if not isinstance(deck, list) or len(deck) != len(sh["sources"]):
        raise DeckError("bad-size", f"{author}'s {where_} holds {len(deck) if isinstance(deck, list) else 'no'} "
                        f"cards, not {len(sh['sources'])}", author)
    try:  # every card a member of the subgroup: no marked card can travel through the other's shuffle
        values = [element(x, f"card {j}") for j, x in enumerate(deck)]
    except DeckError as e:
        raise DeckError(e.code, f"{author}'s {where_}: {e}", author) from None
    if len(set(values)) != len(values):
        raise DeckError("duplicate", f"{author}'s {where_} holds the same value twice", author)
    if kind in ("shuffle", "shuffle-rekey") and not (isinstance(msg.get("nonce"), str) and len(msg["nonce"]) <= 128):
        raise DeckError("bad-message", f"{author}'s {where_} needs a nonce (text, at most 128 characters)", author)
    if kind in ("shuffle-rekey", "rekey"):
        hashes = msg.get("hashes")
        if not (isinstance(hashes, list) and len(hashes) == len(deck)
                and all(isinstance(h, str) and _HASH.fullmatch(h) for h in hashes)):
            raise DeckError("bad-hashes", f"{author}'s {where_} must publish one key hash per position", author)
        sh["hashes"][author] = list(hashes)
    sh["deck"] = list(deck)
    sh["done"].append(kind)
    if len(sh["done"]) == len(plan(sh)):  # dealt: the positions join the bottom of the pile
        sh["at"] = ["pile"] * len(deck)
        state["pile"] += [[sh["number"], j] for j in range(len(deck))]


def _draw(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, count = msg["side"], msg.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= len(state["pile"]):
        raise DeckError("bad-draw", f"cannot draw {count!r} from a pile of {len(state['pile'])}", side)
    for ref in state["pile"][:count]:
        if released(state, side, ref) is not None:  # the other side holds that key: it could read the card
            raise DeckError("key-released", f"{side} released its own key for position {ref}, so it cannot draw "
                            f"it face down (reshuffle first)", side)
        sh, i = _position(state, ref)
        sh["at"][i] = side
    del state["pile"][:count]


def _check_key(state: dict[str, Any], side: str, ref: Any, key: Any) -> int:
    sh, i = _position(state, ref)
    if not sh["hashes"][side]:
        raise DeckError("too-early", f"{side} has not re-keyed shuffle {sh['number']} yet", side)
    if not (isinstance(key, str) and ELEMENT_HEX.fullmatch(key)) or int(key, 16) >= Q or int(key, 16) == 0:
        raise DeckError("wrong-key", f"{side}'s key for position {ref} is not an exponent below q", side)
    if key_hash(state, side, sh["number"], i, int(key, 16)) != sh["hashes"][side][i]:
        raise DeckError("wrong-key", f"{side}'s key for position {ref} is not the one it committed to when "
                        f"it re-keyed shuffle {sh['number']}", side)
    return int(key, 16)


def _keys(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, keys = msg["side"], msg.get("keys")
    if not isinstance(keys, list) or not keys:
        raise DeckError("bad-message", "a key release needs keys", side)
    for entry in keys:
        if not (isinstance(entry, list) and len(entry) == 3):
            raise DeckError("bad-message", f"a released key is [shuffle, position, key], not {entry!r}", side)
        ref = entry[:2]
        _check_key(state, side, ref, entry[2])
        if where(state, ref) == "gone":
            raise DeckError("bad-ref", f"position {ref} has left the deck", side)
        sh, i = _position(state, ref)
        sh["keys"][side][str(i)] = entry[2]
    if asked(state, side) and all(released(state, side, r) is not None for r in hand(state, side)):
        state["asked"].remove(side)  # the hand the other asked to see is shown
        if not state["asked"]:
            del state["asked"]


def _play(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, ref, card, to = msg["side"], msg.get("ref"), msg.get("card"), msg.get("to")
    if to not in ("table", "discard"):
        raise DeckError("bad-message", "a card is played to the table or the discard pile", side)
    if where(state, ref) != side:
        raise DeckError("not-in-hand", f"{side} plays position {ref}, which is not in its hand", side)
    sh, i = _position(state, ref)
    mine = _check_key(state, side, ref, msg.get("key"))
    theirs = sh["keys"][other(state, side)].get(str(i))
    if theirs is None:
        raise DeckError("not-drawn", f"{side} never received {other(state, side)}'s key for position {ref}", side)
    value = pow(int(sh["deck"][i], 16), mine * int(theirs, 16) % Q, P)
    actual = card_table(state["game"], state["deck"], tuple(state["cards"])).get(value)
    if actual != card:
        raise DeckError("false-claim", f"{side} claims position {ref} is {card!r}: the keys open it to "
                        f"{'no card' if actual is None else 'another card'}", side)
    if public_places(state).get(card) is not None:
        raise DeckError("duplicate-card", f"{card} is already at {public_places(state)[card]}: a shuffle copied "
                        f"a card (the audit names the step)")
    sh["keys"][side][str(i)] = msg["key"]
    sh["cards"][str(i)] = card
    sh["at"][i] = to


def _move(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, ref = msg["side"], msg.get("ref")
    if where(state, ref) != side:
        raise DeckError("not-in-hand", f"{side} moves position {ref}, which is not in its hand", side)
    if released(state, side, ref) is None:
        raise DeckError("key-missing", f"{side} must release its key for position {ref} before handing it over", side)
    sh, i = _position(state, ref)
    sh["at"][i] = other(state, side)


def _ask(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side = msg["side"]
    holder = other(state, side)
    if not hand(state, holder):
        raise DeckError("empty-hand", f"{holder} holds no card of {state['deck']} to show", side)
    if asked(state, holder):
        raise DeckError("busy", f"{side} already waits for {holder}'s hand of {state['deck']}", side)
    if any(released(state, holder, r) is None for r in hand(state, holder)):
        state.setdefault("asked", []).append(holder)


def _take(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, ref = msg["side"], msg.get("ref")
    holder = other(state, side)
    if where(state, ref) != holder:
        raise DeckError("not-in-hand", f"{side} takes position {ref}, which is not in {holder}'s hand", side)
    if released(state, holder, ref) is None:
        raise DeckError("not-shown", f"{side} takes position {ref}, which {holder} has not shown", side)
    sh, i = _position(state, ref)
    sh["at"][i] = side


def _return(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, ref = msg["side"], msg.get("ref")
    if where(state, ref) != side:
        raise DeckError("not-in-hand", f"{side} returns position {ref}, which is not in its hand", side)
    sh, i = _position(state, ref)
    sh["at"][i] = "pile"
    if msg.get("top") is True:
        state["pile"].insert(0, list(ref))
    else:
        state["pile"].append(list(ref))


def _discard(state: dict[str, Any], msg: dict[str, Any]) -> None:
    side, ref = msg["side"], msg.get("ref")
    if where(state, ref) != "table":
        raise DeckError("not-on-table", f"position {ref} is not face up on the table", side)
    sh, i = _position(state, ref)
    sh["at"][i] = "discard"


_APPLY = {"begin": _begin, "lock": _step, "shuffle": _step, "shuffle-rekey": _step, "rekey": _step,
          "draw": _draw, "keys": _keys, "play": _play, "move": _move, "return": _return, "discard": _discard,
          "ask": _ask, "take": _take}

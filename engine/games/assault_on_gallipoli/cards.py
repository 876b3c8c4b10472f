"""The Action Cards (17): the deck of 54, the hands (17.1-17.3, 18.1), the discard pile (17.4),
the three colours and when each may be played (17.5-17.10).  Each card's uses: ``effects``.

One deck shared by both sides, dealt to secret hands.  In a match the module declares it with
``dealt_decks()`` and every draw, play and reshuffle goes through ``dice.decks``
(pbem_engine.hidden.deck_table): a hand holds deck positions (``deck:action:0:7``) that only its holder
reads.  Without a deck context (rule tests, random play, face to face) the same rules draw
from the public pile with the shared dice and a hand holds card names.  The seam is
``dealt``/``open_card``/``_draw``: one code path.

A card played is opened face up to the table of the deck (its name checked against both keys)
and kept in this module's discard pile; a reshuffle moves those to the deck's discard pile
first (``DeckContext.discard``), so that a card taken back by Supply Convoy never goes in.

Timing (RULES.md, "When a card may be played"): card choices are added to decisions a side
already has (its Round, its fire and move, the fire damage it allocates, its close combat
steps); never a prompt of its own.  A card is offered only to a side holding one; a card whose
name is public (no deck) only where it has a use.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from .board import enemy
from .data import SIDES

# The Action Cards Summary: key, name, colour, copies, removed from Scenario 1
CARDS = (
    ("courage-under-fire", "Courage Under Fire", "green", 3, False),
    ("heroic-act", "Heroic Act", "green", 3, False),
    ("low-ammo", "Low Ammo", "green", 3, False),
    ("fight-to-the-death", "Fight to the Death!", "green", 2, False),
    ("good-luck", "Good Luck", "green", 2, False),
    ("hand-grenades", "Hand Grenades", "green", 2, False),
    ("hidden-gully", "Hidden Gully", "green", 2, False),
    ("sniper", "Sniper!", "green", 2, False),
    ("sudden-storm", "Sudden Storm", "green", 2, False),
    ("aerial-recon", "Aerial Recon", "brown", 3, False),
    ("coordinated-attack", "Coordinated Attack", "brown", 3, False),
    ("forced-march", "Forced March", "brown", 3, False),
    ("keep-moving", "Keep Moving", "brown", 3, False),
    ("night-attack", "Night Attack", "brown", 3, False),
    ("barbed-wire", "Barbed Wire", "brown", 2, False),
    ("dig-in", "Dig In!", "brown", 2, False),
    ("field-hospital", "Field Hospital", "brown", 2, False),
    ("water-shortage", "Water Shortage", "brown", 2, False),
    ("walking-wounded", "Walking Wounded", "brown", 2, False),
    ("underground-mine", "Underground Mine", "brown", 1, True),
    ("submarine-attack", "Submarine Attack", "red", 2, False),
    ("supply-convoy", "Supply Convoy", "red", 2, False),
    ("dysentery-outbreak", "Dysentery Outbreak", "red", 1, True),
    ("espionage", "Espionage", "red", 1, False),
    ("wrong-orders", "Wrong Orders", "red", 1, False),
)
NAMES = {k: n for k, n, *_ in CARDS}
COLOUR = {k: c for k, _, c, *_ in CARDS}
# What each card does, in brief and in our words (the uses effects.py offers; RULES.md's table), for
# its holder's report: never the card's own text
BRIEF = {
    "courage-under-fire": "ignore 1 Damage Point of a fire, or a Bayonet Charge in close combat",
    "heroic-act": "ignore 2 Damage Points of a fire, or an exhausted unit turns fresh and acts alone",
    "low-ammo": "the next fire of enemy units from one area this turn is halved",
    "fight-to-the-death": "ignore 2 Damage Points of a fire, or any close combat card, led or matching",
    "good-luck": "re-roll one die (of a fire, or a landing, pass, initiative, withdrawal or Sniper! roll), "
                 "or Killing Time +1",
    "hand-grenades": "2 more close combat cards at your deal, or 2 more dice firing into your own area",
    "hidden-gully": "your moving group crosses one red line, or your units in an area are -1 to hit",
    "sniper": "shoot at an enemy Leader: the nearer your units, the better the chance",
    "sudden-storm": "the enemy group that ends its move goes back 2 MF, or your units in an area are -1 to hit",
    "aerial-recon": "+1 range for your artillery and ships this Round, or +1 to hit at one area; the enemy discards 1",
    "coordinated-attack": "an extra Round of fire by fresh artillery of several areas at one target",
    "forced-march": "+2 MF for the moving group",
    "keep-moving": "you play the next Round too",
    "night-attack": "rest of the turn: fire reaches only adjacent areas, targets in the open -1; Killing Time -1",
    "barbed-wire": "Wire placed where your units are, or removed next to them",
    "dig-in": "a shallow trench dug, or deepened, where you have units and the enemy none",
    "field-hospital": "an eliminated land unit back fresh at your base",
    "water-shortage": "a fresh enemy land unit exhausted",
    "walking-wounded": "a fresh Remnant where you have an exhausted unit, or Killing Time -1",
    "underground-mine": "an enemy-held trench at or next to your units one level shallower",
    "submarine-attack": "an enemy ship sunk, or an enemy unit not yet on the map eliminated",
    "supply-convoy": "a card of the discard pile into your hand, or Killing Time +2",
    "dysentery-outbreak": "every fresh enemy land unit in one area exhausted",
    "espionage": "look at the enemy hand and take one card",
    "wrong-orders": "move up to 2 fresh enemy land units up to 3 MF each, or Killing Time -2",
}
WHEN = {"green": "green, any time", "brown": "brown, in your own Round", "red": "red, your whole Round"}  # 17.5
DECK = [f"{k}#{i + 1}" for k, _, _, n, _ in CARDS for i in range(n)]  # 54 distinct cards
NOT_S1 = [f"{k}#{i + 1}" for k, _, _, n, out in CARDS if out for i in range(n)]
DECK_ID, DECK_S1 = "action", "action-s1"  # Scenario 1 plays without the two cards it removes
HAND = {True: 5, False: 4}  # 17.1: the Morale Advantage holder 5, the other 4
REFILL = {"reshuffle": "reshuffle the discards when the deck runs out (default)",
          "stop": "no more cards once the deck is empty"}


def kind(card: str) -> str:
    return card.split("#")[0]


def card_name(entry: str) -> str:
    return NAMES[kind(entry)] if kind(entry) in NAMES else f"[[{entry}|Action Card]]"


def brief(card: str) -> str:
    """A card's colour and uses in a few words ("" for anything not an Action Card)."""
    k = kind(card)
    return f"{WHEN[COLOUR[k]]}: {BRIEF[k]}" if k in BRIEF else ""


def dealt_decks() -> dict[str, list[str]]:
    return {DECK_ID: list(DECK), DECK_S1: [c for c in DECK if c not in NOT_S1]}


def new_cards(scenario: str) -> dict[str, Any]:
    s1 = scenario == "anzac-landing"
    return {"deck": DECK_S1 if s1 else DECK_ID, "pile": [c for c in DECK if not (s1 and c in NOT_S1)],
            "dealt": False, "hands": {s: [] for s in SIDES}, "discard": [], "removed": list(NOT_S1) if s1 else [],
            "inplay": [], "refs": {}, "night": False, "cover": [], "lowammo": [], "storm": [], "luck": [], "owe": {s: 0 for s in SIDES},
            "round": new_round(None)}


def new_round(side: str | None) -> dict[str, Any]:
    """What the cards played in a Round limit or change until its end (17.7-17.10, the Summary)."""
    return {"side": side, "brown": 0, "red": False, "lowammo": 0, "recon": False, "range": False, "aim": None,
            "extra": 0, "after": 0, "heroic": [], "forced": []}


def hand(state: dict[str, Any], side: str) -> list[str]:
    return state["ac"]["hands"][side]


# ------------------------------------------------------------------ the seam: dealt deck or shared dice
def dealt(dice: Any) -> bool:
    return getattr(dice, "decks", None) is not None


def open_card(state: dict[str, Any], side: str, entry: str, dice: Any) -> str:
    """Turn a hand entry face up: a card name already public, or a deck position played to the table."""
    if entry in DECK:
        return entry
    card = dice.decks.play(side, entry, "table")
    state["ac"]["refs"][card] = entry
    return card


def _draw(state: dict[str, Any], side: str, n: int, dice: Any, events: list) -> int:
    """Draw up to ``n`` into ``side``'s hand; returns how many still wait for a reshuffle."""
    ac = state["ac"]
    if dealt(dice):
        ac["dealt"], ac["pile"] = True, []  # the deck's own record holds the pile (pbem_engine.hidden.deck_table)
        why = dice.decks.ready(ac["deck"])
        if why and "not been shuffled" not in why:
            raise IllegalAction(f"the Action deck cannot be drawn from yet: {why}")
        pile = [] if why else dice.decks.pile(ac["deck"])
        got = dice.decks.draw(side, ac["deck"], min(n, len(pile))) if pile and n else []
        ac["hands"][side] += got
        left = n - len(got)
        if got:
            events.append({"text": f"{side} draws {len(got)} Action Card(s): " + ", ".join(f"[[{r}|card]]" for r in got)})
        if left and (why or ac["discard"]) and (why or state["options"].get("refill", "reshuffle") == "reshuffle"):
            for card in ac["discard"]:  # our discard pile, face up on the deck's table, into its discard pile
                dice.decks.discard(side, ac["refs"].pop(card))
            n_cards = dice.decks.shuffle(side, ac["deck"])
            events.append({"text": f"{side} shuffles {n_cards} Action Cards (then the other side shuffles; the "
                                   f"draw goes on once the shuffle is done)" if not why else
                                   f"{side} shuffles the Action deck (17.2)"})
            ac["discard"] = []
            return left
        return 0
    got: list[str] = []
    while len(got) < n:
        if not ac["pile"]:
            if not ac["discard"] or state["options"].get("refill", "reshuffle") != "reshuffle":
                break
            ac["pile"], ac["discard"] = sorted(ac["discard"]), []  # DIGEST R10: the discards reshuffled
            events.append({"text": "the Action deck is empty: the discard pile is shuffled into a new deck"})
        drawn, ac["pile"] = dice.draw(ac["pile"], min(n - len(got), len(ac["pile"])), f"{side} draws Action Cards (17.3)")
        got += drawn
    ac["hands"][side] += got
    if got:
        events.append({"text": f"{side} draws {len(got)} Action Card(s): {', '.join(card_name(c) for c in got)}"})
    return 0


def discard(state: dict[str, Any], card: str) -> None:
    """17.4: a played card goes to the discard pile, face up."""
    state["ac"]["discard"].append(card)


# ------------------------------------------------------------------ 3.3, 17.2-17.3, 18.1 the draw phase
def draw_phase(state: dict[str, Any]) -> None:
    """The Morale Advantage holder fills his hand first (5), then the other (4); each may first
    discard any of his cards (not on turn 1, when the hands are dealt)."""
    holder = state["ma"]
    for side in (enemy(holder), holder):  # pushed: the holder's decision on top
        state["frames"].append({"k": "draw", "side": side, "max": HAND[side == holder], "wait": 0})


def draw_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    side = f["side"]
    held = hand(state, side)
    if f["wait"]:
        return [Choice(f"draw the {f['wait']} Action Card(s) still due (the shuffle is done)", {"do": "draw"})]
    out = []
    if state["turn"] > 1:  # 17.3: discard any or all first
        out = [Choice(f"discard {label(e)}", {"do": "discard", "card": e}) for e in dict.fromkeys(held)]
    n = max(0, f["max"] - len(held))
    out.append(Choice(f"draw {n} Action Card(s), up to {f['max']} (17.3)" if n else
                      f"keep the hand of {len(held)} (the maximum is {f['max']})", {"do": "draw"}))
    return out


def do_draw(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    side = f["side"]
    if action["do"] == "discard":
        hand(state, side).remove(action["card"])
        card = open_card(state, side, action["card"], dice)
        discard(state, card)
        events.append({"text": f"{side} discards {card_name(card)} (17.3)"})
        return
    n = f["wait"] or max(0, f["max"] - len(hand(state, side)))
    f["wait"] = _draw(state, side, n, dice, events) if n else 0
    if not f["wait"]:
        state["frames"].pop()


def label(entry: str) -> str:
    return card_name(entry) if entry in DECK else f"[[{entry}|Action Card]]"


# ------------------------------------------------------------------ 17.5-17.10 when a card may be played
WINDOWS = ("round", "fire", "move", "damage", "cc")


def round_frame(state: dict[str, Any]) -> dict[str, Any] | None:
    return next((f for f in reversed(state["frames"]) if f["k"] == "round"), None)


def own_round(state: dict[str, Any], side: str) -> bool:
    r = round_frame(state)
    return r is not None and r["side"] == side


def window(state: dict[str, Any], f: dict[str, Any], side: str) -> bool:
    """The decisions card choices ride on (never a prompt of their own)."""
    if f["k"] not in WINDOWS or not hand(state, side):
        return False
    if f["k"] == "cc":
        return f["step"] in ("deal", "lead", "match")
    return True


def timing(state: dict[str, Any], side: str, card: str) -> str | None:
    """Why ``card`` may not be played by ``side`` now (17.6-17.10), or None."""
    colour, r = COLOUR[kind(card)], state["ac"]["round"]
    if colour == "green":
        return None
    if not own_round(state, side):
        return f"{NAMES[kind(card)]} is a brown or red card: only in your own Round (17.5)"
    if r["red"]:
        return "a red card was played this Round: no other red or brown card (17.10)"
    if colour == "red":
        top = state["frames"][-1]
        if top["k"] != "round" or top["acted"] or r["brown"]:
            return f"{NAMES[kind(card)]} is a red card: it is your whole Round, played instead of an activation (17.10)"
    return None


# ------------------------------------------------------------------ Aerial Recon: the other side discards
def owed_choices(state: dict[str, Any], side: str) -> list[Choice]:
    return [Choice(f"discard {label(e)} (Aerial Recon)", {"do": "owed-discard", "card": e})
            for e in dict.fromkeys(hand(state, side))]


def owes(state: dict[str, Any], side: str | None) -> bool:
    return side is not None and state["ac"]["owe"][side] > 0 and bool(hand(state, side))


def do_owed(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, events: list) -> None:
    hand(state, side).remove(action["card"])
    card = open_card(state, side, action["card"], dice)
    discard(state, card)
    state["ac"]["owe"][side] -= 1
    events.append({"text": f"{side} discards {card_name(card)} (the other side's Aerial Recon)"})


# ------------------------------------------------------------------ the end of a turn
def end_turn(state: dict[str, Any]) -> None:
    """17.9: Night Attack leaves play; waiting covers and Low Ammo lapse; debts of a discard lapse."""
    ac = state["ac"]
    ac["discard"] += ac["inplay"]
    ac["inplay"], ac["night"], ac["cover"], ac["lowammo"] = [], False, [], []
    ac["storm"], ac["luck"] = [], []
    ac["owe"] = {s: 0 for s in SIDES}


def count(state: dict[str, Any]) -> int:
    """Cards accounted for (deck, hands, discards, in play, removed): 54 always (no deck context)."""
    ac = state["ac"]
    return len(ac["pile"]) + sum(len(h) for h in ac["hands"].values()) + len(ac["discard"]) + len(ac["inplay"]) \
        + len(ac["removed"]) + sum(1 for f in state["frames"] if f["k"] == "card")

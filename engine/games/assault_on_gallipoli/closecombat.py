"""Close Combat (10), its damage (11) and the retreats it forces (12.1-12.2, 12.9).

A close combat is a frame ``cc`` on the stack: the deal (each side draws its hand in its own
decision, the leader before his first card, the other before its first match), then rounds (the
initiative holder leads a card or, from round three, tries to withdraw; the other matches or
cannot), then the damage of 11.1 allocated by 11.2 (frames
``ccdamage``), the loser's retreat (``ccretreat``) and the winner's damage.

The hands (RULES.md, "Close Combat hands"): each side draws from its own copy of the 36-card
composition, a private draw (pbem_engine.hidden.private: commitment tokens only its owner reads) when the
match gives private pools, a draw from the shared dice otherwise (rule tests, random play).
A hand entry is a card name (public: Kemal's card, a draw from the shared dice, a revealed
card) or a token; a token is opened (``dice.reveal``) only when the card is played, when its
holder says it cannot match (10.3.2 is checked on the whole hand, at once), or when the cards
go back to its deck at its next deal (10.2.6).
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board, fire, luck
from .board import enemy, kind, label, name, units_at
from .data import SIDES

# 10.2.1 and the card types' list: the 36 cards
DECK = {"bayonet-charge": 9, "infiltrate": 6, "ambush": 6, "raid": 5, "creeping-barrage": 5, "reserve-trench": 5}
CARD_NAMES = {"bayonet-charge": "Bayonet Charge", "infiltrate": "Infiltrate", "ambush": "Ambush", "raid": "Raid",
              "creeping-barrage": "Creeping Barrage", "reserve-trench": "Reserve Trench"}
WILD = "reserve-trench"
KEMAL_CARD = "bayonet-charge"
POOL, KEMAL_POOL = "close-combat", "close-combat-kemal"  # 10.2.4: Kemal's Bayonet Charge taken out first
POOLS = {POOL: [c for c, n in DECK.items() for _ in range(n)]}
POOLS[KEMAL_POOL] = list(POOLS[POOL])
POOLS[KEMAL_POOL].remove(KEMAL_CARD)
MIN_HAND, MAX_HAND = 3, 18  # 10.2.7


def new_decks() -> dict[str, Any]:
    """Each side's copy of the deck: what came out of it (hand: names or tokens; table: played face up)."""
    return {s: {"from": POOL, "out": 0, "kemal": False, "hand": [], "table": []} for s in SIDES}


def private_pools() -> dict[str, dict[str, list[str]]]:
    """For pbem_engine.hidden.private, once the module is registered (RULES.md)."""
    return {"anzac": {POOL: list(POOLS[POOL])}, "turkish": {POOL: list(POOLS[POOL]), KEMAL_POOL: list(POOLS[KEMAL_POOL])}}


def card_name(card: str) -> str:
    return CARD_NAMES.get(card, f"[[{card}|close combat card]]")


def _private(dice: Any) -> bool:
    return getattr(dice, "private", None) is not None


def _open(dice: Any, side: str, entry: str) -> str:
    return entry if entry in DECK else dice.reveal(side, entry)


# ------------------------------------------------------------------ 10.1 which combats, in which order
def pending(state: dict[str, Any], fought: list[str]) -> list[str]:
    """10.1.2: every land area holding units of both sides fights once."""
    return [a for a in board.areas() if not board.is_sea(a) and a not in fought and board.contested(state, a)]


def new_combat(state: dict[str, Any], area: str) -> dict[str, Any]:
    """10.1.3: the defender controls the area; 10.4.1 the attacker starts with the initiative,
    14.6 unless the area holds Wire.  The side with the initiative draws and leads, then the other
    draws and matches (the text does not order the deal, DIGEST R4; with two copies of the deck the
    order changes no odds): each side's draw shares a turn file with its first card, whoever made
    the decision before (RULES.md, "Hand-overs").  Both hands' sizes are fixed here, at the deal
    (10.2), so nothing played at the lead changes the other's."""
    defender = board.controller(state, area) or "turkish"  # never None in play: the first to enter controls
    att = enemy(defender)
    init = defender if area in state["wire"] else att
    f = {"k": "cc", "area": area, "att": att, "def": defender, "step": "deal", "todo": [init, enemy(init)],
         "init": init, "round": 1, "played": {s: 0 for s in SIDES},
         "lead": None, "winner": None, "how": None, "last": None}
    f["base"] = {s: list(base_size(state, f, s)) for s in SIDES}
    return f


def order_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    return [Choice(f"close combat at {name(a)}", {"do": "combat", "at": a}) for a in f["areas"]]


# ------------------------------------------------------------------ 10.2 the hands
def best_bonus(state: dict[str, Any], side: str, area: str) -> int:
    """10.2.3, 10.4.3, 10.5.3: ONE Leader's Firepower Bonus, flipped or not (the best is taken)."""
    return max((board.fp_bonus(u) for u in units_at(state, area, side) if kind(u) == "leader"), default=0)


def base_size(state: dict[str, Any], f: dict[str, Any], side: str) -> tuple[int, bool]:
    """(the cards the units give, Kemal in the area): 10.2.2 two a current Firepower Factor, 10.2.3
    the Leader, 10.2.5 the defender's trench."""
    area = f["area"]
    n = sum(2 * board.firepower(u, state["units"][u]["fresh"]) for u in units_at(state, area, side))
    n += best_bonus(state, side, area)
    if side == f["def"]:
        n += state["trenches"].get(area, 0)
    return n, side == "turkish" and "kemal" in units_at(state, area, side)


def hand_size(state: dict[str, Any], f: dict[str, Any], side: str) -> tuple[int, bool]:
    """(cards drawn, Kemal's free card): the deal's count (``base_size``), 10.2.7 at least 3 and at
    most 18, 10.2.4 Kemal's Bayonet Charge on top unless the hand is already 18."""
    n, kemal = f["base"][side] if "base" in f else base_size(state, f, side)
    n = min(MAX_HAND, max(MIN_HAND, n) + f.get("extra", {}).get(side, 0))  # Hand Grenades: +2 within 18
    return n, kemal and n < MAX_HAND


def give_back(state: dict[str, Any], side: str, dice: Any, events: list) -> None:
    """10.2.6: the cards of the last close combat (hand and table) go back to the side's deck;
    a card still hidden is opened by its holder now, in its own decision."""
    d = state["ccdeck"][side]
    if not d["hand"] and not d["table"]:
        return
    cards = [_open(dice, side, e) for e in d["hand"]] + d["table"]
    if d["kemal"]:
        cards.remove(KEMAL_CARD)  # Kemal's card never came out of the deck
    if _private(dice):
        dice.add_private(side, d["from"], cards)
    events.append({"text": f"{side} puts the {len(cards) + d['kemal']} cards of its last close combat back: "
                           + ", ".join(card_name(c) for c in sorted(cards))})
    d.update(hand=[], table=[], out=0, kemal=False, **{"from": POOL})


def do_draw(state: dict[str, Any], f: dict[str, Any], side: str, dice: Any, events: list) -> None:
    give_back(state, side, dice, events)
    n, kemal = hand_size(state, f, side)
    pool = KEMAL_POOL if kemal else POOL
    if _private(dice):
        drawn = dice.draw_private(side, pool, n)
    else:
        drawn, _ = dice.draw(POOLS[pool], n, f"{side} close combat hand at {name(f['area'])} (10.2)")
    d = state["ccdeck"][side]
    d.update(hand=list(drawn) + ([KEMAL_CARD] if kemal else []), out=n, kemal=kemal, **{"from": pool})
    f["todo"].remove(side)
    events.append({"text": f"{side} draws {n} close combat card(s) at {name(f['area'])}"
                           + (" and takes Kemal's free Bayonet Charge (10.2.4)" if kemal else "") + ": "
                           + " ".join(e if e in DECK else f"[[{e}|card]]" for e in drawn)})
    if f["step"] == "deal":  # the leader's draw; the other draws when it must match
        f["step"] = "lead"
        events.append({"text": f"close combat at {name(f['area'])}: {f['att']} attacks, {f['def']} defends; "
                               f"{f['init']} has the initiative (10.4.1{', 14.6 wire' if f['area'] in state['wire'] else ''})"})


# ------------------------------------------------------------------ 10.3-10.5 the rounds
def matches(card: str, led: str) -> bool:
    return card == led or card == WILD  # 10.3.1


def cc_side(f: dict[str, Any]) -> str:
    if f["step"] == "deal":
        return f["todo"][0]
    if f["step"] == "lead":
        return f["init"]
    return enemy(f["init"])


def cc_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    side = cc_side(f)
    hand = state["ccdeck"][side]["hand"]
    if f["step"] == "deal" or side in f["todo"]:  # a side draws its hand before its first card
        n, kemal = hand_size(state, f, side)
        extra = " and Kemal's Bayonet Charge" if kemal else ""
        return [Choice(f"draw {n} close combat card(s){extra} (10.2)", {"do": "draw"})]
    out = []
    if f["step"] == "lead":
        for e in dict.fromkeys(hand):
            if e == WILD or e not in DECK:  # 10.3 card types: a Reserve Trench in attack stands for any card
                alias = [c for c in DECK if c != WILD]
                tag = "" if e == WILD else " (if it is a Reserve Trench)"
                out += [Choice(f"play {card_name(e)}{tag} as {card_name(c)}", {"do": "play", "card": e, "as": c})
                        for c in alias]
            if e != WILD:
                out.append(Choice(f"play {card_name(e)}", {"do": "play", "card": e}))
        if f["round"] >= 3:  # 10.5.1
            out.append(Choice("try to withdraw from the close combat (10.5)", {"do": "withdraw"}))
        elif not hand:  # 10.3.3: Action Cards held, none played as a close combat card
            out.append(Choice("no card to play: lose the close combat (10.3.3)", {"do": "nocards"}))
        return out
    led = f["lead"]
    out = [Choice(f"match with {card_name(e)}", {"do": "play", "card": e}) for e in dict.fromkeys(hand)
           if e not in DECK or matches(e, led)]  # 10.3.2: a matching card must be played
    if not any(e in DECK and matches(e, led) for e in hand):
        out.append(Choice(f"cannot match {card_name(led)}: lose the close combat (10.3.1)", {"do": "nomatch"}))
    return out


def do_cc(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    side = cc_side(f)
    do = action["do"]
    if do == "draw":
        do_draw(state, f, side, dice, events)
    elif do == "withdraw":
        withdraw(state, f, side, dice, events)
    elif do == "nocards":
        events.append({"text": f"{side} has no card left to play (10.3.3)"})
        finish(f, enemy(side), "nocards", None, events)
    elif do == "nomatch":
        d = state["ccdeck"][side]
        shown = [_open(dice, side, e) for e in d["hand"]]
        held = [c for c in shown if matches(c, f["lead"])]
        if held:
            raise IllegalAction(f"10.3.2: {side} holds {card_name(held[0])}, which matches {card_name(f['lead'])}")
        d["hand"] = shown  # shown to prove it (10.3.2)
        events.append({"text": f"{side} cannot match {card_name(f['lead'])} (hand: "
                               f"{', '.join(card_name(c) for c in shown) or 'empty'})"})
        finish(f, enemy(side), "unmatched", f["lead"], events)
    else:
        play(state, f, side, action, dice, events)


def play(state: dict[str, Any], f: dict[str, Any], side: str, action: dict[str, Any], dice: Any, events: list) -> None:
    d = state["ccdeck"][side]
    card = _open(dice, side, action["card"])
    as_ = action.get("as")
    if f["step"] == "lead":
        if (card == WILD) != (as_ is not None):
            raise IllegalAction(f"that card is {card_name(card)}: "
                                + ("a Reserve Trench leads as another card" if card == WILD else "it leads as itself"))
        led = as_ or card
    elif not matches(card, f["lead"]):
        raise IllegalAction(f"{card_name(card)} does not match {card_name(f['lead'])} (10.3.1)")
    d["hand"].remove(action["card"])
    d["table"].append(card)
    resolve_card(state, f, side, led if f["step"] == "lead" else card, dice, events,
                 card_name(card) + (f" as {card_name(led)}" if as_ else ""))


def resolve_card(state: dict[str, Any], f: dict[str, Any], side: str, card: str, dice: Any, events: list,
                 shown: str) -> None:
    """A card led or matching (a Close Combat card, or an Action Card played as one: Courage Under
    Fire, Fight to the Death!); it counts among the cards the side played (11.1)."""
    f["played"][side] += 1
    where = f"close combat at {name(f['area'])}, round {f['round']}"
    if f["step"] == "lead":
        f["lead"], f["step"] = card, "match"
        led = card
        events.append({"text": f"{where}: {side} plays {shown}"})
        if enemy(side) not in f["todo"] and not state["ccdeck"][enemy(side)]["hand"] \
                and not state["ac"]["hands"][enemy(side)]:  # 10.3.3
            events.append({"text": f"{enemy(side)} has no card left to match"})
            finish(f, side, "unmatched", led, events)
        return
    events.append({"text": f"{where}: {side} matches with {shown}"})
    if f["lead"] == "creeping-barrage":  # card types: a matched Creeping Barrage loses the initiative
        f["init"] = side
        events.append({"text": f"the Creeping Barrage was matched: {side} takes the initiative"})
    else:  # 10.4.2-10.4.3
        need = 3 + best_bonus(state, side, f["area"])
        roll = luck.roll(state, dice, "initiative", side, f"{side} close combat initiative (10.4.2), {need} or less",
                         events, need)
        if roll <= need:
            f["init"] = side
        events.append({"text": f"{side} rolls {roll} for the initiative, needing {need} or less: "
                               f"{f['init']} has it"})
    f["lead"], f["step"] = None, "lead"
    f["round"] += 1
    if not any(state["ccdeck"][s]["hand"] for s in SIDES):  # 10.3.4: a draw, the defender wins
        events.append({"text": "no cards left on either side: a draw, the defender wins (10.3.4)"})
        finish(f, f["def"], "draw", None, events)


def withdraw(state: dict[str, Any], f: dict[str, Any], side: str, dice: Any, events: list) -> None:
    """10.5.2-10.5.5: 3 or less (+ one Leader's bonus); success loses the combat, failure the initiative."""
    need = 3 + best_bonus(state, side, f["area"])
    roll = luck.roll(state, dice, "withdrawal", side, f"{side} withdrawal from close combat (10.5), {need} or less",
                     events, need)
    if roll <= need:
        events.append({"text": f"{side} rolls {roll} (needing {need}) and withdraws from the close combat (10.5.4)"})
        finish(f, enemy(side), "withdraw", None, events)
    else:
        f["init"] = enemy(side)
        events.append({"text": f"{side} rolls {roll} (needing {need}): the withdrawal fails, "
                               f"{enemy(side)} takes the initiative (10.5.5)"})


def finish(f: dict[str, Any], winner: str, how: str, last: str | None, events: list) -> None:
    f.update(step="loser-damage", winner=winner, how=how, last=last)
    events.append({"text": f"{winner} wins the close combat at {name(f['area'])}"})


def settle_cc(state: dict[str, Any], f: dict[str, Any], events: list) -> bool:
    """Run the steps that need no decision; False when one is needed."""
    if f["step"] == "lead":
        side = f["init"]
        if state["ccdeck"][side]["hand"] or f["round"] >= 3 or state["ac"]["hands"][side]:
            return False
        events.append({"text": f"{side} has no card left to play (10.3.3)"})
        finish(f, enemy(side), "nocards", None, events)
    if f["step"] in ("deal", "match", "lead"):
        return False
    winner, area = f["winner"], f["area"]
    loser = enemy(winner)
    n = f["played"][winner]
    if f["step"] == "loser-damage":  # 11.1.1-11.1.3, the 11.1 exception for a withdrawal
        if f["how"] == "withdraw":
            hits = n // 2
        else:
            hits = max(0, n + 2 * (f["last"] == "creeping-barrage") - 2 * (f["last"] == "raid"))
        f["step"] = "retreat"
        events.append({"text": f"{winner} played {n} card(s): {loser} takes {hits} Damage Point(s) (11.1)"})
        push_damage(state, loser, area, hits)
    elif f["step"] == "retreat":  # 11.2.4, 12.1-12.2: every survivor of the loser retreats
        f["step"] = "winner-damage"
        left = units_at(state, area, loser)
        if left:
            state["frames"].append({"k": "ccretreat", "side": loser, "from": area, "units": left})
    elif f["step"] == "winner-damage":  # 11.1.4
        f["step"] = "end"
        if n // 3:
            events.append({"text": f"{winner} takes {n // 3} Damage Point(s) for the {n} card(s) it played (11.1.4)"})
        push_damage(state, winner, area, n // 3)
    else:
        state["frames"].pop()
        board.update_control(state)
    return True


# ------------------------------------------------------------------ 11.2 damage
def push_damage(state: dict[str, Any], side: str, area: str, n: int) -> None:
    if n and units_at(state, area, side):
        state["frames"].append({"k": "ccdamage", "side": side, "area": area, "left": n, "changed": False})


def damage_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    """11.2.1 units, Remnants and Leaders eliminated at their current strength; 11.2.2 no flipping;
    11.2.3 ONE combat unit larger than what is left may be broken, the excess coming back as Remnants."""
    out = []
    here = units_at(state, f["area"], f["side"])
    for u in here:
        s = board.strength(u, state["units"][u]["fresh"])
        if s <= f["left"]:
            out.append(Choice(f"eliminate {label(state, u)} ({s})", {"do": "eliminate", "unit": u}))
        elif not f["changed"] and kind(u) not in ("leader", "remnant"):
            k = min(s - f["left"], len(board.pool(state, f["side"])), board.LAND_LIMIT - len(here) + 1)
            out.append(Choice(f"eliminate {label(state, u)} making change: {k} Remnant(s) (11.2.3)",
                              {"do": "change", "unit": u}))
    return out


def do_damage(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    u = action["unit"]
    s = board.strength(u, state["units"][u]["fresh"])
    here = len(units_at(state, f["area"], f["side"]))
    board.eliminate(state, u, events)  # 11.2.3 example: the unit is eliminated (a casualty, 18.4)
    if action["do"] == "change":
        k = min(s - f["left"], len(board.pool(state, f["side"])), board.LAND_LIMIT - here + 1)
        made = board.place_remnants(state, f["side"], f["area"], k)
        events.append({"text": f"change: {len(made)} exhausted Remnant(s) come back into the combat (11.2.3)"})
        f["left"], f["changed"] = 0, True
    else:
        f["left"] -= s


def settle_damage(state: dict[str, Any], f: dict[str, Any], events: list) -> bool:
    while f["left"] > 0:
        choices = damage_choices(state, f)
        if len(choices) > 1:
            return False
        if not choices:
            break
        do_damage(state, f, choices[0].action, events)  # one way to take it: no turn file only to confirm it
    state["frames"].pop()
    return True


# ------------------------------------------------------------------ 12 retreats
def retreat_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    return [Choice(f"retreat to {name(a)}", {"do": "retreat", "to": a})
            for a in fire.retreat_areas(state, f["from"], f["side"])]


def settle_retreat(state: dict[str, Any], f: dict[str, Any], events: list) -> bool:
    f["units"] = [u for u in f["units"] if u in state["units"] and state["units"][u]["at"] == f["from"]]
    choices = retreat_choices(state, f) if f["units"] else []
    if len(choices) == 1:  # one area to go: no turn file only to confirm it
        do_retreat(state, f, choices[0].action, events)
        return True
    if choices:
        return False
    state["frames"].pop()
    for u in f["units"]:  # 12.9: nowhere to go
        board.eliminate(state, u, events)
    if f["units"]:
        events.append({"text": f"{f['side']} has nowhere to retreat from {name(f['from'])} (12.9)"})
    return True


def do_retreat(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """12.4-12.8: one or two areas, all to the same area, over-stacking eliminated after."""
    state["frames"].pop()
    for u in f["units"]:
        state["units"][u]["at"] = action["to"]
    events.append({"text": f"{', '.join(board.unit_name(u) for u in f['units'])} retreat to {name(action['to'])} (12)"})
    fire.check_stacking(state, f["side"], action["to"], f["units"])
    board.update_control(state)

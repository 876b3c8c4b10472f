"""What each Action Card does (the Action Cards Summary), once played (cards.play opened it).

``uses(state, side, card)`` lists the ways the card can be used at the decision it rides on
(the top frame that is not a card); ``use`` applies the one chosen.  A card played ahead of the
fire it is meant for (Hidden Gully's and Sudden Storm's cover, Low Ammo) waits on the map until
that fire (RULES.md, "When a card may be played").
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board, cards, fire, luck, move
from .activation import dig_choices, fire_cands, killing_time_start
from .board import enemy, kind, label, name, units_at
from .cards import COLOUR, NAMES
from .closecombat import cc_side, resolve_card

CC_CARDS = ("bayonet-charge", "infiltrate", "ambush", "raid", "creeping-barrage")
SNIPER = {0: 6, 1: 5, 2: 4, 3: 3}  # Sniper!: kill on this or less by distance in areas


def under(state: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in reversed(state["frames"]) if f["k"] != "card")


def land(state: dict[str, Any], side: str) -> list[str]:
    return sorted({v["at"] for u, v in state["units"].items() if board.side_of(u) == side and not board.is_sea(v["at"])})


def _kt_up(state: dict[str, Any], n: int) -> int:
    return min(killing_time_start(state), state["kt"] + n)  # provisional: the track tops at the turn's start


def uses(state: dict[str, Any], side: str, card: str) -> list[Choice]:
    k = cards.kind(card)
    f = under(state)
    foe = enemy(side)
    out: list[Choice] = []

    def add(text: str, use: str, **extra: Any) -> None:
        out.append(Choice(f"{NAMES[k]}: {text}", {"do": "use", "use": use, **extra}))

    damage = f["k"] == "damage" and f["side"] == side and f["left"] > 0 and "rolls" in f
    cc = f["k"] == "cc" and f["step"] in ("lead", "match") and cc_side(f) == side
    if k in ("courage-under-fire", "fight-to-the-death", "heroic-act") and damage:
        add(f"ignore {1 if k == 'courage-under-fire' else 2} Damage Point(s) of this fire", "ignore")
    if k == "courage-under-fire" and cc and (f["step"] == "lead" or f["lead"] == "bayonet-charge"):
        add("as a Bayonet Charge in the close combat", "cc", card="bayonet-charge")
    if k == "fight-to-the-death" and cc:
        for c in (CC_CARDS if f["step"] == "lead" else [f["lead"]]):
            add(f"as {'a ' if f['step'] == 'lead' else 'a match for '}{c.replace('-', ' ').title()}", "cc", card=c)
    if k == "heroic-act":
        mine = [u for u, v in sorted(state["units"].items()) if board.side_of(u) == side and not v["fresh"]
                and u not in state["ac"]["round"]["heroic"]]
        for u in mine:
            add(f"{label(state, u)} becomes fresh" + (" and may act at once" if _own_top(state, side) else
                                                        " and may act right after this Round"
                                                        if cards.round_frame(state) else ""), "heroic", unit=u)
    if k in ("hidden-gully", "sudden-storm"):
        for a in land(state, side):
            add(f"your units at {name(a)} are -1 to hit when next fired at this turn", "cover", area=a)
    if k == "hidden-gully" and f["k"] == "move" and f["side"] == side and f["group"]:
        add("the group may cross one red line", "redline")
    if k == "sudden-storm":
        adv = next((g for g in reversed(state["frames"]) if g["k"] == "advance" and g["side"] == foe), None)
        if adv and adv.get("path") and len(adv["path"]) > 1:
            add(f"the enemy group that just moved to {name(adv['area'])} goes back 2 MF", "storm")
        else:
            add("the next enemy group to end a move this turn goes back 2 MF", "storm-wait")
    if k == "low-ammo" and state["ac"]["round"]["lowammo"] == 0:
        for a in sorted({v["at"] for u, v in state["units"].items() if board.side_of(u) == foe}):
            add(f"the next fire of enemy units from {name(a)} this turn is halved", "lowammo", area=a)
    if k == "good-luck":
        if state["kt"] < _kt_up(state, 1):
            add("Killing Time up 1", "kt")
        if damage:
            for g, roll in enumerate(f["rolls"]):
                for i, v in enumerate(roll["values"]):
                    add(f"re-roll die {i + 1} ({v}) of the {roll['t']}-or-less roll", "reroll", group=g, die=i)
        if f["k"] == "fire" and f["side"] == side:
            add("re-roll one missed die of this fire", "lucky")
        for text, keys in luck.offers(state, side):
            add(text, "luck", **keys)
    if k == "hand-grenades":
        if f["k"] == "cc" and (f["step"] == "deal" or side in f["todo"]) and cc_side(f) == side:
            add("2 more close combat cards here (at most 18)", "grenades")
        if f["k"] == "fire" and f["side"] == side and (f["mode"] == "opportunity" or board.contested(state, f["from"])):
            add("2 more dice in this fire (in your own area)", "dice")
    if k == "sniper":
        mine = [v["at"] for u, v in state["units"].items() if board.side_of(u) == side]
        for ldr, v in sorted(state["units"].items()):
            if kind(ldr) == "leader" and board.side_of(ldr) == foe and mine:
                d = min(board.dist(a, v["at"]) for a in mine)
                if d in SNIPER:
                    add(f"shoot at {board.unit_name(ldr)} at {name(v['at'])} (kills on {SNIPER[d]} or less)",
                        "snipe", unit=ldr)
    if COLOUR[k] != "green":
        out += brown_red(state, side, card, f)
    return out


def _own_top(state: dict[str, Any], side: str) -> bool:
    f = under(state)
    return f["k"] == "round" and f["side"] == side and not f["acted"]


def brown_red(state: dict[str, Any], side: str, card: str, f: dict[str, Any]) -> list[Choice]:
    k = cards.kind(card)
    foe = enemy(side)
    r = state["ac"]["round"]
    out: list[Choice] = []

    def add(text: str, use: str, **extra: Any) -> None:
        out.append(Choice(f"{NAMES[k]}: {text}", {"do": "use", "use": use, **extra}))

    mine = land(state, side)
    if k == "aerial-recon" and not r["recon"]:
        add("your artillery and ships reach 1 area further this Round", "range")
        for a in sorted(board.enemy_areas(state, side)):
            if not board.is_sea(a):
                add(f"+1 to hit at {name(a)} this Round", "aim", area=a)
    if k == "coordinated-attack" and arty(state, side):
        if _own_top(state, side):
            add("an extra Round of artillery fire now, before your Round", "coord")
        add("an extra Round of artillery fire after your Round", "coord-after")
    if k == "forced-march" and f["k"] == "move" and f["side"] == side and f["group"] \
            and not set(f["group"]) & set(r["forced"]):
        add("+2 MF for the group", "march")
    if k == "keep-moving":
        add("another Round right after this one", "keep")
    if k == "night-attack" and not state["ac"]["night"]:
        add("for the rest of the turn fire reaches 1 area, units in the open are -1; Killing Time down 1", "night")
    if k == "barbed-wire":
        for a in mine:
            if a not in state["wire"]:
                add(f"Wire at {name(a)}", "wire", area=a)
        near = sorted({b for a in mine for b in board.adj(a)} & set(state["wire"]))
        for a in near:
            add(f"remove the Wire at {name(a)}", "unwire", area=a)
    if k == "dig-in":
        for a in mine:
            if not board.has_enemy(state, a, side) and state["trenches"].get(a, 0) < 2:
                add(f"{'deepen the' if state['trenches'].get(a) else 'a shallow'} trench at {name(a)}", "dig", area=a)
    if k == "field-hospital":
        at = "mal-tepe" if side == "turkish" else "anzac-cove"
        if at not in state["off"] and not board.has_enemy(state, at, side) \
                and len(units_at(state, at, side)) < board.LAND_LIMIT:  # ours: no use where the area is not in play
            for u in dict.fromkeys(state["lost"][side]):
                if kind(u) != "ship" and u not in state["units"]:
                    add(f"{board.unit_name(u)} comes back fresh at {name(at)}", "hospital", unit=u)
    if k == "water-shortage":
        for u, v in sorted(state["units"].items()):
            if board.side_of(u) == foe and v["fresh"] and not board.is_sea(v["at"]):
                add(f"{label(state, u)} is exhausted", "thirst", unit=u)
    if k == "walking-wounded":
        if board.pool(state, side):
            for a in mine:
                if any(not state["units"][u]["fresh"] for u in units_at(state, a, side)) \
                        and len(units_at(state, a, side)) < board.LAND_LIMIT:
                    add(f"a fresh Remnant at {name(a)}", "remnant", area=a)
        if state["kt"] > 0:
            add("Killing Time down 1", "kt-down")
    if k == "underground-mine":
        near = {b for a in mine for b in board.adj(a)} | set(mine)
        for a, level in sorted(state["trenches"].items()):
            if a in near and board.controller(state, a) == foe:
                add(f"{'reduce the deep' if level == 2 else 'remove the shallow'} trench at {name(a)}", "mine", area=a)
    if k == "submarine-attack":
        for u, v in sorted(state["units"].items()):
            if kind(u) == "ship" and board.side_of(u) == foe:
                add(f"sink {board.unit_name(u)}", "sink", unit=u)
        for u in _waiting(state, foe):
            add(f"eliminate {board.unit_name(u)}, not yet on the board", "sink", unit=u)
    if k == "supply-convoy":
        for c in dict.fromkeys(state["ac"]["discard"]):
            add(f"take {NAMES[cards.kind(c)]} from the discard pile", "take", card=c)
        if state["kt"] < _kt_up(state, 2):
            add("Killing Time up 2", "kt2")
    if k == "dysentery-outbreak":
        for a in sorted({v["at"] for u, v in state["units"].items() if board.side_of(u) == foe and v["fresh"]
                         and not board.is_sea(v["at"])}):
            add(f"every fresh enemy unit at {name(a)} is exhausted", "dysentery", area=a)
    if k == "espionage":
        add("look at the enemy's Action Cards and take one", "spy")
    if k == "wrong-orders":
        if _wrong_units(state, side):
            add("move up to 2 fresh enemy units 3 MF each", "wrong")
        if state["kt"] > 0:
            add("Killing Time down 2", "kt-down2")
    return out


def arty(state: dict[str, Any], side: str) -> list[str]:
    return [u for u, v in sorted(state["units"].items()) if board.side_of(u) == side and kind(u) == "art"
            and v["fresh"] and fire.targets(state, side, v["at"], [u], "standard")]


def _waiting(state: dict[str, Any], side: str) -> list[str]:
    out = []
    for src in (state["reinforcements"][side], state["next_reinf"][side]):
        for g in sorted(src):
            out += [u for u in src[g][1] if u not in state["units"]]
    if side == "anzac":
        out += [u for w in state["waves"] for b in w for u in b]
    return list(dict.fromkeys(out))


# ------------------------------------------------------------------ 17.5-17.10 playing a card
def card_choices(state: dict[str, Any], f: dict[str, Any], side: str) -> list[Choice]:
    out = []
    for e in dict.fromkeys(cards.hand(state, side)):
        if e in cards.DECK and (cards.timing(state, side, e) or not uses(state, side, e)):
            continue  # a public card offered only where it has a use
        out.append(Choice(f"play Action Card {cards.label(e)}", {"do": "card", "card": e}))
    return out


def play(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, events: list) -> None:
    """Open the card face up, check its colour and timing and that it has a use now, then ask how."""
    entry = action["card"]
    if entry not in cards.hand(state, side):
        raise IllegalAction(f"{side} holds no such Action Card")
    card = cards.open_card(state, side, entry, dice)
    why = cards.timing(state, side, card)
    if why:
        raise IllegalAction(why)
    if not uses(state, side, card):
        raise IllegalAction(f"{NAMES[cards.kind(card)]} has no use now")
    cards.hand(state, side).remove(entry)
    r = state["ac"]["round"]
    if COLOUR[cards.kind(card)] == "brown":
        r["brown"] += 1
    elif COLOUR[cards.kind(card)] == "red":
        r["red"] = True
    state["frames"].append({"k": "card", "side": side, "card": card})
    events.append({"text": f"{side} plays {NAMES[cards.kind(card)]} ({COLOUR[cards.kind(card)]})"})


# ------------------------------------------------------------------ applying a use
def use(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    side, card = f["side"], f["card"]
    state["frames"].pop()  # the card frame: what the use pushes goes on the frame it rode on
    u = action["use"]
    w = under(state)
    ac = state["ac"]
    where = action.get("area")
    text = f"{side}'s {NAMES[cards.kind(card)]}: "
    done = True
    if u == "ignore":
        n = 1 if cards.kind(card) == "courage-under-fire" else 2
        w["left"] = max(0, w["left"] - n)
        text += f"{n} Damage Point(s) ignored"
    elif u == "cc":
        cards.discard(state, card)
        resolve_card(state, w, side, action["card"], dice, events, f"{NAMES[cards.kind(card)]} as "
                     f"{action['card'].replace('-', ' ').title()}")
        return
    elif u == "heroic":
        unit = action["unit"]
        state["units"][unit]["fresh"] = True
        ac["round"]["heroic"].append(unit)
        text += f"{board.unit_name(unit)} is fresh again"
        if w["k"] == "round" and w["side"] == side and not w["acted"]:
            state["frames"].append({"k": "heroic", "side": side, "unit": unit})
        elif cards.round_frame(state):  # any other decision of the Activation Phase: right after the Round
            ac["round"].setdefault("heroes", []).append([side, unit])
    elif u == "cover":
        ac["cover"].append({"side": side, "area": where})
        text += f"cover at {name(where)} waits for the next fire at it"
    elif u == "redline":
        w["redlines"] = w.get("redlines", 0) + 1
        text += "the group may cross a red line"
    elif u == "storm":
        text += storm(state, side)
    elif u == "storm-wait":
        ac.setdefault("storm", []).append({"side": side})
        text += "the storm waits for the next enemy group to end its move"
    elif u == "lowammo":
        ac["lowammo"].append({"side": enemy(side), "area": where})
        ac["round"]["lowammo"] += 1
        text += f"the next fire from {name(where)} is halved"
    elif u == "kt":
        state["kt"] = _kt_up(state, 1)
        text += f"Killing Time up to {state['kt']}"
    elif u == "reroll":
        roll = w["rolls"][action["group"]]
        old = roll["values"][action["die"]]
        new = dice.roll(10, f"Good Luck: re-roll of a {old}")
        roll["values"][action["die"]] = new
        hit = (lambda v: fire.hits_of([v], roll["t"], state["options"].get("target_bounds", "none")))
        w["left"] = max(0, w["left"] + hit(new) - hit(old))
        text += f"die {old} re-rolled: {new}; {w['left']} Damage Point(s) to take"
    elif u == "luck":
        text += luck.wait(state, side, action)
    elif u == "lucky":
        w["lucky"] = w.get("lucky", 0) + 1
        text += "one missed die of this fire will be re-rolled"
    elif u == "grenades":
        w.setdefault("extra", {})[side] = w.get("extra", {}).get(side, 0) + 2
        text += "2 more close combat cards"
    elif u == "dice":
        w["grenades"] = w.get("grenades", 0) + 2
        text += "2 more dice in this fire"
    elif u == "snipe":
        ldr = action["unit"]
        mine = [v["at"] for x, v in state["units"].items() if board.side_of(x) == side]
        need = SNIPER[min(board.dist(a, state["units"][ldr]["at"]) for a in mine)]
        roll = luck.roll(state, dice, "sniper", side, f"Sniper! at {board.unit_name(ldr)}, {need} or less", events, need)
        text += f"rolls {roll} needing {need}: " + ("hit" if roll <= need else "missed")
        if roll <= need:
            board.eliminate(state, ldr, events)
            board.update_control(state)
    else:
        done = brown_red_use(state, side, card, w, action, dice, events)
        text += action_text(u)
    if done and cards.kind(card) != "night-attack":
        cards.discard(state, card)
    events.append({"text": text})


def action_text(u: str) -> str:
    return {"range": "+1 range for artillery and ships this Round", "aim": "+1 to hit there this Round",
            "coord": "an extra Round of artillery fire", "coord-after": "an extra Round of artillery fire after this one",
            "march": "+2 MF", "keep": "another Round after this one", "night": "night fighting for the rest of the turn (17.9)",
            "wire": "Wire placed", "unwire": "Wire removed", "dig": "trench dug", "hospital": "a unit comes back",
            "thirst": "an enemy unit is exhausted", "remnant": "a fresh Remnant", "kt-down": "Killing Time down 1",
            "mine": "a trench blown", "sink": "sunk", "take": "a card taken from the discard pile",
            "kt2": "Killing Time up 2", "dysentery": "fresh enemy units exhausted", "spy": "looks at the enemy's hand",
            "wrong": "enemy units moved", "kt-down2": "Killing Time down 2"}[u]


def storm(state: dict[str, Any], side: str) -> str:
    """Sudden Storm: the enemy group that just ended its move goes back along its path by 2 MF."""
    adv = next(g for g in reversed(state["frames"]) if g["k"] == "advance" and g["side"] == enemy(side))
    to = move.storm_back(state, adv["path"], adv["group"], adv["area"])
    adv["area"] = to
    fire.check_stacking(state, enemy(side), to, [u for u in adv["group"] if state["units"].get(u, {}).get("at") == to])
    return f"the group goes back to {name(to)}"


def brown_red_use(state: dict[str, Any], side: str, card: str, w: dict[str, Any], action: dict[str, Any],
                  dice: Any, events: list) -> bool:
    """The brown and red cards' effects; False when the card stays out of the discard pile for now."""
    u, where, r, ac = action["use"], action.get("area"), state["ac"]["round"], state["ac"]
    foe = enemy(side)
    if u in ("range", "aim"):
        r["recon"] = True
        r["range"] = u == "range"
        r["aim"] = where
        if cards.hand(state, foe):
            ac["owe"][foe] += 1  # the other side discards at its next decision (a file it sends anyway)
    elif u == "coord":
        state["frames"].append(coordinated(state, side))
    elif u == "coord-after":
        r["after"] += 1
    elif u == "march":
        w["extra_mf"] = w.get("extra_mf", 0) + 2
        r["forced"] += list(w["group"])
    elif u == "keep":
        r["extra"] += 1
    elif u == "night":  # 17.9
        ac["night"] = True
        ac["inplay"].append(card)
        state["kt"] = max(0, state["kt"] - 1)
    elif u == "wire":
        state["wire"].append(where)
    elif u == "unwire":
        state["wire"].remove(where)
    elif u == "dig":
        state["trenches"][where] = state["trenches"].get(where, 0) + 1
    elif u == "hospital":
        at = "mal-tepe" if side == "turkish" else "anzac-cove"
        state["lost"][side].remove(action["unit"])
        state["units"][action["unit"]] = {"at": at, "fresh": True}
        board.update_control(state)
    elif u == "thirst":
        state["units"][action["unit"]]["fresh"] = False
    elif u == "remnant":
        made = board.place_remnants(state, side, where, 1)
        state["units"][made[0]]["fresh"] = True
    elif u == "kt-down":
        state["kt"] = max(0, state["kt"] - 1)
    elif u == "mine":  # 13.2.5
        state["trenches"][where] -= 1
        if not state["trenches"][where]:
            del state["trenches"][where]
    elif u == "sink":
        sink(state, foe, action["unit"], events)
    elif u == "take":
        ac["discard"].remove(action["card"])
        ac["hands"][side].append(action["card"])  # face up: both sides know it
    elif u == "kt2":
        state["kt"] = _kt_up(state, 2)
    elif u == "dysentery":
        for x in units_at(state, where, foe):
            state["units"][x]["fresh"] = False
    elif u == "spy":
        spy(state, side, dice, events)
    elif u == "wrong":
        state["frames"].append({"k": "wrong", "side": side, "moved": []})
    elif u == "kt-down2":
        state["kt"] = max(0, state["kt"] - 2)
    else:
        raise IllegalAction(f"no use {u}")
    if COLOUR[cards.kind(card)] == "red":
        rf = cards.round_frame(state)
        rf["acted"] = True  # 17.10: the card is the Round
        state["passes"] = 0
    return True


def sink(state: dict[str, Any], side: str, unit: str, events: list) -> None:
    """Submarine Attack: a ship (16.6) or a unit not yet on the board; a casualty either way (18.4)."""
    if unit in state["units"]:
        board.eliminate(state, unit, events)
        state["fleet"][side] = [s for s in state["fleet"][side] if s != unit]
        return
    for src in (state["reinforcements"][side], state["next_reinf"][side]):
        for g in list(src):
            if unit in src[g][1]:
                src[g][1].remove(unit)
                if not src[g][1]:
                    del src[g]
    for w in state["waves"]:
        for b in w:
            if unit in b:
                b.remove(unit)
    state["waves"] = [[b for b in w if b] for w in state["waves"]]
    state["waves"] = [w for w in state["waves"] if w]
    state["lost"][side].append(unit)
    events.append({"text": f"{board.unit_name(unit)} is eliminated before reaching the board"})


def spy(state: dict[str, Any], side: str, dice: Any, events: list) -> None:
    """Espionage: the enemy hand is shown to this side alone (its keys ride on the enemy's next
    file), then this side takes one card of it."""
    foe = enemy(side)
    if not cards.hand(state, foe):
        events.append({"text": f"{foe} holds no Action Card"})
        return
    if cards.dealt(dice) and any(e not in cards.DECK for e in cards.hand(state, foe)):
        dice.decks.ask(side, state["ac"]["deck"])
    state["frames"].append({"k": "spy", "side": side})


def spy_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    return [Choice(f"take {cards.label(e)} from the enemy's hand", {"do": "take", "card": e})
            for e in dict.fromkeys(cards.hand(state, enemy(f["side"])))]


def do_spy(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    foe = enemy(f["side"])
    entry = action["card"]
    if cards.dealt(dice) and entry not in cards.DECK:
        dice.decks.take(f["side"], entry)
    cards.hand(state, foe).remove(entry)
    cards.hand(state, f["side"]).append(entry)
    state["frames"].pop()
    events.append({"text": f"{f['side']} takes {cards.label(entry)} from {foe}'s hand (Espionage)"})


# ------------------------------------------------------------------ Coordinated Attack (8.4.2)
def coordinated(state: dict[str, Any], side: str) -> dict[str, Any]:
    f = fire.new_fire(state, side, "", "coordinated", arty(state, side), [])
    return f


# ------------------------------------------------------------------ Heroic Act's free activation
def heroes_after(state: dict[str, Any]) -> dict[str, Any] | None:
    """The next free activation waiting for the end of the Round (Heroic Act played during it), if
    its unit is still fresh and has something to do (never a prompt with only 'no')."""
    waiting = state["ac"]["round"].get("heroes", [])
    while waiting:
        side, unit = waiting.pop(0)
        f = {"k": "heroic", "side": side, "unit": unit}
        if len(heroic_choices(state, f)) > 1:
            return f
    return None


def heroic_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    """The unit made fresh acts at once, alone: fire, move (no group move) or dig."""
    u, side = f["unit"], f["side"]
    if u not in state["units"] or not state["units"][u]["fresh"]:
        return [Choice("no free activation", {"do": "done"})]
    at = state["units"][u]["at"]
    out = []
    if u in fire_cands(state, side, at):
        out.append(Choice(f"{board.unit_name(u)} fires", {"do": "fire"}))
    if u in move.movable(state, side, at) and move.steps(state, move.new_move(side, at), [u]):
        out.append(Choice(f"{board.unit_name(u)} moves alone", {"do": "move"}))
    out += [c for c in dig_choices(state, side, at) if c.action["units"] == [u]]
    return out + [Choice("no free activation", {"do": "done"})]


def do_heroic(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    state["frames"].pop()
    u, side = f["unit"], f["side"]
    at = state["units"].get(u, {}).get("at")
    if action["do"] == "fire":
        g = fire.new_fire(state, side, at, "standard", [u], [x for x in units_at(state, at, side) if kind(x) == "leader"])
        g["units"] = [u]
        state["frames"].append(g)
    elif action["do"] == "move":
        m = move.new_move(side, at)
        m["only"] = [u]
        state["frames"].append(m)
    elif action["do"] == "dig":
        state["units"][u]["fresh"] = False
        state["trenches"][at] = state["trenches"].get(at, 0) + 1
        events.append({"text": f"{board.unit_name(u)} digs at {name(at)} (Heroic Act)"})


# ------------------------------------------------------------------ Wrong Orders
def wrong_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    out = []
    if len(f["moved"]) < 2:
        for u, dests in _wrong_units(state, f["side"]).items():
            if u not in f["moved"]:
                out += [Choice(f"Wrong Orders: {board.unit_name(u)} to {name(a)}", {"do": "order", "unit": u, "to": a})
                        for a in dests]
    if f["moved"] or not out:
        out.append(Choice("Wrong Orders: done", {"do": "done"}))
    return out


def _wrong_units(state: dict[str, Any], side: str) -> dict[str, list[str]]:
    """Fresh enemy land units and where each may be sent: up to 3 MF (6.2 costs, no red lines, not
    through this side's units), never into an area this side controls, never over-stacked."""
    foe = enemy(side)
    out = {}
    for u, v in sorted(state["units"].items()):
        if board.side_of(u) != foe or not v["fresh"] or board.is_sea(v["at"]) or kind(u) == "ship":
            continue
        best = {v["at"]: 0}
        todo = [v["at"]]
        while todo:
            a = todo.pop(0)
            if a != v["at"] and board.has_enemy(state, a, foe):
                continue  # stops on entering the card player's units
            for b in sorted(board.adj(a)):
                if board.walkable(a, b) and b not in state["off"]:  # areas not in play (Scenarios 3, 4)
                    c = best[a] + board.move_cost(a, b)
                    if c <= 3 and c < best.get(b, 99):
                        best[b] = c
                        todo.append(b)
        dests = [a for a in sorted(best) if a != v["at"] and board.controller(state, a) != side
                 and len(units_at(state, a, foe)) < board.LAND_LIMIT]
        if dests:
            out[u] = dests
    return out


def do_wrong(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    if action["do"] == "done":
        state["frames"].pop()
        return
    u = action["unit"]
    state["units"][u] = {"at": action["to"], "fresh": False}
    f["moved"].append(u)
    board.update_control(state)
    events.append({"text": f"Wrong Orders: {board.unit_name(u)} goes to {name(action['to'])}, exhausted"})


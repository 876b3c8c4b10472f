"""Table-top orders: what the actions read from a player's orders (``parse``) do, each checked
first, and how the table is shown."""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.protocol.core import IllegalAction
from pbem_engine.chance.dice import Dice

DICE = re.compile(r"^(\d*)d(\d+)(?:\s*(>=|<=)\s*(\d+))?(?:\s+read\s+0-9)?$")
DEALT = "deck:"  # a hand's card from a deck dealt to private hands: "deck:<deck>:<shuffle>:<position>"


# --- doing ----------------------------------------------------------------------

# The fields each action carries and their types: a signed action from the other side is
# checked against this before any handler reads it (a piece or card may be a hidden token).
TEXT, NUMBER = str, int
CHOSEN = (str, dict)  # {"$hide": item} in its owner's tool, the token in the signed file
SHAPES: dict[str, dict[str, type]] = {
    "deploy": {"piece": CHOSEN, "to": TEXT}, "unveil": {"piece": TEXT}, "move": {"piece": TEXT, "to": TEXT},
    "step": {"piece": TEXT, "by": NUMBER}, "flip": {"piece": TEXT}, "mark": {"target": TEXT, "text": TEXT},
    "unmark": {"target": TEXT, "text": TEXT}, "roll": {"expr": TEXT}, "reroll": {"die": NUMBER, "reason": TEXT},
    "draw": {"deck": TEXT, "count": NUMBER}, "play": {"card": TEXT}, "discard": {"card": TEXT},
    "return": {"card": TEXT}, "remove": {"card": TEXT}, "reshuffle": {"deck": TEXT}, "next": {"what": TEXT},
    "say": {"text": TEXT}, "note": {"text": CHOSEN}, "unseal": {"note": NUMBER}, "pass": {}, "end": {"result": TEXT},
    "show": {"deck": TEXT}, "look": {"deck": TEXT}, "take": {"card": TEXT}, "give": {"card": TEXT},
}
OPTIONAL = {"roll": {"purpose": TEXT}}
LONGEST_TEXT = 2000  # a note or a marker, not a file
LARGEST_NUMBER = 1000  # steps, dice, cards: no table holds more


def check_shape(action: dict[str, Any]) -> None:
    """Refuse an action whose fields are missing, unknown or of the wrong type, before it is read."""
    do = action.get("do")
    if not isinstance(do, str) or do not in SHAPES:
        raise IllegalAction(f"unknown table-top action {do!r}")
    fields = {**SHAPES[do], **OPTIONAL.get(do, {})}
    extra = sorted(set(action) - set(fields) - {"do"})
    if extra:
        raise IllegalAction(f"a '{do}' action has no field {extra[0]!r}")
    for name, kind in fields.items():
        if name not in action:
            if name in SHAPES[do]:
                raise IllegalAction(f"a '{do}' action needs its field {name!r}")
            continue
        value = action[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            kind_name = {TEXT: "text", NUMBER: "a whole number", CHOSEN: "a concealed piece"}[kind]
            raise IllegalAction(f"the field {name!r} of a '{do}' action must be {kind_name}")
        if kind is TEXT and len(value) > LONGEST_TEXT:
            raise IllegalAction(f"the field {name!r} of a '{do}' action is longer than {LONGEST_TEXT} characters")
        if kind is NUMBER and abs(value) > LARGEST_NUMBER:
            raise IllegalAction(f"the field {name!r} of a '{do}' action is beyond ±{LARGEST_NUMBER}")


def apply(game, state: dict[str, Any], side: str, action: dict[str, Any], dice: Dice):
    check_shape(action)
    do = action["do"]
    handler = HANDLERS[do]
    if state.get("over"):
        raise IllegalAction("the game is over")
    events = handler(game, state, side, action, dice)
    return state, [{"text": e} for e in events]


def _piece_name(game, pid):
    base = pid if pid in game.piece_data else pid.rsplit("-", 1)[0]
    return game.piece_data.get(base, {}).get("name", pid)


def _loc_name(game, lid):
    return game.locations.get(lid, {}).get("name", lid)


def _need(state, key, value, what):
    if value not in state[key]:
        raise IllegalAction(f"no {what} {value!r}")


def do_move(game, state, side, a, dice):
    if a["piece"] in state.get("hidden", {}):
        hidden = state["hidden"][a["piece"]]
        if hidden["side"] != side:
            raise IllegalAction("only its owner moves a concealed piece")
        if a["to"] not in game.locations and a["to"] != "off-map":
            raise IllegalAction(f"no location {a['to']!r}")
        before, hidden["at"] = hidden["at"], a["to"]
        return [f"{side} moves [[{a['piece']}]] from {_loc_name(game, before)} to {_loc_name(game, a['to'])}"]
    _need(state, "pieces", a["piece"], "piece")
    if a["to"] not in game.locations and a["to"] != "off-map":
        raise IllegalAction(f"no location {a['to']!r}")
    piece = state["pieces"][a["piece"]]
    before, piece["at"] = piece["at"], a["to"]
    return [f"{side} moves {_piece_name(game, a['piece'])} from {_loc_name(game, before)} to {_loc_name(game, a['to'])}"]


def do_deploy(game, state, side, a, dice):
    if a["to"] not in game.locations:
        raise IllegalAction(f"no location {a['to']!r}")
    token = dice.choose_private(side, "concealed", a["piece"])
    state["hidden"][token] = {"side": side, "at": a["to"]}
    return [f"{side} deploys [[{token}]] at {_loc_name(game, a['to'])}"]


def do_unveil(game, state, side, a, dice):
    hidden = state.get("hidden", {}).get(a["piece"])
    if hidden is None or hidden["side"] != side:
        raise IllegalAction("only its owner reveals a concealed piece of its own")
    item = dice.reveal(side, a["piece"])
    del state["hidden"][a["piece"]]
    state["pieces"][item] = {"at": hidden["at"], "steps": game.piece_data[item].get("steps"), "face": "up", "marks": []}
    return [f"{side} reveals {game.item_name(item)} at {_loc_name(game, hidden['at'])}"]


def do_step(game, state, side, a, dice):
    _need(state, "pieces", a["piece"], "piece")
    piece = state["pieces"][a["piece"]]
    piece["steps"] = (piece["steps"] or 0) + int(a["by"])
    n = piece["steps"]
    change = f"one step {'less' if a['by'] < 0 else 'more'}" if abs(a["by"]) == 1 else \
        f"{abs(a['by'])} steps {'less' if a['by'] < 0 else 'more'}"
    return [f"{side} sets {_piece_name(game, a['piece'])} to {n} step{'' if n == 1 else 's'} ({change})"]


def do_flip(game, state, side, a, dice):
    _need(state, "pieces", a["piece"], "piece")
    piece = state["pieces"][a["piece"]]
    piece["face"] = "down" if piece["face"] == "up" else "up"
    return [f"{side} flips {_piece_name(game, a['piece'])} face {piece['face']}"]


def do_mark(game, state, side, a, dice):
    marks = state["marks"].setdefault(a["target"], [])
    if a["do"] == "mark":
        marks.append(a["text"])
        return [f"{side} marks {_piece_name(game, a['target']) if a['target'] in state['pieces'] else _loc_name(game, a['target'])} with {a['text']}"]
    if a["text"] not in marks:
        raise IllegalAction(f"no marker {a['text']!r} there")
    marks.remove(a["text"])
    if not marks:
        del state["marks"][a["target"]]
    return [f"{side} removes {a['text']} from {a['target']}"]


def do_roll(game, state, side, a, dice):
    m = DICE.match(a["expr"])
    if not m:
        raise IllegalAction(f"{a['expr']!r} is not a dice expression")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if not (1 <= count <= 100 and 2 <= sides <= 1000):
        raise IllegalAction("roll 1 to 100 dice of 2 to 1000 faces")
    zero = "read 0-9" in a["expr"] or (sides == 10 and game.d10_zero)
    purpose = a.get("purpose") or a["expr"]
    if m.group(3):
        hits = dice.pool(count, sides, int(m.group(4)), purpose, at_most=m.group(3) == "<=")
        values = dice.rolls[-1]["values"]
        text = f"{side} rolls {a['expr']} for {purpose}: {' '.join(map(str, values))} -> {hits} successes"
    elif sides == 10 and zero and count == 1:
        values = [dice.d10(purpose, zero_based=True)]
        text = f"{side} rolls d10 (0-9) for {purpose}: {values[0]}"
    elif sides == 100 and count == 1:
        values = [dice.d100(purpose, zero_based=zero)]
        text = f"{side} rolls d100 for {purpose}: {values[0]}"
    else:
        total = dice.total(count, sides, purpose)
        values = dice.rolls[-1]["values"]
        text = f"{side} rolls {a['expr']} for {purpose}: {' '.join(map(str, values))} = {total}"
    state["last_roll"] = {"by": side, "expr": a["expr"], "sides": sides, "values": values, "zero": zero}
    return [text]


def roll_odds(game, expr: str) -> str | None:
    """The exact odds of a roll expression, read as ``do_roll`` reads it: "expect 3.5 successes
    (0:1% ...)" for 7d6>=4, "expect 10.5 (...)" for 3d6; None for what is no roll."""
    from pbem_engine.chance import odds

    m = DICE.match(expr)
    if not m:
        return None
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if not (1 <= count <= 100 and 2 <= sides <= 1000):
        return None
    zero = "read 0-9" in expr or (sides == 10 and game.d10_zero)
    if m.group(3):
        below, target = m.group(3) == "<=", int(m.group(4))
        dist = odds.at_most(count, sides, target) if below else odds.at_least(count, sides, target)
        return odds.line(dist, "success")
    if count == 1 and (sides == 100 or sides == 10 and zero):  # do_roll's d10 (0-9) and d100
        return odds.line(odds.uniform(sides, 0 if zero else 1))
    return odds.total_line(count, sides)


def do_reroll(game, state, side, a, dice):
    last = state.get("last_roll")
    if not last or last["by"] != side:
        raise IllegalAction("only your own last roll can be re-rolled")
    index = int(a["die"]) - 1
    if not 0 <= index < len(last["values"]):
        raise IllegalAction(f"the last roll has {len(last['values'])} dice")
    new = dice.roll(last["sides"], f"re-roll of die {index + 1} of {last['expr']}: {a['reason']}")
    if last["zero"]:
        new -= 1
    old, last["values"][index] = last["values"][index], new
    return [f"{side} re-rolls die {index + 1} of {last['expr']} ({a['reason']}): {old} -> {new}"]


def do_draw(game, state, side, a, dice):
    deck_id, count = a["deck"], int(a["count"])
    deck = game.decks.get(deck_id)
    if deck is None:
        raise IllegalAction(f"no deck {deck_id!r}")
    if game.is_dealt(deck_id):  # a shared deck dealt to private hands (pbem_engine.hidden.deck_table)
        why = dice.decks.ready(deck_id)
        if why:
            raise IllegalAction(f"{deck.get('name', deck_id)} cannot be drawn from: {why}"
                                + (" (say 'shuffle " + deck.get("name", deck_id) + "')" if "not been" in why else ""))
        left = len(dice.decks.pile(deck_id))
        if not 1 <= count <= left:
            raise IllegalAction(f"{deck.get('name', deck_id)} has {left} cards left")
        blocked = dice.decks.blocked(side, deck_id, count)
        if blocked:  # cards the other side held and returned face down: it has our keys for them
            others = [s for s in game.sides if s != side]
            n = dice.decks.pile(deck_id).index(blocked[0])  # the cards above the first blocked one are free
            raise IllegalAction(
                f"{side} cannot draw {'that card' if len(blocked) == 1 else 'those cards'} of "
                f"{deck.get('name', deck_id)} face down: {others[0]} returned "
                f"{'it' if len(blocked) == 1 else 'them'} after holding {'it' if len(blocked) == 1 else 'them'} "
                f"with {side}'s key, so {others[0]} would know what {side} draws; shuffle first "
                f"(say 'shuffle {deck.get('name', deck_id)}')" + (f", or draw at most {n}" if n else ""))
        refs = dice.decks.draw(side, deck_id, count)
        state["hands"][side] += refs
        return [f"{side} draws {count} from {deck.get('name', deck_id)}: " + ", ".join(f"[[{r}|card]]" for r in refs)]
    if deck.get("owner") == "shared":
        pile = state["shared"][deck_id]
        if not pile["shuffled"]:
            pile["draw"] = dice.shuffle(pile["draw"], f"shuffle {deck.get('name', deck_id)}")
            pile["shuffled"] = True
        if count > len(pile["draw"]):
            raise IllegalAction(f"{deck.get('name', deck_id)} has {len(pile['draw'])} cards left")
        drawn, pile["draw"] = pile["draw"][:count], pile["draw"][count:]
        state["hands"][side] += drawn
        return [f"{side} draws {', '.join(game.item_name(i) for i in drawn)} from {deck.get('name', deck_id)} (face up)"]
    if deck.get("owner") != side:
        raise IllegalAction(f"{deck.get('name', deck_id)} belongs to {deck.get('owner')}")
    tokens = dice.draw_private(side, deck_id, count)
    state["own"][deck_id]["in_pool"] -= count
    state["hands"][side] += tokens
    return [f"{side} draws {count} from {deck.get('name', deck_id)}: " + ", ".join(f"[[{t}]]" for t in tokens)]


def _take_card(game, state, side, card, dice) -> tuple[str, str | None]:
    """Take ``card`` out of ``side``'s hand, opening it if hidden: (item, own deck id or None)."""
    hand = state["hands"][side]
    if card not in hand:
        raise IllegalAction(f"{side} does not hold that card")
    hand.remove(card)
    if len(card) == 64 and all(c in "0123456789abcdef" for c in card):  # a hidden card: open it
        item = dice.reveal(side, card)
        deck = next((d for d, dd in game.decks.items() if dd.get("owner") == side and item in game.items(d)), None)
        return item, deck
    deck = next((d for d in game.decks if card in game.items(d)), None)
    return card, deck


def _dealt_card(game, state, side, a, dice):
    """Play, discard, remove or return a card of a dealt deck: face up with its key, or face down
    to the bottom of the pile."""
    hand = state["hands"][side]
    if a["card"] not in hand:
        raise IllegalAction(f"{side} does not hold that card")
    hand.remove(a["card"])
    deck_id = a["card"][len(DEALT):].split(":")[0]
    name_of_deck = game.decks.get(deck_id, {}).get("name", deck_id)
    pile = state["shared"][deck_id]
    if a["do"] == "return":
        dice.decks.give_back(side, a["card"])
        return [f"{side} returns a card to the bottom of {name_of_deck}, face down"]
    item = dice.decks.play(side, a["card"], "discard" if a["do"] == "discard" else "table")
    name = game.item_name(item)
    if a["do"] == "play":
        state["played"].append(item)
        return [f"{side} plays {name}"]
    if a["do"] == "discard":
        pile["discard"].append(item)
        return [f"{side} discards {name}"]
    pile["removed"].append(item)
    return [f"{side} removes {name} from the game"]


def do_show(game, state, side, a, dice):
    deck_id = a["deck"]
    if not game.is_dealt(deck_id):
        raise IllegalAction("only a hand from a deck dealt to private hands can be shown this way")
    mine = [c for c in state["hands"][side] if c.startswith(f"{DEALT}{deck_id}:")]
    if not mine:
        raise IllegalAction(f"{side} holds no card of {game.decks[deck_id].get('name', deck_id)}")
    dice.decks.show(side, deck_id)
    others = [s for s in game.sides if s != side]
    return [f"{side} shows its hand of {game.decks[deck_id].get('name', deck_id)} to {others[0]}: "
            + ", ".join(f"[[{c}|card]]" for c in mine)]


def do_look(game, state, side, a, dice):
    deck_id = a["deck"]
    if not game.is_dealt(deck_id):
        raise IllegalAction("only a hand from a deck dealt to private hands can be looked at this way")
    other = next(s for s in game.sides if s != side)
    name = game.decks[deck_id].get("name", deck_id)
    if not any(c.startswith(f"{DEALT}{deck_id}:") for c in state["hands"][other]):
        raise IllegalAction(f"{other} holds no card of {name}")
    if dice.decks.ask(side, deck_id):
        return [f"{side} looks at {other}'s hand of {name}: {other}'s next turn file shows it to {side} alone"]
    return [f"{side} looks at {other}'s hand of {name}, already shown"]


def do_take(game, state, side, a, dice):
    other = next(s for s in game.sides if s != side)
    if not a["card"].startswith(DEALT) or a["card"] not in state["hands"][other]:
        raise IllegalAction(f"{other} does not hold that card")
    dice.decks.take(side, a["card"])
    state["hands"][other].remove(a["card"])
    state["hands"][side].append(a["card"])
    return [f"{side} takes [[{a['card']}|card]] from {other}'s hand"]


def do_give(game, state, side, a, dice):
    other = next(s for s in game.sides if s != side)
    if not a["card"].startswith(DEALT) or a["card"] not in state["hands"][side]:
        raise IllegalAction(f"{side} does not hold that card of a dealt deck")
    dice.decks.give(side, a["card"])
    state["hands"][side].remove(a["card"])
    state["hands"][other].append(a["card"])
    return [f"{side} gives [[{a['card']}|card]] to {other}"]


def do_card(game, state, side, a, dice):
    if a["card"].startswith(DEALT):
        return _dealt_card(game, state, side, a, dice)
    item, deck_id = _take_card(game, state, side, a["card"], dice)
    name = game.item_name(item)
    if a["do"] == "play":
        state["played"].append(item)
        return [f"{side} plays {name}"]
    if deck_id is None:
        raise IllegalAction(f"{name} belongs to no deck")
    pile = state["own"].get(deck_id) or state["shared"][deck_id]
    if a["do"] == "discard":
        pile["discard"].append(item)
        return [f"{side} discards {name}"]
    if a["do"] == "remove":
        pile["removed"].append(item)
        return [f"{side} removes {name} from the game"]
    if deck_id in state["own"]:  # return to its own (hidden) pool
        dice.add_private(side, deck_id, [item])
        pile["in_pool"] += 1
    else:
        pile["draw"].append(item)
    return [f"{side} returns {name} to {game.decks[deck_id].get('name', deck_id)}"]


def do_reshuffle(game, state, side, a, dice):
    deck_id = a["deck"]
    deck = game.decks.get(deck_id)
    if deck is None:
        raise IllegalAction(f"no deck {deck_id!r}")
    if game.is_dealt(deck_id):  # both sides shuffle in turn: this side first, the other's step rides its next file
        pile = state["shared"][deck_id]
        n = dice.decks.shuffle(side, deck_id)
        pile["discard"] = []
        # said the same whoever shuffles (both players by keys of their own, or a referee): no one knows the order
        return [f"{side} has {n} cards of {deck.get('name', deck_id)} shuffled face down: no one knows the order"]
    if deck_id in state["own"]:
        if deck.get("owner") != side:
            raise IllegalAction(f"{deck.get('name', deck_id)} belongs to {deck.get('owner')}")
        pile = state["own"][deck_id]
        n = len(pile["discard"])
        dice.add_private(side, deck_id, pile["discard"])
        pile["in_pool"] += n
        pile["discard"] = []
        return [f"{side} shuffles {n} discards back into {deck.get('name', deck_id)}"]
    pile = state["shared"][deck_id]
    pile["draw"] = dice.shuffle(pile["draw"] + pile["discard"], f"reshuffle {deck.get('name', deck_id)}")
    pile["discard"], pile["shuffled"] = [], True
    return [f"{side} reshuffles {deck.get('name', deck_id)}"]


def do_next(game, state, side, a, dice):
    if a["what"] == "turn":
        state["turn"] += 1
        state["phase"] = 0
    else:
        state["phase"] += 1
    return [f"{side}: now turn {state['turn']}, {game.phase(state)}"]


def do_note(game, state, side, a, dice):
    token = dice.seal(side, a["text"])
    state["notes"].append({"by": side, "token": token})
    return [f"{side} writes sealed note {len(state['notes'])}: [[{token}]]"]


def do_unseal(game, state, side, a, dice):
    notes = state.get("notes", [])
    index = int(a["note"]) - 1
    if not 0 <= index < len(notes) or notes[index]["by"] != side or "text" in notes[index]:
        raise IllegalAction("no sealed note of yours with that number")
    text = dice.reveal(side, notes[index]["token"])
    notes[index]["text"] = text
    return [f"{side} opens note {index + 1}: {text}"]


def do_say(game, state, side, a, dice):
    return [f"{side} says: {a['text']}"]


def do_pass(game, state, side, a, dice):
    sides = list(game.sides)
    state["active"] = sides[(sides.index(side) + 1) % len(sides)]
    return [f"{side} hands over to {state['active']}"]


def do_end(game, state, side, a, dice):
    state["over"] = {"winner": None, "result": a["result"], "reason": f"declared by {side}"}
    return [f"{side} ends the game: {a['result']}"]


HANDLERS = {"deploy": do_deploy, "unveil": do_unveil, "move": do_move, "step": do_step, "flip": do_flip, "mark": do_mark, "unmark": do_mark, "roll": do_roll,
            "reroll": do_reroll, "draw": do_draw, "play": do_card, "discard": do_card, "return": do_card,
            "remove": do_card, "reshuffle": do_reshuffle, "next": do_next, "say": do_say, "note": do_note, "unseal": do_unseal, "pass": do_pass,
            "end": do_end, "show": do_show, "look": do_look, "take": do_take, "give": do_give}


# --- showing ----------------------------------------------------------------------

def describe(game, view: dict[str, Any]) -> list[str]:
    lines = [f"Turn {view['turn']}, {game.phase(view)}; {view['active']} to act"]
    at: dict[str, list[str]] = {}
    for pid, piece in sorted(view["pieces"].items()):
        label = _piece_name(game, pid)
        if piece["steps"] is not None:
            label += f" {piece['steps']}"
        if piece["face"] == "down":
            label += " (face down)"
        marks = view["marks"].get(pid)
        if marks:
            label += f" [{', '.join(marks)}]"
        at.setdefault(piece["at"], []).append(label)
    for tok, hidden in sorted(view.get("hidden", {}).items()):
        at.setdefault(hidden["at"], []).append(f"[[{tok}]] ({hidden['side']}, concealed)")
    for lid in [*game.locations, "off-map"]:
        if lid in at or lid in view["marks"]:
            marks = f" [{', '.join(view['marks'][lid])}]" if lid in view["marks"] else ""
            lines.append(f"{_loc_name(game, lid)}{marks}: {', '.join(at.get(lid, [])) or 'empty'}")
    for side in game.sides:
        hand = view["hands"][side]
        if hand:
            lines.append(f"{side} hand: " + ", ".join(
                f"[[{c}|card]]" if c.startswith(DEALT) else f"[[{c}]]" if len(c) == 64 else game.item_name(c)
                for c in hand))
    for d_id, pile in view["shared"].items():
        if pile.get("dealt"):
            held = ", ".join(f"{s} holds {sum(c.startswith(f'{DEALT}{d_id}:') for c in view['hands'][s])}"
                             for s in game.sides)
            lines.append(f"{game.decks[d_id].get('name', d_id)}: dealt to private hands; {held}; "
                         f"{len(pile['discard'])} discarded")
            continue
        lines.append(f"{game.decks[d_id].get('name', d_id)}: {len(pile['draw'])} to draw, {len(pile['discard'])} discarded")
    for d_id, pile in view["own"].items():
        lines.append(f"{game.decks[d_id].get('name', d_id)}: {pile['in_pool']} in the deck, "
                     f"{len(pile['discard'])} discarded, {len(pile['removed'])} removed")
    if view["played"]:
        lines.append("played: " + ", ".join(game.item_name(i) for i in view["played"]))
    return lines


def board(game, view: dict[str, Any]) -> dict[str, Any]:
    """What the map shows: each piece where it is (concealed ones as tokens), the turn track."""
    pieces = []
    for pid, piece in sorted(view["pieces"].items()):
        base = pid if pid in game.piece_data else pid.rsplit("-", 1)[0]
        label = _piece_name(game, pid) + (" (face down)" if piece["face"] == "down" else "")
        pieces.append({"at": piece["at"], "side": game.piece_data.get(base, {}).get("side"), "label": label,
                       "badge": "" if piece["steps"] is None else str(piece["steps"]), "concealed": False})
    for tok, hidden in sorted(view.get("hidden", {}).items()):
        pieces.append({"at": hidden["at"], "side": hidden["side"], "label": f"[[{tok}|piece]]", "badge": "",
                       "concealed": True})
    return {"pieces": pieces, "tracks": [("Turn", str(view["turn"])), ("Phase", game.phase(view)),
                                         ("To act", view["active"])],
            "marks": {lid: list(m) for lid, m in sorted(view["marks"].items()) if lid in game.locations}}

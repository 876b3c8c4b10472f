"""The rules of Hill 60, August 1915, in the order of RULES.md.

The state is plain JSON::

    {"turn": 1..5, "side": whose turn, "ops": operations left,
     "bombarded": the Allied naval bombardment is used this turn,
     "units": {id: {"space": space or "eliminated", "steps": n}},
     "entrenched": [spaces, in map order], "pending": None or an assault or
     bombardment waiting for a decision, "over": turn 5 has ended}

Everything else (names, full strengths, the map) is in ``data``.  Units are
always visited in order-of-battle order and spaces in map order, never in the
order of a dict, so every history gives the same bytes.

``pending`` holds a fire result whose hits are not yet allocated::

    {"kind": "assault" | "bombardment", "space": target, "from": origin (assault only),
     "units": [attacking unit ids], "hits_on_defender": n, "hits_on_attacker": n}

It exists only while somebody has a decision to make about it (5.3, 5.4):
forced allocations are applied at once by ``settle``, and so are the standing
orders of 9 (``standing.py``): ``"advance": true | false`` in an assault's
``pending``, the sides' hit orders in ``"hits": {side: [unit ids]}`` and the
acting side's next operation in ``"then": {"side", "alternatives", "advance"}``
(keys present only once given, so a game without standing orders has the
state it always had).
"""

from __future__ import annotations

from typing import Any, Callable

from pbem_engine.protocol.core import Choice, Event, IllegalAction, Outcome, Prompt, RulesError, State, copy_state
from pbem_engine.chance.dice import Dice
from . import data, standing

Action = dict[str, Any]


# --- helpers ------------------------------------------------------------------


def other(side: str) -> str:
    return "ottoman" if side == "allied" else "allied"


def side_name(side: str) -> str:
    return data.SIDE_NAMES[side]


def name(uid: str) -> str:
    return data.UNIT_BY_ID[uid].name


def steps(state: State, uid: str) -> int:
    return state["units"][uid]["steps"]


def units_in(state: State, space: str) -> list[str]:
    return [u.id for u in data.UNITS if state["units"][u.id]["space"] == space]


def units_of(state: State, side: str) -> list[str]:
    """``side``'s units on the map."""
    return [u.id for u in data.UNITS if u.side == side and state["units"][u.id]["space"] in data.SPACES]


def occupier(state: State, space: str) -> str | None:
    here = units_in(state, space)
    return data.UNIT_BY_ID[here[0]].side if here else None


def neighbours(space: str) -> list[str]:
    # 1.2 adjacent = next to each other in the line
    i = data.SPACES.index(space)
    return [data.SPACES[j] for j in (i - 1, i + 1) if 0 <= j < len(data.SPACES)]


def room(state: State, space: str) -> int:
    """How many more units ``space`` can take (3.1; bases are unlimited)."""
    if space in data.BASES.values():
        return len(data.UNITS)
    return max(0, data.STACKING_LIMIT - len(units_in(state, space)))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def dice_count(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def names(uids: list[str]) -> str:
    return ", ".join(name(uid) for uid in uids)


def verb(uids: list[str], singular: str, plural_form: str) -> str:
    return singular if len(uids) == 1 else plural_form


def headline(result: Outcome) -> str:
    """The result as players read it: "Allied victory: ...", "Draw: ..."."""
    return f"{result.result[:1].upper()}{result.result[1:]}: {result.reason}"


def roll_text(dice: Dice) -> str:
    """The faces of the roll just made, for the report."""
    return " ".join(str(v) for v in dice.rolls[-1]["values"])


# --- 1 setup ----------------------------------------------------------------------


def setup(scenario: str, options: dict[str, Any]) -> State:
    if scenario not in data.SCENARIOS:
        raise RulesError(f"no scenario '{scenario}'; Hill 60 has: {', '.join(data.SCENARIOS)}")
    if options:
        raise RulesError(f"Hill 60 has no options; got: {', '.join(sorted(options))}")
    return {
        "turn": 1,
        "side": "allied",
        "ops": data.OPERATIONS,
        "bombarded": False,
        "units": {u.id: {"space": u.start, "steps": u.steps} for u in data.UNITS},
        "entrenched": list(data.START_ENTRENCHED),
        "pending": None,
        "over": False,
    }


# --- 2 sequence of play: who decides, and what is legal ---------------------------


def prompt(state: State) -> Prompt:
    result = outcome(state)
    if result is not None:
        return Prompt(None, headline(result), ())
    if state["pending"] is not None:
        return pending_prompt(state, state["pending"])
    return operations_prompt(state)


def operations_prompt(state: State) -> Prompt:
    """2.2 the side whose turn it is chooses an operation (or ends its turn)."""
    side = state["side"]
    enemy = other(side)
    choices: list[Choice] = []
    # 4.1 move one unit to an adjacent space free of the enemy, within the stacking limit
    for uid in units_of(state, side):
        for to in neighbours(state["units"][uid]["space"]):
            if occupier(state, to) != enemy and room(state, to) > 0:
                choices.append(Choice(f"move {name(uid)} to {to}", {"do": "move", "unit": uid, "to": to}))
    # 5.1 assault an adjacent enemy space with all units of one own space
    for target in data.SPACES:
        if occupier(state, target) != enemy:
            continue
        for origin in neighbours(target):
            if occupier(state, origin) == side:
                choices.append(
                    Choice(f"assault {target} from {origin}", {"do": "assault", "space": target, "from": origin})
                )
    # 6.1 dig in where you are and are not yet entrenched
    for space in data.SPACES:
        if occupier(state, space) == side and space not in state["entrenched"]:
            choices.append(Choice(f"dig in at {space}", {"do": "dig", "space": space}))
    # 7.1 the Allies' naval bombardment, once per turn, anywhere the enemy is
    if side == "allied" and not state["bombarded"]:
        for space in data.SPACES:
            if occupier(state, space) == enemy:
                choices.append(Choice(f"naval bombardment of {space}", {"do": "bombard", "space": space}))
    # 2.3 ending the turn is always legal
    choices.append(Choice("end turn", {"do": "end"}))
    left = plural(state["ops"], "operation")
    text = f"Turn {state['turn']} of {data.TURNS}, {side_name(side)} player: {left} left. Choose an operation."
    # 9: standing orders ride on an operation's words, so the prompt takes words too (with_odds says
    # which); with one legal choice it stays forced, never shown
    return Prompt(side, text, tuple(choices), free=len(choices) > 1)


def pending_prompt(state: State, pending: dict[str, Any]) -> Prompt:
    """2.4 decisions inside an operation: hit allocation (5.3, 7.2), advance (5.4)."""
    attacker = state["side"]
    defender = other(attacker)
    space = pending["space"]
    fire = "assault on" if pending["kind"] == "assault" else "naval bombardment of"
    what = f"the {side_name(attacker)} {fire} {space}"
    if pending["hits_on_defender"]:
        hits = plural(pending["hits_on_defender"], "hit")
        text = f"{side_name(defender)} player: allocate {hits} from {what}, one at a time."
        return Prompt(defender, text, hit_choices(units_in(state, space)))
    if pending["hits_on_attacker"]:
        hits = plural(pending["hits_on_attacker"], "hit")
        text = f"{side_name(attacker)} player: allocate {hits} of return fire in {what}, one at a time."
        return Prompt(attacker, text, hit_choices(surviving_attackers(state, pending)))
    text = (
        f"{side_name(attacker)} player: {space} is clear of the enemy. "
        f"Advance into it, or stay in {pending['from']}?"
    )
    return Prompt(
        attacker, text, (Choice(f"advance into {space}", {"do": "advance"}), Choice("stay", {"do": "stay"}))
    )


def hit_choices(candidates: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(f"hit {name(uid)}", {"do": "hit", "unit": uid}) for uid in candidates)


def surviving_attackers(state: State, pending: dict[str, Any]) -> list[str]:
    # attackers stay in their own space until they advance, so "still there" = "alive"
    return [uid for uid in pending["units"] if state["units"][uid]["space"] == pending.get("from")]


# --- apply: one action, then everything that follows from it ------------------------


def apply(state: State, side: str, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    # pbem_engine.protocol.core.step checks this too; repeating it keeps apply safe on its own.
    offered = prompt(state)
    legal = [c.action for c in offered.choices]
    if offered.side == side and offered.free and action.get("do") == "hits":
        events = do_hits(state, side, standing.check_hits(side, action))
    elif offered.side != side or standing.base(action) not in legal or ("orders" in action and not offered.free):
        raise IllegalAction(f"{side} cannot do that now: {offered.text}", [c.label for c in offered.choices])
    else:
        standing.check_orders(side, action, state["ops"] - 1)
        events = HANDLERS[action["do"]](state, action, dice)
    events += settle(state, dice)
    return state, [{"text": text} for text in events]


# --- 4 movement ----------------------------------------------------------------------


def do_move(state: State, action: Action, dice: Dice) -> list[str]:
    unit = state["units"][action["unit"]]
    origin = unit["space"]
    unit["space"] = action["to"]
    state["ops"] -= 1
    return [f"{name(action['unit'])} moves from {origin} to {action['to']}."]


# --- 5 assault -----------------------------------------------------------------------


def with_odds(state: State, prompt: Prompt) -> Prompt:
    """Each assault and bombardment choice with the exact odds of its dice (5.2, 6.2, 7.1), and at
    the operations prompt the words of the standing orders (9)."""
    from pbem_engine.chance.odds import pool_line

    def odds(action: Action) -> str:
        if action.get("do") == "assault":
            target = action["space"]
            aim = data.ENTRENCHED_TARGET if target in state["entrenched"] else data.ASSAULT_TARGET
            mine = sum(steps(state, u) for u in units_in(state, action["from"]))
            theirs = sum(steps(state, u) for u in units_in(state, target))
            return (f" — your fire: {pool_line(mine, 6, aim)}; "
                    f"return fire: {pool_line(theirs, 6, data.RETURN_FIRE_TARGET)}")
        if action.get("do") == "bombard":
            return f" — {pool_line(data.BOMBARDMENT_DICE, 6, data.BOMBARDMENT_TARGET)}"
        return ""

    text = prompt.text
    if prompt.free:  # 9: the standing orders the operation's words may carry
        then = "; then OPERATION or OPERATION" if state["ops"] > 1 else ""
        text += f" Standing orders (9): 'ASSAULT; advance{then}', 'hits in order UNIT, UNIT'."
    return prompt._replace(text=text, choices=tuple(c._replace(label=c.label + odds(c.action)) for c in prompt.choices))



def do_assault(state: State, action: Action, dice: Dice) -> list[str]:
    side = state["side"]
    target, origin = action["space"], action["from"]
    attackers = units_in(state, origin)
    defenders = units_in(state, target)
    # 5.2 both sides fire at once: every die of this operation is drawn here, in one apply
    aim = data.ENTRENCHED_TARGET if target in state["entrenched"] else data.ASSAULT_TARGET  # 6.2
    attack_dice = sum(steps(state, uid) for uid in attackers)
    defence_dice = sum(steps(state, uid) for uid in defenders)
    where = f"assault on {target}"
    back = data.RETURN_FIRE_TARGET
    hits_on_defender = dice.pool(attack_dice, 6, aim, f"{where}: {side} fire (hits on {aim})")
    attack_roll = roll_text(dice)
    hits_on_attacker = dice.pool(defence_dice, 6, back, f"{where}: {other(side)} return fire (hits on {back})")
    defence_roll = roll_text(dice)
    state["ops"] -= 1
    state["pending"] = {
        "kind": "assault",
        "space": target,
        "from": origin,
        "units": attackers,
        "hits_on_defender": hits_on_defender,
        "hits_on_attacker": hits_on_attacker,
    }
    give_orders(state, action)
    return [
        f"{side_name(side)} assault on {target} from {origin}: {dice_count(attack_dice)}, hits on {aim}: "
        f"rolled {attack_roll}: {plural(hits_on_defender, 'hit')}.",
        f"{side_name(other(side))} return fire: {dice_count(defence_dice)}, hits on {back}: "
        f"rolled {defence_roll}: {plural(hits_on_attacker, 'hit')}.",
    ]


def do_hit(state: State, action: Action, dice: Dice) -> list[str]:
    # 5.3 one hit, on the unit its owner chose; the defender's hits come first
    pending = state["pending"]
    key = "hits_on_defender" if pending["hits_on_defender"] else "hits_on_attacker"
    pending[key] -= 1
    return [take_hits(state, action["unit"], 1)]


def take_hits(state: State, uid: str, hits: int) -> str:
    """Remove ``hits`` steps from a unit (never more than it has); 5.3 at 0 it is eliminated."""
    unit = state["units"][uid]
    unit["steps"] -= hits
    if unit["steps"] <= 0:
        unit["steps"] = 0
        unit["space"] = data.ELIMINATED
        return f"{name(uid)} takes {plural(hits, 'hit')} and is eliminated."
    return f"{name(uid)} takes {plural(hits, 'hit')} ({plural(unit['steps'], 'step')} left)."


def do_advance(state: State, action: Action, dice: Dice) -> list[str]:
    # 5.4 survivors advance in order-of-battle order until the stacking limit is reached
    pending = state["pending"]
    target = pending["space"]
    movers = surviving_attackers(state, pending)
    going, staying = movers[: room(state, target)], movers[room(state, target) :]
    for uid in going:
        state["units"][uid]["space"] = target
    state["pending"] = None
    events = [f"{names(going)} {verb(going, 'advances', 'advance')} into {target}."]
    if staying:
        events.append(f"Stacking limit: {names(staying)} {verb(staying, 'stays', 'stay')} in {pending['from']}.")
    return events


def do_stay(state: State, action: Action, dice: Dice) -> list[str]:
    pending = state["pending"]
    state["pending"] = None
    return [f"The {side_name(state['side'])} assault force stays in {pending['from']}."]


# --- 9 standing orders ----------------------------------------------------------------


def do_hits(state: State, side: str, order: list[str]) -> list[str]:
    # 9.1 the order in which the side's units take hits from now on; no operation
    hits = state.setdefault("hits", {})
    hits.pop(side, None)
    if order:
        hits[side] = order
        return [f"The {side_name(side)} player's hit order (9.1): {names(order)}."]
    if not hits:
        del state["hits"]
    return [f"The {side_name(side)} player withdraws the hit order (9.1)."]


def give_orders(state: State, action: Action) -> None:
    # 9.2, 9.3 an assault's or bombardment's standing orders, for settle to carry out
    orders = action.get("orders") or {}
    if "advance" in orders:
        state["pending"]["advance"] = orders["advance"]
    if "then" in orders:
        state["then"] = {"side": state["side"], "alternatives": orders["then"]}
        if "advance" in orders:
            state["then"]["advance"] = orders["advance"]


def standing_advance(state: State, pending: dict[str, Any]) -> list[str]:
    # 9.2 the advance or stay ordered with the assault, once the space is cleared (5.4)
    if pending.get("advance") is None or pending["hits_on_defender"] or pending["hits_on_attacker"] \
            or not needs_decision(state, pending):
        return []
    word = "advance" if pending["advance"] else "stay"
    return [f"Standing order (9.2): {word}."] + HANDLERS[word](state, {"do": word}, None)  # type: ignore[arg-type]


def carry_out_then(state: State, dice: Dice) -> list[str]:
    # 9.3 the next operation: the first alternative the rules allow now, else the player decides
    then = state.pop("then")
    if then["side"] != state["side"]:
        return []
    offered = operations_prompt(state).choices
    for alt in then["alternatives"]:
        label = next((c.label for c in offered if c.action == alt), None)
        if label is not None:
            action = dict(alt, orders={"advance": then["advance"]}) if alt["do"] == "assault" and "advance" in then \
                else alt
            return [f"Standing order (9.3): {label}."] + HANDLERS[alt["do"]](state, action, dice)
    return [f"Standing order (9.3): none of its operations is possible now; the {side_name(state['side'])} "
            f"player decides."]


# --- 6 entrenchment ------------------------------------------------------------------


def do_dig(state: State, action: Action, dice: Dice) -> list[str]:
    state["entrenched"] = [s for s in data.SPACES if s in state["entrenched"] or s == action["space"]]
    state["ops"] -= 1
    return [f"The {side_name(state['side'])} units at {action['space']} dig in."]


def abandon_trenches(state: State) -> list[str]:
    # 6.3 an empty space loses its entrenchment, so trenches never pass to the enemy
    lost = [s for s in state["entrenched"] if not units_in(state, s)]
    state["entrenched"] = [s for s in state["entrenched"] if s not in lost]
    return [f"The trenches at {s} are abandoned." for s in lost]


# --- 7 naval bombardment -------------------------------------------------------------


def do_bombard(state: State, action: Action, dice: Dice) -> list[str]:
    target = action["space"]
    n, aim = data.BOMBARDMENT_DICE, data.BOMBARDMENT_TARGET
    hits = dice.pool(n, 6, aim, f"naval bombardment of {target} (hits on {aim})")
    state["ops"] -= 1
    state["bombarded"] = True
    state["pending"] = {
        "kind": "bombardment",
        "space": target,
        "units": [],
        "hits_on_defender": hits,
        "hits_on_attacker": 0,
    }
    give_orders(state, action)
    rolled = roll_text(dice)
    return [f"Naval bombardment of {target}: {dice_count(n)}, hits on {aim}: rolled {rolled}: {plural(hits, 'hit')}."]


# --- 2.3 end of a side's turn ---------------------------------------------------------


def do_end(state: State, action: Action, dice: Dice) -> list[str]:
    unused = state["ops"]
    state["ops"] = 0
    note = f" with {plural(unused, 'operation')} unused" if unused else ""
    return [f"The {side_name(state['side'])} player ends the turn{note}."]


def end_side_turn(state: State) -> list[str]:
    state.pop("then", None)  # 9.3 a standing order lasts the side's turn at most
    if state["side"] == "allied":
        state["side"], state["ops"] = "ottoman", data.OPERATIONS
        return [f"Turn {state['turn']}: the Ottoman player has {data.OPERATIONS} operations."]
    if state["turn"] == data.TURNS:
        state["over"] = True  # 8.2
        return [f"End of turn {data.TURNS}."]
    state["turn"] += 1
    state["side"], state["ops"], state["bombarded"] = "allied", data.OPERATIONS, False
    return [f"Turn {state['turn']}: the Allied player has {data.OPERATIONS} operations."]


HANDLERS: dict[str, Callable[[State, Action, Dice], list[str]]] = {
    "move": do_move,
    "assault": do_assault,
    "hit": do_hit,
    "advance": do_advance,
    "stay": do_stay,
    "dig": do_dig,
    "bombard": do_bombard,
    "end": do_end,
}


# --- after every action ------------------------------------------------------------


def settle(state: State, dice: Dice | None = None) -> list[str]:
    """Apply what needs no decision (forced choices and standing orders, 9), then end the side's
    turn if it has nothing left."""
    events: list[str] = []
    while True:
        pending = state["pending"]
        if pending is not None:
            events += forced_hits(state, pending)
            events += standing_advance(state, pending)
            if state["pending"] is not None and not needs_decision(state, pending):
                state["pending"] = None
        events += abandon_trenches(state)
        if outcome(state) is not None or state["pending"] is not None or "then" not in state or state["ops"] == 0:
            break
        events += carry_out_then(state, dice)  # type: ignore[arg-type]
    if outcome(state) is None and state["pending"] is None and state["ops"] == 0:
        events += end_side_turn(state)
    result = outcome(state)
    if result is not None:
        events.append(f"{headline(result)}.")  # 8 the game ends at once
    return events


def forced_hits(state: State, pending: dict[str, Any]) -> list[str]:
    """5.3 the owner is asked only when the choice matters: one unit to hit, or
    enough hits to eliminate them all, is applied at once; hits nobody can take are lost.
    9.1 a choice that matters goes by the owner's hit order, one hit at a time, if he gave one."""
    events: list[str] = []
    for key, owner, candidates in (
        ("hits_on_defender", other(state["side"]), lambda: units_in(state, pending["space"])),
        ("hits_on_attacker", state["side"], lambda: surviving_attackers(state, pending)),
    ):
        units = candidates()
        while pending[key] and len(units) > 1 and pending[key] < sum(steps(state, uid) for uid in units):
            pick = next((u for u in state.get("hits", {}).get(owner, ()) if u in units), None)
            if pick is None:
                return events  # a real choice; the attacker's hits wait for the defender's (5.3)
            events.append(f"{take_hits(state, pick, 1)[:-1]}, by the hit order (9.1).")
            pending[key] -= 1
            units = candidates()
        hits = pending[key]
        if not hits:
            continue
        for uid in units:
            taken = min(hits, steps(state, uid))
            events.append(take_hits(state, uid, taken))
            hits -= taken
        if hits:
            events.append(f"{plural(hits, 'hit')} lost: no unit left to take {'it' if hits == 1 else 'them'}.")
        pending[key] = 0
    return events


def needs_decision(state: State, pending: dict[str, Any]) -> bool:
    if pending["hits_on_defender"] or pending["hits_on_attacker"]:
        return True
    # 5.4 the attacker decides whether to advance into a space it has cleared
    return (
        pending["kind"] == "assault"
        and not units_in(state, pending["space"])
        and bool(surviving_attackers(state, pending))
    )


# --- 8 victory -----------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    allied, ottoman = units_of(state, "allied"), units_of(state, "ottoman")
    # 8.1 sudden death
    if not allied and not ottoman:
        return Outcome(None, "draw", "both sides have been wiped out")
    if not ottoman:
        return Outcome("allied", "Allied victory", "no Ottoman units are left")
    if not allied:
        return Outcome("ottoman", "Ottoman victory", "no Allied units are left")
    # 8.2 end of turn 5
    if state["over"]:
        holder = occupier(state, data.OBJECTIVE)
        when = f"{data.OBJECTIVE} at the end of turn {data.TURNS}"
        if holder == "allied":
            return Outcome("allied", "Allied victory", f"Allied units alone hold {when}")
        held = "Ottoman units hold" if holder == "ottoman" else "nobody holds"
        return Outcome("ottoman", "Ottoman victory", f"{held} {when}")
    return None


# --- what players see -----------------------------------------------------------------


def describe(view: dict[str, Any]) -> list[str]:
    """A few lines for an e-mail report: the turn, then each space from west to east."""
    result = outcome(view)
    if result is not None:
        lines = [f"Game over in turn {view['turn']}: {result.result} ({result.reason})."]
    else:
        used = "; naval bombardment used" if view["bombarded"] else ""
        left = plural(view["ops"], "operation")
        lines = [f"Turn {view['turn']} of {data.TURNS}: {side_name(view['side'])} player, {left} left{used}."]
    for space in data.SPACES:
        notes = [f"{side_name(s)} base" for s in data.SIDES if data.BASES[s] == space]
        if space == data.OBJECTIVE:
            notes.append("objective")
        if space in view["entrenched"]:
            notes.append("entrenched")
        label = f"{space} ({', '.join(notes)})" if notes else space
        here = [f"{name(uid)} {steps(view, uid)}/{data.UNIT_BY_ID[uid].steps}" for uid in units_in(view, space)]
        lines.append(f"{label}: {', '.join(here) or 'empty'}")
    gone = units_in(view, data.ELIMINATED)
    if gone:
        lines.append(f"Eliminated: {names(gone)}")
    if result is None and view["pending"] is not None:
        lines.append(pending_prompt(view, view["pending"]).text)
    return lines


def view(state: State, side: str | None) -> dict[str, Any]:
    # nothing is hidden in this game: every side (and an observer) sees everything
    return copy_state(state)

"""The game book's own procedures, enforced: the End of Turn Phase of 103.2 (the phases' order
and who acts in each are cadence.py's), the Naval Gunfire cups (103.14), Coastal Defense fire
at units at sea (103.13), beach capacity and the SS River Clyde (103.1, 103.7), landing delays
(103.6), Alarums and Excursions (106.6), Tactical Surprise (106.8), the Krithia naval roll
(102.3), and the end: duration, sudden death and the Peninsula's weighted player victory
(104.5).  Everything else is the series rules, played at
the table with free orders (orders.py)."""

from __future__ import annotations

from typing import Any

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import IllegalAction

from . import data

State = dict[str, Any]


def other(side: str) -> str:
    return data.SIDES[1 - data.SIDES.index(side)]


def need(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalAction(message)


def in_phase(state: State, allowed: tuple[str, ...], what: str) -> None:
    need(state["phase"] in allowed, f"{what} is done in the {' or '.join(data.PHASE_NAMES[p] for p in allowed)}; "
                                    f"this is the {data.PHASE_NAMES.get(state['phase'], state['phase'])}")


def zero_based(state: State) -> bool:
    return state["options"]["d10"] == "0-9"


# -- 103.2: the End of Turn Phase (the phases' passing is cadence.py's) ---------------------------
def end_of_turn(state: State, dice: Dice) -> list[str]:
    """103.2 End of Turn: every Naval Gunfire chit goes back to its cup (each daylight turn draws
    from a full cup of its own: data.pool_name), the beaches are empty again, the turn advances."""
    events = []
    held = [c for c, tok in state["ngf"]["held"].items() if tok]
    if held:
        events.append(f"the Naval Gunfire chits held ({', '.join(held)}) return to their cups unseen")
    state["ngf"] = {"held": {c: None for c in state["ngf"]["held"]}, "drawn": [], "fired": state["ngf"]["fired"]}
    state["landed"], state["counter_rolls"] = {}, 0
    state["clyde"] = False
    state["delays"], state["delayed"] = {}, state["delays"]  # 103.6: this turn's delays fill the next turn's beaches
    if state["turn"] >= state["last"]:
        state["phase"], state["active"] = "victory", "entente"  # the Entente claims first
        return events + [f"{data.label(state['turn'])} was the scenario's last: victory is judged now "
                         f"({'104.5, weighted' if state['scenario'] == 'peninsula' else 'at the table'}); "
                         f"the Entente claims a level, the Ottoman accepts or claims another"]
    state["turn"] += 1
    state["phase"] = "reinforcement"
    events.append(f"now {data.label(state['turn'])}: {data.PHASE_NAMES['reinforcement']}")
    return events + krithia_roll(state, dice)


def krithia_roll(state: State, dice: Dice) -> list[str]:
    """102.3: after Turn 33, at the start of each daylight turn a die: 1 repeats the Mk X
    pre-dreadnought's 8-point Commanded Fire, 2 makes it available as Opportunity Fire only."""
    if state["scenario"] != "krithia" or state["turn"] <= 33 or data.light(state["turn"]) != "day":
        return []
    roll = dice.d10("102.3 Krithia naval fire", zero_based=zero_based(state))
    state["naval"] = {1: "commanded", 2: "opportunity"}.get(roll)
    what = {1: "the Mk X pre-dreadnought fires again: an 8-point Commanded Fire at any valid target",
            2: "the Mk X pre-dreadnought's 8-point fire is available this turn as an Opportunity Fire shot"}
    return [f"102.3 naval roll {roll}: {what.get(roll, 'no naval fire this turn')}"]


# -- 103.14: the Naval Gunfire cups ----------------------------------------------------------------
def due_cups(state: State) -> list[str]:
    """The cups the Entente draws from this turn: its scenario's, on daylight turns only."""
    return list(state["cups"]) if data.light(state["turn"]) == "day" else []


def do_draw_ngf(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    cup = a["cup"]
    need(side == "entente", "only the Entente draws Naval Gunfire chits (103.14)")
    need(cup in state["cups"], f"this scenario draws from {', '.join(state['cups']) or 'no Naval Gunfire cup'}")
    in_phase(state, ("reinforcement",), "103.14: the Naval Gunfire draw")
    need(data.light(state["turn"]) == "day", f"103.14: chits are drawn on daylight turns only; "
                                                 f"{data.label(state['turn'])} is not")
    need(cup not in state["ngf"]["drawn"], f"the {cup} chit of this turn is drawn already (one a turn, 103.14)")
    token = dice.draw_private("entente", data.pool_name(cup, state["turn"]), 1)[0]
    state["ngf"]["held"][cup] = token
    state["ngf"]["drawn"].append(cup)
    return [f"entente draws a Naval Gunfire chit from the {cup} cup, face down: [[{token}]]"]


def do_fire_ngf(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """A fire chit revealed: a new chit is drawn, then the revealed one returns (103.14).  A No
    Fire chit is never revealed: the owner's tool refuses before the chit leaves it."""
    cup = a["cup"]
    need(side == "entente", "only the Entente reveals Naval Gunfire chits")
    token = state["ngf"]["held"].get(cup)
    need(bool(token), f"no {cup} Naval Gunfire chit is held" + (
        "" if data.light(state["turn"]) == "day" else ": chits are drawn on daylight turns only"))
    in_phase(state, ("amphibious-assault", "activations"), "103.14: naval gunfire")
    own = dice.own_item("entente", token)
    need(own is None or not own.startswith("no-fire"), "103.14: the chit held is No Fire: it is never revealed, "
                                                       "and it blocks further draws until the end of the turn")
    item = dice.reveal("entente", token)
    need(not item.startswith("no-fire"), "103.14: a No Fire chit is never revealed")
    pool = data.pool_name(cup, state["turn"])
    new = dice.draw_private("entente", pool, 1)[0]  # 1) draw a new chit, 2) then return the revealed one
    dice.add_private("entente", pool, [item])
    state["ngf"]["held"][cup] = new
    state["ngf"]["fired"].append({"turn": state["turn"], "cup": cup, "chit": item.split("#")[0]})
    return [f"entente reveals the {cup} chit: {data.chit_name(item)} (resolve it with the series rules and the "
            f"Naval Gunfire Selection Table); a new chit is drawn face down, [[{new}]], then the "
            f"{data.chit_name(item)} chit returns to the cup"]


def do_counter_battery(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """103.14 optional rule: after a Counter-Battery chit, three d10 read 000-999; 000 destroys one
    step of the battery.  Once for each Counter-Battery chit revealed this turn."""
    need(state["options"].get("counter_battery_kill", False), "the optional Counter-Battery kill (103.14) is not "
                                                             "in play: the invitation's option counter_battery_kill")
    need(side == "entente", "the Entente rolls for the Counter-Battery kill")
    shots = sum(1 for f in state["ngf"]["fired"] if f["turn"] == state["turn"] and f["chit"] == "counter-battery")
    need(state["counter_rolls"] < shots, "103.14: the kill roll follows a Counter-Battery chit revealed this turn, "
                                         "once for each")
    state["counter_rolls"] += 1
    faces = [dice.d10("103.14 Counter-Battery kill", zero_based=True) for _ in range(3)]
    read = "".join(map(str, faces))
    return [f"103.14 Counter-Battery kill: three d10 read {read}: "
            + ("one step of the battery is destroyed" if read == "000" else "the battery is not hit (only 000)")]


# -- 103.13: Coastal Defense fire at units at sea -------------------------------------------------
def do_cd_fire(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    steps, few = a["steps"], a["few"]
    need(side == "ottoman", "Coastal Defense fire is the Ottoman's (103.13)")
    in_phase(state, ("reinforcement", "amphibious-assault"), "103.13: Coastal Defense fire at units at sea")
    need(type(steps) is int and 1 <= steps <= 60, "say how many steps are at sea under fire, 1 to 60")
    chance = data.CD_CHANCE_FEW if few else data.CD_CHANCE
    hits = []
    for k in range(steps):
        roll = dice.d100(f"103.13 CD fire, step {k + 1} of {steps} ({chance}%)")
        if roll <= chance:
            hits.append(k + 1)
    standing = state.get("cd_standing")  # the steps fired at, for the standing order (cadence.standing_cd_fire)
    if standing is not None and state["phase"] == "amphibious-assault":
        if standing.get("turn") != state["turn"]:
            standing.update(turn=state["turn"], fired=0)
        standing["fired"] += steps
    target = f" at {a['target']}" if a.get("target") else ""
    return [f"ottoman Coastal Defense fire{target}: {steps} step(s) at sea, {chance}% each "
            f"({'three or fewer CD steps in range' if few else 'more than three CD steps in range'}): "
            + (f"step(s) {', '.join(map(str, hits))} destroyed ({len(hits)}); each unit hit checks morale "
               f"(series 16): a failure lands it Confused" if hits else "no step destroyed")]


# -- 103.1, 103.7, 103.6: beach capacity, the River Clyde, landing delays --------------------------
def capacity(state: State, beach: str) -> int:
    printed = state["options"].get("capacity", {})
    return int(printed.get(beach, data.CAPACITY.get(beach, data.DEFAULT_CAPACITY)))


def room_left(state: State, beach: str) -> int:
    used = state["landed"].get(beach, 0)
    delayed = state["delayed"].get(beach, {})
    return capacity(state, beach) - used - 2 * delayed.get("infantry", 0) - delayed.get("artillery", 0)


def do_land(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    beach, clyde = a["beach"], a.get("clyde", False)
    need(side == "entente", "the Entente lands (103.3)")
    need(beach in data.BEACHES or beach in state["options"].get("capacity", {}),
         f"no beach {beach!r}; the beaches: {', '.join(data.BEACHES)}")
    in_phase(state, ("amphibious-assault", "activations"), "103.3: landing")
    if clyde:
        need(beach == "v-beach", "103.7: the SS River Clyde is at V Beach (6.2)")
        steps, what = data.CLYDE_STEPS, "the SS River Clyde's troops (2 steps of capacity whatever it lands, 103.7)"
        need(not state["clyde"], "the River Clyde's landing is counted once a turn")
    else:
        steps, what = a.get("steps"), f"{a.get('steps')} step(s)"
        need(type(steps) is int and steps >= 1, "say how many steps land, 1 or more")
    left = room_left(state, beach)
    need(steps <= left, f"103.1: {data.BEACHES.get(beach, beach)} holds {capacity(state, beach)} steps a turn and has room "
                        f"for {max(left, 0)} more this turn (landed {state['landed'].get(beach, 0)}"
                        + (f", delays from last turn {state['delayed'][beach]}" if beach in state["delayed"] else "")
                        + "); the rest wait as delays (103.6)")
    state["landed"][beach] = state["landed"].get(beach, 0) + steps
    if clyde:
        state["clyde"] = True
    return [f"entente lands {what} at {data.BEACHES.get(beach, beach)}: {max(left - steps, 0)} of "
            f"{capacity(state, beach)} steps of capacity left this turn"]


def do_delay(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """103.6: each delay takes the capacity of 2 infantry steps or 1 artillery step next turn."""
    need(side == "entente", "the Entente records its landing delays (103.6)")
    need(a["kind"] in ("infantry", "artillery"), "a delay is 'infantry' or 'artillery'")
    need(a["beach"] in data.BEACHES or a["beach"] in state["options"].get("capacity", {}), f"no beach {a['beach']!r}")
    need(isinstance(a["count"], int) and a["count"] >= 1, "say how many delays, 1 or more")
    at = state["delays"].setdefault(a["beach"], {})
    at[a["kind"]] = at.get(a["kind"], 0) + a["count"]
    used = a["count"] * (2 if a["kind"] == "infantry" else 1)
    return [f"entente records {a['count']} {a['kind']} delay(s) at {data.BEACHES.get(a['beach'], a['beach'])}: "
            f"{used} step(s) of its capacity next turn (103.6)"]


# -- 106.6 and 106.8: the Free Landing -------------------------------------------------------------
def do_alarums(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    need(state["scenario"] == "free-landing", "106.6 Alarums and Excursions is a Free Landing rule")
    need(side == "ottoman", "Alarums and Excursions delay the Ottoman's released regiments")
    in_phase(state, ("command",), "106.6: Alarums and Excursions")
    missed = a.get("missed", 0)
    need(type(missed) is int and 0 <= missed <= 3, "diversions that did not occur: 0 to 3 (106.10)")
    roll = dice.d10(f"106.6 Alarums and Excursions, {a['regiment']}", zero_based=zero_based(state))
    delay = max(roll - missed, 0) // 3
    state["alarums"].append({"regiment": a["regiment"], "turn": state["turn"], "delay": delay})
    less = f" - {missed} for diversions that did not occur" if missed else ""
    return [f"106.6 Alarums and Excursions: {a['regiment']} accepts its order; d10 ({state['options']['d10']}) "
            f"{roll}{less}, / 3 rounded down: it cannot move for {delay} turn(s)"
            + (f", until turn {state['turn'] + delay + 1}" if delay else "")]


def do_surprise(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    beach = a["beach"]
    need(state["scenario"] == "free-landing", "106.8 Tactical Surprise is rolled in the Free Landing "
                                               "(the historical scenarios script it: 104.3 has it, 104.4 not)")
    need(side == "entente", "the landing side rolls for Tactical Surprise")
    in_phase(state, ("amphibious-assault",), "106.8: Tactical Surprise")
    need(data.light(state["turn"]) != "day", f"106.8: surprise only at night or in morning twilight; "
                                             f"{data.label(state['turn'])} is daylight")
    need(beach in data.BEACHES, f"no beach {beach!r}; the beaches are {', '.join(data.BEACHES)}")
    need(beach not in data.NO_SURPRISE, f"106.8: never possible at {data.BEACHES.get(beach, beach)}")
    need(not a.get("bombarded"), "106.8: a Pre-Landing Naval Bombardment within 20 hexes of the beach negates it")
    roll = dice.d100(f"106.8 Tactical Surprise at {data.BEACHES.get(beach, beach)}")
    won = roll <= data.SURPRISE_AT_MOST
    return [f"106.8 Tactical Surprise at {data.BEACHES.get(beach, beach)}: {roll} "
            f"({'achieved' if won else 'not achieved'}: 80 or less)"]

"""Prompt and apply: what each side may do now (the sequence's phases and combat's pending
decisions) and the effect of each order.  Movement is a free order ("move UNIT to HEX", "sail
BOAT to HEXSIDE"), checked here; everything else is listed."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction, Prompt

from . import (
    board,
    counters,
    entry,
    fight,
    hexmap,
    logistics,
    movement,
    naval,
    plan,
    railroad,
    results,
    sequence,
    standing,
    supply,
)
from .board import enemy, kind, side_of
from .charts import Charts
from .counters import UNITS


def settle(state: dict[str, Any], dice: Any, events: list[dict[str, Any]], charts: Charts) -> None:
    """Run the phases no one decides until someone must decide (forced prompts are skipped)."""
    for _ in range(2000):
        ph = state["phase"]
        if ph == "over":
            return
        if state["pending"]:
            top = state["pending"][-1]
            if top["k"] == "advance" and top["base"].get("advance"):  # 8.1 ordered with the attack
                _apply_pending(state, top["side"], standing.advance(top, events), dice, charts, events)
                continue
            if len(top["choices"]) != 1:
                return
            _apply_pending(state, top["side"], top["choices"][0][1], dice, charts, events)  # forced: no prompt
            continue
        if ph == "survival":
            sequence.begin_turn(state, events)
            continue
        if ph == "mutual":
            side = state["active"]
            if state.get("mutual_done") != side and standing.pending(state, side):  # 3.1: its standing order
                standing.carry_out(state, side, events, _mutual_do)  # it checks each order itself
                state["mutual_done"] = side
            if state.get("mutual_done") != side and sequence.mutual_choices(state, side):
                return
            if side == "turkish":
                state["active"] = "british"
                state["mutual_done"] = None
                continue
            state["mutual_done"] = None
            _start_move(state, "british", events)
            continue
        if ph == "combat" and plan.announcing(state) and state.get("plan") and not state["pending"] \
                and not fight.targets(state, state["active"]):  # 7.0: nothing more to announce
            plan.close(state, state["active"], events)
            continue
        if ph == "combat" and plan.forced(state):  # 7.0: the last announced attack
            f = plan.take(state, {"n": 0})
            if f:
                results.open_defence(state, charts, f, dice, events)
            continue
        if ph == "combat" and not fight.targets(state, state["active"]) and not state.get("plan"):
            _end_combat(state, dice, events)
            continue
        return


def _start_move(state: dict[str, Any], side: str, events: list[dict[str, Any]]) -> None:
    state["phase"] = "move"
    state["ferried"] = []  # 15.4: a ferry serves the phase it is made in
    state["active"] = side
    sequence.reinforce(state, side, events)


def _end_combat(state: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    state["attacked"], state["fired"], state["bt_done"], state["plan"], state["announced"] = [], [], [], [], False
    if state["active"] == "british":
        _start_move(state, "turkish", events)
    else:
        sequence.end_of_turn(state, dice, events)


# -- prompts ---------------------------------------------------------------------------------

def prompt(state: dict[str, Any], charts: Charts) -> Prompt:
    if state["phase"] == "over":
        return Prompt(None, state["result"]["result"])
    if state["pending"]:
        return _pending_prompt(state, charts, state["pending"][-1])
    side, ph = state["active"], state["phase"]
    if ph == "mutual":
        choices = [Choice(w, a) for w, a in sequence.mutual_choices(state, side)]
        return Prompt(side, f"turn {state['turn']}, {side} Mutual Operations (3.1): supply "
                            f"{state['supply'][side]}", tuple(choices + [Choice("done", {"do": "done"})]))
    if ph == "move":
        return Prompt(side, f"turn {state['turn']}, {side} movement (3.21): orders 'move UNIT to HEX', "
                            f"'cross UNIT to HEX', 'sail BOAT to HEXSIDE', 'move depot ID to HEX', "
                            f"'carry UNIT with VAN to HEX', 'place UNIT at HEX' (an arrival, 13.1), "
                            f"'{standing.WORDS}' (your next ones, given now, 3.1), or one of these"
                            + "".join(f"; {w}" for w in over_stacked(state, side)),
                      tuple(move_choices(state, side, charts)), free=True)
    choices = fight.attack_choices(state, side)
    if plan.announcing(state):
        last = [Choice("resolve the announced attacks (7.0)", {"do": "announced"})] if state.get("plan") else \
            [Choice("end combat", {"do": "end"})]
        return Prompt(side, f"turn {state['turn']}, {side} combat (3.22): announce every attack first (7.0), one of "
                            f"these or 'attack HEX with UNIT, UNIT[, expending the depot][, with aeroplanes]' (7.4: "
                            f"some of a hex's units); any attack may end '; advance' (8.1, carried out if the hex "
                            f"is vacated)", tuple(choices + last), free=True)
    last = [] if state.get("plan") else [Choice("end combat", {"do": "end"})]
    return Prompt(side, f"turn {state['turn']}, {side} combat (3.22): resolve the announced attacks in any order (7.4)"
                        + ("; a breakthrough's units may attack again (7.8)" if choices else ""),
                  tuple(plan.resolve_choices(state) + choices + last), free=True)


def over_stacked(state: dict[str, Any], side: str) -> list[str]:
    """6.0, 4.5: a warning for each of the side's hexes over the limit, checked only when its
    movement ends (the campaign's Turks start so at Amara, 16.1)."""
    out = []
    start = "; the campaign's set-up starts so, 16.1" if state["scenario"] in ("campaign", "lightning") else ""
    for h in board.over_stacked_hexes(state, side):
        units = [u for u in board.ground_at(state, h, side) if counters.stack_size(u)]
        load = board.stack_load(state, h, side)
        size = f"{load // 3}" + (f" {load % 3}/3" if load % 3 else "")
        out.append(f"WARNING: {hexmap.label(h)} holds {len(units)} combat units ({size} regiments or brigades), over "
                   f"the limit of {counters.STACK_LIMIT // 3}: move some out before ending movement, or the excess is "
                   f"eliminated then (6.0" + (start if state["turn"] == 1 else "") + ")")
    return out


def move_choices(state: dict[str, Any], side: str, charts: Charts) -> list[Choice]:
    out = []
    for d, v in sorted(state["depots"].items()):
        if v["side"] == side and not v["flipped"]:
            other = "static" if v["mode"] == "mobile" else "mobile"
            out.append(Choice(f"flip the depot at {hexmap.label(v['hex'])} ({d}) to {other} (12.3)",
                              {"do": "flip", "depot": d}))
    mine = [u for u in sorted(state["units"]) if side_of(u) == side]  # every choice below is of our units
    hqs = [x for x in state["units"] if kind(x) == "hq" and side_of(x) == side]  # for every entrenchment
    for uid in mine:
        v = state["units"][uid]
        if kind(uid) == "combat" and not v["moved"] and not v.get("entrenched") \
                and v["at"] in hexmap.ALL_HEXES_SET \
                and not v["oos"] and _near_hq(state, uid, hqs):
            out.append(Choice(f"entrench {counters.name(uid)} at {v['at']} (9.2)", {"do": "entrench", "unit": uid}))
        if kind(uid) == "steamer":
            beside = hexmap.bordering(v["at"])  # embark_ok asks it too: here once a steamer
            for u in mine:
                if state["units"][u]["at"] in beside and naval.embark_ok(state, u, uid):
                    out.append(Choice(f"embark {counters.name(u)} on {counters.name(uid)} (15.3)",
                                      {"do": "embark", "unit": u, "steamer": uid}))
        if v.get("aboard"):
            for h in hexmap.bordering(state["units"][v["aboard"]]["at"]):
                if board.occupied_by(state, h) != enemy(side) and hexmap.terrain(h) != "lake":
                    out.append(Choice(f"land {counters.name(uid)} at {h} (15.3)", {"do": "land", "unit": uid, "hex": h}))
    extra = logistics.ferry_choices(state, side) + logistics.depot_cargo_choices(state, side) \
        + logistics.fort_choices(state, side) + logistics.burn_choices(charts, state, side) \
        + railroad.choices(state, side)
    out.extend(Choice(w, a) for w, a in extra)
    if side == "turkish" and state["turn"] == 1 and "tk-ss-ecbatana" in state["units"]:
        out.append(Choice("scuttle the Ecbatana in the Basra-Qurna channel (16.24)", {"do": "ecbatana"}))
    out.append(Choice("end movement", {"do": "end"}))
    return out


def _near_hq(state: dict[str, Any], uid: str, hqs: list[str]) -> bool:
    """9.2: within the command radius of its parent HQ or a corps HQ (``hqs``: the side's HQs)."""
    at = state["units"][uid]["at"]
    for h in supply.commanders(state, uid) + hqs:
        hat = state["units"][h]["at"]
        if hat in hexmap.ALL_HEXES_SET and hexmap.distance(hat, at) <= UNITS[h]["radius"] \
                and (UNITS[h]["echelon"] != "division" or h == counters.parent_hq(uid)):
            return True
    return False


def _pending_prompt(state: dict[str, Any], charts: Charts, f: dict[str, Any]) -> Prompt:
    return Prompt(f["side"], f["text"], tuple(Choice(w, a) for w, a in f["choices"]))


# -- apply -----------------------------------------------------------------------------------

def apply(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, charts: Charts) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    if action.get("do") == "mutual-plan":  # 3.1: the next Mutual Operations, given now (standing.py)
        standing.give(state, side, action, events)
    elif state["pending"]:
        _apply_pending(state, side, action, dice, charts, events)
    elif state["phase"] == "mutual":
        _mutual(state, side, action, events)
    elif state["phase"] == "move":
        _move(state, side, action, dice, charts, events)
    else:
        _combat(state, side, action, dice, charts, events)
    sequence.update_control(state, events)
    railroad.wreck(state, events)  # 20.1: a Turkish unit entering the line
    settle(state, dice, events, charts)
    return events


def _mutual(state: dict[str, Any], side: str, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    if side != state["active"] or not (action == {"do": "done"} or sequence.mutual_allowed(state, side, action)):
        raise IllegalAction(f"{side} cannot do {action} now (3.1)", [w for w, _ in sequence.mutual_choices(state, side)])
    _mutual_do(state, side, action, events)


def _mutual_do(state: dict[str, Any], side: str, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """A Mutual Operations order already found allowed (``_mutual``, a standing order's check)."""
    do = action["do"]
    if do == "done":
        state["mutual_done"] = side
    elif do == "depot":  # 12.1
        site = action["hex"]
        state["supply"][side] -= supply.DEPOT_COST[side]
        sequence.new_depot(state, side, site)
        events.append({"text": f"{side} create a depot at {hexmap.label(site)} (12.1)"})
    elif do == "replace":  # 13.2
        state["supply"][side] -= 1
        state["units"][action["unit"]]["steps"] = UNITS[action["unit"]]["steps"]
        events.append({"text": f"{counters.name(action['unit'])} is brought back to full strength (13.2)"})


def _move(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, charts: Charts,
          events: list[dict[str, Any]]) -> None:
    do = action.get("do")
    listed = [c.action for c in move_choices(state, side, charts)]
    if do in ("move", "cross"):
        uid, dest = action.get("unit"), action.get("to")
        if uid not in state["units"] or side_of(uid) != side or not board.is_ground(uid):
            raise IllegalAction(f"{uid!r} is not a {side} ground unit on the map")
        v = state["units"][uid]
        why = why_not_move(state, uid)
        if why:
            raise IllegalAction(f"{counters.name(uid)} may not move: {why}")
        if do == "cross":
            if dest not in movement.river_crossings(state, uid):
                raise IllegalAction(f"{counters.name(uid)} cannot cross to {dest} (9.4)")
            path = [v["at"], dest]
            if board.in_enemy_zoc(state, dest, side):
                v["crossed"] = state["turn"]  # 9.4: "may cross into an enemy ZOC but attacks at only half strength"
        else:
            reach = movement.reach(charts, state, uid)
            if dest not in reach:
                raise IllegalAction(f"{counters.name(uid)} cannot reach {dest}: "
                                    f"{movement.why_out_of_reach(charts, state, uid, dest)}", sorted(reach)[:40])
            path = reach[dest][1]
        _arrive(state, uid, path, dice, events)
        return
    if do == "place":  # 13.1, 16.3: where in its arrival area a reinforcement stands
        why = entry.why_not_place(state, side, action.get("unit"), action.get("to"))
        if why:
            raise IllegalAction(f"no placing: {why}")
        entry.place(state, action["unit"], action["to"], events)
        return
    if do == "sail":
        boats = [b for b in action.get("boats", []) if b in state["units"]]
        if not boats or any(side_of(b) != side or kind(b) not in ("gunboat", "steamer") for b in boats):
            raise IllegalAction("sail names boats of your own side")
        start = {state["units"][b]["at"] for b in boats}
        if len(start) != 1 or any(state["units"][b]["moved"] or state["units"][b].get("aground") for b in boats):
            raise IllegalAction("the boats must stand together and not have moved (15.2)")
        at = start.pop()
        if action.get("to") not in naval.route(state, at):
            raise IllegalAction(f"the boats cannot reach {action.get('to')} (15.2)")
        events.append({"text": f"{', '.join(counters.name(b) for b in boats)} sail {at} -> {action['to']} (15.0)"})
        naval.sail(state, boats, action["to"], dice, events)
        return
    if do == "move-depot":  # 12.3
        did, dest = action.get("depot"), action.get("to")
        why = logistics.depot_why_not(state, side, did)
        if why:
            raise IllegalAction(f"depot {did} may not move: {why}")
        if dest not in logistics.depot_reach(charts, state, did):
            raise IllegalAction(f"depot {did} cannot reach {dest} ({logistics.DEPOT_MA} MPs, 12.3)")
        logistics.move_depot(state, did, dest, events)
        return
    if do == "carry":  # 9.6
        van, uid, dest = action.get("van"), action.get("unit"), action.get("to")
        why = logistics.carry_why_not(state, side, van, uid) or (why_not_move(state, uid) if uid in state["units"] else "")
        if why:
            raise IllegalAction(f"no carry: {why}")
        if dest not in logistics.van_routes(charts, state, van, uid):
            raise IllegalAction(f"{counters.name(van)} cannot carry {counters.name(uid)} to {dest} (9.6: 1 MP to pick "
                                "up, never ending next to an enemy unit)")
        logistics.carry(state, van, uid, dest, events)
        return
    if action not in listed:
        raise IllegalAction(f"{side} cannot do {action} now", [c.label for c in move_choices(state, side, charts)])
    if do == "end":
        gap = garrison_gap(state, side, charts)
        if gap:
            raise IllegalAction(f"{hexmap.label(gap)} has lost its garrison and a unit can reach it: send one (16.21)")
        events.append({"text": f"{side} end their movement (3.21)"})
        _end_movement(state, side, events)
    elif do == "flip":
        d = state["depots"][action["depot"]]
        d["mode"] = "static" if d["mode"] == "mobile" else "mobile"
        d["flipped"] = True
        events.append({"text": f"the {side} depot at {hexmap.label(d['hex'])} ({action['depot']}) turns {d['mode']} (12.3)"})
    elif do == "entrench":  # 9.2: half its movement points; here its move for the phase
        state["units"][action["unit"]]["entrenched"] = state["turn"]  # the turn: a fort needs a later one (9.2)
        state["units"][action["unit"]]["moved"] = True
        events.append({"text": f"{counters.name(action['unit'])} entrenches (9.2)"})
    elif do == "embark":
        state["units"][action["unit"]]["aboard"] = action["steamer"]
        state["units"][action["unit"]]["at"] = state["units"][action["steamer"]]["at"]
        events.append({"text": f"{counters.name(action['unit'])} embarks on {counters.name(action['steamer'])} "
                               f"at {state['units'][action['steamer']]['at']} (15.3)"})
    elif do == "land":
        v = state["units"][action["unit"]]
        v.pop("aboard")
        v["at"] = action["hex"]
        v["landed_turn"] = state["turn"]  # 15.3: in supply (not attack supply) this turn
        v["entrenched"] = False
        events.append({"text": f"{counters.name(action['unit'])} lands at {hexmap.label(action['hex'])} (15.3)"})
    elif do == "ecbatana":
        naval.ecbatana(state, dice, events)
    elif do == "ferry":
        logistics.ferry(state, action["steamer"], events)
    elif do == "load":
        logistics.load_depot(state, action["depot"], action["steamer"])
        events.append({"text": f"depot {action['depot']} is loaded on {counters.name(action['steamer'])} (15.3)"})
    elif do == "unload":
        logistics.unload_depot(state, action["depot"], action["hex"])
        events.append({"text": f"depot {action['depot']} is unloaded at {hexmap.label(action['hex'])} (15.3)"})
    elif do == "fort":
        logistics.build_fort(state, action["unit"], events)
    elif do == "burn":
        logistics.burn(state, action["unit"], action["boat"], action["hex"], events)
    elif do in ("rail-roll", "rail", "entrain"):
        railroad.apply(state, action, dice, events)


def garrison_gap(state: dict[str, Any], side: str, charts: Charts) -> str:
    """16.21: a captured Nasirya, Basra or Ahwaz whose garrison was eliminated "must be
    replaced": the British may not end their movement while one stands empty and a combat
    unit that has not moved can reach it (ours: if none can, nothing is asked)."""
    if side != "british":
        return ""
    for h in sequence.garrison_hexes(state):
        if any(kind(u) == "combat" for u in board.ground_at(state, h, side)) or board.occupied_by(state, h):
            continue
        for uid in sorted(state["units"]):
            v = state["units"][uid]
            if side_of(uid) == side and kind(uid) == "combat" and v["at"] in hexmap.ALL_HEXES_SET \
                    and not why_not_move(state, uid) and h in movement.reach(charts, state, uid):
                return h
    return ""


def why_not_move(state: dict[str, Any], uid: str) -> str:
    """Why a ground unit may not be given a move order now, or ""."""
    v = state["units"][uid]
    if v["moved"]:
        return "it has moved already this phase (4.1)"
    if v.get("aboard"):
        return "it is aboard a steamer (15.3): land it first"
    held = movement.held(state, uid)
    if held:
        return held + " (16.3)"
    if sequence.leaves_garrison(state, uid):
        return f"it is the garrison of {hexmap.label(v['at'])} (16.21)"
    return ""


def _arrive(state: dict[str, Any], uid: str, path: list[str], dice: Any, events: list[dict[str, Any]]) -> None:
    """The unit moves along its path; what it finds at the end: lone support units destroyed
    (9.0), depots captured or escaping (12.6)."""
    side = side_of(uid)
    v = state["units"][uid]
    dest = path[-1]
    v["at"], v["moved"], v["entrenched"] = dest, True, False
    events.append({"text": f"{counters.name(uid)} moves {path[0]} -> {hexmap.label(dest)}"})
    for u in board.ground_at(state, dest, enemy(side)):
        del state["units"][u]
        state["lost"].append(u)
        events.append({"text": f"{counters.name(u)}, alone, is destroyed (9.0)"})
    for d in board.depots_at(state, dest, enemy(side)):
        dep = state["depots"][d]
        if dep["mode"] == "static":
            dep["side"] = side
            events.append({"text": f"the static depot at {hexmap.label(dest)} is captured (12.6)"})
            continue
        die = dice.roll(6, f"capture of the depot at {dest} (12.6)")
        if die <= 2:
            dep["side"] = side
            events.append({"text": f"the depot at {hexmap.label(dest)} is captured ({die}, 12.6)"})
        else:
            escape = _depot_escape(state, dest, enemy(side))
            if escape:
                dep["hex"] = escape
                events.append({"text": f"the depot escapes to {hexmap.label(escape)} ({die}, 12.6)"})
            else:
                dep["side"] = side
                events.append({"text": f"the depot has nowhere to go and is captured ({die}, 12.6)"})


def _depot_escape(state: dict[str, Any], h: str, owner: str) -> str | None:
    """12.6: a mobile depot that escapes moves up to 6 MPs at once (ours: to the free hex within
    6 that is nearest its home, not next to the enemy that came)."""
    home = board.HOME[owner]
    near = [x for x in hexmap.ALL_HEXES if 0 < hexmap.distance(x, h) <= supply.SUPPLY_RANGE
            and board.occupied_by(state, x) is None and hexmap.terrain(x) != "lake"]
    return min(near, key=lambda x: (hexmap.distance(x, home), x)) if near else None


def _end_movement(state: dict[str, Any], side: str, events: list[dict[str, Any]]) -> None:
    """6.0: over-stacked hexes lose units at the owner's choice; then the combat phase."""
    over = board.over_stacked_hexes(state, side)
    if over:
        h = over[0]
        choices = [[f"eliminate {counters.name(u)} at {h} (6.0 over-stacking)", {"do": "eliminate", "unit": u}]
                   for u in board.ground_at(state, h, side) if counters.stack_size(u)]
        state["pending"].append({"k": "overstack", "side": side, "text": f"{h} is over-stacked (6.0)",
                                 "choices": choices})
        return
    state["phase"] = "combat"
    state["ferried"] = []


# -- combat ----------------------------------------------------------------------------------

def _combat(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, charts: Charts,
            events: list[dict[str, Any]]) -> None:
    if side != state["active"]:
        raise IllegalAction(f"it is {state['active']}'s combat phase")
    do = action.get("do")
    if do == "end" and not state.get("plan"):
        _end_combat(state, dice, events)
        return
    if do == "announced" and plan.announcing(state) and state.get("plan"):
        plan.close(state, side, events)
        return
    if do == "resolve" and not plan.announcing(state):
        f = plan.take(state, action)
        if f:
            results.open_defence(state, charts, f, dice, events)
        return
    if do != "attack":
        raise IllegalAction(f"{side} cannot do {action} now (3.22)")
    if action.get("advance", True) is not True:
        raise IllegalAction("an attack's advance is ordered as 'advance' (8.1)")
    if "units" in action:
        why = fight.why_not_attack(state, side, action)
        if why:
            raise IllegalAction(f"no attack: {why}")
    elif {k: v for k, v in action.items() if k != "advance"} not in [c.action for c in fight.attack_choices(state, side)]:
        raise IllegalAction(f"{side} cannot make that attack now (7.4)", [c.label for c in fight.attack_choices(state, side)])
    if plan.announcing(state):  # 7.0: announced now, resolved after the announcement
        plan.announce(state, side, action)
        return
    f = fight.declare(state, side, action)  # 7.8: a breakthrough's further attack, at once
    results.open_defence(state, charts, f, dice, events)


def _apply_pending(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, charts: Charts,
                   events: list[dict[str, Any]]) -> None:
    f = state["pending"].pop()
    if action not in [a for _, a in f["choices"]]:
        state["pending"].append(f)
        raise IllegalAction(f"{side} cannot do {action} now: {f['text']}", [w for w, _ in f["choices"]])
    if f["k"] == "overstack":
        state["units"].pop(action["unit"])
        state["lost"].append(action["unit"])
        events.append({"text": f"{counters.name(action['unit'])} is eliminated for over-stacking (6.0)"})
        _end_movement(state, side, events)
        return
    results.apply_pending(state, f, side, action, dice, charts, events)

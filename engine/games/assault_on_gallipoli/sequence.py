"""The turn sequence (3), activation rounds and passing (4, 19), Morale Advantage (18), ship
placement (16.2), digging (13.2), commanders (15.4.3) and victory (1.2-1.3, 7.6)."""

from __future__ import annotations

import copy
from itertools import combinations
from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board, cards, closecombat, discards, effects, fire, leadorder, luck, move, plans, scenarios, standing
from .activation import dig_choices, fire_cands, killing_time_start
from .board import enemy, kind, name, units_at
from .data import SIDES
from .dataset import current



def new_state(scenario: str, options: dict[str, Any]) -> dict[str, Any]:
    sc = scenarios.resolved(scenario, options)  # with the optional Leaders (22) the options ask for
    waves = copy.deepcopy(sc["waves"])
    state: dict[str, Any] = {
        "scenario": scenario, "options": options, "turn": 1,
        "turns": min(options.get("turns") or sc["turns"], sc["turns"]),
        "kt": 0, "ma": sc["morale"], "units": {}, "lost": {s: [] for s in SIDES}, "lost_before": {s: 0 for s in SIDES},
        "control": {}, "cubes": dict(sc["cubes"]), "trenches": dict(sc["trenches"]),
        "wire": list(sc["wire"]), "reinforcements": {s: {} for s in SIDES}, "next_reinf": {s: {} for s in SIDES},
        "fleet": copy.deepcopy(sc["ships"]), "waves": waves if sc["landing"] else [], "passes": 0,
        "clock": 0, "result": None, "frames": [{"k": "turn", "phase": "cleanup"}],
        "ccdeck": closecombat.new_decks(), "off": list(sc["off"]),  # off: areas not in play (Scenarios 3, 4)
        "ac": cards.new_cards(scenario),  # 17: the Action Cards
    }
    for area, units in sc["setup"].items():
        for u in units:
            state["units"][u] = {"at": area, "fresh": True}
    board.update_control(state)
    return state


def casualties(state: dict[str, Any], side: str) -> int:
    total = sum(board.loss_value(u) for u in state["lost"][side])
    if state["options"].get("casualties") == "turn":  # option: only the turn just played counts
        return max(0, total - state["lost_before"][side])  # a Field Hospital may bring back an older loss
    return total  # default: cumulative, as 18.4 "add up all your casualties" reads


# ------------------------------------------------------------------ 3 the turn
def sequence(state: dict[str, Any], f: dict[str, Any], dice: Any, events: list) -> bool:
    """Advance the turn frame by one phase; False when a decision is needed or the game is over."""
    phase = f["phase"]
    if state["result"]:
        return False
    if phase == "cleanup":  # 3.1: every exhausted unit back to fresh; ships taken up to be placed again
        for u in list(state["units"]):
            if kind(u) == "ship":
                del state["units"][u]
            else:
                state["units"][u]["fresh"] = True
        for side in SIDES:
            state["reinforcements"][side].update(state["next_reinf"][side])
            state["next_reinf"][side] = {}
            turn = scenarios.resolved(state["scenario"], state["options"])["reinforcements"].get(state["turn"], {})
            state["reinforcements"][side].update({g: [e, list(us)] for g, (e, us) in turn.get(side, {}).items()})
        state["kt"] = killing_time_start(state)  # 19.2
        state["passes"] = 0
        cards.end_turn(state)  # 17.9: Night Attack leaves play
        events.append({"text": f"turn {state['turn']} begins; Killing Time at {state['kt']}"})
        f["phase"] = "morale"
    elif phase == "morale":
        if state["turn"] > 1:
            morale(state, dice, events)
        for side in SIDES:
            state["lost_before"][side] = sum(board.loss_value(u) for u in state["lost"][side])
        f["phase"] = "cards"
    elif phase == "cards":  # 3.3, 17.2-17.3, 18.1: hands dealt on turn 1, refilled after the Morale Advantage
        f["phase"] = "ships"
        cards.draw_phase(state)
        discards.lapse(state, events)
    elif phase == "ships":  # 16.2: Turkish ships in Khetia Bay, the ANZAC player places his
        for u in state["fleet"]["turkish"]:
            state["units"][u] = {"at": board.tagged("khetia")[0], "fresh": True}
        f["phase"] = "activation"
        state["frames"].append({"k": "round", "side": state["ma"], "acted": False})  # 18.1: the holder first
        state["ac"]["round"] = cards.new_round(state["ma"])
        left = standing.place_planned(state, events)  # those given with the draw, first
        if left:  # placed before the first round
            state["frames"].append({"k": "ships", "left": left})
    elif phase == "activation":
        f["phase"] = "close"
    elif phase == "close":  # 10.1: every contested area fights once, in the Morale Advantage holder's order
        fights = closecombat.pending(state, f.setdefault("fought", []))
        planned = standing.next_combat(state, fights) if len(fights) > 1 else None
        if not fights:
            f.pop("fought")
            f["phase"] = "victory"
            standing.lapse(state)
            leadorder.lapse(state)
        elif len(fights) == 1:
            start_combat(state, fights[0], events)
        elif planned:  # the holder's order, given with his pass (standing.py)
            start_combat(state, planned, events)
            events.append({"text": f"{state['ma']}'s standing order picks it (10.1.2)"})
        else:
            state["frames"].append({"k": "ccorder", "side": state["ma"], "areas": fights})
    elif phase == "victory":
        victory(state, events)
        if not state["result"]:
            if state["waves"]:  # provisional: boats not landed on turn 1 come in at ANZAC Cove (20.5)
                for i, boat in enumerate(b for w in state["waves"] for b in w):
                    state["next_reinf"]["anzac"][f"boat {i + 1}"] = ["anzac-cove", boat]
                state["waves"] = []
            state["turn"] += 1
            f["phase"] = "cleanup"
    return not state["result"]


def start_combat(state: dict[str, Any], area: str, events: list) -> None:
    state["frames"][0].setdefault("fought", []).append(area)
    state["frames"].append(closecombat.new_combat(state, area))
    events.append({"text": f"close combat at {name(area)} (10)"})


def do_order(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """10.1.2: the Morale Advantage holder picks the next close combat."""
    state["frames"].pop()
    start_combat(state, action["at"], events)


def morale(state: dict[str, Any], dice: Any, events: list) -> None:
    """18.3-18.5: each rolls a d10, the side with more casualties adds the difference; the lower
    score wins; a tie leaves the Advantage where it is."""
    loss = {s: casualties(state, s) for s in SIDES}
    diff = abs(loss["anzac"] - loss["turkish"])
    score = {}
    for s in SIDES:
        roll = dice.roll(10, f"{s} Morale Advantage (18.3)")
        score[s] = roll + (diff if loss[s] > loss[enemy(s)] else 0)
    if score["anzac"] != score["turkish"]:
        state["ma"] = min(SIDES, key=lambda s: score[s])
    events.append({"text": f"Morale Advantage: anzac {score['anzac']}, turkish {score['turkish']} "
                           f"(casualties {loss['anzac']}/{loss['turkish']}): {state['ma']} holds it (18)"})


def victory(state: dict[str, Any], events: list) -> None:
    """7.6-7.7: cubes take the colour of the area's controller; 1.3 sudden death; 1.2 at the end."""
    for a in sorted(state["cubes"]):  # the scenario's VP areas
        side = board.controller(state, a)
        if side and state["cubes"][a] != side:
            state["cubes"][a] = side
            events.append({"text": f"{side} takes the VP cube at {name(a)} (7.6)"})
    vp = {s: sum(1 for c in state["cubes"].values() if c == s) for s in SIDES}
    events.append({"text": f"turn {state['turn']} ends: VP anzac {vp['anzac']}, turkish {vp['turkish']}"})
    if board.controller(state, "mal-tepe") == "anzac":
        state["result"] = {"winner": "anzac", "result": "ANZAC victory", "reason": "ANZAC control Mal Tepe (1.3)"}
    elif board.controller(state, "anzac-cove") == "turkish":
        state["result"] = {"winner": "turkish", "result": "Turkish victory", "reason": "Turks control ANZAC Cove (1.3)"}
    elif vp["anzac"] >= 6 and scenarios.of(state)["sudden_death_vp"]:  # not in Scenario 2
        state["result"] = {"winner": "anzac", "result": "ANZAC victory", "reason": f"ANZAC hold {vp['anzac']} VP (1.3)"}
    elif state["turn"] >= state["turns"]:
        winner = max(SIDES, key=lambda s: vp[s]) if vp["anzac"] != vp["turkish"] else None
        state["result"] = {"winner": winner, "result": f"{winner.upper() if winner == 'anzac' else 'Turkish'} victory"
                           if winner else "draw", "reason": f"VP at the end: {vp['anzac']} to {vp['turkish']} (1.2)"}


# ------------------------------------------------------------------ 16.2 ships
def sea_areas(state: dict[str, Any]) -> str:
    """16.2: where the Aegean Sea areas lie, each with the coast it borders (our map's: provisional)."""
    ours = "map" not in current().supplied
    coast = [f"{name(a)} off {', '.join(name(b) for b in sorted(board.adj(a)) if not board.is_sea(b))}"
             for a in board.tagged("aegean") if a not in state["off"]]
    return ("the Aegean Sea areas lie along the map's left-hand edge, the peninsula's west (Aegean) coast (16.2)"
            + (", numbered north to south (our numbering and coast, provisional)" if ours else "")
            + ": " + "; ".join(coast))


def ship_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    u = f["left"][0]
    return [Choice(f"place {board.unit_name(u)} in {name(a)}", {"do": "place", "unit": u, "at": a})
            for a in board.tagged("aegean") if len(units_at(state, a, "anzac")) < board.SEA_LIMIT and a not in state["off"]]


def do_ships(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    state["units"][action["unit"]] = {"at": action["at"], "fresh": True}
    f["left"].pop(0)
    if not f["left"]:
        state["frames"].pop()


# ------------------------------------------------------------------ 4 the activation round
def refresh_choices(state: dict[str, Any], side: str, area: str) -> list[Choice]:
    """15.4.3-15.4.4: a fresh Divisional commander or C-in-C flips to make one unit fresh."""
    out = []
    for c in units_at(state, area, side):
        if kind(c) == "leader" and board.rank(c) >= 2 and state["units"][c]["fresh"]:
            tired = [u for u in units_at(state, area, side) if u != c and not state["units"][u]["fresh"]]
            out += [Choice(f"{board.unit_name(c)} refreshes {board.unit_name(u)}", {"do": "refresh", "by": c, "unit": u})
                    for u in tired]
            if board.rank(c) == 4:  # 22: Hamilton and von Sanders refresh any TWO units
                out += [Choice(f"{board.unit_name(c)} refreshes {board.unit_name(u)} and {board.unit_name(v)}",
                               {"do": "refresh", "by": c, "unit": u, "also": v}) for u, v in combinations(tired, 2)]
    return out


def round_choices(state: dict[str, Any], side: str) -> list[Choice]:
    out = []
    areas = sorted({v["at"] for u, v in state["units"].items() if board.side_of(u) == side})
    for a in areas:
        if fire_cands(state, side, a):
            out.append(Choice(f"fire from {name(a)}", {"do": "fire", "from": a}))
        if move.can_move_from(state, side, a):
            out.append(Choice(f"move from {name(a)}", {"do": "move", "from": a}))
        out += dig_choices(state, side, a) + refresh_choices(state, side, a)
    for g, (entry, units) in sorted(state["reinforcements"][side].items()):
        if move.can_enter(state, side, entry, units):
            out.append(Choice(f"bring on group {g} at {name(entry)}", {"do": "reinforce", "group": g}))
    if side == "anzac" and state["waves"]:
        for i, boat in enumerate(state["waves"][0]):
            units = ', '.join(board.unit_name(u) for u in boat)
            out.append(Choice(f"land a boat: {units}", {"do": "land", "boat": i}))
            out.append(Choice(f"land a boat with a landing plan for each beach: {units}",  # RULES.md, "Hand-overs"
                              {"do": "land", "boat": i, "plan": True}))
    return out


def round_prompt_choices(state: dict[str, Any], side: str) -> list[Choice]:
    if state["frames"][-1].get("pass"):  # its discards sealed (discards.py): the pass they came with
        return [Choice("pass", {"do": "pass"})]
    return (round_choices(state, side) + [Choice("pass", {"do": "pass"})] + standing.pass_choices(state, side)
            + discards.pass_choices(state, side) + leadorder.round_choices(state, side))


def do_round(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    side, do = f["side"], action["do"]
    if do == "land" and action.get("plan"):  # a standing order first: the roll comes once it is made
        state["frames"].append(plans.new(action["boat"]))
        return
    if do == "pass" and action.get("order"):  # the close combat order first, then the pass (standing.py)
        state["frames"].append(standing.new(side, state))
        return
    if do == "pass" and action.get("discards"):  # the sealed discards first, then the pass (discards.py)
        state["frames"].append(discards.new(side))
        return
    if do == "leads":  # the lead order, sealed; the Round's decision is still to make (leadorder.py)
        state["frames"].append(leadorder.new(side))
        return
    f["acted"] = True
    if do != "pass":
        state["passes"] = 0
    if do == "pass":  # 4.4, 19.6
        roll = luck.roll(state, dice, "pass", side, "pass (4.4)", events)
        state["passes"] += 1
        if roll >= 8 and state["kt"] > 0:
            state["kt"] -= 1
        events.append({"text": f"{side} passes, rolls {roll}: Killing Time {state['kt']}"})
    elif do == "fire":
        a = action["from"]
        state["frames"].append(fire.new_fire(state, side, a, "standard", fire_cands(state, side, a),
                                             [u for u in units_at(state, a, side) if kind(u) == "leader"]))
    elif do == "move":
        state["frames"].append(move.new_move(side, action["from"]))
    elif do == "dig":
        area = state["units"][action["units"][0]]["at"]
        for u in action["units"]:
            state["units"][u]["fresh"] = False
        state["trenches"][area] = 2 if len(action["units"]) == 2 or state["trenches"].get(area) else 1
        events.append({"text": f"{side} digs: {'deep' if state['trenches'][area] == 2 else 'shallow'} trench "
                               f"at {name(area)} (13.2)"})
    elif do == "refresh":
        state["units"][action["by"]]["fresh"] = False
        state["units"][action["unit"]]["fresh"] = True
        if "also" in action:  # 22
            state["units"][action["also"]]["fresh"] = True
        made = " and ".join(board.unit_name(action[k]) for k in ("unit", "also") if k in action)
        events.append({"text": f"{board.unit_name(action['by'])} makes {made} fresh (15.4.3)"})
    elif do == "reinforce":
        move.bring_on(state, side, action["group"], events)
    elif do == "land":
        move.land(state, action["boat"], dice, events)
    else:
        raise IllegalAction(f"no {do} in a round")


def end_round(state: dict[str, Any], f: dict[str, Any], events: list) -> None:
    """4.5, 19.7: the phase ends when Killing Time is 0, both passed in a row, or nobody can act.
    Coordinated Attack played for after the Round fires first; Keep Moving gives the same side
    the next Round."""
    r = state["ac"]["round"]
    hero = effects.heroes_after(state)
    if hero:  # Heroic Act played during the Round: the unit acts right after it
        state["frames"].append(hero)
        events.append({"text": f"{hero['side']}'s Heroic Act: {board.unit_name(hero['unit'])} may act now"})
        return
    if r["after"]:
        r["after"] -= 1
        if effects.arty(state, f["side"]):
            state["frames"].append(effects.coordinated(state, f["side"]))
            events.append({"text": f"{f['side']}'s Coordinated Attack: an extra Round of artillery fire (8.4.2)"})
            return
    state["frames"].pop()
    board.lone_leaders(state, events)
    board.update_control(state)
    over = state["kt"] <= 0 or state["passes"] >= 2 or not any(round_choices(state, s) for s in SIDES)
    if over:
        events.append({"text": "the Activation Phase is over (4.5)"})
        return
    standing.lapse(state)  # a close combat order given with a pass that did not end the phase
    side = f["side"] if r["extra"] else enemy(f["side"])
    if r["extra"]:
        events.append({"text": f"Keep Moving: {side} plays another Round"})
    state["frames"].append({"k": "round", "side": side, "acted": False})
    state["ac"]["round"] = dict(cards.new_round(side), extra=max(0, r["extra"] - 1))

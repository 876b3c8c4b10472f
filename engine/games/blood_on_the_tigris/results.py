"""What a combat result asks of each side on the map (7.0-7.8, 8.0-8.1): the defence decision,
the CRT's step losses, 7.61's retreats instead of losses, 7.7's counterattack, 7.8's
breakthrough, retreats and advances.

Step losses (7.6) go by the option ``losses``: "strongest" (the default: each step to the
strongest unit left, a fixed order that spares a hand-over per combat) or "owner" (the owning
player picks the unit for each step when there is a real choice).  A choice waits in a pending
frame; what follows the losses is named by a continuation (``then`` and its JSON ``ctx``) that
runs once every step is taken, so the same code serves both options.
"""

from __future__ import annotations

from typing import Any

from . import board, combat, counters, fight, hexmap, movement, naval, supply
from .board import kind
from .charts import Charts
from .counters import UNITS

LOSSES = ("strongest", "owner")


def listed(choices: list) -> list[list[Any]]:
    """A pending decision's (label, action) pairs as the state holds them: lists, as JSON reads
    them back (a refereed view is canonical JSON, which has no tuples)."""
    return [[label, action] for label, action in choices]


def owner_chooses(state: dict[str, Any]) -> bool:
    return state["options"].get("losses", "strongest") == "owner"


# -- the attack ----------------------------------------------------------------------------------

def open_defence(state: dict[str, Any], charts: Charts, f: dict[str, Any], dice: Any,
                 events: list[dict[str, Any]]) -> None:
    hit = [f["target"]] + ["@" + u for u in board.ground_at(state, f["target"], f["side"])]  # 7.4
    state["attacked"].extend(h for h in hit if h not in state["attacked"])  # (announced already: plan.py)
    state["fired"].extend(u for u in f["units"] if u not in state["fired"])
    if any(UNITS[u].get("division") == "35th" for u in board.ground_at(state, f["target"], "turkish")):
        state["released_35"] = True  # 16.22: released once attacked
    options = fight.defend_choices(state, f)
    if len(options) == 1:
        resolve(state, charts, f, options[0].action, dice, events)
        return
    f["text"] = f"{f['attacker']} attack {hexmap.label(f['target'])}: decide the defence (7.2, 7.1)"
    f["choices"] = [[c.label, c.action] for c in options]
    state["pending"].append(f)


def resolve(state: dict[str, Any], charts: Charts, f: dict[str, Any], answer: dict[str, Any], dice: Any,
            events: list[dict[str, Any]]) -> None:
    a_side, d_side, t = f["attacker"], f["side"], f["target"]
    fighters = fight.planes_for(state, d_side, t, intercept=True) if answer.get("intercept") else []
    bombers = fight.air_combat(state, charts, f, fighters, dice, events)
    att_units = [u for u in f["units"] if u in state["units"]]
    defenders = board.ground_at(state, t, d_side)
    for s, units, use in ((a_side, att_units, f["depot"]), (d_side, defenders, answer["depot"])):
        if use:
            src = supply.combat_source(state, units)
            if supply.can_expend(state, src, s):
                events.append({"text": supply.expend(state, src, s)})
    attack = fight.build(state, charts, f, f["depot"], answer["depot"], bombers)
    res = combat.resolve(charts, attack, dice, state["options"].get("combat"), f"combat at {t} (3.22)")
    s = res.setup
    events.append({"text": f"{a_side} attack {hexmap.label(t)}: {s.attack} against {s.defence}, column "
                           f"{s.column_label}, DRM {s.drm:+d}, die {res.die}: {res.result.text}"})
    losses = combat.defender_losses(res.result, d_side)
    if res.result.breakthrough and f.get("no_bt"):  # 7.8: a second breakthrough: no more movement
        losses = combat.DefenderLosses(combat.BREAKTHROUGH_STEPS, 0, losses.retreat_hexes,
                                       forced_retreat=combat.BREAKTHROUGH_RETREAT)
    ctx = {"base": {"attacker": a_side, "target": t, "units": att_units, "no_bt": f.get("no_bt", False),
                    "boats": fight.gunboats_by(state, a_side, t)},  # 7.6 added: gunboats may advance
           "d_side": d_side, "steps": losses.steps, "optional": losses.optional, "rate": losses.retreat_hexes,
           "forced": losses.forced_retreat, "engaged": res.result.engaged,
           "bt": res.result.breakthrough and not f.get("no_bt")}
    if f.get("advance"):
        ctx["base"]["advance"] = True  # 8.1 ordered with the attack: carried out by rules.settle
    take_steps(state, charts, a_side, att_units, res.result.attacker_steps, "defender", ctx, dice, events)


def _defender(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    """After the attacker's losses: the defender's (7.6, 7.8)."""
    base = ctx["base"]
    base["units"] = [u for u in base["units"] if u in state["units"]]
    if ctx["forced"]:
        ask_retreat(state, charts, base, ctx["d_side"], ctx["forced"], ctx["steps"], "breakthrough" if ctx["bt"] else "")
        return
    defenders = board.ground_at(state, base["target"], ctx["d_side"])
    take_steps(state, charts, ctx["d_side"], defenders, ctx["steps"], "defended", ctx, dice, events)


def _defended(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    """After the defender's required losses: 7.61's option, 7.7's engaged, or an advance."""
    base, d_side = ctx["base"], ctx["d_side"]
    if not board.ground_at(state, base["target"], d_side):
        offer_advance(state, base, [base["target"]])
    elif ctx["optional"]:
        ask_losses(state, charts, base, d_side, ctx["optional"], ctx["rate"], ctx["engaged"])
    elif ctx["engaged"]:
        ask_engaged(state, charts, base, d_side)


# -- step losses (7.6) ------------------------------------------------------------------------

def take_steps(state: dict[str, Any], charts: Charts, side: str, units: list[str], n: int, then: str,
               ctx: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    """Take ``n`` step losses from ``units`` (7.6: "if at all possible"; combat units first,
    then support units and HQs; gunboats and aircraft never, 7.61), then continue with
    ``then``.  The owner is asked only if the option says so and several units could take it."""
    while n > 0:
        left = [u for u in units if u in state["units"] and board.is_ground(u)]
        if not left:
            break
        fit = [u for u in left if kind(u) == "combat"] or left
        if owner_chooses(state) and len(fit) > 1:
            choices = [(f"{counters.name(u)} takes the step loss ({n} to take, 7.6)", {"do": "step", "unit": u})
                       for u in sorted(fit)]
            state["pending"].append({"k": "steps", "side": side, "units": left, "n": n, "then": then, "ctx": ctx,
                                     "choices": listed(choices), "text": f"{side}: choose who loses a step ({n} to take, 7.6)"})
            return
        fight.allocate(state, fit, 1, events)
        n -= 1
    CONTINUE[then](state, charts, ctx, dice, events)


# -- 7.61, 7.7, 7.8 the defender's options -----------------------------------------------------

def ask_losses(state: dict[str, Any], charts: Charts, base: dict[str, Any], d_side: str, optional: int,
               rate: int, engaged: bool) -> None:
    """7.61: each further loss may be a retreat at the national rate instead."""
    t = base["target"]
    units = board.ground_at(state, t, d_side)
    choices = [(f"take {optional} more step loss(es) at {t}", {"do": "losses", "retreats": 0, "to": ""})]
    for k in range(1, optional + 1):
        for path, extra in fight.retreat_choices(charts, state, units, k * rate, base["units"]):
            choices.append((f"take {optional - k} more, retreat {k * rate} hexes{retreat_words(path, extra, k * rate)}"
                            " (7.61, 8.0)", {"do": "losses", "retreats": k, "to": path[-1]}))
    state["pending"].append({"k": "losses", "side": d_side, "base": base, "optional": optional, "rate": rate,
                             "engaged": engaged, "choices": listed(choices),
                             "text": f"the defenders of {t} may retreat instead of further losses (7.61)"})


def retreat_words(path: list[str], extra: int, n: int) -> str:
    """" to HEX", with what the path costs (8.0): steps lost to enemy ZOCs entered and to an
    over-stacked hex retreated through."""
    words = f" to {hexmap.label(path[-1])}"
    if len(path) - 1 > n:
        words += f" (on past the over-stacked {path[n]})"
    return words + (f", losing {extra} step(s) on the way" if extra else "")


def ask_retreat(state: dict[str, Any], charts: Charts, base: dict[str, Any], d_side: str, hexes: int, steps: int,
                then: str) -> None:
    """7.8: a breakthrough retreats 4 hexes, then loses 2 steps."""
    t = base["target"]
    units = board.ground_at(state, t, d_side)
    paths = fight.retreat_choices(charts, state, units, hexes, base["units"])
    choices = [(f"retreat{retreat_words(p, x, hexes)}", {"do": "retreat", "to": p[-1]}) for p, x in paths]
    if not choices:
        choices = [("the stack cannot retreat and is eliminated (8.0)", {"do": "retreat", "to": ""})]
    state["pending"].append({"k": "retreat", "side": d_side, "base": base, "hexes": hexes, "steps": steps,
                             "then": then, "text": f"the defenders of {t} must retreat {hexes} hexes (7.8)",
                             "choices": listed(choices)})


def ask_engaged(state: dict[str, Any], charts: Charts, base: dict[str, Any], d_side: str) -> None:
    """7.7: counterattack one attacking hex, or (added) a step more and a retreat."""
    t = base["target"]
    units = board.ground_at(state, t, d_side)
    hexes = sorted({state["units"][u]["at"] for u in base["units"] if u in state["units"] and board.is_ground(u)})
    choices = fight.counter_choices(state, d_side, units, hexes)
    for path, extra in fight.retreat_choices(charts, state, units, combat.RETREAT_HEXES[d_side], base["units"]):
        choices.append((f"lose a step and retreat{retreat_words(path, extra, combat.RETREAT_HEXES[d_side])} (7.7 added)",
                        {"do": "engaged-retreat", "to": path[-1]}))
    if choices:
        state["pending"].append({"k": "engaged", "side": d_side, "base": base, "choices": listed(choices),
                                 "text": f"engaged at {t}: counterattack or retreat (7.7)"})


# -- 8.0 retreats, 8.1 advances, 7.8 breakthrough movement -------------------------------------

def offer_advance(state: dict[str, Any], base: dict[str, Any], path: list[str]) -> None:
    """8.1: units that took part may advance into the vacated hexes."""
    choices = []
    a_side = base["attacker"]
    for u in base["units"]:
        if u not in state["units"] or not board.is_ground(u):
            continue
        for h in movement.advance_hexes(state, u, path):
            if board.stack_load(state, h, a_side) + counters.stack_size(u) <= counters.STACK_LIMIT:
                choices.append((f"advance {counters.name(u)} to {hexmap.label(h)} (8.1)",
                                {"do": "advance", "unit": u, "to": h}))
    for b in base.get("boats", []):
        if b in state["units"]:
            for s in boat_advances(state, b, path):
                choices.append((f"advance {counters.name(b)} to the hexside {s} (7.6 added)",
                                {"do": "advance", "unit": b, "to": s}))
    if choices:
        state["pending"].append({"k": "advance", "side": a_side, "base": dict(base), "path": path,
                                 "text": "advance after combat (8.1)",
                                 "choices": listed(choices + [("no (further) advance", {"do": "stop"})])})


BOAT_ADVANCE = 3  # hexsides: ours, the text gives no distance


def boat_advances(state: dict[str, Any], boat: str, path: list[str]) -> list[str]:
    """7.6 added, "gunboats may advance after combat": ours, to a water hexside along a hex the
    defenders left (the retreat path's first three hexes, as far as infantry may advance),
    within 3 hexsides along the water (not across the blocked channel, 16.24)."""
    v = state["units"][boat]
    if v.get("aground") or "|" not in v["at"]:
        return []
    near = set(path[:3])
    return sorted(s for s in naval.route(state, v["at"], mp=BOAT_ADVANCE) if near & set(hexmap.bordering(s)))


def retreat_stack(state: dict[str, Any], charts: Charts, units: list[str], to: str, base: dict[str, Any],
                  n: int, then: str, ctx: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    """Move the stack along the chosen path and take the path's step losses (8.0); the
    continuation gets the path in ``ctx["path"]``."""
    start = state["units"][units[0]]["at"]
    for path, extra in fight.retreat_choices(charts, state, units, n, base["units"]):
        if path[-1] == to:
            for u in units:
                state["units"][u]["at"] = to
                state["units"][u]["entrenched"] = False
            events.append({"text": f"the stack at {start} retreats to {hexmap.label(to)} (8.0)"})
            take_steps(state, charts, board.side_of(units[0]), units, extra, then, {**ctx, "path": [start] + path[1:]},
                       dice, events)
            return
    for u in units:  # no path: eliminated (ours; the text is silent)
        del state["units"][u]
        state["lost"].append(u)
        events.append({"text": f"{counters.name(u)} cannot retreat and is eliminated (8.0)"})
    CONTINUE[then](state, charts, {**ctx, "path": [start]}, dice, events)


def _advance(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    offer_advance(state, ctx["base"], ctx["path"])


def _after_forced_retreat(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any,
                          events: list[dict[str, Any]]) -> None:
    """7.8: after the retreat, 2 steps with no option; then the breakthrough movement."""
    units = [u for u in ctx["units"] if u in state["units"]]
    take_steps(state, charts, ctx["d_side"], units, ctx["steps"], "broken", ctx, dice, events)


def _broken(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    if ctx["then"] == "breakthrough":
        offer_breakthrough(state, charts, ctx["base"])
    offer_advance(state, ctx["base"], ctx["path"])


def _after_optional(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any,
                    events: list[dict[str, Any]]) -> None:
    """7.61: the optional losses taken; the retreats chosen instead, or 7.7 after them."""
    base, side = ctx["base"], ctx["d_side"]
    t = base["target"]
    units = board.ground_at(state, t, side)
    if ctx["retreats"] and units:
        retreat_stack(state, charts, units, ctx["to"], base, ctx["retreats"] * ctx["rate"], "advance", ctx, dice, events)
    elif not units:
        offer_advance(state, base, [t])
    elif ctx["engaged"]:
        ask_engaged(state, charts, base, side)


def _engaged_retreat(state: dict[str, Any], charts: Charts, ctx: dict[str, Any], dice: Any,
                     events: list[dict[str, Any]]) -> None:
    base, side = ctx["base"], ctx["d_side"]
    units = board.ground_at(state, base["target"], side)
    if units:
        retreat_stack(state, charts, units, ctx["to"], base, combat.RETREAT_HEXES[side], "advance", ctx, dice, events)


CONTINUE = {"defender": _defender, "defended": _defended, "advance": _advance, "forced": _after_forced_retreat,
            "broken": _broken, "optional": _after_optional, "engaged-retreat": _engaged_retreat}


def offer_breakthrough(state: dict[str, Any], charts: Charts, base: dict[str, Any]) -> None:
    """7.8: the attacking units may spend 3 MPs more, in any direction, ignoring enemy ZOCs."""
    base = dict(base)
    base.setdefault("moving", [u for u in base["units"] if u in state["units"] and board.is_ground(u)])
    base.setdefault("bt_units", list(base["moving"]))
    choices = []
    for u in base["moving"]:
        if u not in state["units"]:
            continue
        for h, (cost, _) in sorted(movement.reach(charts, state, u, mp=combat.BREAKTHROUGH_MP, ignore_zoc=True).items()):
            if board.stack_load(state, h, base["attacker"]) + counters.stack_size(u) <= counters.STACK_LIMIT:
                choices.append((f"breakthrough: move {counters.name(u)} to {hexmap.label(h)} (7.8)",
                                {"do": "bt-move", "unit": u, "to": h}))
    state["pending"].append({"k": "breakthrough", "side": base["attacker"], "base": base,
                             "text": "breakthrough movement (7.8)",
                             "choices": listed(choices + [("end breakthrough movement", {"do": "bt-end"})])})


# -- the answers ------------------------------------------------------------------------------

def apply_pending(state: dict[str, Any], f: dict[str, Any], side: str, action: dict[str, Any], dice: Any,
                  charts: Charts, events: list[dict[str, Any]]) -> None:
    """A combat frame answered (the frame is already taken off the stack and checked)."""
    do = action["do"]
    if f["k"] == "defend":
        resolve(state, charts, f, action, dice, events)
        return
    if f["k"] == "steps":
        supply.lose_step(state, action["unit"], events)
        take_steps(state, charts, side, f["units"], f["n"] - 1, f["then"], f["ctx"], dice, events)
        return
    base = f.get("base", {})
    t = base.get("target")
    if f["k"] == "losses":
        ctx = {"base": base, "d_side": side, "retreats": action["retreats"], "to": action["to"], "rate": f["rate"],
               "engaged": f["engaged"]}
        take_steps(state, charts, side, board.ground_at(state, t, side), f["optional"] - action["retreats"],
                   "optional", ctx, dice, events)
    elif f["k"] == "retreat":
        units = board.ground_at(state, t, side)
        ctx = {"base": base, "d_side": side, "units": units, "steps": f["steps"], "then": f["then"]}
        if action["to"]:
            retreat_stack(state, charts, units, action["to"], base, f["hexes"], "forced", ctx, dice, events)
            return
        for u in units:  # no path (8.0): eliminated, and said so
            state["units"].pop(u, None)
            state["lost"].append(u)
            events.append({"text": f"{counters.name(u)} cannot retreat {f['hexes']} hexes and is eliminated (8.0)"})
        _broken(state, charts, {**ctx, "path": [t]}, dice, events)
    elif f["k"] == "engaged":
        units = board.ground_at(state, t, side)
        if do == "counter":  # 7.7: "treated normally in all other respects (air units, supply expenditure, TA's)"
            g = fight.declare_counter(state, side, units, action)
            open_defence(state, charts, g, dice, events)
        else:
            ctx = {"base": base, "d_side": side, "to": action["to"]}
            take_steps(state, charts, side, units, 1, "engaged-retreat", ctx, dice, events)
    elif f["k"] == "advance":
        if do == "advance":
            v = state["units"][action["unit"]]
            v["at"], v["entrenched"] = action["to"], False
            events.append({"text": f"{counters.name(action['unit'])} advances to {hexmap.label(action['to'])} (8.1)"})
            base["units"] = [u for u in base["units"] if u != action["unit"]]
            base["boats"] = [u for u in base.get("boats", []) if u != action["unit"]]
            offer_advance(state, base, f["path"])
    elif f["k"] == "breakthrough":
        if do == "bt-move":
            v = state["units"][action["unit"]]
            v["at"] = action["to"]
            events.append({"text": f"{counters.name(action['unit'])} breaks through to {hexmap.label(action['to'])} (7.8)"})
            base["moving"] = [u for u in base["moving"] if u != action["unit"]]
            offer_breakthrough(state, charts, base)
        else:
            state["fired"] = [u for u in state["fired"] if u not in base["bt_units"]]  # 7.8: one more attack
            state["bt_done"] = sorted(set(state.get("bt_done", [])) | set(base["bt_units"]))

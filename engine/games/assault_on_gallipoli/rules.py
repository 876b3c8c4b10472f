"""The game contract over the frames: ``prompt`` reads the top frame and lists every legal
choice; ``apply`` hands the action to the frame's rule, then ``settle`` runs every frame that
needs no decision (the turn sequence, the end of a round, damage fully taken, advancing fire
with nobody left to fire)."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction, Prompt

from . import board, cards, discards, effects, fire, fireplan, initiative, leadorder, move, plans, sequence, standing
from . import closecombat as cc
from .board import name


def prompt(state: dict[str, Any]) -> Prompt:
    """The frame's decision, with the Action Cards its side may play added (cards.window), or the
    discard an enemy Aerial Recon owes first."""
    base = frame_prompt(state)
    side = base.side
    if side is None:
        return base
    if cards.owes(state, side):
        return Prompt(side, f"{side}: discard 1 Action Card (the enemy's Aerial Recon)", tuple(cards.owed_choices(state, side)))
    f = state["frames"][-1]
    if cards.window(state, f, side) and not f.get("pass") and not initiative.bound(f) and not leadorder.bound(state, f):
        return Prompt(side, base.text, base.choices + tuple(effects.card_choices(state, f, side)))
    return base


def frame_prompt(state: dict[str, Any]) -> Prompt:
    f = state["frames"][-1]
    k = f["k"]
    if k == "turn":
        return Prompt(None, state["result"]["result"] if state["result"] else "the game is over")
    side = "anzac" if k == "ships" else cc.cc_side(f) if k == "cc" else f["side"]
    head = f"turn {state['turn']}, Killing Time {state['kt']}: "
    if k == "draw" and discards.due(state, f):  # sealed with a pass (discards.py): its tool opens them
        return Prompt(side, head + f"{side}: Action Cards, the Morale Advantage holder first (17.3, 18.1)",
                      (Choice("discard as sealed with your pass, then draw (17.3)", {"do": "planned"}),))
    if k == "draw":
        listed = cards.draw_choices(state, f)
        return Prompt(side, head + f"{side}: Action Cards, hand of {len(cards.hand(state, side))}, up to {f['max']} "
                                   f"(17.3; discards first)",
                      tuple(listed + standing.draw_choices(state, f, listed[-1].label)))
    if k == "shipplan":
        return Prompt(side, head + standing.ships_text() + f"; {sequence.sea_areas(state)}",
                      tuple(standing.ship_choices(state, f)))
    if k == "card":
        return Prompt(side, head + f"{side} plays {cards.card_name(f['card'])}: how (17)",
                      tuple(effects.uses(state, side, f["card"])))
    if k == "spy":
        return Prompt(side, head + f"{side}'s Espionage: take one card of the enemy's hand",
                      tuple(effects.spy_choices(state, f)))
    if k == "heroic":
        return Prompt(side, head + f"{side}'s Heroic Act: {board.unit_name(f['unit'])} may act at once, alone",
                      tuple(effects.heroic_choices(state, f)))
    if k == "wrong":
        return Prompt(side, head + f"{side}'s Wrong Orders: move up to 2 fresh enemy units 3 MF each",
                      tuple(effects.wrong_choices(state, f)))
    if k == "ships":
        return Prompt(side, head + f"place your ships in the Aegean Sea, at most 3 an area (5.2); "
                                   f"{sequence.sea_areas(state)}",
                      tuple(sequence.ship_choices(state, f)))
    if k == "landplan":
        return Prompt(side, head + plans.text(f), tuple(plans.choices(state, f, prompt, apply)))
    if k == "fireplan":
        return Prompt(side, head + fireplan.text(f), tuple(fireplan.choices(state, f, prompt, apply)))
    if k == "ccplan":
        return Prompt(side, head + standing.text(f), tuple(standing.choices(f)))
    if k == "discardplan":  # free: what its author seals reads as a token in every other tool
        return Prompt(side, head + discards.text(f), tuple(discards.choices(state, f)), free=True)
    if k == "leadorder":  # free, as discardplan
        return Prompt(side, head + leadorder.text(f), tuple(leadorder.choices()), free=True)
    if k == "round":
        return Prompt(side, head + f"{side} Round: activate units in one area, bring on a group, or pass (4)",
                      tuple(sequence.round_prompt_choices(state, side)))
    if k == "fire":
        listed = fire.fire_choices(state, f)
        chosen = ", ".join(board.unit_name(u) for u in f["units"]) or "nobody yet"
        return Prompt(side, head + f"{side} {f['mode']} fire from {name(f['from']) if f['from'] else 'several areas'} ({chosen}): "
                                   f"add units, one Leader's bonus, then a target (8)",
                      tuple(listed + fireplan.variants(state, f, listed)))
    if k == "move":
        return Prompt(side, head + f"{side} move at {name(f['at'])}: take units, then go area by area (6)",
                      tuple(move.move_choices(state, f)))
    if k == "damage":
        return Prompt(side, head + f"{side}: take {f['left']} Damage Point(s) at {name(f['area'])} (9)",
                      tuple(Choice(text, a) for text, a, _ in fire.damage_options(state, f)))
    if k == "retreat":
        return Prompt(side, head + f"{side}: units flipped by fire at {name(f['from'])} may retreat (9.3)",
                      tuple(fire.retreat_choices(state, f)))
    if k == "overstack":
        return Prompt(side, head + f"{side}: {f['n']} unit(s) over the stacking limit at {name(f['area'])} "
                                   f"are eliminated (5.4)", tuple(fire.overstack_choices(state, f)))
    if k == "ccorder":
        return Prompt(side, head + f"{side} (Morale Advantage): which close combat is next (10.1.2)",
                      tuple(cc.order_choices(state, f)))
    if k == "cc":
        return Prompt(side, head + cc_text(state, f, side), tuple(initiative.combat_choices(state, f)),
                      free=leadorder.free(state, f))  # free: the lead its sealed order gives (leadorder.py)
    if k == "leadplan":  # free: what its author seals reads as a token in every other tool
        return Prompt(side, head + initiative.text(state, f), tuple(initiative.choices(state, f)), free=True)
    if k == "ccdamage":
        return Prompt(side, head + f"{side}: take {f['left']} close combat Damage Point(s) at {name(f['area'])}, "
                                   f"eliminating units at their strength (11.2)", tuple(cc.damage_choices(state, f)))
    if k == "ccretreat":
        return Prompt(side, head + f"{side}: the losers of the close combat retreat from {name(f['from'])} (12)",
                      tuple(cc.retreat_choices(state, f)))
    raise AssertionError(f"no prompt for frame {k}")


def cc_text(state: dict[str, Any], f: dict[str, Any], side: str) -> str:
    where = f"close combat at {name(f['area'])} ({f['att']} attacks)"
    if f["step"] == "deal":
        return f"{where}: {side} draws its hand and leads (10.2)"
    if side in f["todo"]:
        return f"{where}: {side} draws its hand, then must match {cc.card_name(f['lead'])} (10.2, 10.3.1)"
    held = ", ".join(f"{s} {len(state['ccdeck'][s]['hand'])}" for s in ("anzac", "turkish"))
    if f["step"] == "lead":
        return f"{where}, round {f['round']}, cards held {held}: {side} has the initiative and plays a card (10.3)"
    return f"{where}, round {f['round']}, cards held {held}: {side} must match {cc.card_name(f['lead'])} (10.3.1)"


# the frames whose prompt is free because what their author seals reads as a token in every other tool
SEALED = {"discardplan": discards.valid, "leadplan": initiative.valid, "leadorder": leadorder.valid}


def apply(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any) -> list[dict[str, Any]]:
    if not isinstance(action, dict) or not isinstance(action.get("do"), str):
        raise IllegalAction("an action is an object with 'do'")
    shown = prompt(state)
    listed = [c.action for c in shown.choices]
    sealed = SEALED.get(state["frames"][-1]["k"])  # what a free prompt takes beyond its list: its frame's own
    if shown.side != side or action not in listed and not leadorder.ordered(state, side, action, listed) and not (
            shown.free and sealed is not None and sealed(action)):
        raise IllegalAction(f"{side} cannot do {action!r} now: {shown.text}", [c.label for c in shown.choices])
    state["clock"] += 1
    events: list[dict[str, Any]] = []
    f = state["frames"][-1]
    k = f["k"]
    if action["do"] == "owed-discard":
        cards.do_owed(state, side, action, dice, events)
    elif action["do"] == "card":
        effects.play(state, side, action, dice, events)
    elif k == "draw" and action["do"] == "planned":
        discards.do_planned(state, f, dice, events)
    elif k == "draw" and action.get("ships"):
        state["frames"].append(standing.new_ships(state))  # the ships first, then the draw (standing.py)
    elif k == "draw":
        cards.do_draw(state, f, action, dice, events)
    elif k == "shipplan":
        if standing.do_ships(state, f, action, events):
            cards.do_draw(state, state["frames"][-1], {"do": "draw"}, dice, events)
    elif k == "card":
        effects.use(state, f, action, dice, events)
    elif k == "spy":
        effects.do_spy(state, f, action, dice, events)
    elif k == "heroic":
        effects.do_heroic(state, f, action, events)
    elif k == "wrong":
        effects.do_wrong(state, f, action, events)
    elif k == "ships":
        sequence.do_ships(state, f, action, events)
    elif k == "round":
        sequence.do_round(state, f, action, dice, events)
    elif k == "landplan":
        plans.do_plan(state, f, action, dice, events, prompt, apply)
    elif k == "fire" and action.get("plan"):  # the plan first; the fire once it is given (fireplan.py)
        fireplan.start(state, f, action, dice, events, prompt, apply)
    elif k == "fire":
        fire.do_fire(state, f, action, dice, events)
    elif k == "fireplan":
        fireplan.do_plan(state, f, action, dice, events, prompt, apply)
    elif k == "move":
        move.do_move(state, f, action, events)
    elif k == "damage":
        fire.do_damage(state, f, action, events)
    elif k == "retreat":
        fire.do_retreat(state, f, action, events)
    elif k == "overstack":
        fire.do_overstack(state, f, action, events)
    elif k == "ccorder":
        sequence.do_order(state, f, action, events)
    elif k == "ccplan":
        if standing.do_plan(state, f, action, events):
            sequence.do_round(state, state["frames"][-1], {"do": "pass"}, dice, events)
    elif k == "leadorder":
        leadorder.do_seal(state, f, action, dice, events)
    elif k == "discardplan":  # the pass then follows, its one legal choice (a seal and a roll: two actions)
        discards.do_seal(state, f, action, dice, events)
    elif k == "cc" and action.get("seal"):  # the lead first, sealed; then the match (initiative.py)
        state["frames"].append(initiative.new(f, side, action["card"]))
    elif k == "cc" and action["do"] == "ordered":  # the lead its sealed order gives (leadorder.py)
        leadorder.do_ordered(state, f, action, dice, events)
        initiative.lapse(f, events)
    elif k == "cc" and action["do"] == "planned":
        initiative.do_planned(state, f, dice, events)
    elif k == "cc":
        cc.do_cc(state, f, action, dice, events)
        initiative.lapse(f, events)
    elif k == "leadplan":
        initiative.do_plan(state, f, action, dice, events)
    elif k == "ccdamage":
        cc.do_damage(state, f, action, events)
    elif k == "ccretreat":
        cc.do_retreat(state, f, action, events)
    settle(state, dice, events)
    return events


def settle(state: dict[str, Any], dice: Any, events: list) -> None:
    """Run every frame that needs no decision, until one does (or the game ends)."""
    while True:
        f = state["frames"][-1]
        k = f["k"]
        if k == "turn":
            if not sequence.sequence(state, f, dice, events):
                return
        elif k == "round" and f["acted"]:
            sequence.end_round(state, f, events)
        elif k == "advance":
            move.settle_advance(state, f)
        elif k == "damage":
            if not fire.settle_damage(state, f, events):
                return
        elif k == "retreat" and not f["cands"]:
            state["frames"].pop()
        elif k == "overstack" and not fire.overstack_choices(state, f):
            state["frames"].pop()
        elif k == "cc":
            if not cc.settle_cc(state, f, events):
                return
        elif k == "ccdamage":
            if not cc.settle_damage(state, f, events):
                return
        elif k == "ccretreat":
            if not cc.settle_retreat(state, f, events):
                return
        elif k == "fire" and not fire.fire_choices(state, f):
            state["frames"].pop()  # every firer gone (opportunity fire after losses): nothing to decide
        else:
            return

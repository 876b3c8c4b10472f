"""A position of Assault on Gallipoli set up by hand (rule cases): ``position(description) ->
Position``, a full valid state (pbem_engine.protocol.position) from a compact description.

The description (every key optional; a TOML table reads as one):

    start = "setup"        begin from GAME.setup(scenario, options) (then no other key but these two)
    scenario, options      (default "anzac-landing", {})
    turn, kt, ma, passes   the turn, Killing Time, Morale Advantage holder, consecutive passes
    units.<area> = ["tur-2-27", "nz-auckland exhausted", ...]   every unit on the board (replaces the set-up)
    lost.<side> = [ids]    eliminated so far (casualties, 18.4)
    trenches = {area = 1 | 2}, wire = [areas]   (in place of the scenario's)
    control = {area = side}, cubes = {area = side}   (over the scenario's and the units')
    waves = [[[ids], ...], ...]   boats still at sea (20); default none
    reinforcements.<side> = {GROUP = [entry, [ids]]}
    frames = [{k = "round", side = "anzac", acted = false}, ...]   the decisions under way, pushed
        over the turn frame, which stands at phase "activation" (or turn_phase)
    hands.<side> = ["good-luck#1", ...], discard = [...]   Action Cards (taken out of the pile);
        ac = {night = true, ...} sets other Action Card state; round = {...} the Round's record

A position set where no one decides (a Morale phase, turn_phase = "morale") runs on to the next
decision with ``rules.settle(state, dice, events)``, as a game does after each action.  The dice
(``Position.dice``) take the die faces only: this game has no sealed items to script.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.protocol.core import RulesError
from pbem_engine.protocol.position import Position, unknown_keys, whole

from . import GAME, board, cards, sequence
from .data import SIDES
from .dataset import current

KEYS = ("start", "scenario", "options", "turn", "kt", "ma", "passes", "units", "lost", "trenches", "wire",
        "control", "cubes", "waves", "reinforcements", "frames", "turn_phase", "hands", "discard", "ac", "round")


def position(description: dict[str, Any]) -> Position:
    """The state ``description`` sets up (see the module's docstring)."""
    unknown_keys("position", description, KEYS)
    before = description
    scenario = before.get("scenario", "anzac-landing")
    if scenario not in GAME.scenarios:
        raise ValueError(f"scenario = {scenario!r}: no such scenario; the scenarios: {', '.join(GAME.scenarios)}")
    options = dict(table_of("options", before.get("options", {})))
    unknown_keys("options", options, tuple(GAME.options))
    if before.get("start", "setup") != "setup":
        raise ValueError(f"start = {before['start']!r}: the only start is 'setup'")
    if before.get("start") == "setup":
        unknown_keys("position (start = 'setup')", before, ("start", "scenario", "options"))
        try:
            return Position(GAME.setup(scenario, options))
        except RulesError as e:
            raise ValueError(f"options = {options!r}: {e}") from None
    state = sequence.new_state(scenario, options)
    state["waves"] = copy.deepcopy(list_of("waves", before.get("waves", [])))
    state["kt"] = 8
    phase = before.get("turn_phase", "activation")
    if not isinstance(phase, str):
        raise ValueError(f"turn_phase = {phase!r} is not a phase's name")
    state["frames"] = [{"k": "turn", "phase": phase}]
    areas = board.areas()
    if "units" in before:
        state["units"] = {}
        for area, specs in table_of("units", before["units"]).items():
            if area not in areas:
                raise ValueError(f"units: no area {area!r}")
            for spec in list_of(f"units.{area}", specs):
                if not isinstance(spec, str) or not spec.split():
                    raise ValueError(f"units.{area}: {spec!r} is not 'id [exhausted]'")
                uid, *flags = spec.split()
                unit(f"units.{area}", uid)
                if [f for f in flags if f != "exhausted"]:
                    raise ValueError(f"units.{area}: unknown flag in {spec!r}; the only flag is 'exhausted'")
                if uid in state["units"]:
                    raise ValueError(f"units.{area}: {uid!r} is on the board twice")
                state["units"][uid] = {"at": area, "fresh": "exhausted" not in flags}
    state["control"] = {}
    board.update_control(state)
    for key in ("turn", "kt", "passes"):
        if key in before:
            state[key] = whole(key, before[key], 0)
    if "ma" in before:
        state["ma"] = side_of("ma", before["ma"])
    for area, level in table_of("trenches", before.get("trenches", {})).items():
        area_of("trenches", area, areas)
        whole(f"trenches.{area}", level, 1, 2)
    for area in list_of("wire", before.get("wire", [])):
        area_of("wire", area, areas)
    for side, lost in table_of("lost", before.get("lost", {})).items():
        side_of("lost", side)
        for uid in list_of(f"lost.{side}", lost):
            unit(f"lost.{side}", uid)
    for key in ("trenches", "wire"):
        if key in before:
            state[key] = copy.deepcopy(before[key])
    state["lost"].update(copy.deepcopy(before.get("lost", {})))
    for key in ("control", "cubes"):
        for area, side in table_of(key, before.get(key, {})).items():
            area_of(key, area, areas)
            side_of(f"{key}.{area}", side)
        state[key].update(before.get(key, {}))
    for side, groups in table_of("reinforcements", before.get("reinforcements", {})).items():
        side_of("reinforcements", side)
        state["reinforcements"][side] = copy.deepcopy(table_of(f"reinforcements.{side}", groups))
    ac = state["ac"]  # the Action Cards (cards.py): hands and discards taken out of the pile
    for side, held in table_of("hands", before.get("hands", {})).items():
        side_of("hands", side)
        ac["hands"][side] = list(list_of(f"hands.{side}", held))
    ac["discard"] = list(list_of("discard", before.get("discard", [])))
    held = [(f"hands.{side}", c) for side, h in ac["hands"].items() for c in h] + [("discard", c) for c in ac["discard"]]
    for where, c in held:
        if c not in ac["pile"]:
            if any(c == other for _, other in held[:held.index((where, c))]):
                raise ValueError(f"{where}: card {c!r} is named twice (in a hand or the discard pile)")
            raise ValueError(f"{where}: no card {c!r} in the scenario's Action deck")
        ac["pile"].remove(c)
    ac.update(copy.deepcopy(table_of("ac", before.get("ac", {}))))
    for i, frame in enumerate(list_of("frames", before.get("frames", []))):
        if not isinstance(frame, dict) or not isinstance(frame.get("k"), str):
            raise ValueError(f"frames[{i}] = {frame!r} is not a table with a kind k")
        state["frames"].append(copy.deepcopy(frame))
        if frame["k"] == "round":
            ac["round"] = dict(cards.new_round(side_of(f"frames[{i}].side", frame.get("side"))),
                               **table_of("round", before.get("round", {})))
    return Position(state)


def table_of(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} = {value!r} is not a table")
    return value


def list_of(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where} = {value!r} is not a list")
    return value


def side_of(where: str, side: Any) -> str:
    if side not in SIDES:
        raise ValueError(f"{where}: no side {side!r}; the sides are {', '.join(SIDES)}")
    return side


def area_of(where: str, area: Any, areas: dict[str, Any]) -> str:
    if area not in areas:
        raise ValueError(f"{where}: no area {area!r}")
    return area


def unit(where: str, uid: str) -> None:
    if uid not in current().units and uid not in current().leaders:
        raise ValueError(f"{where}: no unit {uid!r}")

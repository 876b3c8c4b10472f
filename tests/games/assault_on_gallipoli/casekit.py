"""Build readable rule cases for Assault on Gallipoli: a full valid state from a compact table.

A case's ``[before]`` table (every key optional):

    start = "setup"        begin from GAME.setup(scenario, options) instead of a mid-game state
    scenario, options      (default "anzac-landing", {})
    turn, kt, ma, passes   the turn, Killing Time, Morale Advantage holder, consecutive passes
    units.<area> = ["tur-2-27", "nz-auckland exhausted", ...]   every unit on the board (replaces the set-up)
    lost.<side> = [ids]    eliminated so far (casualties, 18.4)
    trenches = {area = 1 | 2}, wire = [areas], control = {area = side}, cubes = {area = side}
    waves = [[[ids], ...], ...]   boats still at sea (20); default none
    reinforcements.<side> = {GROUP = [entry, [ids]]}
    frames = [{k = "round", side = "anzac", acted = false}, ...]   pushed over the turn frame,
        which stands at phase "activation" (or [before] turn_phase)
    hands.<side> = ["good-luck#1", ...], discard = [...]   Action Cards (taken out of the pile);
        ac = {night = true, ...} sets other Action Card state; round = {...} the Round's record
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.games.assault_on_gallipoli import GAME, board, cards, sequence
from pbem_engine.games.assault_on_gallipoli.dataset import current


def build(before: dict[str, Any]) -> dict[str, Any]:
    scenario = before.get("scenario", "anzac-landing")
    options = dict(before.get("options", {}))
    if before.get("start") == "setup":
        return GAME.setup(scenario, options)
    state = sequence.new_state(scenario, options)
    state["waves"] = copy.deepcopy(before.get("waves", []))
    state["kt"] = 8
    state["frames"] = [{"k": "turn", "phase": before.get("turn_phase", "activation")}]
    if "units" in before:
        state["units"] = {}
        for area, specs in before["units"].items():
            assert area in board.areas(), f"no area {area!r}"
            for spec in specs:
                uid, *flags = spec.split()
                assert uid in current().units or uid in current().leaders, f"no unit {uid!r}"
                state["units"][uid] = {"at": area, "fresh": "exhausted" not in flags}
    state["control"] = {}
    board.update_control(state)
    for key in ("turn", "kt", "ma", "passes", "trenches", "wire", "lost"):
        if key in before:
            state[key] = copy.deepcopy(before[key])
    state["control"].update(before.get("control", {}))
    state["cubes"].update(before.get("cubes", {}))
    for side, groups in before.get("reinforcements", {}).items():
        state["reinforcements"][side] = copy.deepcopy(groups)
    ac = state["ac"]  # the Action Cards (cards.py): hands and discards taken out of the pile
    for side, held in before.get("hands", {}).items():
        ac["hands"][side] = list(held)
    ac["discard"] = list(before.get("discard", []))
    for c in [c for h in ac["hands"].values() for c in h] + ac["discard"]:
        assert c in ac["pile"], f"no card {c!r} in the pile"
        ac["pile"].remove(c)
    ac.update(copy.deepcopy(before.get("ac", {})))
    for frame in before.get("frames", []):
        state["frames"].append(copy.deepcopy(frame))
        if frame["k"] == "round":
            ac["round"] = dict(cards.new_round(frame["side"]), **before.get("round", {}))
    return state

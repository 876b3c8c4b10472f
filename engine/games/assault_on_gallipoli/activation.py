"""What a unit of a side may be ordered to do in an activation (4), below the turn sequence and the
Action Cards that both ask it: fire (8, 16.7 HMS Manica), dig (13.2); and where Killing Time
starts each turn (19.2).  Kept apart so that ``effects`` (Heroic Act's free activation, the
cards that move Killing Time) and ``sequence`` share it without importing each other."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from pbem_engine.protocol.core import Choice

from . import board, fire
from .board import kind, name, units_at
from . import scenarios


def killing_time_start(state: dict[str, Any]) -> int:
    return state["options"].get("killing_time") or scenarios.of(state)["killing_time"]


def fire_cands(state: dict[str, Any], side: str, area: str) -> list[str]:
    out = [u for u in units_at(state, area, side) if state["units"][u]["fresh"] and board.firepower(u, True) > 0
           and fire.targets(state, side, area, [u], "standard")]
    if out and "hms-manica" in state["units"] and state["units"]["hms-manica"] == {"at": area, "fresh": True} \
            and any(kind(u) == "ship" for u in out):
        out.append("hms-manica")  # 16.7: she fires nothing herself, she helps the ships with her
    return out


def dig_choices(state: dict[str, Any], side: str, area: str) -> list[Choice]:
    """13.2: Infantry or Artillery flip to dig; none where enemy units are."""
    if board.is_sea(area) or board.has_enemy(state, area, side):
        return []
    diggers = [u for u in units_at(state, area, side) if state["units"][u]["fresh"] and kind(u) in ("inf", "art")]
    level = state["trenches"].get(area, 0)
    where = name(area)
    if level == 0:
        return ([Choice(f"dig a shallow trench at {where} with {board.unit_name(u)}", {"do": "dig", "units": [u]})
                 for u in diggers]
                + [Choice(f"dig a deep trench at {where} with {board.unit_name(u)} and {board.unit_name(v)}",
                          {"do": "dig", "units": [u, v]}) for u, v in combinations(diggers, 2)])
    if level == 1:
        return [Choice(f"deepen the trench at {where} with {board.unit_name(u)}", {"do": "dig", "units": [u]})
                for u in diggers]
    return []

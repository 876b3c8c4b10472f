"""A scenario as played: data.SCENARIOS with the optional Leader counters (22) the options ask
for, and the checks every scenario must pass (``problems``).

22: the white-dot counters of Avni (+3 MF), McCay (+0 FP) and MacLagan (+1 FP) replace the
standard ones wherever those start; Weir comes with the 10th Bn; Hamilton and von Sanders are
a reinforcement from Turn 2 on, Hamilton at ANZAC Cove or North Beach (one group for each
entry: bringing on one takes the other away), von Sanders at Koja Dere.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from .data import ALTERNATES, C_IN_C_OPTIONAL
from .dataset import Dataset, current, scenario_problems

LEADER_OPTIONS = {"avni": "avni", "mccay": "mccay", "maclagan": "maclagan", "hamilton": "hamilton",
                  "von_sanders": "von-sanders", "weir": "weir"}


def of(state: dict[str, Any]) -> dict[str, Any]:
    """The game's scenario as its tables give it (a player's own Scenario Booklet, or ours)."""
    return current().scenarios[state["scenario"]]


def resolved(scenario: str, options: dict[str, Any]) -> dict[str, Any]:
    """The scenario with the options' Leaders in place (computed once per tables, scenario and options)."""
    return _resolved(current(), scenario, json.dumps({k: options[k] for k in LEADER_OPTIONS if options.get(k)},
                                                     sort_keys=True))


@lru_cache(maxsize=32)
def _resolved(ds: Dataset, scenario: str, chosen: str) -> dict[str, Any]:
    options = json.loads(chosen)
    sc = copy.deepcopy(ds.scenarios[scenario])
    swap = {std: alt for std, alt in ALTERNATES.items() if options.get(std)}

    def fix(units: list[str]) -> list[str]:
        out = [swap.get(u, u) for u in units]
        if options.get("weir") and "aus-10" in out:  # 22: Weir led the 10th Bn; he starts with it
            out.insert(out.index("aus-10"), "weir")
        return out

    sc["setup"] = {a: fix(us) for a, us in sc["setup"].items()}
    sc["waves"] = [[fix(boat) for boat in wave] for wave in sc["waves"]]
    sc["reinforcements"] = {turn: {side: {g: (e, fix(us)) for g, (e, us) in groups.items()}
                                   for side, groups in sides.items()}
                            for turn, sides in sc["reinforcements"].items()}
    for leader, (side, entries) in C_IN_C_OPTIONAL.items():  # 22: from the beginning of Turn 2
        entries = tuple(e for e in entries if e not in sc["off"] and e in ds.areas)  # Scenario 3: not North Beach
        if options.get(leader.replace("-", "_")) and entries and leader in ds.leaders:
            groups = sc["reinforcements"].setdefault(2, {}).setdefault(side, {})
            for entry in entries:
                label = ds.leaders[leader][0].split(" ", 1)[-1] + (f" at {ds.areas[entry][0]}" if len(entries) > 1 else "")
                groups[label] = (entry, [leader])
    sc["cubes"] = {a: "anzac" if a in sc["anzac_cubes"] else "turkish" for a in sc["vp"]}
    return sc


def refused(scenario: str, options: dict[str, Any]) -> str | None:
    """Why the options do not fit the scenario (None: they do)."""
    if options.get("weir") and not any("aus-10" in us for us in _placed(current().scenarios[scenario])):
        return "option weir: Weir comes with the 10th Bn, which this scenario does not have"
    missing = [std for std in ALTERNATES if options.get(std) and ALTERNATES[std] not in current().leaders]
    missing += [k for k, v in LEADER_OPTIONS.items() if options.get(k) and k not in ALTERNATES and v not in current().leaders]
    if missing:
        return f"option {missing[0]}: the game's counters have no such Leader"
    return None


def _placed(sc: dict[str, Any]) -> list[list[str]]:
    """Every list of units the scenario places: set-up areas, boats and reinforcement groups."""
    return (list(sc["setup"].values()) + [boat for wave in sc["waves"] for boat in wave]
            + [us for sides in sc["reinforcements"].values() for groups in sides.values() for _, us in groups.values()])


def problems(scenario: str, options: dict[str, Any] | None = None) -> list[str]:
    """Everything wrong with a scenario's data at once (tests run it on every scenario)."""
    return scenario_problems(current(), scenario, resolved(scenario, options or {}), tuple(C_IN_C_OPTIONAL))

"""The counters of Scenario 1 (counters_data.py, PROVISIONAL values): each unit's printed values
by its type, where it sets up or when and where it arrives, and the supply point schedule."""

from __future__ import annotations

from typing import Any

from .counters_data import DATA

PROVISIONAL = DATA["counters"]["provisional"]
TYPES: dict[str, dict[str, Any]] = DATA["types"]
SIZE = {"brigade": 3, "regiment": 3, "battalion": 1}  # 6.0: in thirds of a brigade; two brigades a hex
STACK_LIMIT = 6  # 6.0: "up to two regiments or brigades"


def _unit(row: dict[str, Any]) -> dict[str, Any]:
    unit = dict(TYPES[row["type"]])
    unit.update(row)
    unit.setdefault("star", False)
    return unit


UNITS: dict[str, dict[str, Any]] = {row["id"]: _unit(row) for row in DATA["oob"]["units"]}
CAPTURED = "captured-"  # 15.5: a steamer taken by the other side is its twin counter of that side
for _uid, _u in list(UNITS.items()):
    if _u["kind"] == "steamer":
        _other = "british" if _u["side"] == "turkish" else "turkish"
        UNITS[CAPTURED + _uid] = {**{k: v for k, v in _u.items() if k not in ("setup", "turn", "enters")},
                                  "id": CAPTURED + _uid, "side": _other, "name": _u["name"] + " (captured)",
                                  "off_map": True}


def captured_twin(uid: str) -> str:
    """15.5: the counter a steamer becomes when the other side captures it (and back)."""
    return uid[len(CAPTURED):] if uid.startswith(CAPTURED) else CAPTURED + uid
SUPPLY: dict[str, dict[int, int]] = {side: {int(t): n for t, n in v.items()} for side, v in DATA["supply"].items()}
DEPOT_SETUP: list[dict[str, Any]] = DATA["depots"]["setup"]
DEPOT_ARRIVALS: list[dict[str, Any]] = DATA["depots"]["arrivals"]


def kind(uid: str) -> str:
    return UNITS[uid]["kind"]


def side_of(uid: str) -> str:
    return UNITS[uid]["side"]


def name(uid: str) -> str:
    return UNITS[uid]["name"]


def stack_size(uid: str) -> int:
    """6.0: a combat unit's share of the stacking limit in thirds of a brigade; HQs, support
    units, boats and aircraft stack free."""
    u = UNITS[uid]
    return SIZE[u["size"]] if u["kind"] == "combat" else 0


def parent_hq(uid: str) -> str | None:
    """The divisional HQ of a unit's division, if the division has one (10.0)."""
    div = UNITS[uid].get("division")
    if not div or UNITS[uid]["kind"] == "hq":
        return None
    for hid, u in UNITS.items():
        if u["kind"] == "hq" and u.get("division") == div and u["side"] == UNITS[uid]["side"]:
            return hid
    return None

"""A position of Hill 60 set up by hand (rule cases): ``position(description) -> Position``, the
standard scenario's set-up with the description laid over it (pbem_engine.protocol.position).

The description holds the state's own keys (rules.py), every one optional; tables are merged
key by key into the set-up's, other values replace its own (a TOML table reads as one):

    turn = 1..5, side = "allied" | "ottoman" (whose turn), ops = 0..2 (operations left)
    bombarded = true | false    the Allied naval bombardment is used this turn (7.1)
    units.<id> = {space = "Kabak Kuyu", steps = 2}   a unit's space ("eliminated" with 0 steps)
        and steps, either or both; the units not named stay where the set-up puts them
    entrenched = ["Hill 60"]    the entrenched spaces, in map order
    pending = {kind = "assault", space = "Hill 60", from = "Kabak Kuyu", units = ["10gr"],
               hits_on_defender = 2, hits_on_attacker = 0}   fire whose hits wait for a decision
    over = true | false         turn 5 has ended
    hits = {ottoman = ["2-33", "1-33"]}   the sides' hit orders (9.1), if given
    then = {side = "allied", alternatives = [{do = "end"}], advance = true}   the next operation
               ordered with an assault (9.3), if given; pending.advance = true | false (9.2)

The dice (``Position.dice``) take the die faces only: this game has no hidden items.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.protocol.core import IllegalAction
from pbem_engine.protocol.position import Position, unknown_keys, whole

from . import GAME, data, standing

PENDING = ("kind", "space", "from", "units", "hits_on_defender", "hits_on_attacker")


def position(description: dict[str, Any]) -> Position:
    """The state ``description`` sets up (see the module's docstring)."""
    state = GAME.setup("standard", {})
    unknown_keys("position", description, tuple(state) + ("hits", "then"))
    for key, value in description.items():
        if key == "units":
            for uid, unit in table_of("units", value).items():
                if uid not in data.UNIT_BY_ID:
                    raise ValueError(f"units: no unit {uid!r}; the units are {', '.join(data.UNIT_BY_ID)}")
                unknown_keys(f"units.{uid}", unit, ("space", "steps"))
                state["units"][uid].update(copy.deepcopy(unit))
        elif key == "pending":
            unknown_keys("pending", value, PENDING + ("advance",))
            state["pending"] = {**(state["pending"] or {}), **copy.deepcopy(value)}
        else:
            state[key] = copy.deepcopy(value)
    check(state)
    try:
        for side, order in state.get("hits", {}).items():  # 9.1
            standing.check_hits(side, {"do": "hits", "order": order})
        if "then" in state:  # 9.3
            for alt in state["then"]["alternatives"]:
                standing.check_operation(state["then"]["side"], alt)
    except IllegalAction as e:
        raise ValueError(str(e)) from None
    return Position(state)


def check(state: dict[str, Any]) -> None:
    """ValueError naming the first value of ``state`` the rules cannot play from."""
    whole("turn", state["turn"], 1, data.TURNS)
    whole("ops", state["ops"], 0, data.OPERATIONS)
    if state["side"] not in data.SIDES:
        raise ValueError(f"side = {state['side']!r}: the sides are {', '.join(data.SIDES)}")
    for key in ("bombarded", "over"):
        if not isinstance(state[key], bool):
            raise ValueError(f"{key} = {state[key]!r} is not true or false")
    for uid, unit in state["units"].items():
        if unit["space"] not in data.SPACES and unit["space"] != data.ELIMINATED:
            raise ValueError(f"units.{uid}.space: no space {unit['space']!r}; the spaces are "
                             f"{', '.join(data.SPACES)} (or {data.ELIMINATED!r})")
        low = 0 if unit["space"] == data.ELIMINATED else 1
        high = 0 if unit["space"] == data.ELIMINATED else data.UNIT_BY_ID[uid].steps
        whole(f"units.{uid}.steps", unit["steps"], low, high)
    entrenched = state["entrenched"]
    if not isinstance(entrenched, list) or any(s not in data.SPACES for s in entrenched):
        raise ValueError(f"entrenched = {entrenched!r}: a list of spaces among {', '.join(data.SPACES)}")
    state["entrenched"] = [s for s in data.SPACES if s in entrenched]  # in map order, as the rules keep it
    pending = state["pending"]
    if pending is not None:
        missing = [k for k in PENDING if k not in pending and not (k == "from" and pending.get("kind") == "bombardment")]
        if missing:
            raise ValueError(f"pending: {missing[0]!r} is missing from {pending!r}")
        if pending["kind"] not in ("assault", "bombardment"):
            raise ValueError(f"pending.kind = {pending['kind']!r}: 'assault' or 'bombardment'")
        for key in ("space", "from"):
            if key in pending and pending[key] not in data.SPACES:
                raise ValueError(f"pending.{key}: no space {pending[key]!r}")
        for uid in pending["units"]:
            if uid not in data.UNIT_BY_ID:
                raise ValueError(f"pending.units: no unit {uid!r}")
        for key in ("hits_on_defender", "hits_on_attacker"):
            whole(f"pending.{key}", pending[key], 0)


def table_of(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} = {value!r} is not a table")
    return value

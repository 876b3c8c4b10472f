"""A position of Gallipoli 1915 set up by hand (rule cases): ``position(description) -> Position``,
a scenario's set-up with the description laid over it (pbem_engine.protocol.position).

Every key is optional:

    scenario = "helles"            one of kemal, krithia, anzac, helles, peninsula, free-landing
    options = {d10 = "1-10", last_turn = 3, capacity = {w-beach = 9}}   as in the invitation
    turn = 2, phase = "activations", active = "ottoman"
        phase: setup, reinforcement (the default), series, command, amphibious-assault,
        activations, end, victory
    done = ["entente"]             the sides that have finished this phase
    held = {helles = "C1"}         a Naval Gunfire chit held face down: its token...
    chits = {C1 = "commanded-fire"}   ...and what it is (the Entente's own secret)
    drawn = ["helles"]             the cups drawn from this turn
    landed = {w-beach = 4}, clyde = true     steps landed this turn (103.1, 103.7)
    delayed = {w-beach = {infantry = 1}}     last turn's landing delays (103.6)
    claim = {by = "entente", level = "entente-minor"}   a victory claim waiting for an answer
    sudden = ["anzac"]             a landing that ended the Peninsula by sudden death

The dice (``Position.dice``) take die faces and the Entente's private draws, each
``{side = "entente", pool = "helles-ngf-2", cards = {C2 = "no-fire#3"}}`` (data.pool_name).
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.protocol.position import Position, unknown_keys, whole

from . import GAME, data

KEYS = ("scenario", "options", "turn", "phase", "active", "done", "held", "chits", "drawn", "landed", "clyde",
        "delayed", "claim", "sudden")


def position(description: dict[str, Any]) -> Position:
    """The state ``description`` sets up (see the module's docstring)."""
    unknown_keys("position", description, KEYS)
    scenario = description.get("scenario", "helles")
    if scenario not in data.SCENARIOS:
        raise ValueError(f"scenario = {scenario!r}: the scenarios are {', '.join(data.SCENARIOS)}")
    try:
        state = GAME.setup(scenario, dict(description.get("options", {})))
    except Exception as e:  # a RulesError: the same one line
        raise ValueError(f"options: {e}") from None
    s = data.SCENARIOS[scenario]
    if "turn" in description:
        state["turn"] = whole("turn", description["turn"], s["first"], state["last"])
    phase = description.get("phase", "reinforcement")  # a position in play; "setup" for the set-up
    if phase not in ("setup",) + data.PHASES + ("victory",):
        raise ValueError(f"phase = {phase!r}: the phases are setup, {', '.join(data.PHASES)}, victory")
    state["phase"] = phase
    if phase != "setup":
        state["setup"], state["active"] = [], "entente"
    for key in ("active",):
        if key in description:
            if description[key] not in data.SIDES:
                raise ValueError(f"{key} = {description[key]!r}: the sides are {', '.join(data.SIDES)}")
            state[key] = description[key]
    for key in ("done", "sudden"):
        if key in description:
            state[key] = list(description[key])
    table: dict[str, tuple[str, str]] = {}
    chits = description.get("chits", {})
    for cup, token in description.get("held", {}).items():
        if cup not in state["cups"]:
            raise ValueError(f"held.{cup}: this scenario's cups are {', '.join(state['cups']) or 'none'}")
        if token not in chits or chits[token].split("#")[0] not in data.CHITS:
            raise ValueError(f"held.{cup} = {token!r}: say what it is in chits, one of {', '.join(data.CHITS)}")
        state["ngf"]["held"][cup] = token
        table[token] = ("entente", chits[token] if "#" in chits[token] else chits[token] + "#1")
    state["ngf"]["drawn"] = list(description.get("drawn", [c for c, t in state["ngf"]["held"].items() if t]))
    for key in ("landed", "delayed", "claim"):
        if key in description:
            state[key] = copy.deepcopy(description[key])
    if "clyde" in description:
        state["clyde"] = bool(description["clyde"])
    for beach in list(state["landed"]) + list(state["delayed"]):
        if beach not in data.BEACHES and beach not in state["options"]["capacity"]:
            raise ValueError(f"no beach {beach!r}; the beaches are {', '.join(data.BEACHES)}")
    return Position(state, table, draw_check)


def draw_check(side: str, pool: str, item: str) -> str | None:
    if side != "entente":
        return "only the Entente draws (Naval Gunfire chits)"
    if item.split("#")[0] not in data.CHITS:
        return f"no chit {item!r}: {', '.join(data.CHITS)}"
    return None

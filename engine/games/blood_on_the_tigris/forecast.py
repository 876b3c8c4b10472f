"""The prompt as its owner's tool shows it (``playable``): before an attack, its odds column and
the exact chance of each CRT result (combat.outcome_distribution), from the charts in use.

Each attack choice is built as the rules would build it (fight.declare, fight.build: the units,
the depots, the bombers, every Tactical Advantage and command DRM), on a copy of the state, so
no second copy of the rules is kept here.  The defender's own decision is not known when the
attacker chooses: where the defender could still expend its depot, both readings are shown.
Interception is not counted (the bombers are taken as arriving).  Display only: the actions
are untouched.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pbem_engine.protocol.core import SEP, Prompt, copy_state

from . import board, combat, fight, plan, supply
from .charts import Charts


def percent(p: Fraction) -> str:
    value = p * 100
    return f"{value.numerator // value.denominator}%" if value.denominator == 1 else f"{float(value):.0f}%"


def odds_text(charts: Charts, state: dict[str, Any], f: dict[str, Any], def_depot: bool) -> str:
    """'column 3-1, DRM -1: 1/- 17%, ...' for the attack frame ``f``."""
    s = copy_state(state)
    bombers = list(f["planes"])
    attack = fight.build(s, charts, f, f["depot"], def_depot, bombers)
    options = state["options"].get("combat")
    setup = combat.prepare(charts, attack, options)
    dist = combat.outcome_distribution(charts, attack, options)
    shown = ", ".join(f"{r} {percent(p)}" for r, p in dist.items())
    return f"{setup.attack} against {setup.defence}, column {setup.column_label}, DRM {setup.drm:+d}: {shown}"


def attack_line(charts: Charts, state: dict[str, Any], action: dict[str, Any]) -> str | None:
    side = state["active"]
    try:
        f = plan.frame(state, action["n"]) if action.get("do") == "resolve" else fight.declare(state, side, action)
        defenders = board.ground_at(state, f["target"], f["side"])
        can = supply.can_expend(state, supply.combat_source(state, defenders), f["side"])
        if not can:
            return odds_text(charts, state, f, False)
        return (f"{odds_text(charts, state, f, False)}; if the defender expends its depot: "
                f"{odds_text(charts, state, f, True)}")
    except Exception:  # a case the forecast cannot build: no odds rather than wrong ones
        return None


def defence_line(charts: Charts, state: dict[str, Any], f: dict[str, Any], action: dict[str, Any]) -> str | None:
    try:
        return odds_text(charts, state, f, bool(action.get("depot")))
    except Exception:
        return None


def playable(charts: Charts, state: dict[str, Any], prompt: Prompt) -> Prompt:
    if state["phase"] != "combat":
        return prompt
    if state["pending"]:
        f = state["pending"][-1]
        if f.get("k") != "defend":
            return prompt
        lines = [defence_line(charts, state, f, c.action) if c.action.get("do") == "defend" else None
                 for c in prompt.choices]
    else:
        lines = [attack_line(charts, state, c.action) if c.action.get("do") in ("attack", "resolve") else None
                 for c in prompt.choices]
    choices = tuple(c._replace(label=c.label + SEP + line) if line else c for c, line in zip(prompt.choices, lines))
    return prompt._replace(choices=choices)

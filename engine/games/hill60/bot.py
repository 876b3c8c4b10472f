"""The game's own simple player, for the demo and the bench: the demo's preferences (attack when it
can, then press on, then wait), and the standing orders of RULES.md 9 with them, so that no file of
its player is needed after a roll: its hit order once (every unit, in the order of battle: the
unit the demo would hit first), and with each assault or bombardment the advance and, while an
operation would be left, the next operation: every operation it could choose now, in the order
it prefers them, the first the rules allow when it comes (``end turn`` last, always allowed).
Pure: it sees the state and its prompt and answers with an order's words."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Prompt, order_part

from . import data, rules

PREFERENCES = ("assault", "naval bombardment", "hit", "advance", "move", "dig in", "stay", "end turn")


def preferred(labels: list[str]) -> list[str]:
    """``labels`` in the order the player prefers them (the listed order among equals)."""
    rank = {label: next((i for i, w in enumerate(PREFERENCES) if label.lower().startswith(w)), len(PREFERENCES))
            for label in labels}
    return sorted(labels, key=lambda label: rank[label])


def order(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
    labels = [c.label for c in prompt.choices]
    if not prompt.free:
        return preferred(labels)[0]
    if side not in state.get("hits", {}):  # 9.1, once
        return "hits in order " + ", ".join(data.UNIT_BY_ID[u].name for u in rules.units_of(state, side))
    ranked = preferred(labels)
    pick = ranked[0]
    action = next(c.action for c in prompt.choices if c.label == pick)
    if action["do"] not in ("assault", "bombard"):
        return pick
    parts = [order_part(pick)] + (["advance"] if action["do"] == "assault" else [])
    if state["ops"] > 1:  # 9.3
        parts.append("then " + " or ".join(order_part(label) for label in ranked))
    return "; ".join(parts)

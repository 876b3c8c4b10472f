"""7.0, 7.1: "The attacking player announces all of his attacks that he plans and allocates his
air units" before any is resolved.  In the combat phase the attacker first announces attacks
(each listed or typed attack order adds one to ``state["plan"]``: its units, target and
aeroplanes are committed, so no unit or hex is in two, 7.4), then closes the announcement
("resolve the announced attacks"): units not announced attack no more this phase.  He then
resolves the announced attacks one by one in the order he likes (7.4), each with the defender's
depot and interception decision (7.1, 7.2) and its results applied at once (3.22 B).  Only a
breakthrough's units attack again after that (7.8): announced and resolved at once.

Ours, where the text is silent or the tool cannot follow it: the defender commits interceptors
attack by attack as each is resolved (it knows every announced bombing target by then, as 7.1
wants, but also the earlier air results); the depot decisions are the attacker's at the
announcement and the defender's at resolution, not simultaneous (the game has no hidden
information to keep a decision secret until both are made).
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board, fight, hexmap
from .board import side_of


def announcing(state: dict[str, Any]) -> bool:
    return state["phase"] == "combat" and not state.get("announced")


def announce(state: dict[str, Any], side: str, action: dict[str, Any]) -> None:
    """Add an attack to the plan: its units and planes committed, its hex marked (7.4)."""
    f = fight.declare(state, side, action)
    state.setdefault("plan", []).append(f)
    state["fired"].extend(u for u in f["units"] if u not in state["fired"])
    state["attacked"].append(f["target"])
    state["attacked"].extend("@" + u for u in board.ground_at(state, f["target"], f["side"]))
    state["air_used"].extend(p for p in f["planes"] if p not in state["air_used"])


def close(state: dict[str, Any], side: str, events: list[dict[str, Any]]) -> None:
    """The announcement is over: units not announced do not attack this phase (7.0)."""
    state["announced"] = True
    state["fired"].extend(u for u in sorted(state["units"]) if side_of(u) == side and u not in state["fired"])
    events.append({"text": f"{side} announce {len(state.get('plan', []))} attack(s): "
                           + ", ".join(hexmap.label(f["target"]) for f in state.get("plan", [])) + " (7.0)"})


def frame(state: dict[str, Any], n: int) -> dict[str, Any]:
    """The announced attack ``n`` as it stands now: its units still on the map and next to the
    target, its aeroplanes not shot down."""
    f = dict(state["plan"][n])
    t = f["target"]
    f["units"] = [u for u in f["units"] if u in state["units"]
                  and (state["units"][u]["at"] == t or hexmap.adjacent(state["units"][u]["at"], t))]
    f["planes"] = [p for p in f["planes"] if p in state["units"]]
    return f


def resolve_choices(state: dict[str, Any]) -> list[Choice]:
    out = []
    for n, f in enumerate(state.get("plan", [])):
        g = frame(state, n)
        words = f"resolve the attack on {hexmap.label(f['target'])} ({len(g['units'])} unit(s)"
        words += ", expending the depot" if f["depot"] else ", without a depot"
        words += f", {len(g['planes'])} aeroplane(s))" if g["planes"] else ")"
        out.append(Choice(words, {"do": "resolve", "n": n}))
    return out


def take(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any] | None:
    """The announced attack chosen, off the plan; None if nothing is left to attack with."""
    n = action.get("n")
    if not isinstance(n, int) or not 0 <= n < len(state.get("plan", [])):
        raise IllegalAction("no such announced attack (7.0)")
    f = frame(state, n)
    del state["plan"][n]
    if not any(board.kind(u) == "combat" for u in f["units"]) or not board.ground_at(state, f["target"], f["side"]):
        return None
    return f


def forced(state: dict[str, Any]) -> bool:
    """After the announcement, one announced attack left and no breakthrough attack possible:
    resolving it is no decision."""
    return (state["phase"] == "combat" and bool(state.get("announced")) and len(state.get("plan", [])) == 1
            and not state["pending"] and not fight.targets(state, state["active"]))

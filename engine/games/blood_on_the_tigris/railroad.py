"""20.1 the optional railroad (option ``railroad``: "off", the default, as for any optional rule
of 20.0, or "on"; Scenarios 1 and 3, whose reinforcements arrive at Basra).

Two railhead markers appear in Basra on turn 18.  Each turn, during British movement, they may
be moved a total of a die roll divided by two, rounded up: the British roll when they choose to
(``rail-roll``), then lay track hex by hex from either railhead (``rail``).  Units due to arrive
in Basra that turn may instead be placed on a railhead (``entrain``), with their full movement
allowance (13.1 added).  A Turkish unit entering any hex of a railhead's line wrecks it: the
marker goes back to Basra and starts over.

Ours, where the text is silent: the railheads appear the first turn from 18 on that Basra is
British; a railhead's line is the hexes it was moved through from Basra, and it grows only
forward (a hex not yet on its own line); track is laid into land hexes free of enemy units, not
across a river, seasonal water or lake hexside (8.0's "except by bridge": a railroad has none;
a wadi is crossed, except in rain, 14.0)
and not into marsh; placing a unit on a railhead is its arrival, so it must not have moved.
"""

from __future__ import annotations

from typing import Any

from . import board, counters, hexmap
from .board import side_of

MODES = ("off", "on")
FIRST_TURN = 18  # 20.1 "In Basra on turn 18"
HEADS = ("a", "b")  # 20.1: "two railhead markers"


def on(state: dict[str, Any]) -> bool:
    return state["options"].get("railroad", "off") == "on"


def check(scenario: str, options: dict[str, Any]) -> str:
    mode = options.get("railroad")
    if mode is None:
        return ""
    if mode not in MODES:
        return f"option railroad is one of {', '.join(MODES)}"
    if mode == "on" and scenario == "turning-point":
        return "option railroad (20.1) needs reinforcements arriving at Basra: Scenarios 1 and 3"
    return ""


def _basra() -> str:
    return hexmap.PLACE_HEX["basra"]


def begin_turn(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """20.1: the markers appear in Basra on turn 18 (ours: once Basra is British)."""
    if not on(state) or "rail" in state or state["turn"] < FIRST_TURN:
        return
    if state["control"].get(_basra()) != "british":
        return
    state["rail"] = {"lines": {h: [_basra()] for h in HEADS}, "rolled": 0, "left": 0}
    events.append({"text": "two railhead markers are placed in Basra (20.1)"})


def head(state: dict[str, Any], h: str) -> str:
    return state["rail"]["lines"][h][-1]


def _next_hexes(state: dict[str, Any], h: str) -> list[str]:
    """Where the railhead ``h`` may lay one more hex of track."""
    line = state["rail"]["lines"][h]
    out = []
    for n in hexmap.neighbours(line[-1]):
        if n in line or hexmap.terrain(n) in ("lake", "marsh") or board.occupied_by(state, n) == "turkish":
            continue
        if hexmap.crossing(line[-1], n, board.rain(state)) in ("river", "seasonal_water"):
            continue
        out.append(n)
    return out


def choices(state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """The British movement phase's railroad choices (20.1)."""
    rail = state.get("rail")
    if side != "british" or not rail:
        return []
    if rail["rolled"] != state["turn"]:
        return [("roll for the railroad: the railheads move half a die, rounded up, this turn (20.1)",
                 {"do": "rail-roll"})]
    out = []
    if rail["left"] > 0:
        for i, h in enumerate(HEADS):
            if any(rail["lines"][h] == rail["lines"][g] for g in HEADS[:i]):
                continue  # two railheads on the same line: laying from either is the same
            for n in _next_hexes(state, h):
                out.append((f"lay track from railhead {h} at {hexmap.label(head(state, h))} to {hexmap.label(n)} "
                            f"({rail['left']} hex(es) left, 20.1)", {"do": "rail", "head": h, "to": n}))
    heads = sorted({head(state, h) for h in HEADS} - {_basra()})
    for uid in sorted(state["units"]):
        v = state["units"][uid]
        if side_of(uid) == side and v.get("rail_turn") == state["turn"] and not v["moved"] and not v.get("aboard"):
            for at in heads:
                if at != v["at"] and board.occupied_by(state, at) != "turkish":
                    out.append((f"place {counters.name(uid)} on the railhead at {hexmap.label(at)} (20.1)",
                                {"do": "entrain", "unit": uid, "to": at}))
    return out


def apply(state: dict[str, Any], action: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    rail = state["rail"]
    if action["do"] == "rail-roll":
        die = dice.roll(6, "the railroad (20.1)")
        rail["rolled"], rail["left"] = state["turn"], -(-die // 2)
        events.append({"text": f"railroad: die {die}, the railheads may move {rail['left']} hex(es) this turn (20.1)"})
    elif action["do"] == "rail":
        rail["lines"][action["head"]].append(action["to"])
        rail["left"] -= 1
        events.append({"text": f"the railroad reaches {hexmap.label(action['to'])} (20.1)"})
    elif action["do"] == "entrain":
        state["units"][action["unit"]]["at"] = action["to"]
        events.append({"text": f"{counters.name(action['unit'])} arrives on the railhead at "
                               f"{hexmap.label(action['to'])} (20.1)"})


def wreck(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """20.1: a Turkish unit in a hex of a railhead's line: the marker goes back to Basra."""
    rail = state.get("rail")
    if not rail:
        return
    turkish = {v["at"] for u, v in state["units"].items() if side_of(u) == "turkish" and board.is_ground(u)}
    for h in HEADS:
        line = rail["lines"][h]
        if len(line) > 1 and turkish & set(line):
            rail["lines"][h] = [_basra()]
            events.append({"text": f"the Turks wreck the railroad to {hexmap.label(line[-1])}: its railhead goes "
                                   "back to Basra (20.1)"})


def track(view: dict[str, Any]) -> list[list[str]]:
    """The railroad's lines of hexes, for the map."""
    rail = view.get("rail")
    return [line for line in rail["lines"].values() if len(line) > 1] if rail else []

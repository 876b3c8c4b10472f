"""What the players read: the state in words, and each order in the words a player types."""

from __future__ import annotations

from typing import Any

from . import data


def label(a: dict[str, Any]) -> str:
    if isinstance(a.get("then"), dict):
        return f"{label({k: v for k, v in a.items() if k != 'then'})}, then {label({'do': 'done', **a['then']})}"
    do = a.get("do", "?")
    if do == "done" and a.get("until"):
        return "done for the turn" if a["until"] == "reinforcement" else f"done until {a['until']}"
    if do in ("draw-ngf", "fire-ngf"):
        return f"{'draw' if do == 'draw-ngf' else 'fire'} naval gunfire {a.get('cup', '')}"
    if do == "cd-fire":
        return f"cd fire {a.get('steps')} steps{' few' if a.get('few') else ''}" + (f" at {a['target']}" if a.get("target") else "")
    if do == "cd-standing":
        return "cd fire by hand" if a.get("few") is None else f"cd fire at every landing{' few' if a['few'] else ''}"
    if do == "land":
        return "land river clyde" if a.get("clyde") else f"land {a.get('steps')} steps at {a.get('beach')}"
    if do == "roll":
        return f"roll {a.get('expr')} for {a.get('purpose')}"
    if do == "alarums":
        return f"alarums {a.get('regiment')}" + (f" missed {a['missed']}" if a.get("missed") else "")
    if do == "claim":
        return "claim " + " ".join(f"{k} {v}" if k != "level" else v for k, v in a.get("claim", {}).items())
    if do == "move":
        return f"move {a.get('piece')} to {a.get('to')}"
    if do == "delay":
        return f"delay {a.get('count')} {a.get('kind')} at {a.get('beach')}"
    if do == "surprise":
        return f"surprise at {a.get('beach')}" + (" bombarded" if a.get("bombarded") else "")
    if do == "counter-battery":
        return "counter battery roll"
    if do == "sudden":
        return f"sudden death {a.get('landing')}"
    if do == "say":
        return f"say {a.get('text')}"
    return do


def describe(view: dict[str, Any]) -> list[str]:
    s = data.SCENARIOS[view["scenario"]]
    lines = [f"{s['name']}; ends after turn {view['last']}",
             f"{data.label(view['turn'])[:1].upper()}{data.label(view['turn'])[1:]}: {data.PHASE_NAMES[view['phase']]}; "
             f"{view['active']} to act" + (f" ({', '.join(view['done'])} done)" if view["done"] else "")]
    for side, until in sorted(view.get("standing", {}).items()):
        lines.append(f"{side} stands by " + ("for the turn" if until == "reinforcement" else f"until the {until} phase")
                     + " unless it must answer (cadence.py)")
    if view["phase"] == "setup":
        lines.append(f"{view['setup'][0][0]} sets up its {view['setup'][0][1]} (move PIECE to HEX), then says done")
    for cup, token in view["ngf"]["held"].items():
        lines.append(f"{cup} Naval Gunfire chit: " + (f"[[{token}]] held face down" if token else "none held"))
    if view["landed"]:
        lines.append("landed this turn: " + ", ".join(f"{data.BEACHES.get(b, b)} {n}" for b, n in view["landed"].items()))
    if view["delayed"]:
        lines.append("delays from last turn (103.6): " + ", ".join(
            f"{data.BEACHES.get(b, b)} {d}" for b, d in view["delayed"].items()))
    for a in view["alarums"]:
        if a["delay"] and a["turn"] + a["delay"] >= view["turn"]:
            lines.append(f"{a['regiment']} cannot move until turn {a['turn'] + a['delay'] + 1} (106.6)")
    if view.get("naval"):
        lines.append(f"102.3 naval fire this turn: {view['naval']}")
    for side, pieces in view["pieces"].items():
        lines.append(f"{side} pieces: " + ", ".join(f"{p} {at}" for p, at in sorted(pieces.items())))
    if view.get("claim"):
        c = view["claim"]
        lines.append(f"{c['by']} claims " + (f"sudden death at {c['sudden']}" if c.get("sudden") else
                                             ", ".join(f"{k} {v}" for k, v in c.items() if k != "by")))
    lines.append(f"d10 reads {view['options']['d10']}")
    return lines

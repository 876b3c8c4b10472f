"""Build Blood on the Tigris states for rule cases from a compact table.

    scenario = "turning-point"     (default "campaign": the scenario whose rules apply, e.g. its victory)
    turn = 3                       (default 3, a dry turn)
    lost = ["br-16-6"]             units eliminated so far (18.1 counts the British brigades among them)
    control = { "1345" = "british" }  (default: the Turks control every place, 12.1 added)
    supply = { british = 2, turkish = 0 }
    forts = ["1518"]
    [units]                        every unit on the map: hex (or hexside) -> ["id", "id oos ooc steps=1 moved"]
    air = ["br-30-sqn-a-1"]        aeroplanes available (11.5); air_used = [...] those flown this turn (11.1)
    depots = [{ side, hex, mode, aboard }] depots on the map (aboard: a steamer, hex its hexside)
    phase / active                 where in the sequence (default the British movement phase)
    fired = [...]                  units that have attacked this combat phase (7.4)
"""

from __future__ import annotations

from typing import Any

from pbem_engine.games.blood_on_the_tigris import GAME, counters, sequence


def build(before: dict[str, Any]) -> dict[str, Any]:
    if before.get("start") == "setup":
        return GAME.setup(before.get("scenario", "campaign"), dict(before.get("options", {})))
    state = sequence.new_state(before.get("scenario", "campaign"), dict(before.get("options", {})))
    state["units"] = {}
    state["turn"] = before.get("turn", 3)
    for where, specs in before.get("units", {}).items():
        for spec in specs:
            uid, *flags = spec.split()
            assert uid in counters.UNITS, f"no unit {uid!r}"
            v = sequence.fresh(uid, where)
            for flag in flags:
                if "=" in flag:
                    key, value = flag.split("=")
                    v[key] = int(value)
                else:
                    v[flag] = True
            state["units"][uid] = v
    for uid in before.get("air", []):
        state["units"][uid] = sequence.fresh(uid, "air")
    state["depots"] = {f"d{i + 1}": {"side": d["side"], "hex": d["hex"], "mode": d.get("mode", "static"),
                                     "flipped": False, "moved": False, **({"aboard": d["aboard"]} if "aboard" in d else {})}
                       for i, d in enumerate(before.get("depots", []))}
    state["next_depot"] = len(state["depots"]) + 1
    state["control"].update(before.get("control", {}))
    state["supply"].update(before.get("supply", {}))
    state["forts"] = list(before.get("forts", []))
    for uid in before.get("lost", []):
        assert uid in counters.UNITS, f"no unit {uid!r}"
    state["lost"] = list(before.get("lost", []))
    state["phase"] = before.get("phase", "move")
    state["active"] = before.get("active", "british")
    state["pending"] = [dict(p) for p in before.get("pending", [])]
    state["arrived"] = before.get("arrived", state["turn"])
    for key in ("blocked", "released_35", "captured", "mutual_done", "air_used", "rail", "fired"):
        if key in before:
            state[key] = before[key]
    return state

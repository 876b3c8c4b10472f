"""The three scenarios (16.0, 18.0, 19.0): set-ups, which special rules hold, victory.

* ``campaign`` (16.0-17.0): turns 1-29, the reinforcement schedule and 16.2's special rules.
* ``turning-point`` (18.0): Ctesiphon, turns 13-18 (November 1915 - April 1916), starting with
  the British combat phase; 18.1's set-up; no schedule (18.0 gives none: ours); gunboats not
  past hex 1207; its own victory.
* ``lightning`` (19.0, Operation Lightning, "optional non-historical"): the Campaign Game with
  19.0's trigger.  Option ``fit`` says how it fits: "extended" (default: the campaign played
  to turn 30, 2.2 errata "Turn 30 is for Scenario 3 only") or "add-on" (the trigger added to
  the Campaign Game as written, 29 turns).  The text gives no victory: 17.0's (ours).
"""

from __future__ import annotations

from typing import Any

from . import board, hexmap, supply
from .counters import UNITS

NAMES = {
    "campaign": "Scenario 1, the Campaign Game, Nov 1914 - Mar 1917 (16.0)",
    "turning-point": "Scenario 2, The Turning Point: Ctesiphon, Nov 1915 - Apr 1916 (18.0)",
    "lightning": "Scenario 3, Operation Lightning: the campaign with the Turkish counterstroke (19.0; option fit)",
}
FITS = ("extended", "add-on")
LAST = {"campaign": 29, "turning-point": 18, "lightning": 30}
LIGHTNING_RANGE = 15  # 19.0: British within 15 hexes of Ctesiphon, in the Turkish turn
LIGHTNING_DEPOTS = 2

# 18.1: the set-up (hex per unit).  Where the text gives "in/adj." or two brigades for two
# hexes, which unit stands where is ours; so are the depots' hexes ("anywhere").
TURNING_POINT = {
    "tk-german-vol-rgt": "1303",
    "tk-35-div-hq": "1206", "tk-1-35": "1206", "tk-2-35": "1206", "tk-3-35": "1207",
    "tk-38-div-hq": "1308", "tk-1-38": "1308", "tk-2-38": "1407", "tk-3-38": "1307",
    "tk-1-45": "1406", "tk-2-45": "1506", "tk-3-45": "1407",
    "tk-51-cav-bn": "1405", "tk-7-51": "1306", "tk-9-51": "1306", "tk-44-51": "1405",
    "tk-13-corps-hq": "1304", "tk-german-arty-bn": "1304", "tk-6-army-hq": "1201",
    "tk-albatross-t6-1": "air", "tk-albatross-t6-2": "air",
    "br-16-6": "1408", "br-17-6": "1508", "br-18-6": "1508", "br-6-cav-bde": "1507",
    "br-6-div-hq": "1410", "br-ii-corps-hq": "1715", "br-mef-hq": "2324", "br-30-12": "1518",
    "br-30-sqn-a-1": "air", "br-30-sqn-a-2": "air", "br-30-sqn-a-3": "air", "br-30-sqn-a-4": "air",
    "br-30-sqn-b-1": "air", "br-30-sqn-b-2": "air",
    "br-comet-pelly": "1207|1308", "br-mashona-shaitan": "1207|1308", "br-lewis-sumana": "1207|1308",
}
TURNING_POINT_DEPOTS = [("turkish", "1304"), ("turkish", "1305"), ("turkish", "1306"), ("british", "1410")]
KUT = "1518"
BLOCKAGE = "1207|1308"  # 18.1: "No gun boat may move past hex 1207 due to river blockage"


def campaign_rules(state: dict[str, Any]) -> bool:
    """16.2's special rules and the 16.3 schedule hold in Scenarios 1 and 3."""
    return state["scenario"] in ("campaign", "lightning")


def check_options(scenario: str, options: dict[str, Any]) -> str:
    """A reason the options do not fit the scenario, or ""."""
    fit = options.get("fit")
    if fit is not None and (scenario != "lightning" or fit not in FITS):
        return f"option fit is for Scenario 3 (lightning): one of {', '.join(FITS)}"
    turns = options.get("turns")
    last = last_turn(scenario, options)
    if turns is not None and (not isinstance(turns, int) or not 1 <= turns <= last):
        return f"option turns is a whole number 1-{last}"
    return ""


def last_turn(scenario: str, options: dict[str, Any]) -> int:
    if scenario == "lightning" and options.get("fit", "extended") == "add-on":
        return LAST["campaign"]
    return LAST[scenario]


def setup_turning_point(state: dict[str, Any], fresh: Any, new_depot: Any) -> None:
    """18.1; the British hold every place more than 6 hexes from Baghdad (ours: where they
    stood in November 1915, Basra to Aziziya and Nasirya); everyone starts in supply and
    communication; no supply points (18.0 gives none)."""
    for uid, at in TURNING_POINT.items():
        state["units"][uid] = fresh(uid, at)
    for side, h in TURNING_POINT_DEPOTS:
        new_depot(state, side, h, "static")
    for h in state["control"]:
        if min(hexmap.distance(h, b) for b in hexmap.BAGHDAD) > 6:
            state["control"][h] = "british"
    state["turn"], state["phase"], state["active"] = 13, "combat", "british"  # 18.0: from the British combat phase


def blocked_sides(state: dict[str, Any]) -> frozenset[str]:
    """18.1: the Tigris above hexside 1207-1308 is closed to boats in Scenario 2."""
    if state["scenario"] != "turning-point":
        return frozenset()
    line = hexmap.LINES["tigris"]
    return frozenset(line[:line.index(BLOCKAGE)])


# -- 19.0 Operation Lightning ------------------------------------------------------------------

def lightning_due(state: dict[str, Any]) -> bool:
    """19.0: in the Turkish turn, once a British ground unit is within 15 hexes of Ctesiphon."""
    if state["scenario"] != "lightning" or state.get("lightning"):
        return False
    ctesiphon = hexmap.PLACE_HEX["ctesiphon"]
    return any(board.side_of(u) == "british" and board.is_ground(u) and v["at"] in hexmap.ALL_HEXES_SET
               and hexmap.distance(v["at"], ctesiphon) <= LIGHTNING_RANGE for u, v in state["units"].items())


def lightning_units() -> list[str]:
    return sorted(u for u, v in UNITS.items() if v.get("lightning"))


# -- victory -------------------------------------------------------------------------------------

def brigades_lost(state: dict[str, Any]) -> int:
    """British brigades destroyed (18.1): combat units of brigade size in the lost list."""
    return sum(1 for u in state["lost"] if u in UNITS and UNITS[u]["side"] == "british"
               and UNITS[u]["kind"] == "combat" and UNITS[u]["size"] == "brigade")


def turning_point_result(state: dict[str, Any]) -> dict[str, Any]:
    """18.1: Turkish major win: 3 British brigades destroyed and Kut occupied; otherwise a
    British win if they occupy Kut with a line of communication to Basra free of enemy units
    and ZOC; otherwise a Turkish minor win if a British brigade is destroyed and the 6th
    Division is surrounded elsewhere (none of its units outside Kut has such a line, or none
    is left: ours); otherwise a draw (ours: the text names no other result)."""
    lost = brigades_lost(state)
    kut_by = board.occupied_by(state, KUT)
    loc = supply.loc_hexes(state, "british")
    sixth = [v["at"] for u, v in state["units"].items() if UNITS[u].get("division") == "6th Indian"
             and UNITS[u]["side"] == "british" and v["at"] in hexmap.ALL_HEXES_SET]
    why = f"{lost} British brigade(s) destroyed, Kut held by {kut_by or 'no one'}"
    if lost >= 3 and kut_by == "turkish":
        return {"winner": "turkish", "result": "Turkish major victory", "reason": why + " (18.1)"}
    if kut_by == "british" and KUT in loc:
        return {"winner": "british", "result": "British victory", "reason": why + ", with a line to Basra (18.1)"}
    surrounded = all(h not in loc for h in sixth if h != KUT) and not any(h == KUT for h in sixth)
    if lost >= 1 and surrounded:
        return {"winner": "turkish", "result": "Turkish minor victory",
                "reason": why + ", the 6th Division surrounded (18.1)"}
    return {"winner": None, "result": "draw", "reason": why + ": neither side's conditions (18.1; ours)"}

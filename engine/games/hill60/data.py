"""Hill 60, August 1915: the map, the order of battle and the numbers of RULES.md.

Plain Python literals only: the engine may not read files, so nothing here is
loaded from disk.  Everything is our own design; see RULES.md 1.4.
"""

from __future__ import annotations

from typing import NamedTuple

SIDES: tuple[str, ...] = ("allied", "ottoman")
SIDE_NAMES: dict[str, str] = {"allied": "Allied", "ottoman": "Ottoman"}

# 1.2 the map: four spaces in a line, each adjacent to its neighbours only.
SPACES: tuple[str, ...] = ("Damakjelik Bair", "Kabak Kuyu", "Hill 60", "Susuk Kuyu")
BASES: dict[str, str] = {"allied": "Damakjelik Bair", "ottoman": "Susuk Kuyu"}
OBJECTIVE = "Hill 60"
ELIMINATED = "eliminated"  # 5.3 the "space" of a unit that has lost its last step

# 2 sequence of play
TURNS = 5
OPERATIONS = 2

# 3 stacking (bases have no limit)
STACKING_LIMIT = 3

# 5.2 assault fire, 6.2 entrenchment, 7.2 naval bombardment: a d6 hits on this or more.
# Return fire hits on 6 so that a full stack can take an entrenched hill in five
# turns about half the time (found by playing thousands of games with simple policies).
ASSAULT_TARGET = 5
ENTRENCHED_TARGET = 6
RETURN_FIRE_TARGET = 6
BOMBARDMENT_DICE = 2
BOMBARDMENT_TARGET = 6


class Unit(NamedTuple):
    id: str  # short and lowercase: what actions carry
    name: str  # what players read
    side: str
    steps: int  # full strength
    start: str  # space at the start of the standard scenario


# 1.3 order of battle, in the order units are listed everywhere.
UNITS: tuple[Unit, ...] = (
    Unit("18aus", "18th Australian Battalion", "allied", 4, "Damakjelik Bair"),
    Unit("5cr", "5th Connaught Rangers", "allied", 4, "Damakjelik Bair"),
    Unit("nzmr", "NZ Mounted Rifles", "allied", 3, "Damakjelik Bair"),
    Unit("10gr", "2/10th Gurkha Rifles", "allied", 3, "Kabak Kuyu"),
    Unit("1-33", "1/33rd Regiment", "ottoman", 4, "Hill 60"),
    Unit("2-33", "2/33rd Regiment", "ottoman", 3, "Hill 60"),
    Unit("1-34", "1/34th Regiment", "ottoman", 3, "Susuk Kuyu"),
)
UNIT_BY_ID: dict[str, Unit] = {u.id: u for u in UNITS}

START_ENTRENCHED: tuple[str, ...] = ("Hill 60",)

SCENARIOS: dict[str, str] = {
    "standard": "21-29 August 1915: Anzac, British and Indian battalions try to take Hill 60 from the Ottomans.",
}

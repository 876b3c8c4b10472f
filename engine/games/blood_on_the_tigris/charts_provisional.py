"""PROVISIONAL charts for Blood on the Tigris: our reconstructions, NOT the publisher's.

The rulebook (document 004) refers to four charts it does not print: the Combat Results
Table and the Tactical Advantages Chart (3.22, 7.5: "printed on the map"), the Terrain
Effects Chart (2.2 errata, 4.2) and the Air-to-Air Table (7.1).  We have none of them and
copy none.  Every value below is ours, invented to fit what the rules text says about the
chart (the rule numbers are given beside each part) and nothing more.  A player who owns
the game supplies the printed charts as a data file of exactly this shape (TOML or JSON,
checked by ``charts.load_charts``); until then these are used and every report says so.

The shape is the data file's: the row keys of the two tables are the die faces as text
("1" .. "6"), as a TOML or JSON file gives them.
"""

from __future__ import annotations

from typing import Any

LABEL = ("PROVISIONAL charts reconstructed by the pbem project from the rules text only; "
         "not the publisher's charts, which the text references but does not print")

CHARTS: dict[str, Any] = {
    "label": LABEL,
    # 3.22, 7.3, 7.6-7.8.  Columns: odds attack-defence, rounded in the defender's favour
    # (2.3: "2.6-1 is 2-1"), shifted by net Tactical Advantages (7.5).  Rows: the die after
    # the command DRM (7.3: the attacker's bonus is *added*, so a high roll favours him).
    # Results: attacker/defender step losses (7.6: "left of the slash ... the attacker"),
    # E = engaged (7.7), BT = breakthrough (7.8).
    "crt": {
        "provisional": (
            "The CRT is printed on the map and not in the rules text. Ours keeps only what the "
            "text implies: odds columns, right is better for the attacker (7.5), a d6 where high "
            "is better for the attacker (7.3), step-loss results attacker/defender (7.6), engaged "
            "(7.7) and breakthrough (7.8) results. The columns and every value are invented."),
        "columns": ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1"],
        "rows": {
            "1": ["2/-", "2/-", "2/-", "1/-", "1/-", "1/1", "1/1", "-/1", "-/1", "-/2"],
            "2": ["2/-", "1/-", "1/-", "1/-", "1/1", "1/1", "-/1", "-/1", "-/2", "-/2"],
            "3": ["1/-", "1/-", "1/1", "1/1", "1/1E", "-/1", "-/2", "-/2", "-/2", "-/2E"],
            "4": ["1/-", "1/1", "1/1E", "1/1E", "-/1", "-/2", "-/2E", "-/2", "-/3", "-/BT"],
            "5": ["1/1", "1/1E", "-/1", "-/1", "-/2", "-/2E", "-/2", "-/3", "-/BT", "-/BT"],
            "6": ["1/1E", "-/1", "-/1", "-/2", "-/2", "-/2", "-/3", "-/BT", "-/BT", "-/BT"],
        },
    },
    # 7.1, 11.4.  The interceptor is the attacker (7.1).  Results interceptor/bomber:
    # - none, A = that side's planes abort, D = one of its planes destroyed (the rest go on),
    # DA = one destroyed and the rest abort.
    "air_to_air": {
        "provisional": (
            "The Air-to-Air Table is referenced in 7.1 but not printed. Ours: odds columns of "
            "air-to-air strength, interceptor (the attacker, 7.1) against bomber, a d6 where high "
            "is better for the interceptor, results interceptor/bomber: abort (A), one plane "
            "destroyed (D), both (DA). The Turkish interception modifier (11.4: 'subtract one') "
            "is read as -1 on the die. All values are invented."),
        "columns": ["1-2", "1-1", "2-1", "3-1"],
        "turkish_intercept_drm": -1,
        "rows": {
            "1": ["D/-", "D/-", "A/-", "-/-"],
            "2": ["D/-", "A/-", "-/-", "-/A"],
            "3": ["A/-", "-/-", "-/A", "-/A"],
            "4": ["-/-", "-/A", "-/A", "-/D"],
            "5": ["-/A", "-/A", "-/D", "-/DA"],
            "6": ["-/A", "-/D", "-/DA", "D/DA"],
        },
    },
    # 2.0, 7.5, 7.51.  side: who may claim it; counts: "once" a combat however many units give
    # it (7.5 Added) or "each" (one per unit, like the asterisk); terrain: a defender's
    # terrain advantage, kept without a depot or supply (2.0, 7.2); across: river and wadi
    # advantages hold only if every attacker attacks across that hexside feature (7.51).
    "tactical_advantages": {
        "provisional": (
            "The Tactical Advantages Chart is printed on the map. The text names only: river and "
            "wadi (7.51), special capability * (7.51, each), an infantry-and-artillery combination "
            "(7.5 Added, once), HQs involved (7.5 Added, once), trench (7.5 Added, terrain). The "
            "fort, town, city, marsh and grove entries and every value are ours."),
        "river": {"name": "defending behind a river hexside", "side": "defender", "value": 1,
                  "counts": "once", "terrain": True, "across": True},
        "wadi": {"name": "defending behind a wadi hexside", "side": "defender", "value": 1,
                 "counts": "once", "terrain": True, "across": True},
        "trench": {"name": "entrenched (9.2)", "side": "defender", "value": 1,
                   "counts": "once", "terrain": True, "across": False},
        "fort": {"name": "in a fort (9.2)", "side": "defender", "value": 2,
                 "counts": "once", "terrain": True, "across": False},
        "town": {"name": "in a town", "side": "defender", "value": 1,
                 "counts": "once", "terrain": True, "across": False},
        "city": {"name": "in a city", "side": "defender", "value": 2,
                 "counts": "once", "terrain": True, "across": False},
        "marsh": {"name": "in a marsh", "side": "defender", "value": 1,
                  "counts": "once", "terrain": True, "across": False},
        "grove": {"name": "in a grove", "side": "defender", "value": 1,
                  "counts": "once", "terrain": True, "across": False},
        "special": {"name": "special capability (*), each unit", "side": "either", "value": 1,
                    "counts": "each", "terrain": False, "across": False},
        "combined_arms": {"name": "infantry with artillery", "side": "either", "value": 1,
                          "counts": "once", "terrain": False, "across": False},
        "hq": {"name": "HQ involved", "side": "either", "value": 1,
               "counts": "once", "terrain": False, "across": False},
    },
    # 4.2, 9.6, 14.0, 2.2 errata.  mp: movement points to enter a hex, or for a hexside the
    # points added to cross it, or "prohibited"; motorized (armoured cars and Ford vans, 2.2, 9.6): "normal", "double"
    # or "prohibited"; ta: the Tactical Advantage the terrain gives a defender, or "".
    # Rain adds 1 to every cost (14.0): a rule, not a chart value.
    "terrain_effects": {
        "provisional": (
            "The Terrain Effects Chart is printed on the map. The text gives only: marsh is "
            "prohibited to armoured cars and Ford vans (2.2, 9.6), they cross wadis at double "
            "cost (9.6), unbridged rivers are prohibited except by HQ crossing (9.4), the "
            "aerodrome symbol (2.2), tracks vanish in rain (14.0). Every MP cost is ours."),
        "clear": {"name": "clear", "mp": 1, "hexside": False, "motorized": "normal", "ta": ""},
        "track": {"name": "track", "mp": 1, "hexside": False, "motorized": "normal", "ta": ""},
        "grove": {"name": "grove", "mp": 2, "hexside": False, "motorized": "normal", "ta": "grove"},
        "marsh": {"name": "marsh", "mp": 3, "hexside": False, "motorized": "prohibited", "ta": "marsh"},
        "town": {"name": "town", "mp": 1, "hexside": False, "motorized": "normal", "ta": "town"},
        "city": {"name": "city", "mp": 1, "hexside": False, "motorized": "normal", "ta": "city"},
        "aerodrome": {"name": "aerodrome", "mp": 1, "hexside": False, "motorized": "normal", "ta": ""},
        "river": {"name": "river hexside (unbridged)", "mp": "prohibited", "hexside": True,
                  "motorized": "prohibited", "ta": "river"},
        "bridge": {"name": "bridged river hexside", "mp": 0, "hexside": True, "motorized": "normal", "ta": ""},
        "wadi": {"name": "wadi hexside", "mp": 1, "hexside": True, "motorized": "double", "ta": "wadi"},
        "seasonal_water": {"name": "seasonal water hexside", "mp": 1, "hexside": True,
                           "motorized": "double", "ta": ""},
        "lake": {"name": "lake hexside", "mp": "prohibited", "hexside": True,
                 "motorized": "prohibited", "ta": ""},
    },
}

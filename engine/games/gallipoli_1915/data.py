"""The game book's numbers the enforced procedures need, each cited by section (and page of the
transcription, /work/shared/rules/gallipoli-1915-game-book.txt); what the book does not give is
marked provisional with its source.  The data pack packs/gallipoli-1915 holds the same turn
track, cups and places for table-top play; the engine reads no file, so the numbers live here."""

from __future__ import annotations

SIDES = ("ottoman", "entente")  # p.3; the Ottoman sets up first (p.4)
LAST_TURN = 39

# -- the Game Turn track (p.5: 10 Game Turns to 24 hours) ---------------------------------------
# Each game day runs these nine turns and then a 4-hour midnight-4am turn dated the next day; the
# anchors (Turn 1 = 4-6am 25 April, Turn 5 = noon-2pm, Turn 10 = midnight-4am 26th, Turn 12 =
# 6-8am 26th, Turn 33 = 8-10am 28th, Turn 39 = 8pm-midnight 28th: p.5-7, 13-16) fix the rest.
HOURS = ("4-6 am", "6-8 am", "8-10 am", "10 am-noon", "noon-2 pm", "2-4 pm", "4-6 pm", "6-8 pm",
         "8 pm-midnight", "midnight-4 am")
# Light (provisional: printed on the missing Game Turn Record Track).  The book: night is 8pm to
# dawn (103.13, p.12); dawn is the 6am turn (106.9, p.22); Turn 1 (4-6am) allows Tactical
# Surprise, which needs night or morning twilight (106.8); Turn 2 (6-8am) is daylight (104.4).
# The 6-8pm turn is not classified: before 8pm, so day here.
LIGHT = ("twilight", "day", "day", "day", "day", "day", "day", "day", "night", "night")


def hour(turn: int) -> str:
    return HOURS[(turn - 1) % 10]


def date(turn: int) -> int:
    """The April date of ``turn`` (the midnight-4am turn belongs to the next day)."""
    return 25 + turn // 10


def light(turn: int) -> str:
    return LIGHT[(turn - 1) % 10]


def label(turn: int) -> str:
    return f"turn {turn}, {hour(turn)} {date(turn)} April ({light(turn)})"


# -- 103.2: the phases, in the book's order (p.7-9) ---------------------------------------------
PHASES = ("reinforcement", "series", "command", "amphibious-assault", "activations", "end")
# Who the book gives each phase to (p.7-8): "both players in parallel" (Reinforcement, Command),
# the series' Phase 2 unchanged (both), "Player conducting Amphibious Assault", "Both players:
# repeat until all Brigiments have been activated", and the End of Turn's steps, which decide
# nothing (the markers off, the chits back, the Game Turn marker on): the tool's alone.
PHASE_SIDES = {"reinforcement": SIDES, "series": SIDES, "command": SIDES, "amphibious-assault": ("entente",),
               "activations": SIDES, "end": ()}
PHASE_NAMES = {
    "setup": "Set-up (before the first turn)",
    "reinforcement": "Reinforcement Phase (naval gunfire draw on daylight turns; at-sea reinforcements; CD fire)",
    "series": "Phase 2 (series rules)",
    "command": "Command Phase (change orders; Alarums and Excursions in the Free Landing)",
    "amphibious-assault": "Amphibious Assault Phase (landings)",
    "activations": "Activations Phase",
    "end": "End of Turn Phase (naval gunfire chits return)",
    "victory": "the scenario's end: victory is judged",
}

# -- 103.14: the Naval Gunfire cups (p.12-13) -----------------------------------------------------
# The chit types are the book's; how many of each is not (provisional: the counts are the pack's
# reconstruction, packs/gallipoli-1915 decks anzac-ngf and helles-ngf, with their reasons).
CHITS = ("no-fire", "commanded-fire", "counter-battery", "opportunity-fire")
CUPS = {
    "anzac": {"no-fire": 12, "commanded-fire": 1, "counter-battery": 1, "opportunity-fire": 1},
    "helles": {"no-fire": 12, "commanded-fire": 2, "counter-battery": 1, "opportunity-fire": 2},
}
NO_FIRE_REMOVED = 4  # from each cup on 26 April and again on 27 April (103.14, p.13)
CHIT_NAMES = {"no-fire": "No Fire", "commanded-fire": "Commanded Fire", "counter-battery": "Counter-Battery Fire",
              "opportunity-fire": "Opportunity Fire"}


def no_fire_in_cup(turn: int) -> int:
    """No Fire chits in a cup on ``turn``.  Four leave 'during the first Reinforcement Phases on
    26th April and also on the 27th' (p.13): we take the first turn dated that day (10 and 20,
    both night turns).  Chits are drawn only in daylight, so the reading changes no draw: the
    first draw of either day sees the smaller cup whether the removal is on the night turn or
    the first day turn (provisional, RULES.md 103.14)."""
    removed = NO_FIRE_REMOVED * sum(1 for first in (10, 20) if turn >= first)
    return CUPS["anzac"]["no-fire"] - removed


def cup_items(cup: str, turn: int) -> list[str]:
    counts = dict(CUPS[cup], **{"no-fire": no_fire_in_cup(turn)})
    return sorted(f"{chit}#{k + 1}" for chit, n in counts.items() for k in range(n))


def chit_name(item: str) -> str:
    return CHIT_NAMES[item.split("#")[0]]


def pool_name(cup: str, turn: int) -> str:
    """Each daylight turn draws from a full cup of its own (all chits return at the end of the
    turn, 103.2 End of Turn (b)): one private pool per cup and daylight turn."""
    return f"{cup}-ngf-{turn}"


# -- 103.1, 103.7: beach capacity (p.7, p.9-10) ---------------------------------------------------
DEFAULT_CAPACITY = 6  # steps per Beach hex where the map prints no number; every beach north of Gaba Tepe
CAPACITY = {"y-beach": 5}
CLYDE_STEPS = 2  # the SS River Clyde counts 2 steps of capacity whatever it lands (103.7)
BEACHES = {  # the beaches the book names (packs/gallipoli-1915 locations tagged beach)
    "y-beach": "Y Beach", "x-beach": "X Beach", "w-beach": "W Beach", "v-beach": "V Beach (6.2)",
    "s-beach": "S Beach", "gully-beach": "Gully Beach", "morto-bay": "Morto Bay (10.05)",
    "z-beach": "Z Beach", "anzac-cove": "Anzac Cove", "brighton-beach": "Brighton Beach",
    "north-beach": "North Beach", "fishermans-hut": "Fisherman's Hut", "kum-kale": "Kum Kale",
    "suvla": "Suvla Bay", "bulair": "Bulair",
}
NO_SURPRISE = ("morto-bay", "s-beach")  # 106.8: Tactical Surprise never possible there

# -- 103.13: Coastal Defense fire at units at sea (p.11-12) --------------------------------------
CD_CHANCE = 10  # percent per landing step
CD_CHANCE_FEW = 5  # halved when three or fewer CD steps are within range
CD_FEW_STEPS = 3

# -- 106.8: Tactical Surprise (p.22) ---------------------------------------------------------------
SURPRISE_AT_MOST = 80  # percentile, 80 or less

# -- the scenarios: turns and cups (102, 104, 106) ----------------------------------------------
# first, last: Game Turns; cups: the Naval Gunfire cups drawn from; landings: victory by landing
SCENARIOS = {
    "kemal": {"name": "102.2 Kemal's Counterattack (turns 5-10, 25-26 April)", "first": 5, "last": 10,
              "cups": (), "landings": ()},
    "krithia": {"name": "102.3 First Battle of Krithia (turns 33-39, 28 April)", "first": 33, "last": 39,
                "cups": (), "landings": ()},
    "anzac": {"name": "104.3 Anzac (turns 1-39)", "first": 1, "last": 39, "cups": ("anzac",),
              "landings": ("anzac",)},
    "helles": {"name": "104.4 Cape Helles (turns 1-39)", "first": 1, "last": 39, "cups": ("helles",),
               "landings": ("helles",)},
    "peninsula": {"name": "104.5 Peninsula, Anzac and Helles together (turns 1-39)", "first": 1, "last": 39,
                  "cups": ("anzac", "helles"), "landings": ("anzac", "helles")},
    "free-landing": {"name": "106 Free Landing (turns 1-39)", "first": 1, "last": 39,
                     "cups": ("anzac", "helles"), "landings": ("free",)},
}

# -- set-up hooks (101.3 inf., p.4; 102.2, 102.3, p.6-7) ------------------------------------------
# Who sets up, in order: 'Unless noted otherwise, the Ottoman player sets up first'; Krithia: the
# Ottoman's non-artillery, then every Entente unit, then the Ottoman's artillery.
SETUP_ORDER = {"krithia": (("ottoman", "non-artillery units"), ("entente", "units"), ("ottoman", "artillery"))}
DEFAULT_SETUP = (("ottoman", "units"), ("entente", "units"))
NO_COMMAND_PHASE = {"kemal": 5}  # 102.2: no Command Phase on the scenario's first turn
ARRIVALS = {  # reinforcements whose turn the book itself gives (the rest: Setups and Reinforcements booklet)
    "kemal": {6: "102.2: the 77th Regiment is released in General Reserve, with its artillery "
                 "(the only Ottoman reinforcements)"},
}

# -- victory levels (104.3, 104.4, 104.5, 106.12) and the weights of 104.5 (p.16) -----------------
# The player-victory levels each landing may end at, weighted for the Peninsula's average.
WEIGHTS = {"ottoman-massive": -3, "ottoman-major": -2, "ottoman-minor": -1, "draw": 0,
           "entente-minor": 1, "entente-major": 2}
LEVELS = {  # the player-victory levels each scenario's text names (judged at the table)
    "kemal": ("ottoman-millennial", "ottoman-crushing", "ottoman-medium", "entente-minor", "entente-major"),
    "krithia": ("ottoman-major", "draw", "entente-minor", "entente-major"),
    "anzac": ("ottoman-massive", "ottoman-major", "ottoman-minor", "entente-minor", "entente-major"),
    "helles": ("ottoman-massive", "ottoman-major", "ottoman-minor", "draw", "entente-minor", "entente-major"),
    "free-landing": ("ottoman-millennial", "ottoman-major", "ottoman-minor", "draw", "entente-minor",
                     "entente-major", "entente-massive"),  # 106.12: the Peninsula's historical levels
}
LEVELS["peninsula"] = tuple(WEIGHTS)  # per landing, then weighted (104.5)
# sudden death: the conditions that end the game at once (104.3 Anzac Major, 104.4 Entente Major)
SUDDEN_DEATH = {"anzac": ("anzac",), "helles": ("helles",), "peninsula": ("anzac", "helles")}

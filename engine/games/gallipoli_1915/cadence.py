"""Who acts in each phase of 103.2, and how a game turn passes in as few turn files as the game
book's information flow allows (RULES.md, "Hand-overs").

* **Whose phase.**  The book gives the Reinforcement, Command and Activations Phases (and the
  series' Phase 2) to both players in parallel, the Amphibious Assault Phase to the player
  conducting it (the Entente), and the End of Turn Phase to no one's decision: its steps (the
  chits back, the Game Turn marker advanced) are the tool's (``data.PHASE_SIDES``).  A side the
  book does not give a phase to is never waited for there.
* **Standing orders.**  ``done`` ends a side's part of this phase; ``done until PHASE`` also of
  every phase before the next PHASE (this turn's or the next's); ``done for the turn`` of every
  phase until the next turn's Reinforcement Phase.  A phase where every side is done passes
  without a file.  A standing order never covers what the book requires of the side (the
  Entente's Naval Gunfire draw on a daylight turn, which its tool makes alone) and is woken by
  what the side must answer: the Ottoman, by a landing in the Amphibious Assault Phase or units
  put at sea in the Reinforcement Phase (103.13: his Coastal Defense fire at units about to
  land), and either side by the other's ``pass``.
* **Who opens a phase.**  The side whose action ended the phase before, where its file goes on:
  an action that rolled waits for the other side's reveal and is applied in the other side's
  next file, so then the other side opens (a guess that only costs a file where it is wrong).
  Except the Ottoman's standing Coastal Defense fire: it binds (the prompt's one legal choice),
  so its roll is sealed at once in his own file (protocol 2's ``at_once``: the Entente's file
  that landed came just before, and the Ottoman chose nothing since), and he opens the
  Activations Phase there.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import IllegalAction

from . import data
from .procedures import due_cups, end_of_turn, need, other

State = dict[str, Any]
REACH = {  # the words a player types after 'done until', and the phase each names
    "reinforcement": "reinforcement", "reinforcements": "reinforcement", "next turn": "reinforcement",
    "series": "series", "phase 2": "series", "command": "command", "assault": "amphibious-assault",
    "amphibious assault": "amphibious-assault", "amphibious-assault": "amphibious-assault",
    "activations": "activations", "activation": "activations",
}


def reach(words: str) -> str | None:
    """The phase a ``done`` reaches to, from what follows the word (None: this phase only)."""
    words = " ".join(words.lower().replace(" phase", "").split())
    if words in ("", "this phase"):
        return None
    if words in ("for the turn", "for this turn", "to the end of the turn", "until next turn"):
        return "reinforcement"
    if words.startswith("until "):
        phase = REACH.get(words.removeprefix("until ").removeprefix("the "))
        if phase:
            return phase
    raise IllegalAction("say 'done' (this phase), 'done for the turn', or 'done until PHASE' (reinforcement, "
                        "phase 2, command, assault, activations)")


def owes(state: State, side: str) -> str | None:
    """What the book requires of ``side`` in this phase before it may be done (None: nothing)."""
    if state["phase"] == "reinforcement" and side == "entente":
        missing = [c for c in due_cups(state) if c not in state["ngf"]["drawn"]]
        if missing:
            return f"draw naval gunfire {missing[0]}"
    return None


def covered(state: State, side: str) -> bool:
    until = state["standing"].get(side)
    return until is not None and until != state["phase"]


# -- the orders ---------------------------------------------------------------------------------
def do_pass(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """Hand over without ending one's part: the other side answers, even one that was done."""
    them = other(side)
    if them in state["done"]:
        state["done"].remove(them)
    if them not in state["woken"]:
        state["woken"].append(them)
    state["active"] = them
    return [f"{side} hands over to {them}"]


def do_done(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """A side has finished the phase (and, with ``until``, the phases before that one)."""
    need(state["phase"] != "victory", "the game is at its end: claim the victory level, or accept the other's")
    if state["phase"] == "setup":
        return setup_done(state, side)
    owed = owes(state, side)
    if owed:
        raise IllegalAction(f"103.14: on a daylight turn the Entente draws a Naval Gunfire chit in the "
                            f"Reinforcement Phase: say '{owed}' first")
    until = a.get("until")
    need(until is None or until in data.PHASE_SIDES and data.PHASE_SIDES[until], "done until which phase?")
    if side not in state["done"]:
        state["done"].append(side)
    if side in state["woken"]:
        state["woken"].remove(side)
    if until:
        state["standing"][side] = until
        how = ("for the turn" if until == "reinforcement" else f"until the {data.PHASE_NAMES[until].split(' (')[0]}")
        return [f"{side} has finished the {data.PHASE_NAMES[state['phase']]}, and stands by {how} unless "
                f"something it must answer happens"]
    return [f"{side} has finished the {data.PHASE_NAMES[state['phase']]}"]


def do_cd_standing(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """The Ottoman's standing Coastal Defense fire (103.13): at every landing, his tool fires at
    the steps landed, with the range he gives (three or fewer CD steps in range, or more), so no
    file of his waits for a person to type what the board already says.  ``few`` None: by hand."""
    need(side == "ottoman", "103.13: Coastal Defense fire is the Ottoman's")
    if a.get("few") is None:
        state.pop("cd_standing", None)
        return ["ottoman will fire Coastal Defense at landings by hand (103.13)"]
    state["cd_standing"] = {"few": a["few"]}
    return [f"ottoman stands by to fire Coastal Defense at every landing (103.13), "
            f"{'three or fewer' if a['few'] else 'more than three'} CD steps in range: its tool fires alone"]


def standing_cd_fire(state: State, side: str) -> str | None:
    """The order the Ottoman's standing CD fire gives now: in the Amphibious Assault Phase, at the
    steps landed this turn that no CD fire of this phase has fired at yet (None: nothing to fire).
    While it gives one, it is his only legal order (the game's ``prompt``): a standing order binds,
    which is what lets its roll be sealed at once; he withdraws it beforehand, 'cd fire by hand'."""
    order = state.get("cd_standing")
    if side != "ottoman" or order is None or state["phase"] != "amphibious-assault":
        return None
    steps = sum(state["landed"].values()) - (order["fired"] if order.get("turn") == state["turn"] else 0)
    if steps < 1:
        return None
    return f"cd fire {min(steps, 60)} steps{' few' if order['few'] else ''} at the landing, then done"


def wake(state: State, side: str, action: dict[str, Any]) -> list[str]:
    """What the other side must answer (103.13): the Entente lands steps, or puts units at sea in the
    Reinforcement Phase (the Rowing Subsegment, then the Ottoman's Naval Fire Subsegment)."""
    them = other(side)
    do, phase = action.get("do"), state["phase"]
    landing = (do == "land" and phase == "amphibious-assault") or (
        do == "move" and action.get("to") == "at sea" and phase == "reinforcement")  # where CD fire may answer
    if side != "entente" or not landing or them not in state["done"]:
        return []
    state["done"].remove(them)
    state["woken"].append(them)
    return [f"{them} may answer with Coastal Defense fire (103.13) before the phase ends"]


def setup_done(state: State, side: str) -> list[str]:
    """101.3 (inf.): the sides set up in the scenario's order, each saying 'done' when placed."""
    placed = state["setup"].pop(0)
    if state["setup"]:
        state["active"] = state["setup"][0][0]
        return [f"{side} has set up its {placed[1]}; {state['active']} sets up its {state['setup'][0][1]}"]
    state["phase"] = "reinforcement"
    enter(state, side)
    return [f"{side} has set up its {placed[1]}; the game begins: {data.label(state['turn'])}, "
            f"{data.PHASE_NAMES['reinforcement']}"] + arrivals(state)


def arrivals(state: State) -> list[str]:
    text = data.ARRIVALS.get(state["scenario"], {}).get(state["turn"])
    return [text] if text else []


# -- the phases passing -------------------------------------------------------------------------
def enter(state: State, opener: str) -> None:
    """A phase begins: the sides the book does not give it to are done, a standing order that
    reaches this phase ends, and ``opener`` has the word if it has anything here."""
    phase = state["phase"]
    for side in data.SIDES:
        if state["standing"].get(side) == phase:
            del state["standing"][side]
    state["done"] = [s for s in data.SIDES if s not in data.PHASE_SIDES[phase]]
    state["acts"], state["woken"] = [], []
    state["active"] = opener if opener not in state["done"] else other(opener)


def settle(state: State, actor: str, dice: Dice, rolled: bool) -> list[str]:
    """After each action: sides standing by are done, a phase where every side is done passes
    (the End of Turn with it), and the word goes to a side that is not done."""
    events: list[str] = []
    pen = other(actor) if rolled else actor  # the side whose file applies the action (module docstring)
    for _ in range(4 * len(data.PHASES)):
        if state["phase"] not in data.PHASES or state["over"] or (state["claim"] or {}).get("sudden"):
            return events
        for side in data.SIDES:
            if side not in state["done"] and covered(state, side) and side not in state["woken"] \
                    and not owes(state, side):
                state["done"].append(side)
        if len(state["done"]) < len(data.SIDES):
            if state["active"] in state["done"]:
                state["active"] = other(state["active"])
            return events
        events += next_phase(state, dice, pen)
    raise AssertionError("the phases did not settle")  # pragma: no cover (each pass moves a phase on)


def next_phase(state: State, dice: Dice, opener: str) -> list[str]:
    index = data.PHASES.index(state["phase"])
    state["phase"] = data.PHASES[min(index + 1, len(data.PHASES) - 1)]  # (a position may start in the End)
    events = []
    if state["phase"] == "command" and data.NO_COMMAND_PHASE.get(state["scenario"]) == state["turn"]:
        state["phase"] = data.PHASES[index + 2]  # 102.2: no Command Phase on the scenario's first turn
        events.append(f"102.2: no Command Phase on turn {state['turn']}")
    if state["phase"] == "end":  # 103.2 6: no one decides anything in it
        events.append(f"{data.label(state['turn'])}: {data.PHASE_NAMES['end']}, by the tool alone")
        events += end_of_turn(state, dice)
        if state["phase"] == "victory":
            state["standing"], state["woken"], state["done"] = {}, [], []
            return events
        events += arrivals(state)
    else:
        events.append(f"{data.label(state['turn'])}: {data.PHASE_NAMES[state['phase']]}")
    enter(state, opener)
    return events

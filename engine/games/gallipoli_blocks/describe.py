"""The situation in words, for reports.  Hidden items appear as [[token]]: the display
layer names a side's own (its blocks, its hand) and shows the enemy's as concealed."""

from __future__ import annotations

from typing import Any

from . import board
from .data import SPACES


def describe(view: dict[str, Any], cards: dict[str, dict[str, Any]]) -> list[str]:
    held = board.objectives_held(view)
    lines = [f"Turn {view['turn']}; Allied hand size {view['hand_size']}; Allied objectives held "
             f"{len(held)} of 4 needed ({', '.join(board.name(s) for s in held) or 'none'}); "
             f"Suvla Region {'open' if view['suvla_open'] else 'closed until Suvla Bay Invasion'}"]
    if view["seats"]["allied"] != "allied":
        lines.append("Tournament bid (6.5): the player seated as ottoman commands the Allies, "
                     "the player seated as allied the Ottomans")
    if view["result"]:
        lines.append(f"Result: {view['result']['result']} — {view['result']['reason']}")
    for frame in view["frames"]:
        if frame["k"] == "battle":
            state = {None: "not yet known", True: "entrenched", False: "not entrenched"}[frame["entrenched"]]
            lines.append(f"Battle for {board.name(frame['to'])}: {frame['att']} attacks from "
                         f"{board.name(frame['from'])}{' (a landing)' if frame['landing'] else ''}, round "
                         f"{frame['round']}; the defender is {state}; now: {STEP_WORDS.get(frame['step'], frame['step'])}")
        elif frame["k"] == "landing":
            lines.append(f"Landing at {board.name(frame['to'])}: {len(frame['party'])} {frame['army']} block(s) "
                         f"under landing fire from {board.name(frame['from'])}")
    for space in SPACES:
        toks = board.tokens(view, space)
        if not toks:
            continue
        marks = []
        if space in board.objectives():
            marks.append("objective")
        marks.append(board.terrain(space))
        parts = [block_text(view["blocks"][t], t) for t in toks]
        lines.append(f"  {board.name(space)} [{', '.join(marks)}]: " + "; ".join(parts))
    for army in board.ARMIES:
        deck = view["deck"][army]
        lines.append(f"{army} hand ({len(view['hands'][army])}):" + ("" if view["hands"][army] else " none"))
        lines += [f"    [[{t}|card]]" for t in view["hands"][army]]  # one card a line
        lines.append(f"{army} deck: {deck['early']} early + {deck['late']} late; discards: "
                     + (", ".join(cards[c]["name"] for c in view["discard"][army]) or "none")
                     + "; removed: " + (", ".join(cards[c]["name"] for c in view["removed"][army]) or "none"))
    gone = sorted((b for b in view["gone"].values() if b.get("id") and not b.get("retired")),
                  key=lambda b: (b["died"], b["id"]))
    if gone:
        lines.append("eliminated: " + ", ".join(board.block_name(b["id"]) for b in gone))
    if any(c.get("supplied") for c in cards.values()):
        lines.append("cards: values supplied by the players (option 'cards')")
    else:
        lines.append("cards: PROVISIONAL placeholder values (the rules text gives none)")
    return lines


# where a battle stands, in the words of 10.1's steps
STEP_WORDS = {
    "bombard": "bombardment cards, face down (10.1 step 2)", "entrench": "entrenchment cards, face down (10.1 step 2)",
    "show-att": "the attacker shows his cards (10.1 step 2)", "show-def": "the defender shows his cards (10.1 step 2)",
    "plan-att": "the attacker's battle plan", "plan-def": "the defender's battle plan",
    "lead-att": "the attacker chooses his leading blocks (10.1 step 3)",
    "lead-def": "the defender chooses his leading blocks (10.1 step 4)",
    "events-att": "the attacker's Battle event (10.1 step 5)", "events-def": "the defender's Battle event (10.1 step 6)",
    "reveal-att": "the attacker reveals his leaders (10.1 step 7)",
    "reveal-def": "the defender reveals his leaders (10.1 step 8)",
    "fire": "fire and resolve hits (10.1 step 10)", "fire-att": "the attacker fires (10.1 step 10)",
    "resolved": "surviving blocks concealed (10.1 step 11)", "advance": "advancing (10.1 step 12)",
    "press": "press or retreat (10.1 step 13)", "end": "the battle ends",
}


def block_text(b: dict[str, Any], tok: str) -> str:
    if b["id"] is None:
        extra = f", {b['hits']} step{'' if b['hits'] == 1 else 's'} lost since it was concealed" if b["hits"] else ""
        return f"[[{tok}|block]] ({b['army']}{extra})"
    stop = ", stopped" if b["stop"] else ""
    return f"{board.describe_block(b)} ({b['army']}{stop})"


def map_view(view: dict[str, Any]) -> dict[str, Any]:
    """What the map shows: every block where it is (a concealed one as its token, which the
    display names for its owner only), the tracks, and the spaces of the battle in progress."""
    pieces = []
    for space in SPACES:
        for tok in board.tokens(view, space):
            b = view["blocks"][tok]
            concealed = b["id"] is None
            badge = "" if concealed or b["steps"] is None else str(b["steps"])
            label = f"[[{tok}|block]]" if concealed else board.describe_block(b)
            if concealed and b["hits"]:
                label += f", {b['hits']} step(s) lost"
            pieces.append({"at": space, "side": b["army"], "label": label, "badge": badge, "concealed": concealed,
                           "id": tok})  # the token its orders name (the map shows it only to its owner)
    marks: dict[str, list[str]] = {}
    for frame in view["frames"]:
        if frame["k"] in ("battle", "landing"):
            marks.setdefault(frame["to"], []).append("battle" if frame["k"] == "battle" else "landing")
            marks.setdefault(frame["from"], []).append("attacking from")
    held = board.objectives_held(view)
    hands = {army: [f"[[{t}|card]]" for t in view["hands"][army]] for army in board.ARMIES}
    decks = {army: f"{view['deck'][army]['early']} early + {view['deck'][army]['late']} late to draw, "
                   f"{len(view['discard'][army])} discarded, {len(view['removed'][army])} removed"
             for army in board.ARMIES}
    return {"pieces": pieces, "marks": marks, "hands": hands, "decks": decks,
            "tracks": [("Turn", str(view["turn"])), ("Allied hand size", str(view["hand_size"])),
                       ("Allied objectives", f"{len(held)} of 4"),
                       ("Suvla Region", "open" if view["suvla_open"] else "closed")]}


def card_values(card: dict[str, Any], supplied: bool) -> str:
    """A card's values in a few words (5.1-5.7), for wherever it is held or offered."""
    event = card["event"]["kind"]
    tag = "" if supplied else " (provisional)"
    return (f"OPS {card['ops']}, bombardment {card['bombardment']}, entrenchment {card['entrenchment']}, "
            f"{card['subdeck'].capitalize()}{', asterisk' if card['asterisk'] else ''}, event: {event}{tag}")

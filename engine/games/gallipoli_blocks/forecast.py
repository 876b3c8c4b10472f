"""The odds shown with a choice that decides a roll's dice, from the rules' own numbers.

Added by ``GallipoliBlocks.playable``, the prompt as its owner's tool shows it: the
dice are often the strength of our own concealed blocks, which only we know.  Labels
are display only (the actions are untouched); the odds follow the words behind
``odds.SEP``, and a label is still matched by its words alone.

    lead strongest       10.1 steps 3-4: the leaders' total strength in dice at the current target (10.2)
    press the attack     10.1 step 13: the same for the strongest blocks still free to lead
    attack X from Y      8.1.2: the strongest lead against X's terrain; a landing: the landing fire (9.1)
    moves onto beaches   9.1: the landing fire, once in the prompt's text
    fire / bombard with  9.1: 3 dice, plus the card's bombardment value, each 3+ a hit
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, Prompt
from pbem_engine.chance.odds import SEP, pool_line

from . import board, combat, ops
from .rules import current_steps, own_blocks, strongest

SIDES = 6


def with_odds(state: dict[str, Any], prompt: Prompt, known: dict[str, str], cards: dict) -> Prompt:
    frame = state["frames"][-1]
    kind = frame["k"]
    if kind == "landing":
        return _landing(prompt, known, cards)
    if kind == "ops":
        return _ops(state, prompt, frame, known)
    if kind == "move":
        return _moves(state, prompt, frame)
    if kind == "battle" and frame["step"] in ("lead-att", "lead-def", "press"):
        return _battle(state, prompt, frame, known)
    return prompt


def _with(prompt: Prompt, odds: dict[int, str], text: str = "") -> Prompt:
    choices = tuple(Choice(c.label + SEP + odds[i], c.action) if i in odds else c
                    for i, c in enumerate(prompt.choices))
    return prompt._replace(text=prompt.text + text, choices=choices)


def strength(state: dict[str, Any], tok: str, names: dict[str, str], known: dict[str, str]) -> int | None:
    """A block's strength as our tool knows it (a dummy's is 0); None if we cannot know it."""
    b = state["blocks"][tok]
    bid = b["id"] or names.get(tok)
    if bid is None:
        return None
    if board.is_dummy(bid):
        return 0
    steps = b["steps"] if b["id"] is not None else current_steps(state, tok, known)
    return board.strength(bid, steps) if steps and 1 <= steps <= 4 else None


def lead_dice(state: dict[str, Any], pool: list[str], army: str, known: dict[str, str]) -> int | None:
    """The dice of 'lead strongest' from ``pool``: the chosen leaders' total strength (10.2.1)."""
    names = own_blocks(state, army, known)
    values = [strength(state, t, names, known) for t in strongest(state, pool, names, known)]
    return None if not values or None in values else sum(values)  # type: ignore[arg-type]


def _battle(state: dict[str, Any], prompt: Prompt, frame: dict[str, Any], known: dict[str, str]) -> Prompt:
    step = frame["step"]
    who = "def" if step == "lead-def" else "att"
    army = frame[who]
    pool = combat.defenders(state, frame) if who == "def" else combat.eligible(state, frame)
    dice = lead_dice(state, pool, army, known)
    if dice is None:
        return prompt
    aim = combat.target(frame, who)
    line = pool_line(dice, SIDES, aim)
    if step == "press":
        return _with(prompt, {i: f"strongest lead: {line}" for i, c in enumerate(prompt.choices)
                              if c.action.get("do") == "press"})
    return _with(prompt, {i: line for i, c in enumerate(prompt.choices) if c.action.get("do") == "lead"},
                 f" (the leaders fire their total strength in dice, each {aim}+ a hit at the current target; "
                 f"Battle events may still change it)")


def _ops(state: dict[str, Any], prompt: Prompt, frame: dict[str, Any], known: dict[str, str]) -> Prompt:
    army = frame["army"]
    shown: dict[int, str] = {}
    for i, c in enumerate(prompt.choices):
        a = c.action
        if a.get("do") != "attack":
            continue
        party = [t for t in board.tokens(state, a["from"], army) if not state["blocks"][t]["stop"]]
        if ops.is_landing(state, army, a["from"], a["to"]):  # the whole party lands: said, with how to land fewer
            who = "the 1 block there lands" if len(party) == 1 else \
                f"all {len(party)} blocks there land (activate it to land fewer)"
            shown[i] = f"{who}; landing fire at you (more dice if bombarded): " + pool_line(
                ops.LANDING_DICE, SIDES, ops.LANDING_HIT)
            continue
        dice = lead_dice(state, party, army, known)
        if dice is not None:
            aim = combat.target({"to": a["to"], "mods": {"att": 0}}, "att")
            shown[i] = f"strongest lead: {pool_line(dice, SIDES, aim)}"
    return _with(prompt, shown)


def _moves(state: dict[str, Any], prompt: Prompt, frame: dict[str, Any]) -> Prompt:
    """Moving onto a beach from an HQ is a landing (9.1): said once, in the prompt's text."""
    army, src = frame["army"], frame["space"]
    beaches = sorted({c.action["to"] for c in prompt.choices if c.action.get("do") == "move"
                      and ops.is_landing(state, army, src, c.action["to"])
                      and not (c.action["to"] in state["landed"] and board.occupant(state, c.action["to"]) is None)})
    if not beaches:
        return prompt
    return _with(prompt, {}, f" (a landing at {', '.join(board.name(b) for b in beaches)} meets landing fire, more "
                             f"dice if bombarded: {pool_line(ops.LANDING_DICE, SIDES, ops.LANDING_HIT)})")


def _landing(prompt: Prompt, known: dict[str, str], cards: dict) -> Prompt:
    shown: dict[int, str] = {}
    for i, c in enumerate(prompt.choices):
        extra: int | None = 0
        if c.action.get("do") == "bombard":
            cid = known.get(c.action.get("card", ""))
            extra = cards[cid]["bombardment"] if cid in cards else None
        if extra is not None:
            shown[i] = pool_line(ops.LANDING_DICE + extra, SIDES, ops.LANDING_HIT)
    return _with(prompt, shown)

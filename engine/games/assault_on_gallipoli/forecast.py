"""The prompt as its owner's tool shows it (``playable``): the exact odds after each fire target,
and in a close combat only what the cards in hand allow.

Odds: the fire is tried on a copy of the state with a probe for dice, which records every roll
the rules ask for ("N dice, hit on T or less") and answers misses; so the odds count every
modifier the rules apply (terrain, range, Leader, Manica, trenches, and whatever cards add),
with no second copy of the Fire Combat Table here.  Display only: the actions are untouched.

Close combat: with the hand held as private tokens the public prompt offers every token for
every use; the owner, who knows them, is offered a card as itself (or a Reserve Trench as
another card), matches only with what matches, and "cannot match" only when nothing does
(10.3.2 would refuse it anyway).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from pbem_engine.protocol.core import Prompt, copy_state
from pbem_engine.chance.odds import SEP, line, successes

from . import closecombat, fire

AIM = re.compile(r"hit on (-?\d+) or less")


class Probe:
    """Dice that record the fire rolls asked for and roll nothing that hits."""

    private = None

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    def roll(self, sides: int, purpose: str) -> int:
        return sides - 1

    def dice(self, count: int, sides: int, purpose: str) -> list[int]:
        aim = AIM.search(purpose)
        if aim:
            self.asked.append((count, int(aim.group(1))))
        return [sides - 1] * count


def chance(target: int, bounds: str) -> Fraction:
    """One d10 hitting at ``target`` or less (8.5.2), under the target_bounds option."""
    if bounds == "1-9":
        return Fraction(min(9, max(1, target)), 10)
    return Fraction(min(10, max(0, target)), 10)


def fire_line(state: dict[str, Any], f: dict[str, Any], to: str) -> str | None:
    """The hits of firing now at ``to``: exact, summed over the separate rolls (8.2.4)."""
    probe = Probe()
    try:
        fire.resolve(copy_state(state), copy_state(f), to, probe, [])
    except Exception:  # a rule the probe cannot stand in for: no odds rather than wrong ones
        return None
    if not probe.asked:
        return None
    bounds = state["options"].get("target_bounds", "none")
    dist = {0: Fraction(1)}
    for count, target in probe.asked:
        one = successes(count, chance(target, bounds))
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in one.items():
                new[a + b] = new.get(a + b, Fraction(0)) + pa * pb
        dist = dict(sorted(new.items()))
    rolls = " and ".join(f"{n}d10 at {t} or less" for n, t in probe.asked)
    return f"{rolls}: {line(dist, 'hit')}"


def playable(state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> Prompt:
    f = state["frames"][-1]
    if f["k"] == "fire":
        choices = []
        for c in prompt.choices:
            odds = fire_line(state, f, c.action["at"]) if c.action.get("do") == "fire" else None
            choices.append(c._replace(label=c.label + SEP + odds) if odds else c)
        return prompt._replace(choices=tuple(choices))
    if f["k"] == "cc" and f["step"] in ("lead", "match") and known:
        return prompt._replace(choices=tuple(c for c in prompt.choices if _fits(state, c.action, f, known)))
    return prompt


def _fits(state: dict[str, Any], action: dict[str, Any], f: dict[str, Any], known: dict[str, str]) -> bool:
    def card(token: str) -> str:
        return known.get(token, token)

    if action.get("do") == "play":
        held = card(action["card"])
        if held not in closecombat.DECK:
            return True  # not ours to know: leave it
        if f["step"] == "lead":
            return ("as" in action) == (held == closecombat.WILD)
        return closecombat.matches(held, f["lead"])
    if action.get("do") == "nomatch":
        hand = [card(t) for t in state["ccdeck"][closecombat.cc_side(f)]["hand"]]
        return not any(h in closecombat.DECK and closecombat.matches(h, f["lead"]) for h in hand)
    return True

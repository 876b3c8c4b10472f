"""A fire's event lists every modifier of its target (8.2.3 long range, 8.6 woods, higher and the
Leader, 13.1 trenches, 16.7 HMS Manica, 17 cover, Aerial Recon and Night Attack), so that what a
player adds up from the event is the target it shows: checked on every fire of every rule case
(each modifier path at least once) and of random games."""

from __future__ import annotations

import random
import re
import tomllib
from typing import Any

from pbem_engine.protocol.core import step
from pbem_engine.chance.dice import Dice, ScriptedDice
from pbem_engine.games.assault_on_gallipoli import GAME, rules
from pbem_engine.games.assault_on_gallipoli.position import position

from .test_cases import CASES

FIRE = re.compile(r"needing (-?\d+) or less \(base (-?\d+)((?:, [^;]*)?); rolled")
MOD = re.compile(r"(.+?) ([+-]\d+)(?:, |$)")
EVERY = {"long range", "woods", "higher", "shallow trench", "deep trench", "night, in the open", "cover",
         "HMS Manica", "Aerial Recon", "leader"}


def added_up(text: str) -> set[str]:
    """The modifiers a fire event lists, after checking that they add up to its target."""
    m = FIRE.search(text)
    assert m, f"a fire event without its modifiers: {text}"
    target, base, rest = int(m.group(1)), int(m.group(2)), m.group(3)
    mods = MOD.findall(rest.removeprefix(", "))
    assert "".join(f", {what} {v}" for what, v in mods) == rest, f"unread modifiers in: {text}"
    assert base + sum(int(v) for _, v in mods) == target, f"the modifiers do not add up to {target}: {text}"
    return {what for what, _ in mods}


def fires(events: list[dict[str, Any]]) -> list[str]:
    return [e["text"] for e in events if " fire from " in e["text"] and " dice needing " in e["text"]]


def test_every_fire_of_the_rule_cases_lists_modifiers_that_add_up_to_its_target():
    seen: set[str] = set()
    checked = 0
    for path in CASES:
        case = tomllib.loads(path.read_text())
        state, dice, events = position(case.get("before", {})).state, ScriptedDice(case.get("dice", [])), []
        rules.settle(state, dice, events)
        for act in case.get("actions", []):
            try:
                state, evs = step(GAME, state, act["side"], act["action"], dice)
            except Exception:
                break  # the refused action of an 'illegal' case
            events += evs
        for text in fires(events):
            seen |= added_up(text)
            checked += 1
    assert checked >= 20
    assert seen == EVERY, f"modifier paths no case fires through: {EVERY - seen}"


def test_long_range_is_listed_with_its_roll():
    """The issue's case: a battalion at its greatest range rolls apart at 3, and says why."""
    state = position({"frames": [{"k": "round", "side": "anzac", "acted": False}],
                      "units": {"russells-top": ["aus-9", "aus-1-mg"], "baby-700": ["tur-1-27"]}}).state
    dice, events = ScriptedDice([3, 3, 4, 4, 4, 4]), []
    for action in ({"do": "fire", "from": "russells-top"}, {"do": "with", "unit": "aus-9"},
                   {"do": "with", "unit": "aus-1-mg"}, {"do": "fire", "at": "baby-700"}):
        state, evs = step(GAME, state, "anzac", action, dice)
        events += evs
    assert [t.split(": ", 1)[1] for t in fires(events)] == [
        "3 dice needing 3 or less (base 4, long range -1; rolled 3 3 4): 2 hit(s)",
        "3 dice needing 4 or less (base 4; rolled 4 4 4): 3 hit(s)"]


def test_every_fire_of_random_games_adds_up():
    checked = 0
    for seed in (3, 11):
        rng = random.Random(seed)
        state, dice = GAME.setup("anzac-landing", {"turns": 2}), Dice(seed.to_bytes(8, "big") * 4)
        while GAME.outcome(state) is None:
            prompt = GAME.prompt(state)
            state, events = step(GAME, state, prompt.side, rng.choice(prompt.choices).action, dice)
            for text in fires(events):
                added_up(text)
                checked += 1
    assert checked > 10

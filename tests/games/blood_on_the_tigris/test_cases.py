"""Combat cases for Blood on the Tigris, phase 1: each file in cases/ is one rule situation (the
rulebook's worked examples among them), resolved on our PROVISIONAL charts with scripted dice.

A case file holds:

    title, rule      what it shows, and the rule number of the rules text
    options          combat options (``rounding``), defaults otherwise
    dice = [...]     the die faces rolled, all of which must be used
    [attack]         attackers / defenders (tables of combat.Unit's fields), defender_nation,
                     attacker_depot / defender_depot, attacker_tas / defender_tas (TA id ->
                     instances), across (hexside features every attacker crosses),
                     attacker_commands / defender_commands (tables of combat.Command's fields)
    [expect]         attack, defence, base_column, attacker_ta, defender_ta, shift, column, drm,
                     row, result; defender = {required, optional, counterattack, choices =
                     [[retreats, steps lost, hexes retreated], ...]}
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import charts, combat

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*.toml"))
RULES = {"2.3", "7.2", "7.3", "7.5", "7.51", "7.6", "7.61", "7.7", "7.8", "9.1", "10.0"}
# the rulebook's worked examples of combat (search the text for "Example"/"ex."): each has a case
WORKED_EXAMPLES = {"2.3-example", "7.5-example", "7.5-added-example", "7.61-example", "10.0-example"}


def build_attack(spec: dict[str, Any]) -> combat.Attack:
    spec = dict(spec)
    for key in ("attackers", "defenders"):
        spec[key] = [combat.Unit(**u) for u in spec.get(key, [])]
    for key in ("attacker_commands", "defender_commands"):
        spec[key] = [combat.Command(**c) for c in spec.get(key, [])]
    return combat.Attack(**spec)


def test_there_are_cases_for_every_worked_example_and_rule():
    names = [p.stem for p in CASES]
    for example in WORKED_EXAMPLES:
        assert any(n.startswith(example) for n in names), example
    assert {tomllib.loads(p.read_text())["rule"] for p in CASES} == RULES


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = tomllib.loads(path.read_text())
    assert case["rule"] in RULES
    attack = build_attack(case["attack"])
    dice = ScriptedDice(case["dice"])
    res = combat.resolve(charts.PROVISIONAL, attack, dice, case.get("options"))
    assert dice.remaining == 0, "every scripted die must be used"
    assert dice.rolls[0]["spec"] == "1d6" and dice.rolls[0]["scripted"]
    expect = case["expect"]
    s = res.setup
    got = {"attack": s.attack, "defence": s.defence, "base_column": charts.PROVISIONAL.crt.labels[s.base_column],
           "attacker_ta": s.attacker_ta, "defender_ta": s.defender_ta, "shift": s.shift,
           "column": s.column_label, "drm": s.drm, "row": res.row, "result": res.result.text}
    for key, value in expect.items():
        if key == "defender":
            continue
        assert got[key] == value, f"{key}: expected {value!r}, got {got[key]!r}\n" + "\n".join(s.notes)
    if "defender" in expect:
        d = expect["defender"]
        nation = attack.defender_nation
        losses = combat.defender_losses(res.result, nation)
        assert losses.steps == d["required"] and losses.optional == d["optional"]
        assert losses.counterattack == d.get("counterattack", False)
        for retreats, steps, hexes in d["choices"]:
            assert combat.apply_defender_choice(res.result, nation, retreats) == (steps, hexes)
        with pytest.raises(ValueError):
            combat.apply_defender_choice(res.result, nation, losses.optional + 1)
    # the distribution shown before the attack gives the rolled result a chance
    assert combat.outcome_distribution(charts.PROVISIONAL, attack, case.get("options"))[res.result.text] > Fraction(0)

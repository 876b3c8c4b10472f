"""20.1, the optional railroad: off by default (20.0's rules are optional), on only where
reinforcements arrive at Basra (the rule cases in rules/20.1-*.toml show it played)."""

import pytest
from pbem_engine.protocol.core import RulesError
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME, charts, rules
from pbem_engine.games.blood_on_the_tigris.position import position


def test_off_by_default_no_railheads_on_turn_18():
    state = position({"turn": 17, "phase": "survival", "control": {"1345": "british"},
                      "units": {"1345": ["br-16-6"], "1201": ["tk-1-38"]}}).state
    rules.settle(state, ScriptedDice([]), [], charts.PROVISIONAL)
    assert state["turn"] == 18 and "rail" not in state
    assert not any("railroad" in c.label for c in GAME.prompt(state).choices)


def test_the_option_is_checked():
    GAME.setup("campaign", {"railroad": "on"})
    GAME.setup("lightning", {"railroad": "off"})
    with pytest.raises(RulesError, match="railroad"):
        GAME.setup("campaign", {"railroad": "yes"})
    with pytest.raises(RulesError, match="Scenarios 1 and 3"):
        GAME.setup("turning-point", {"railroad": "on"})

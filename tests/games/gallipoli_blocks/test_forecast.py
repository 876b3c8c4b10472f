"""The odds the block game shows with a choice that decides a roll's dice (forecast.py): from the
rules' own numbers, in the owner's prompt only (``playable``), display only (actions untouched),
and still matched by the words of the label; the dice they announce are the dice then rolled."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import find_choice, step
from pbem_engine.games.gallipoli_blocks import GAME, board
from pbem_engine.chance.odds import SEP, pool_line
from pbem_engine.games.gallipoli_blocks.position import position

ALEXI = ["A1=br-29-div-86-bde:4", "A2=br-29-div-87-bde:4 hits=1", "A3=br-29-div-88-bde:4", "A4=ceo-1-div-2-bde-4-rgt:4"]


def setup(before: dict[str, Any]) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    pos = position(before)
    return pos.state, dict(pos.table)


def known(table: dict[str, tuple[str, str]], army: str) -> dict[str, str]:
    return {tok: value for tok, (side, value) in table.items() if side == army}


def shown(state: dict[str, Any], table, army: str):
    public = GAME.prompt(state)
    mine = GAME.playable(state, public, known(table, army))
    assert [c.action for c in mine.choices] == [c.action for c in public.choices]  # display only
    assert not any(SEP in c.label for c in public.choices)  # the public prompt (and its events) unchanged
    return mine


def battle(step_name: str, **frame: Any) -> dict[str, Any]:
    return {"before": {"frames": [{"k": "ops", "army": "allied", "left": 0},
                                  {"k": "battle", "att": "allied", "from": "alexi", "to": "krithia",
                                   "step": step_name, "entrenched": False, **frame}],
                       "blocks": {"alexi": ALEXI[:3], "krithia": ["T1=ott-9-div-25-rgt:2 open",
                                                                   "T2=ott-9-div-26-rgt:4"]}}}


def test_the_attackers_leading_blocks_show_their_dice_at_the_current_target():
    state, table = setup(battle("lead-att")["before"])
    prompt = shown(state, table, "allied")
    # strongest: 86 Bde (4 steps, 3) + 88 Bde (4 steps, 3) + 87 Bde (4 steps less a hit, 2) = 8 dice; Krithia is open: 4+
    assert [c.label for c in prompt.choices] == ["lead strongest" + SEP + pool_line(8, 6, 4)]
    assert prompt.choices[0].label == ("lead strongest — 8 dice at 4+: expect 4 hits "
                                       "(0:<1% 1:3% 2:11% 3:22% 4:27% 5:22% 6:11% 7:3% 8:<1%)")
    assert "each 4+ a hit at the current target" in prompt.text


def test_a_battle_event_changes_the_target_shown():
    state, table = setup(battle("lead-att", mods={"att": 1, "def": 0})["before"])
    assert shown(state, table, "allied").choices[0].label.endswith(pool_line(8, 6, 5).split(": ", 1)[1])
    assert "8 dice at 5+" in shown(state, table, "allied").choices[0].label


def test_the_defenders_nomination():
    state, table = setup(battle("lead-def", lead={"att": "L1"})["before"])
    prompt = shown(state, table, "ottoman")
    # 25th Rgt open at 2 steps (2) + 26th Rgt concealed at 4 (4): 6 dice at 4+ (10.2.3: at the attackers)
    assert prompt.choices[0].label == "lead strongest" + SEP + pool_line(6, 6, 4)


def test_pressing_the_attack_shows_the_blocks_still_free_to_lead():
    state, table = setup(battle("press", round=1, led1=["A1", "A3"])["before"])
    labels = [c.label for c in shown(state, table, "allied").choices]
    assert labels == ["press the attack" + SEP + "strongest lead: " + pool_line(2, 6, 4), "retreat"]


def test_the_ops_prompt_shows_attacks_and_landings():
    before = {"frames": [{"k": "ops", "army": "allied", "left": 2}],
              "blocks": {"alexi": ALEXI[:3], "british-hq": [ALEXI[3]],
                         "krithia": ["T1=ott-9-div-25-rgt:2"], "gully-ravine": ["T2=ott-9-div-26-rgt:2"],
                         "sedd-el-bahr": ["T3=ott-9-div-27-rgt:2"]}}
    state, table = setup(before)
    labels = {c.label.split(SEP)[0]: c.label for c in shown(state, table, "allied").choices}
    assert labels["attack Krithia from Alexi"].endswith(SEP + "strongest lead: " + pool_line(8, 6, 4))
    assert labels["attack Gully Ravine from Alexi"].endswith(SEP + "strongest lead: " + pool_line(8, 6, 4))
    assert labels["attack Sedd el Bahr from British HQ"].endswith(pool_line(2, 6, 6))  # a fort: 6+
    assert labels["attack Gully Ravine from British HQ (a landing)"].endswith(
        SEP + "the 1 block there lands; landing fire at you (more dice if bombarded): 3 dice at 3+: expect 2 hits (0:4% 1:22% 2:44% 3:30%)")
    assert labels["end operations"] == "end operations"
    # typed orders: the words alone, the whole label, a prefix; the shorter label is not made ambiguous
    prompt = shown(state, table, "allied")
    want = {"do": "attack", "from": "british-hq", "to": "gully-ravine"}
    assert find_choice(prompt, "attack Gully Ravine from British HQ (a landing)").action == want
    assert find_choice(prompt, labels["attack Gully Ravine from British HQ (a landing)"]).action == want
    assert find_choice(prompt, "attack gully ravine from british").action == want
    assert find_choice(prompt, "attack Krithia from Alexi").action["to"] == "krithia"


def test_landing_fire_with_and_without_a_bombardment_card():
    before = {"frames": [{"k": "landing", "army": "allied", "from": "british-hq", "to": "gully-ravine",
                          "party": ["A4"], "card": None}],
              "blocks": {"british-hq": [ALEXI[3]]},
              "hands": {"ottoman": {"C1": "kitchener-tours-the-battlefield", "C2": "ottoman-card-09"}}}
    state, table = setup(before)
    prompt = shown(state, table, "ottoman")
    assert [c.label.split(SEP, 1)[1].split("; ")[-1] for c in prompt.choices] == [
        pool_line(3, 6, 3), pool_line(5, 6, 3), pool_line(3, 6, 3)]  # Kitchener: bombardment 2
    assert "bombardment 2" in prompt.choices[1].label  # a card offered shows its values, then the odds
    assert prompt.choices[0].label == "fire — 3 dice at 3+: expect 2 hits (0:4% 1:22% 2:44% 3:30%)"
    assert find_choice(prompt, "fire").action == {"do": "fire"}
    assert find_choice(prompt, prompt.choices[1].label).action == {"do": "bombard", "card": "C1"}


def test_moving_onto_a_beach_from_an_hq_says_what_landing_fire_is():
    before = {"frames": [{"k": "move", "army": "allied", "space": "british-hq"}], "blocks": {"british-hq": [ALEXI[3]]}}
    state, table = setup(before)
    prompt = shown(state, table, "allied")
    assert "meets landing fire" in prompt.text and pool_line(3, 6, 3) in prompt.text
    assert not any(SEP in c.label for c in prompt.choices)


def test_the_lead_label_copied_whole_is_still_an_order_and_rolls_the_dice_it_announced():
    pos = position(battle("lead-att")["before"])
    state, table = pos.state, pos.table
    label = shown(state, table, "allied").choices[0].label
    action = GAME.parse_order(state, "allied", label, known(table, "allied"))
    assert action == GAME.parse_order(state, "allied", "lead strongest", known(table, "allied"))
    dice = pos.dice([6] * 8 + [1] * 6, seals=["L1"])
    state, _ = step(GAME, state, "allied", action, dice)
    defence = GAME.playable(state, GAME.prompt(state), known(table, "ottoman")).choices[0].label
    state, _ = step(GAME, state, "ottoman", GAME.parse_order(state, "ottoman", defence, known(table, "ottoman")), dice)
    while not dice.rolls:
        side = GAME.prompt(state).side
        choice = GAME.prompt(state).choices[0]  # no battle event; reveal
        state, _ = step(GAME, state, side, choice.action, dice)
    assert [r["spec"] for r in dice.rolls] == ["8d6>=4", "6d6>=4"]  # as the two labels said
    assert board.name("krithia") in dice.rolls[0]["purpose"]


def test_other_prompts_are_left_alone():
    before = {"frames": [{"k": "phase", "army": "allied"}], "hands": {"allied": {"C1": "allied-card-01"}}}
    state, table = setup(before)
    mine, public = shown(state, table, "allied"), GAME.playable(state, GAME.prompt(state), {})
    assert [c.label.split(SEP)[0] for c in mine.choices] == [c.label for c in public.choices]  # no odds added
    assert all("OPS" in c.label.split(SEP)[1] for c in mine.choices if "C1" == c.action.get("card"))  # its values


def test_the_situation_names_a_battle_step_in_the_rules_words():
    for step_name, words in (("lead-def", "the defender chooses his leading blocks (10.1 step 4)"),
                             ("press", "press or retreat (10.1 step 13)")):
        state, _ = setup(battle(step_name)["before"])
        lines = GAME.describe(GAME.view(state, "allied"))
        line = next(x for x in lines if x.startswith("Battle for Krithia"))
        assert line.endswith(f"now: {words}") and "step lead" not in line and "-def" not in line


def test_an_own_concealed_block_names_the_steps_it_was_concealed_at_and_the_steps_lost_since():
    assert GAME.item_name("br-29-div-87-bde:4") == "29 Div British / 87 Bde (concealed at 4 steps)"
    state, table = setup({"blocks": {"alexi": ALEXI[:3]}, "frames": [{"k": "ops", "army": "allied", "left": 1}]})
    lines = GAME.describe(GAME.view(state, "ottoman"))
    assert any("(allied, 1 step lost since it was concealed)" in x for x in lines)

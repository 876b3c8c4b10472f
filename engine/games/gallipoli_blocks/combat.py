"""Combat (rules 10): the thirteen-step sequence, firing (10.2) and applying hits (10.3).

By e-mail each change of hands costs a message, so where the order of two steps tells
no one anything it is arranged to keep decisions together: the defender shows his
face-down card as soon as he has played it (the attacker's is already committed), and
he opens his leading blocks (nominated openly at step 4) right after his Battle events,
before the attacker opens his sealed ones.  Every choice is still made knowing exactly
what the rules let the chooser know at that step.

A battle is one frame whose ``step`` walks the sequence.  Steps that need a
decision wait for the player whose step it is; the rest are settled at once.
The attacker's leading blocks are sealed (10.1 step 3: "chooses, but does not
reveal") and opened at step 7; face-down bombardment and entrenchment cards
are hand tokens moved, unopened, until step 2's reveal.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import IllegalAction

from . import board
from .board import enemy, seat

TARGET = {"open": 4, "beach": 4, "hill": 5, "fort": 6}  # 10.2.3, firing at the battle space
TARGET_AT_ATTACKERS = 4  # 10.2.3: attackers have left their positions
LEADERS = 3  # 10.1 steps 3-4


def start_battle(state: dict[str, Any], army: str, src: str, dst: str, party: list[str], landing: bool,
                 events: list) -> None:
    """10.1 step 1: nominate the battle space."""
    state["frames"].append({"k": "battle", "att": army, "def": enemy(army), "from": src, "to": dst,
                            "party": party, "landing": landing, "round": 1, "step": "bombard",
                            "cards": {"att": [], "def": []}, "entrenched": None, "mods": {"att": 0, "def": 0},
                            "lead": {"att": None, "def": []}, "led1": [], "shown": {"att": 0, "def": 0}})
    events.append({"text": f"battle for {board.name(dst)}: {army} attacks from {board.name(src)} (10.1)"})


def card_limit(frame: dict[str, Any], who: str) -> int:
    """10.1 step 2: two bombardment cards for the Allies against a beach or Sedd el Bahr;
    two entrenchment cards in a fort space; one otherwise."""
    to = frame["to"]
    if who == "att":
        return 2 if frame["att"] == "allied" and (board.terrain(to) == "beach" or to == "sedd-el-bahr") else 1
    return 2 if board.terrain(to) == "fort" else 1


def eligible(state: dict[str, Any], frame: dict[str, Any]) -> list[str]:
    """Attacking blocks that may lead this round (10.1 step 3: not those that led in round 1)."""
    return [t for t in frame["party"] if t in state["blocks"] and t not in frame["led1"]]


def defenders(state: dict[str, Any], frame: dict[str, Any]) -> list[str]:
    return board.tokens(state, frame["to"], frame["def"])


def attackers(state: dict[str, Any], frame: dict[str, Any]) -> list[str]:
    """Blocks in the attacking space that hits may reach (10.3.3); from an HQ, only those that attacked."""
    if board.is_hq(frame["from"]):
        return [t for t in frame["party"] if t in state["blocks"]]
    return board.tokens(state, frame["from"], frame["att"])


def decider(frame: dict[str, Any]) -> str:
    step = frame["step"]
    return frame["def"] if step in ("entrench", "show-def", "plan-def", "lead-def", "events-def", "reveal-def") \
        else frame["att"]


def planned(frame: dict[str, Any], who: str) -> bool:
    """Whether ``who`` gave a battle plan for round 1 (see ``do_plan``)."""
    return frame["round"] == 1 and bool(frame.get("plan", {}).get(who))


def _after_show_def(frame: dict[str, Any]) -> str:
    return "plan-def" if planned(frame, "att") else "show-att"


# ------------------------------------------------------------------ decisions
def do_battle(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
              events: list, cards: dict) -> None:
    from .sequence import open_card, spend

    step, do = frame["step"], action["do"]
    who = "att" if army == frame["att"] else "def"
    if step in ("bombard", "entrench"):  # 10.1 step 2, face down
        if do == "card":
            tok = action["card"]
            if tok not in state["hands"][army] or len(frame["cards"][who]) >= card_limit(frame, who):
                raise IllegalAction("no more cards may be played face down here")
            state["hands"][army].remove(tok)
            frame["cards"][who].append(tok)
            events.append({"text": f"{army} plays a card face down for its "
                                   f"{'bombardment' if who == 'att' else 'entrenchment'} value: [[{tok}|card]]"})
            return
        frame["step"] = "plan-att" if step == "bombard" else "show-def"
        return
    if step in ("plan-att", "plan-def"):
        do_plan(state, frame, army, who, action, dice, events, cards)
        return
    if step == "events-att" and do == "open-plan":
        do_open_plan(state, frame, army, dice, events, cards)
        return
    if step in ("show-att", "show-def"):
        value = 0
        for tok in frame["cards"][who]:
            cid = open_card(state, army, tok, dice, cards, in_hand=False)
            spend(state, army, cid, cards, False)
            value += cards[cid]["bombardment" if who == "att" else "entrenchment"]
            events.append({"text": f"{army} reveals {cards[cid]['name']}"})
        frame["shown"][who] = value
        frame["step"] = _after_show_def(frame) if who == "def" else "lead-att"
        return
    if step == "lead-att":  # 10.1 step 3: chosen, sealed, not revealed
        frame["lead"]["att"] = dice.seal(seat(state, army), action["blocks"])
        events.append({"text": f"{army} chooses its leading blocks (sealed: [[{frame['lead']['att']}|choice]])"})
        frame["step"] = "lead-def"
        return
    if step == "lead-def":  # 10.1 step 4
        chosen = action["blocks"]
        pool = defenders(state, frame)
        if not isinstance(chosen, list) or not 1 <= len(chosen) <= min(LEADERS, len(pool)) \
                or len(set(chosen)) != len(chosen) or any(t not in pool for t in chosen):
            raise IllegalAction(f"nominate 1 to {min(LEADERS, len(pool))} of your blocks in {board.name(frame['to'])}")
        frame["lead"]["def"] = chosen
        events.append({"text": f"{army} nominates {len(chosen)} leading block(s): "
                               + ", ".join(f"[[{t}|block]]" for t in chosen)})
        frame["step"] = "events-att" if frame["round"] == 1 else "reveal-def"
        return
    if step in ("events-att", "events-def"):  # 10.1 steps 5-6
        if do == "card":
            battle_event(state, frame, army, who, action["card"], dice, events, cards)
            return
        frame["step"] = "events-def" if step == "events-att" else "reveal-def"
        return
    if step == "reveal-att":  # 10.1 step 7
        value = dice.reveal(seat(state, army), frame["lead"]["att"])
        chosen = value.split()
        pool = eligible(state, frame)
        if not 1 <= len(chosen) <= LEADERS or len(set(chosen)) != len(chosen) or any(t not in pool for t in chosen):
            raise IllegalAction(f"cheating: {army}'s sealed leading blocks {value!r} are not 1-3 blocks that may lead")
        frame["lead"]["att"] = chosen
        if frame["round"] == 1:
            frame["led1"] = list(chosen)
        for t in chosen:
            events.append({"text": "leading attacker: " + board.open_block(state, t, dice)})
        frame["step"] = "fire"
        return
    if step == "reveal-def":  # 10.1 step 8
        for t in frame["lead"]["def"]:
            if t in state["blocks"]:
                events.append({"text": "leading defender: " + board.open_block(state, t, dice)})
        frame["step"] = "reveal-att"
        return
    if step == "advance":  # 10.1 step 12
        if do == "stop":
            frame["step"] = "end"
            return
        tok = action["block"]
        if tok not in advancers(state, frame):
            raise IllegalAction("that block cannot advance")
        b = state["blocks"][tok]
        b["at"] = frame["to"]
        if frame["landing"]:
            b["stop"] = True
        if frame["att"] == "ottoman" and board.terrain(frame["to"]) == "beach" and not frame.get("cost"):
            frame["cost"] = True  # once per advance into a beach
            state["hand_size"] = max(0, state["hand_size"] - 1)
            events.append({"text": f"the Ottomans advance into a beach: Allied hand size falls to {state['hand_size']}"})
        events.append({"text": f"{army} advances a block into {board.name(frame['to'])}"})
        return
    if step == "press":  # 10.1 step 13
        if do == "press":
            frame["round"], frame["step"] = 2, "lead-att"
            frame["lead"] = {"att": None, "def": []}
            events.append({"text": f"{army} presses the attack: a second round"})
            return
        frame["step"] = "end"
        events.append({"text": f"{army} breaks off; the attackers stay in {board.name(frame['from'])}"})
        return
    raise IllegalAction(f"nothing to do at battle step {step}")


def battle_event(state: dict[str, Any], frame: dict[str, Any], army: str, who: str, tok: str, dice: Any,
                 events: list, cards: dict, cheat: str = "") -> None:
    """10.1 steps 5-6: one Battle event card from the hand, its modifiers on the targets (10.2.3)."""
    from .sequence import open_card, spend

    cid = open_card(state, army, tok, dice, cards)
    ev = cards[cid]["event"]
    if ev["kind"] != "battle":
        raise IllegalAction(f"{cheat}{cards[cid]['name']} is not a Battle event")
    spend(state, army, cid, cards, True)
    mine, theirs = who, ("def" if who == "att" else "att")
    frame["mods"][mine] += ev.get("own", 0)
    frame["mods"][theirs] += ev.get("enemy", 0)
    events.append({"text": f"{army} plays {cards[cid]['name']} as a Battle event"})


# ------------------------------------------------------------------ battle plans (standing orders)
def do_plan(state: dict[str, Any], frame: dict[str, Any], army: str, who: str, action: dict[str, Any], dice: Any,
            events: list, cards: dict) -> None:
    """A battle plan: round 1's remaining decisions given at once, by a player who accepts to
    decide them knowing less than the rules would let him know, to save four exchanges.

    The attacker (after his face-down bombardment) seals his leading blocks (step 3) and his
    Battle events (step 5); both stay sealed until the rules reach them, so the defender learns
    nothing early.  Only then may the defender (after showing his entrenchment card) nominate
    his leading blocks (step 4), play his Battle events (step 6) and reveal his leaders (step 8)
    at once: the attacker has nothing left to choose before the fire, so nothing the defender
    shows early can help him.  A plan also stands for the hits (10.3.2): they go to the planned
    leading blocks in the order named, each until it is eliminated.  Either player may answer
    'decide each step' instead and play the battle in the rules' order."""
    if action["do"] == "later":
        frame["step"] = "entrench" if who == "att" else "show-att"
        return
    if action["do"] != "plan":
        raise IllegalAction("give a battle plan ('plan lead ...') or 'decide each step'")
    frame.setdefault("plan", {})
    if who == "att":
        frame["lead"]["att"] = dice.seal(seat(state, army), action["blocks"])
        frame["plan"]["att"] = dice.seal(seat(state, army), action["events"])
        events.append({"text": f"{army} seals a battle plan: its leading blocks and Battle events, opened when "
                               f"the rules reach them ([[{frame['lead']['att']}|choice]])"})
        frame["step"] = "entrench"
        return
    chosen, pool = action["blocks"], defenders(state, frame)
    if not isinstance(chosen, list) or not 1 <= len(chosen) <= min(LEADERS, len(pool)) \
            or len(set(chosen)) != len(chosen) or any(t not in pool for t in chosen):
        raise IllegalAction(f"nominate 1 to {min(LEADERS, len(pool))} of your blocks in {board.name(frame['to'])}")
    if not isinstance(action["events"], list) or len(set(action["events"])) != len(action["events"]):
        raise IllegalAction("name each Battle event card once")
    frame["plan"]["def"] = True
    frame["lead"]["def"] = list(chosen)
    events.append({"text": f"{army} answers with a battle plan and nominates {len(chosen)} leading block(s): "
                           + ", ".join(f"[[{t}|block]]" for t in chosen)})
    for tok in action["events"]:
        battle_event(state, frame, army, who, tok, dice, events, cards)
    for t in chosen:
        events.append({"text": "leading defender: " + board.open_block(state, t, dice)})
    frame["step"] = "show-att"


def do_open_plan(state: dict[str, Any], frame: dict[str, Any], army: str, dice: Any, events: list,
                 cards: dict) -> None:
    """10.1 step 5 of a planned battle: the attacker opens the Battle events he sealed."""
    tokens = dice.reveal(seat(state, army), frame["plan"]["att"]).split()
    if len(set(tokens)) != len(tokens) or any(t not in state["hands"][army] for t in tokens):
        raise IllegalAction(f"cheating: {army}'s sealed Battle events are not cards of its hand")
    if not tokens:
        events.append({"text": f"{army}'s plan holds no Battle event"})
    for tok in tokens:
        battle_event(state, frame, army, "att", tok, dice, events, cards, cheat="cheating: ")
    frame["step"] = "events-def"


def advancers(state: dict[str, Any], frame: dict[str, Any]) -> list[str]:
    if board.room(state, frame["to"]) < 1 or (board.in_suvla(frame["to"]) and not state["suvla_open"]):
        return []
    if frame["landing"]:
        return [t for t in frame["party"] if t in state["blocks"] and state["blocks"][t]["at"] == frame["from"]]
    return [t for t in board.tokens(state, frame["from"], frame["att"]) if not state["blocks"][t]["stop"]]


# ------------------------------------------------------------------ steps that settle themselves
def settle_battle(state: dict[str, Any], frame: dict[str, Any], dice: Any, events: list) -> bool:
    """Move the battle on while no one has a choice; False when someone must decide."""
    step = frame["step"]
    who = {"show-att": "att", "show-def": "def"}.get(step)
    if who and not frame["cards"][who]:
        frame["step"] = _after_show_def(frame) if who == "def" else "lead-att"
        return True
    if step == "lead-att" and frame["entrenched"] is None:  # step 2 ends: cards compared
        bomb, entr = frame["shown"]["att"], frame["shown"]["def"]
        zero = state["options"].get("zero_entrenches", True)
        frame["entrenched"] = entr >= bomb and (zero or entr > 0)
        events.append({"text": f"bombardment {bomb}, entrenchment {entr}: the defender is "
                               f"{'entrenched' if frame['entrenched'] else 'not entrenched'} (10.1 step 2)"})
        return True
    if step == "lead-att" and not eligible(state, frame):
        frame["step"] = "end"
        return True
    # a battle plan already holds these steps: the sealed leaders (3), the defender's
    # nomination (4), his events (6) and his revealed leaders (8)
    skip = {"lead-att": ("att", "lead-def"), "lead-def": ("def", "events-att"),
            "events-def": ("def", "reveal-def"), "reveal-def": ("def", "reveal-att")}.get(step)
    if skip and planned(frame, skip[0]):
        frame["step"] = skip[1]
        return True
    if step == "fire":
        fire(state, frame, dice, events)
        return True
    if step == "fire-att":  # the entrenched defender has fired and its hits are applied
        frame["step"] = "resolved"
        shots = volley(state, frame, "att", dice, events)
        push_hits(state, frame["def"], frame["to"], shots, frame["lead"]["def"], defenders(state, frame), events,
                  planned(frame, "def"))
        return True
    if step == "resolved":  # 10.1 steps 11-12 (the blocks stand up with fresh tokens when the battle ends)
        events.append({"text": "surviving blocks are concealed again (10.1 step 11)"})
        if not defenders(state, frame) and attackers(state, frame):
            events.append({"text": f"{frame['def']} is eliminated from {board.name(frame['to'])}: {frame['att']} wins "
                                   f"the battle (10.1 step 12)"})
            frame["step"] = "advance" if advancers(state, frame) else "end"
        elif not [t for t in frame["party"] if t in state["blocks"]]:
            events.append({"text": f"the attack is destroyed: {frame['def']} holds {board.name(frame['to'])}"})
            frame["step"] = "end"
        else:
            frame["step"] = "press" if frame["round"] == 1 and eligible(state, frame) else "end"
        return True
    if step == "advance" and not advancers(state, frame):
        frame["step"] = "end"
        return True
    if step == "end":
        state["frames"].pop()
        board.stand_up_later(state, [frame["from"], frame["to"]])  # 10.1 step 11
        if frame["landing"]:
            if any(b["army"] == frame["att"] for b in state["blocks"].values() if b["at"] == frame["to"]):
                state["landed"].append(frame["to"])
        events.append({"text": f"the battle for {board.name(frame['to'])} ends"})
        return True
    return False


def target(frame: dict[str, Any], who: str) -> int:
    base = TARGET[board.terrain(frame["to"])] if who == "att" else TARGET_AT_ATTACKERS
    return max(2, min(6, base + frame["mods"][who]))  # 10.2.3: never below 2 nor above 6


def volley(state: dict[str, Any], frame: dict[str, Any], who: str, dice: Any, events: list) -> int:
    """10.2: the leading blocks' strengths in dice, each die at or over the target a hit."""
    lead = [t for t in frame["lead"][who] if t in state["blocks"]]
    total = sum(board.strength(state["blocks"][t]["id"], state["blocks"][t]["steps"]) for t in lead)
    army = frame[who]
    if not total:
        events.append({"text": f"{army} has no leading block left to fire"})
        return 0
    aim = target(frame, who)
    space = frame["to"] if who == "att" else frame["from"]
    hits = dice.pool(total, 6, aim, f"{army} fire at {board.name(space)}: strength {total}, "
                                    f"hits on {aim}+ (10.2)")
    events.append({"text": f"{army} fires {total} dice at {board.name(space)} needing {aim}+: {hits} hit(s)"})
    return hits


def fire(state: dict[str, Any], frame: dict[str, Any], dice: Any, events: list) -> None:
    """10.1 step 10: an entrenched defender fires first; otherwise both fire at full strength."""
    if frame["entrenched"]:
        shots = volley(state, frame, "def", dice, events)
        frame["step"] = "fire-att"
        push_hits(state, frame["att"], frame["from"], shots, frame["lead"]["att"], attackers(state, frame), events,
                  planned(frame, "att"))
        return
    at_def = volley(state, frame, "att", dice, events)
    at_att = volley(state, frame, "def", dice, events)
    frame["step"] = "resolved"
    push_hits(state, frame["def"], frame["to"], at_def, frame["lead"]["def"], defenders(state, frame), events,
              planned(frame, "def"))
    push_hits(state, frame["att"], frame["from"], at_att, frame["lead"]["att"], attackers(state, frame), events,
              planned(frame, "att"))


# ------------------------------------------------------------------ 10.3 applying hits
def push_hits(state: dict[str, Any], army: str, space: str, n: int, lead: list[str], blocks: list[str],
              events: list, in_order: bool = False) -> None:
    """Hits for ``army`` to apply; ``in_order``: its battle plan stands for them (``do_plan``)."""
    if n:
        frame = {"k": "hits", "army": army, "space": space, "n": n, "lead": list(lead),
                 "rest": [t for t in blocks if t not in lead]}
        if in_order:
            frame["in_order"] = True
        state["frames"].append(frame)


def candidates(state: dict[str, Any], frame: dict[str, Any]) -> list[str]:
    """10.3.2: leading blocks first, the owner's choice; 10.3.3: then the others, highest step first."""
    lead = [t for t in frame["lead"] if t in state["blocks"]]
    if lead:
        return lead
    rest = [t for t in frame["rest"] if t in state["blocks"]]
    if not rest or any(state["blocks"][t]["id"] is None for t in rest):
        return rest
    top = max(state["blocks"][t]["steps"] or 0 for t in rest)
    return [t for t in rest if (state["blocks"][t]["steps"] or 0) == top]


def settle_hits(state: dict[str, Any], frame: dict[str, Any], events: list) -> bool:
    options = candidates(state, frame)
    if frame["n"] <= 0 or not options:
        state["frames"].pop()
        if frame["n"] > 0:
            events.append({"text": f"{frame['n']} hit(s) find no block left in {board.name(frame['space'])}"})
        return True
    concealed = [t for t in options if state["blocks"][t]["id"] is None]
    if concealed:  # 10.3.3: the leaders are gone; the others are revealed
        state["frames"].append({"k": "reveal", "army": frame["army"], "tokens": concealed,
                                "why": "the leading blocks are eliminated; the others take the remaining hits"})
        return True
    if len(options) == 1 or frame.get("in_order"):  # forced, or the plan's order: the first named first
        apply_hit(state, frame, options[0], events)
        return True
    return False


def apply_hit(state: dict[str, Any], frame: dict[str, Any], tok: str, events: list) -> None:
    if tok not in candidates(state, frame):
        raise IllegalAction("hits go to leading blocks first, then to the highest step (10.3)")
    frame["n"] -= 1
    events.append({"text": board.hit(state, tok)})


def do_reveal(state: dict[str, Any], frame: dict[str, Any], dice: Any, events: list) -> None:
    state["frames"].pop()
    for t in frame["tokens"]:
        if t in state["blocks"] and state["blocks"][t]["id"] is None:
            events.append({"text": board.open_block(state, t, dice) + f" ({frame['why']})"})

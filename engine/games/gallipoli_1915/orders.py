"""Orders as a player types them, read into actions, and the free table-top orders of the series
rules (which the module does not enforce): dice with sealed rolls, pieces moved by hex, words,
sealed notes.  The game book's procedures are in procedures.py and victory.py.

    draw naval gunfire helles     fire naval gunfire helles     counter battery roll
    cd fire 4 steps few at W Beach  cd fire at every landing [few]  cd fire by hand
    land 3 steps at Y Beach       land river clyde              delay 2 infantry at W Beach
    alarums 25th Regiment missed 1                              surprise at Z Beach
    roll 2d10 for morale          roll d100 for opportunity fire        move 1/RDF to 6.2
    say ...   note ...   open note 1   pass   claim entente-minor   claim anzac X helles Y
    accept   dispute   sudden death anzac
    done   done for the turn   done until activations   (standing orders: cadence.py)
    roll 2d10 for fire, then done      (any order may end with ', then done ...')
    plan assault: land 3 steps at W Beach; land river clyde; done   plan none   (plans.py)
"""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import IllegalAction, copy_state

from . import cadence, data, plans, procedures, victory
from .procedures import need

State = dict[str, Any]
DICE = re.compile(r"^(\d*)d(6|10|100)(?:\s*(>=|<=)\s*(\d+))?$")
HEX = re.compile(r"^\d{1,2}\.\d{1,2}$")


# -- the free orders: the series rules at the table -----------------------------------------------
def do_roll(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    m = DICE.match(a["expr"])
    need(bool(m), f"'{a['expr']}' is not a dice expression: try 2d10, d100, 5d10>=7")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    need(1 <= count <= 20, "roll 1 to 20 dice at a time")
    if sides == 10:
        values = [dice.d10(a["purpose"], zero_based=procedures.zero_based(state)) for _ in range(count)]
    elif sides == 100:
        values = [dice.d100(a["purpose"]) for _ in range(count)]
    else:
        values = dice.dice(count, sides, a["purpose"])
    if m.group(3):
        target = int(m.group(4))
        hits = [v for v in values if (v >= target if m.group(3) == ">=" else v <= target)]
        return [f"{side} rolls {a['expr']} for {a['purpose']}: {values}, {len(hits)} success(es)"]
    return [f"{side} rolls {a['expr']} for {a['purpose']}: {values}" + (f", total {sum(values)}" if count > 1 else "")]


def do_move(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    piece, to = a["piece"], a["to"]
    need(bool(piece) and len(piece) <= 60, "name the piece (up to 60 characters)")
    need(bool(HEX.match(to)) or to in ("off-map", "at sea", "eliminated"),
         f"'{to}' is not a hex: the book's numbering is column.row, e.g. 8.2 (Sedd el Bahr); or off-map, "
         f"at sea, eliminated")
    pieces = state["pieces"].setdefault(side, {})
    before = pieces.get(piece)
    pieces[piece] = to
    return [f"{side} moves {piece}" + (f" {before} -> {to}" if before else f" to {to}")]


def do_say(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    return [f"{side} says: {a['text']}"]


def do_note(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    token = dice.seal(side, a["text"])
    state["notes"].append({"by": side, "token": token})
    return [f"{side} writes sealed note {len(state['notes'])}: [[{token}]]"]


def do_unseal(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    notes = state["notes"]
    index = int(a["note"]) - 1
    need(0 <= index < len(notes) and notes[index]["by"] == side and "text" not in notes[index],
         "no sealed note of yours with that number")
    notes[index]["text"] = dice.reveal(side, notes[index]["token"])
    return [f"{side} opens note {index + 1}: {notes[index]['text']}"]


def do_open_plan(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    """The side's planned orders (plans.py), opened and given in order as if typed now; the first
    one refused ends the plan (the state as it was before it), and so does the word passing."""
    phase = data.PHASE_NAMES[state["phase"]]
    planned = plans.take(state, side, dice)
    texts = [f"{side} opens its planned orders for the {phase}: " + ("; ".join(planned) or "none")]
    for i, words in enumerate(planned):
        if state["active"] != side or state["over"] or state["phase"] not in data.PHASES:
            texts.append(f"the rest of the plan lapses, the word having passed: {'; '.join(planned[i:])}")
            break
        before = copy_state(state)
        try:
            action = parse(state, side, words)
            need(action["do"] not in ("plan", "open-plan", "note"), f"a plan cannot hold '{action['do']}'")
            _, more = apply(state, side, action, dice)
        except IllegalAction as e:
            state.clear()
            state.update(before)
            texts.append(f"planned order '{words}' refused ({e}): the plan ends there, the rest is {side}'s")
            break
        texts += [e["text"] for e in more]
    return texts


HANDLERS = {
    "pass": cadence.do_pass, "done": cadence.do_done, "draw-ngf": procedures.do_draw_ngf,
    "fire-ngf": procedures.do_fire_ngf, "counter-battery": procedures.do_counter_battery, "cd-fire": procedures.do_cd_fire, "land": procedures.do_land,
    "cd-standing": cadence.do_cd_standing,
    "delay": procedures.do_delay, "alarums": procedures.do_alarums, "surprise": procedures.do_surprise,
    "claim": victory.do_claim, "accept": victory.do_accept, "dispute": victory.do_dispute,
    "sudden": victory.do_sudden, "roll": do_roll, "move": do_move, "say": do_say, "note": do_note,
    "unseal": do_unseal, "plan": plans.do_plan, "open-plan": do_open_plan,
}
# what each action must carry (checked before a handler reads it: an action may come from a file)
FIELDS = {"draw-ngf": {"cup": str}, "fire-ngf": {"cup": str}, "cd-fire": {"steps": int, "few": bool},
          "cd-standing": {"few": (bool, type(None))},
          "land": {"beach": str}, "delay": {"beach": str, "kind": str, "count": int},
          "alarums": {"regiment": str}, "surprise": {"beach": str}, "claim": {"claim": dict},
          "sudden": {"landing": str}, "roll": {"expr": str, "purpose": str}, "move": {"piece": str, "to": str},
          "say": {"text": str}, "note": {"text": (str, dict)}, "unseal": {"note": int},
          "done": {"until": (str, type(None))}, "plan": {"phase": (str, type(None)), "orders": (str, dict)}}
AT_THE_END = ("claim", "accept", "dispute", "say", "note", "unseal", "roll")


def apply(state: State, side: str, action: dict[str, Any], dice: Dice) -> tuple[State, list[dict[str, Any]]]:
    do = action.get("do")
    need(do in HANDLERS, f"unknown order {do!r}; orders: {', '.join(HANDLERS)}")
    for key, kind in FIELDS.get(do, {}).items():
        need(fits(action.get(key), kind), f"the order {do} needs {key}")
    if state["phase"] == "victory":
        need(do in AT_THE_END, "the game is at its end: 'claim LEVEL', 'accept' or 'dispute'")
    action_phase = state["phase"]
    claim = state.get("claim")
    if claim and claim.get("sudden") and side == "ottoman":
        need(do in ("accept", "dispute", "say"), f"answer the sudden-death claim at {claim['sudden']}: accept or dispute")
    then = action.get("then")
    need(then is None or do not in ("pass", "done") and isinstance(then, dict) and set(then) <= {"until"},
         "', then done' follows an order other than pass or done")
    rolls = len(getattr(dice, "rolls", ()))  # (dice may be absent where an order is only checked)
    standing = cadence.standing_cd_fire(state, side)
    bound = standing is not None and action == parse(state, side, standing)  # the prompt's one choice
    texts = HANDLERS[do](state, side, action, dice)
    if state["phase"] == action_phase:  # what each side did this phase (the simple player reads it)
        state["acts"].append(f"{side}:{do}" + (f":{action['beach']}" if do == "land" else ""))
    texts += cadence.wake(state, side, action)
    if then is not None:  # a standing 'done' given with the order: it holds whatever the order's dice say
        texts += cadence.do_done(state, side, then, dice)
    # a roll at a decision with one legal choice is sealed at once, in the actor's own file (cadence)
    texts += cadence.settle(state, side, dice, rolled=len(getattr(dice, "rolls", ())) > rolls and not bound)
    return state, [{"text": t} for t in texts]


def fits(value: Any, kind: Any) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


# -- reading orders as typed -------------------------------------------------------------------------
THEN = re.compile(r"^(.+?)\s*[,;]?\s+then (done\b.*)$", re.I)


def parse(state: State, side: str, text: str) -> dict[str, Any]:
    words = " ".join(text.split())
    m = THEN.match(words)
    if m and not words.lower().startswith(("say ", "note ")):  # 'ORDER, then done ...': both in one action
        action, done = parse(state, side, m.group(1)), parse(state, side, m.group(2))
        if action["do"] in ("pass", "done"):
            raise IllegalAction("', then done' follows another order: 'roll 2d10 for fire, then done'")
        return action | {"then": {k: v for k, v in done.items() if k != "do"}}
    low = words.lower()
    verb, _, rest = low.partition(" ")
    raw = words[len(verb):].strip()
    if verb == "done":
        until = cadence.reach(rest)
        return {"do": "done"} | ({"until": until} if until else {})
    if low in ("pass", "accept", "dispute"):
        return {"do": low}
    if low.startswith("draw naval gunfire") or low.startswith("fire naval gunfire"):
        return {"do": "draw-ngf" if verb == "draw" else "fire-ngf", "cup": cup(state, low.split()[3:])}
    if low in ("counter battery roll", "counter-battery roll", "counter battery kill"):
        return {"do": "counter-battery"}
    if low in ("cd fire at every landing", "cd fire at every landing few", "cd fire by hand"):
        return {"do": "cd-standing", "few": None if low.endswith("by hand") else low.endswith(" few")}
    if low.startswith("cd fire"):
        m = re.match(r"^cd fire (\d+) steps?( few)?(?: at (.+))?$", low)
        if not m:
            raise IllegalAction("say 'cd fire N steps' (add 'few' if three or fewer CD steps are in range, "
                                "'at TARGET' to name it)")
        action = {"do": "cd-fire", "steps": int(m.group(1)), "few": bool(m.group(2))}
        return action | ({"target": words[m.start(3):]} if m.group(3) else {})
    if verb == "land":
        if "clyde" in rest:
            return {"do": "land", "beach": "v-beach", "clyde": True}
        m = re.match(r"^(\d+) steps? at (.+)$", rest)
        if not m:
            raise IllegalAction("say 'land N steps at BEACH' or 'land river clyde'")
        return {"do": "land", "beach": beach(m.group(2)), "steps": int(m.group(1))}
    if verb == "delay":
        m = re.match(r"^(\d+) (infantry|artillery) at (.+)$", rest)
        if not m:
            raise IllegalAction("say 'delay N infantry at BEACH' or 'delay N artillery at BEACH' (103.6)")
        return {"do": "delay", "count": int(m.group(1)), "kind": m.group(2), "beach": beach(m.group(3))}
    if verb == "alarums":
        m = re.match(r"^(.+?)(?: missed (\d+))?$", raw, re.I)
        if not raw or not m:
            raise IllegalAction("say 'alarums REGIMENT' (add 'missed N' for diversions that did not occur)")
        return {"do": "alarums", "regiment": m.group(1), "missed": int(m.group(2) or 0)}
    if verb == "surprise":
        m = re.match(r"^at (.+?)( bombarded)?$", rest)
        if not m:
            raise IllegalAction("say 'surprise at BEACH'")
        return {"do": "surprise", "beach": beach(m.group(1)), "bombarded": bool(m.group(2))}
    if verb == "claim":
        parts = rest.split()
        if len(parts) == 4 and parts[0] == "anzac" and parts[2] == "helles":
            return {"do": "claim", "claim": {"anzac": parts[1], "helles": parts[3]}}
        if len(parts) == 1:
            return {"do": "claim", "claim": {"level": parts[0]}}
        raise IllegalAction("say 'claim LEVEL' (the Peninsula: 'claim anzac LEVEL helles LEVEL'); levels: "
                            + ", ".join(data.LEVELS[state["scenario"]]))
    if low.startswith("sudden death"):
        return {"do": "sudden", "landing": low.removeprefix("sudden death").strip()}
    if verb == "roll":
        expr, _, purpose = raw.partition(" for ")
        expr = expr.strip().lower()
        if not DICE.match(expr):
            raise IllegalAction(f"'{expr}' is not a dice expression: try 2d10, d100, 5d10>=7")
        return {"do": "roll", "expr": expr, "purpose": purpose.strip() or expr}
    if verb == "move":
        m = re.match(r"^(.+?) to (.+)$", raw, re.I)
        if not m:
            raise IllegalAction("say 'move PIECE to HEX' (column.row, e.g. 8.2)")
        return {"do": "move", "piece": m.group(1), "to": m.group(2).lower()}
    if verb == "plan":
        return plans.parse(rest, raw)
    if low == plans.OPEN:
        return {"do": "open-plan"}
    if verb == "say" and raw:
        return {"do": "say", "text": raw}
    if verb == "note" and raw:
        return {"do": "note", "text": {"$hide": raw}}
    if low.startswith("open note"):
        m = re.match(r"^open note (\d+)$", low)
        if not m:
            raise IllegalAction("say 'open note N'")
        return {"do": "unseal", "note": int(m.group(1))}
    raise IllegalAction(f"unknown order '{words}': {hint(state)}")


def cup(state: State, words: list[str]) -> str:
    if words:
        return words[0]
    if len(state["cups"]) == 1:
        return state["cups"][0]
    raise IllegalAction(f"which cup: {' or '.join(state['cups']) or 'none in this scenario'}")


def beach(text: str) -> str:
    t = text.strip().lower().replace(" ", "-")
    found = [b for b, name in data.BEACHES.items() if b.startswith(t) or name.lower().startswith(text.strip().lower())]
    if len(found) != 1:
        raise IllegalAction(f"no single beach '{text}': {', '.join(data.BEACHES.values())}")
    return found[0]


def hint(state: State) -> str:
    phase = state["phase"]
    enforced = {"setup": "move PIECE to HEX, then done", "reinforcement": "draw naval gunfire, cd fire",
                "command": "alarums",
                "amphibious-assault": "land, surprise, cd fire, fire naval gunfire",
                "activations": "land, fire naval gunfire", "victory": "claim, accept, dispute"}
    return (f"in the {phase} phase: {enforced.get(phase, 'table-top orders')}; always: roll, move, say, note, "
            f"open note, pass, done (or 'done for the turn', 'done until PHASE'; 'ORDER, then done'), "
            f"plan PHASE: ORDER; ORDER")

"""The game contract for the block game: prompt, apply, settle, and orders typed in words.

``prompt`` reads the top frame and offers every legal action; ``apply`` hands
the action to the frame's rule and then ``settle``s every frame that needs no
decision (events resolving, fire, automatic hits, the turn sequence).
"""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction, Prompt

from . import board, combat, ops, sequence
from .board import army_of, enemy, seat
from .data import BLOCKS, SPACES


def hand_choices(state: dict[str, Any], army: str, verb: str, action: dict[str, Any]) -> list[Choice]:
    return [Choice(f"{verb} [[{t}|card]]", dict(action, card=t)) for t in state["hands"][army]]


def prompt(state: dict[str, Any], cards: dict) -> Prompt:
    shown = frame_prompt(state, cards)
    if shown.side is not None and state.get("standing"):
        army = army_of(state, shown.side)
        groups = board.standing(state, army)
        if groups:  # 10.1 step 11, before his next decision: a file he sends anyway
            where = ", ".join(f"{len(v)} at {board.name(k.split(':')[0])}" for k, v in groups.items())
            return Prompt(shown.side, f"{army}: your blocks revealed in battle are concealed again ({where}): "
                                      f"'{STAND_UP}' gives them fresh tokens (10.1 step 11)",
                          (Choice(STAND_UP, {"do": "conceal"}),), free=True)
    return shown


STAND_UP = "stand up"


def frame_prompt(state: dict[str, Any], cards: dict) -> Prompt:
    frame = state["frames"][-1]
    kind = frame["k"]
    if kind == "sequence":
        return Prompt(None, state["result"]["result"] if state["result"] else "the game is over")
    if kind in ("bid", "bid-open"):
        if kind == "bid":
            return Prompt(frame["seat"], "tournament (6.5): bid 1-8 to play the Allies, sealed; the lower bid "
                                         "plays them with that hand size: 'bid N'", (), free=True)
        return Prompt(frame["seat"], "tournament (6.5): open your sealed bid", (Choice("open bid", {"do": "open"}),))
    army = combat.decider(frame) if kind == "battle" else frame.get("army") if kind != "landing" else enemy(frame["army"])
    side = seat(state, army)
    if kind == "deploy":
        if frame.get("plan") is not None:  # sequence.offer_plan: a standing order, the player's choice
            return Prompt(side, f"{army}: a reinforcement plan? The Allies may cancel the event first; deploy now "
                                f"({deploy_help(state, frame)}), to be carried out if it stands, and save the "
                                f"exchange after their answer (they see how many tokens, no more): "
                                f"'deploy BLOCK STEPS SPACE', 'deploy dummy SPACE', then 'done'; or '{DEPLOY_LATER}'",
                          (Choice("done", {"do": "done"}), Choice(DEPLOY_LATER, {"do": "later"})), free=True)
        return Prompt(side, f"{army}: deploy concealed blocks ({deploy_help(state, frame)}); "
                            f"'deploy BLOCK STEPS SPACE', 'deploy dummy SPACE', then 'done'",
                      (Choice("done", {"do": "done"}),), free=True)
    if kind == "allied-setup":
        return Prompt(side, "allied: set up groups A (ANZAC HQ) and B (British HQ), concealed (6.2)",
                      (Choice("set up", {"do": "setup"}),), free=True)
    if kind == "phase":
        limit = sequence.hand_limit(state, army)
        text = (f"turn {state['turn']}, {army} player phase: play one card for OPS or as an event, "
                f"or discard and draw up to {limit} (7.1)")
        choices = [] if frame["discarding"] else [
            c for t in state["hands"][army] for c in (Choice(f"play [[{t}|card]] for OPS", {"do": "play", "card": t, "as": "ops"}),
                                                      Choice(f"play [[{t}|card]] as event", {"do": "play", "card": t, "as": "event"}))]
        choices += hand_choices(state, army, "discard", {"do": "discard"})
        choices.append(Choice(f"draw up to {limit}", {"do": "draw"}))
        return Prompt(side, text, tuple(choices))
    if kind == "response":
        return Prompt(side, f"{army}: respond to {cards[frame['card']]['name']} with a 'Play in response' event?",
                      tuple([Choice("no response", {"do": "pass"})] + hand_choices(state, army, "respond with",
                                                                                    {"do": "respond"})))
    if kind == "ops":
        return ops_prompt(state, frame, side, army)
    if kind == "move":
        occ = board.occupancy(state)
        choices = [Choice(f"move [[{t}|block]] to {board.name(s)}", {"do": "move", "block": t, "to": s})
                   for t in board.tokens(state, frame["space"], army, occ) if t not in frame["moved"]
                   for s in ops.destinations(state, frame, army, t, occ)]
        return Prompt(side, f"{army}: move blocks from {board.name(frame['space'])} (8.1.1)",
                      tuple(choices + [Choice("done moving", {"do": "done"})]))
    if kind == "landing":
        return Prompt(side, f"{army}: landing fire at {board.name(frame['to'])}: 3 dice, "
                            f"a card adds its bombardment value in dice (9.1)",
                      tuple([Choice("fire", {"do": "fire"})] + hand_choices(state, army, "bombard with",
                                                                             {"do": "bombard"})))
    if kind == "hits":
        return Prompt(side, f"{army}: apply {frame['n']} hit(s) in {board.name(frame['space'])} (10.3)",
                      tuple(Choice(f"hit {board.describe_block(state['blocks'][t])}",
                                   {"do": "hit", "block": t}) for t in combat.candidates(state, frame)))
    if kind == "reveal":
        return Prompt(side, f"{army}: reveal {len(frame['tokens'])} block(s): {frame['why']}",
                      (Choice("reveal", {"do": "reveal"}),))
    if kind == "battle":
        return battle_prompt(state, frame, side, army)
    if kind == "reinforce":
        names = ", ".join(board.block_name(b) for b in frame["blocks"])
        return Prompt(side, f"allied reinforcements from {cards[frame['card']]['name']}: {names} (8.2.1)",
                      (Choice("bring them in", {"do": "reinforce"}),), free=True)
    if kind == "manual":
        return Prompt(side, f"{army}: {cards[frame['card']]['name']} is an event this module cannot carry out: "
                            f"'note WHAT IT DOES' (the opponent reads it), then any of 'hand size +N' / '-N', "
                            f"'open suvla', 'ops N' (ends the event), and 'done'",
                      (Choice("done", {"do": "done"}),), free=True)
    if kind == "supply":
        return Prompt(side, f"{army}: supply check (7.1.3): {len(frame['cut'])} block(s) out of supply lose a step; "
                            f"your tool knows which concealed blocks are eliminated",
                      (Choice("apply supply losses", {"do": "supply"}),), free=True)
    if kind == "final":
        return Prompt(side, f"{army}: the game is decided; open your concealed blocks for checking",
                      (Choice("open concealed blocks", {"do": "open"}),))
    raise AssertionError(f"no prompt for frame {kind}")


def deploy_names(state: dict[str, Any], frame: dict[str, Any], known: dict[str, str]) -> str:
    """For the deploying player's own tool: the blocks he may still deploy (his own concealed ones
    are known to him only) and the spaces he may deploy in."""
    army = frame["army"]
    placed = set(own_blocks(state, army, known, frame.get("plan")).values())
    free = [b for b in sorted(BLOCKS) if BLOCKS[b][1] == army and not board.is_dummy(b) and b not in placed]
    dummies = sum(1 for b in BLOCKS if BLOCKS[b][1] == army and board.is_dummy(b) and b not in placed)
    spaces = frame.get("spaces") or []
    return (f". Blocks you may deploy: {', '.join(board.block_name(b) for b in free) or 'none'}"
            f"; dummies left: {dummies}; spaces: {', '.join(board.name(x) for x in spaces)}")


def deploy_help(state: dict[str, Any], frame: dict[str, Any]) -> str:
    if frame["origin"] == "setup":
        return "up to 9 steps in the Southern Region and 9 in Maidos, Kilia Liman and Boghali; dummies free (6.1)"
    return f"up to {state['quota'][frame['origin']]} steps in the Ottoman HQ; dummies free (8.2.1)"


def ops_prompt(state: dict[str, Any], frame: dict[str, Any], side: str, army: str) -> Prompt:
    occ = board.occupancy(state)  # one reading of the board for every question below
    spaces = sorted({b["at"] for b in state["blocks"].values() if b["army"] == army})
    choices = [Choice(f"activate {board.name(s)}", {"do": "activate", "space": s}) for s in spaces
               if ops.can_activate(state, army, s, occ)]
    for src, dst in ops.attacks(state, army, occ):
        landing = " (a landing)" if ops.is_landing(state, army, src, dst, occ) else ""
        choices.append(Choice(f"attack {board.name(dst)} from {board.name(src)}{landing}",
                              {"do": "attack", "from": src, "to": dst}))
    choices.append(Choice("end operations", {"do": "end"}))
    return Prompt(side, f"{army}: {frame['left']} OPS left: activate a space (1 OPS) or attack (1 OPS) (8.1)",
                  tuple(choices))


def battle_prompt(state: dict[str, Any], frame: dict[str, Any], side: str, army: str) -> Prompt:
    step, where = frame["step"], board.name(frame["to"])
    who = "att" if army == frame["att"] else "def"
    if step in ("bombard", "entrench"):
        value = "bombardment" if step == "bombard" else "entrenchment"
        left = combat.card_limit(frame, who) - len(frame["cards"][who])
        choices = [Choice(f"no {'more ' if frame['cards'][who] else ''}{value} card", {"do": "pass"})]
        if left > 0:
            choices += hand_choices(state, army, f"{value} with", {"do": "card"})
        return Prompt(side, f"battle for {where}, step 2: play up to {left} more card(s) face down "
                            f"for {value}", tuple(choices))
    if step in ("plan-att", "plan-def"):
        return Prompt(side, plan_text(state, frame, where, who), (Choice(LATER, {"do": "later"}),), free=True)
    if step == "events-att" and combat.planned(frame, "att"):
        return Prompt(side, f"battle for {where}: open the Battle events of your plan (10.1 step 5)",
                      (Choice("open planned events", {"do": "open-plan"}),))
    if step in ("show-att", "show-def"):
        return Prompt(side, f"battle for {where}, step 2: reveal your face-down card(s)",
                      (Choice("reveal cards", {"do": "show"}),))
    if step in ("lead-att", "lead-def"):
        pool = combat.eligible(state, frame) if step == "lead-att" else combat.defenders(state, frame)
        sealed = " (sealed until step 7)" if step == "lead-att" else ""
        return Prompt(side, f"battle for {where}, round {frame['round']}: choose 1-3 leading blocks{sealed}: "
                            f"'lead NAME, NAME, NAME' or 'lead strongest'; may lead: "
                            + ", ".join(f"[[{t}|block]]" if state["blocks"][t]["id"] is None
                                        else board.describe_block(state["blocks"][t]) for t in pool),
                      (Choice("lead strongest", {"do": "lead"}),), free=True)
    if step in ("events-att", "events-def"):
        return Prompt(side, f"battle for {where}: play Battle events (10.1 steps 5-6)?",
                      tuple([Choice("no battle event", {"do": "pass"})]
                            + hand_choices(state, army, "battle event", {"do": "card"})))
    if step in ("reveal-att", "reveal-def"):
        return Prompt(side, f"battle for {where}: reveal your leading blocks (10.1 steps 7-8)",
                      (Choice("reveal leaders", {"do": "reveal"}),))
    if step == "advance":
        return Prompt(side, f"{where} is taken: advance blocks into it (10.1 step 12)?",
                      tuple([Choice(f"advance [[{t}|block]]", {"do": "advance", "block": t})
                             for t in combat.advancers(state, frame)] + [Choice("stop advancing", {"do": "stop"})]))
    return Prompt(side, f"battle for {where}: press the attack for a second round, or retreat (10.1 step 13)",
                  (Choice("press the attack", {"do": "press"}), Choice("retreat", {"do": "retreat"})))


LATER = "decide each step"
DEPLOY_LATER = "deploy once the event stands"


def plan_text(state: dict[str, Any], frame: dict[str, Any], where: str, who: str) -> str:
    pool = combat.eligible(state, frame) if who == "att" else combat.defenders(state, frame)
    names = ", ".join(f"[[{t}|block]]" if state["blocks"][t]["id"] is None
                      else board.describe_block(state["blocks"][t]) for t in pool)
    if who == "att":
        what = ("seal your leading blocks (step 3) and Battle events (step 5) now, to be opened when the "
                "rules reach them: you choose before seeing the entrenchment and the defender's leaders")
    else:
        what = ("the attacker has sealed a plan: nominate and reveal your leading blocks (steps 4, 8) and play "
                "your Battle events (step 6) now: you choose before seeing the entrenchment and his events")
    return (f"battle for {where}: a battle plan? {what}; hits then go to the leaders in the order named; "
            f"it saves four exchanges. 'plan lead strongest; events all', 'plan lead NAME, NAME; events CARD' "
            f"or 'plan lead strongest; no events', or '{LATER}'. May lead: {names}")


# ------------------------------------------------------------------ apply
# The orders a free prompt takes (by frame, or battle step) and the fields each may carry beside
# 'do': nothing else is signed and accepted.  A listed choice is matched whole by the engine.
FREE_ORDERS: dict[str, dict[str, frozenset[str]]] = {
    "bid": {"bid": frozenset({"bid"})},
    "deploy": {"done": frozenset(), "deploy": frozenset({"at", "block"}), "later": frozenset()},
    "allied-setup": {"setup": frozenset({"anzac-hq", "british-hq"})},
    "reinforce": {"reinforce": frozenset({"blocks"})},
    "manual": {"done": frozenset(), "note": frozenset({"text"}), "hand": frozenset({"delta"}),
               "suvla": frozenset(), "ops": frozenset({"ops"})},
    "supply": {"supply": frozenset({"spared", "eliminated"})},
    "lead-att": {"lead": frozenset({"blocks"})}, "lead-def": {"lead": frozenset({"blocks"})},
    "plan-att": {"later": frozenset(), "plan": frozenset({"blocks", "events"})},
    "plan-def": {"later": frozenset(), "plan": frozenset({"blocks", "events"})},
}
STAND_UP_ORDER = {"conceal": frozenset({"spaces"})}


def _exact(orders: dict[str, frozenset[str]] | None, action: dict[str, Any]) -> None:
    if orders is None:
        return
    fields = orders.get(action["do"])
    if fields is None:
        raise IllegalAction(f"no '{action['do']}' order here; the orders are: {', '.join(orders)}")
    extra = sorted(str(k) for k in action if k != "do" and k not in fields)
    if extra:
        raise IllegalAction(f"a '{action['do']}' order has no field {', '.join(map(repr, extra))}")


def apply(state: dict[str, Any], side: str, action: dict[str, Any], dice: Any, cards: dict) -> list[dict]:
    if not isinstance(action, dict) or not isinstance(action.get("do"), str):
        raise IllegalAction("an action is an object with 'do'")
    army = army_of(state, side)
    state["clock"] += 1
    events: list[dict] = []
    frame = state["frames"][-1]
    kind = frame["k"]
    if state.get("standing") and board.standing(state, army):
        if action["do"] != "conceal":
            raise IllegalAction(f"first '{STAND_UP}': your blocks revealed in battle are concealed again (10.1 step 11)")
        _exact(STAND_UP_ORDER, action)
        events += [{"text": t} for t in board.stand_up(state, army, action, dice)]
        return events
    _exact(FREE_ORDERS.get(frame.get("step", "") if kind == "battle" else kind), action)
    try:
        dispatch(state, frame, kind, army, action, dice, events, cards)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise IllegalAction(f"malformed action {action!r}: {type(e).__name__} {e}") from None
    settle(state, dice, events, cards)
    return events


def dispatch(state, frame, kind, army, action, dice, events, cards) -> None:
    do = action["do"]
    if kind in ("bid", "bid-open"):
        sequence.do_bid(state, frame, frame["seat"], action, dice, events)
    elif kind == "deploy":
        sequence.do_deploy(state, frame, army, action, dice, events)
    elif kind == "allied-setup":
        sequence.do_allied_setup(state, frame, army, action, dice, events)
    elif kind == "phase":
        sequence.do_phase(state, frame, army, action, dice, events, cards)
    elif kind == "response":
        sequence.do_response(state, frame, army, action, dice, events, cards)
    elif kind == "ops":
        ops.do_ops(state, frame, army, action, dice, events)
    elif kind == "move":
        ops.do_move(state, frame, army, action, dice, events)
    elif kind == "landing":
        ops.do_landing_fire(state, frame, army, action, dice, events, cards)
    elif kind == "hits":
        combat.apply_hit(state, frame, action["block"], events)
    elif kind == "reveal":
        combat.do_reveal(state, frame, dice, events)
    elif kind == "battle":
        combat.do_battle(state, frame, army, action, dice, events, cards)
    elif kind == "reinforce":
        sequence.do_reinforce(state, frame, army, action, dice, events)
    elif kind == "manual":
        sequence.do_manual(state, frame, army, action, events, cards)
    elif kind == "supply":
        sequence.do_supply(state, frame, army, action, dice, events)
    elif kind == "final":
        sequence.do_final(state, frame, army, dice, events)
    else:
        raise IllegalAction(f"no one acts at {kind} ({do})")


def settle(state: dict[str, Any], dice: Any, events: list, cards: dict) -> None:
    """Resolve every frame that needs no decision, until one does (or the game ends)."""
    while True:
        frame = state["frames"][-1]
        kind = frame["k"]
        if kind == "sequence":
            if not sequence.sequence(state, frame, dice, events):
                return
        elif kind == "event":
            sequence.resolve_event(state, frame, events, cards)
        elif kind == "landed":
            ops.after_landing(state, frame, events)
        elif kind == "ops" and frame["left"] <= 0:
            state["frames"].pop()
        elif kind == "battle":
            if not combat.settle_battle(state, frame, dice, events):
                return
        elif kind == "hits":
            if not combat.settle_hits(state, frame, events):
                return
        else:
            return


# ------------------------------------------------------------------ orders in words (free prompts)
def _find(pattern: str, text: str) -> re.Match | None:
    return re.fullmatch(pattern, " ".join(text.lower().split()))


def find_space(text: str) -> str:
    text = text.strip().lower()
    hits = [s for s, v in SPACES.items() if s == text or v[0].lower() == text]
    hits = hits or [s for s, v in SPACES.items() if v[0].lower().startswith(text) or s.startswith(text)]
    if len(hits) != 1:
        import difflib  # stdlib, pure

        names = [v[0] for v in SPACES.values()]
        close = difflib.get_close_matches(text, [n.lower() for n in names], n=3, cutoff=0.6)
        hint = ("; did you mean " + " or ".join(f"'{n}'" for n in names if n.lower() in close) + "?") if close else \
            ("; it could be " + ", ".join(SPACES[h][0] for h in hits[:6]) if hits else "")
        raise IllegalAction(f"no single space called {text!r}{hint}")
    return hits[0]


def find_block(text: str, army: str, among: list[str] | None = None) -> str:
    text = text.strip().lower()
    pool = among if among is not None else [b for b, v in BLOCKS.items() if v[1] == army]
    hits = [b for b in pool if b == text or BLOCKS[b][0].lower() == text]
    hits = hits or [b for b in pool if text in BLOCKS[b][0].lower() or b.startswith(text)]
    if len(hits) != 1:
        raise IllegalAction(f"no single {army} block called {text!r}" + (f" (matches: {len(hits)})" if hits else ""))
    return hits[0]


def own_blocks(state: dict[str, Any], army: str, known: dict[str, str],
               plan: dict[str, Any] | None = None) -> dict[str, str]:
    """Our tokens on the board (and in a reinforcement plan being given) -> block id (from our
    own knowledge, or what is public)."""
    out = {}
    for t, b in [*state["blocks"].items(), *(plan or {}).items()]:
        if b["army"] == army:
            bid = b["id"] or (board.parse_sealed(known[t])[0] if t in known else None)
            if bid:
                out[t] = bid
    return out


def current_steps(state: dict[str, Any], tok: str, known: dict[str, str]) -> int | None:
    b = state["blocks"][tok]
    if b["id"] is not None:
        return b["steps"]
    _, steps = board.parse_sealed(known[tok])
    return None if steps is None else steps - b["hits"]


def strongest(state: dict[str, Any], pool: list[str], names: dict[str, str], known: dict[str, str]) -> list[str]:
    """'lead strongest': the (up to) three strongest of ``pool`` as our own tool knows them (``names``:
    ``own_blocks``); dummies and blocks we cannot name last."""
    ranked = sorted(pool, key=lambda t: (-board.strength(names[t], current_steps(state, t, known) or 4)
                                         if names.get(t) and not board.is_dummy(names[t]) else 1, pool.index(t)))
    return ranked[:combat.LEADERS]


def parse_order(state: dict[str, Any], side: str, text: str, known: dict[str, str], cards: dict) -> dict[str, Any]:
    frame = state["frames"][-1]
    army = army_of(state, side)
    kind, step = frame["k"], frame.get("step")
    words = " ".join(text.lower().split())
    if state.get("standing") and board.standing(state, army):  # before any frame's orders, as prompt asks
        if words in (STAND_UP, "conceal", "1"):  # the one listed choice, by its number too
            return board.stand_up_order(state, army)
        raise IllegalAction(f"first '{STAND_UP}': your blocks revealed in battle are concealed again")
    if kind == "bid":
        m = _find(r"bid ([1-8])", text)
        if not m:
            raise IllegalAction("say 'bid N' with N from 1 to 8")
        return {"do": "bid", "bid": {"$hide": m.group(1)}}
    if kind == "deploy":
        if words == "done":
            return {"do": "done"}
        if words == DEPLOY_LATER and frame.get("plan") is not None:
            return {"do": "later"}
        mine = own_blocks(state, army, known, frame.get("plan"))
        m = _find(r"deploy dummy (?:in |at |to )?(.+)", text)
        if m:
            free = [b for b in sorted(BLOCKS) if BLOCKS[b][1] == army and board.is_dummy(b) and b not in mine.values()]
            if not free:
                raise IllegalAction("all five dummy blocks are on the board")
            return {"do": "deploy", "at": find_space(m.group(1)), "block": {"$hide": free[0]}}
        m = _find(r"deploy (.+?) (?:at |strength |at strength )?([1-4]) (?:steps? )?(?:in |at |to )?(.+)", text)
        if not m:
            raise IllegalAction("say 'deploy BLOCK STEPS SPACE' (e.g. 'deploy 25th 4 krithia'), "
                                "'deploy dummy SPACE' or 'done'")
        bid = find_block(m.group(1), army, [b for b in BLOCKS if BLOCKS[b][1] == army and not board.is_dummy(b)])
        if bid in mine.values():
            raise IllegalAction(f"{board.block_name(bid)} is already on the board")
        return {"do": "deploy", "at": find_space(m.group(3)), "block": {"$hide": f"{bid}:{m.group(2)}"}}
    if kind == "allied-setup":
        return {"do": "setup", **{hq: [{"$hide": f"{b}:4"} for b in sorted(BLOCKS)
                                       if BLOCKS[b][1] == "allied" and BLOCKS[b][4] == g]
                                  for hq, g in (("anzac-hq", "a"), ("british-hq", "b"))}}
    if kind == "reinforce":
        return {"do": "reinforce", "blocks": [{"$hide": f"{b}:4"} for b in frame["blocks"]]}
    if kind == "manual":
        m = _find(r"hand size ([+-][1-3])", text)
        if m:
            return {"do": "hand", "delta": int(m.group(1))}
        m = _find(r"ops ([1-4])", text)
        if m:
            return {"do": "ops", "ops": int(m.group(1))}
        if words == "open suvla":
            return {"do": "suvla"}
        m = re.fullmatch(r"\s*note\s+(.+?)\s*", text, re.I | re.S)  # the note as typed: its case, its words
        return {"do": "note", "text": m.group(1) if m else text.strip()}
    if kind == "supply":
        return supply_order(state, frame, known)
    if kind == "battle" and step in ("lead-att", "lead-def"):
        pool = combat.eligible(state, frame) if step == "lead-att" else combat.defenders(state, frame)
        chosen = leaders(state, army, pool, words, text, known)
        return {"do": "lead", "blocks": {"$hide": " ".join(chosen)} if step == "lead-att" else chosen}
    if kind == "battle" and step in ("plan-att", "plan-def"):
        return plan_order(state, frame, army, step, text, known, cards)
    raise IllegalAction(f"'{text}' is not an order here")


def leaders(state: dict[str, Any], army: str, pool: list[str], words: str, text: str,
            known: dict[str, str]) -> list[str]:
    """'lead strongest' or 'lead NAME, NAME': one to three of ``pool``."""
    names = own_blocks(state, army, known)
    if words in ("lead strongest", "lead", "strongest"):
        return strongest(state, pool, names, known)
    m = _find(r"lead (.+)", text)
    if not m:
        raise IllegalAction("say 'lead NAME, NAME' or 'lead strongest'")
    ids = {names[t]: t for t in pool if t in names}
    chosen = [ids[find_block(part, army, list(ids))] for part in m.group(1).split(",")]
    if not 1 <= len(chosen) <= combat.LEADERS or len(set(chosen)) != len(chosen):
        raise IllegalAction("choose one to three different blocks")
    return chosen


def plan_order(state: dict[str, Any], frame: dict[str, Any], army: str, step: str, text: str,
               known: dict[str, str], cards: dict) -> dict[str, Any]:
    """'plan lead strongest; events all' and the like: a battle plan (combat.do_plan)."""
    m = re.fullmatch(r"\s*plan\s+(lead\b[^;]*)(?:;\s*(.*?))?\s*", text, re.I | re.S)
    if not m:
        raise IllegalAction(f"say 'plan lead strongest; events all', 'plan lead NAME, NAME; events CARD' or "
                            f"'{LATER}'")
    pool = combat.eligible(state, frame) if step == "plan-att" else combat.defenders(state, frame)
    chosen = leaders(state, army, pool, " ".join(m.group(1).lower().split()), m.group(1), known)
    battle = [t for t in state["hands"][army]
              if t in known and cards.get(known[t], {}).get("event", {}).get("kind") == "battle"]
    rest = " ".join((m.group(2) or "").lower().split())
    if rest in ("", "no events", "no event", "events none"):
        picked: list[str] = []
    elif rest in ("events all", "all events"):
        picked = battle
    else:
        e = re.fullmatch(r"events? (.+)", rest)
        if not e:
            raise IllegalAction("after the leaders say 'events all', 'events CARD, CARD' or 'no events'")
        picked = []
        for part in e.group(1).split(","):
            hits = [t for t in battle if part.strip() and part.strip() in cards[known[t]]["name"].lower()]
            if len(hits) != 1 or hits[0] in picked:
                held = ", ".join(cards[known[t]]["name"] for t in battle) or "none"
                raise IllegalAction(f"no single Battle event card of your hand called {part.strip()!r}; "
                                    f"you hold: {held}")
            picked.append(hits[0])
    if step == "plan-att":
        return {"do": "plan", "blocks": {"$hide": " ".join(chosen)}, "events": {"$hide": " ".join(picked)}}
    return {"do": "plan", "blocks": chosen, "events": picked}


def supply_order(state: dict[str, Any], frame: dict[str, Any], known: dict[str, str]) -> dict[str, Any]:
    """What our own tool knows: which concealed blocks the hit eliminates; forts keep their strongest two."""
    cut = [t for t in frame["cut"] if t in state["blocks"]]
    spared = []
    for fort in sequence.FORTS:
        inside = [t for t in cut if state["blocks"][t]["at"] == fort]
        inside.sort(key=lambda t: -(current_steps(state, t, known) or 0))
        spared += inside[:2]
    eliminated = [t for t in cut if t not in spared and state["blocks"][t]["id"] is None
                  and (current_steps(state, t, known) or 0) <= 1]
    return {"do": "supply", "spared": spared, "eliminated": eliminated}

"""Set-up (rules 6), the turn sequence (7.1), cards (5, 8.2), supply (7.1.3) and victory (7.1.4).

Play is a stack of frames in ``state["frames"]``; the top frame is the
decision being made.  The bottom frame, ``sequence``, walks the stages of
set-up and of each turn.  Frames that need no one's decision are settled at
once by ``settle`` (see AUTO in rules.py).
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import IllegalAction

from . import board
from .board import ARMIES, enemy, seat
from .data import BLOCKS

OTTOMAN_HAND = 7  # 7.1.2
OTTOMAN_FIRST_HAND = 10  # 6.6
QUOTA = 9  # 6.1: steps per deployment area


# ------------------------------------------------------------------ 6.0 set-up
def new_state(options: dict[str, Any], cards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "options": options, "seats": {a: a for a in ARMIES}, "turn": 0,
        "stage": "bid" if options.get("tournament") else "ottoman-setup",
        "hand_size": 6,  # 6.5
        "suvla_open": False, "blocks": {}, "gone": {}, "again": {}, "clock": 0, "landed": [], "entered": [],
        "quota": {"setup:south": QUOTA, "setup:north": QUOTA},
        "hands": {a: [] for a in ARMIES}, "discard": {a: [] for a in ARMIES}, "removed": {a: [] for a in ARMIES},
        "deck": {a: {sub: sum(1 for c in cards.values() if c["army"] == a and c["subdeck"] == sub)
                     for sub in ("early", "late")} for a in ARMIES},
        "frames": [{"k": "sequence"}], "result": None,
    }


def deploy_area(space: str) -> str | None:
    """6.1: the two Ottoman deployment areas, each worth up to 9 steps."""
    if space in board.SOUTH:
        return "setup:south"
    if space in board.NORTH:
        return "setup:north"
    return None


def do_deploy(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
              events: list) -> None:
    """6.1 / 8.2.1: an Ottoman block (or dummy) placed concealed, at a strength of the owner's choice.
    A reinforcement plan (``plan`` in the frame, see ``offer_plan``) seals them the same way but
    keeps them off the board until the event stands."""
    plan = frame.get("plan")
    if action["do"] == "later":
        if plan is None:
            raise IllegalAction("no reinforcement plan is being given here")
        state["frames"].pop()
        events.append({"text": f"{army} will deploy its reinforcements once the event stands (8.2.1)"})
        return
    if action["do"] == "done":
        state["frames"].pop()
        if plan is not None:  # the event frame lies under the Allied response window
            event = next(f for f in reversed(state["frames"]) if f["k"] == "event")
            event["plan"] = plan
            events.append({"text": f"{army} gives its reinforcements as a plan: {len(plan)} concealed block(s) "
                                   f"to enter the Ottoman HQ if the event stands (8.2.1)"})
            return
        events.append({"text": f"{army} finishes deploying ({frame['placed']} blocks)"})
        if frame["origin"] == "setup":  # 6.6: the Ottoman hand of ten, drawn in his own envelope
            draw(state, army, OTTOMAN_FIRST_HAND, dice, events)
        return
    at = action.get("at")
    origin = deploy_area(at) if frame["origin"] == "setup" else frame["origin"]
    if at not in frame["spaces"] or origin is None:
        raise IllegalAction(f"{army} cannot deploy at {at!r} now; allowed: {', '.join(frame['spaces'])}")
    if board.room(state, at) - len(plan or ()) < 1:
        raise IllegalAction(f"{board.name(at)} is full (6 blocks, 4.5)")
    if isinstance(action["block"], dict):  # our own tool, before signing: the quota it alone can check
        _check_quota(state, army, origin, action["block"].get("$hide"), dice, plan)
    tok = dice.seal(seat(state, army), action["block"])
    if tok in state["blocks"] or tok in state["gone"] or tok in (plan or ()):
        raise IllegalAction("that block token is already on the board")
    record = {"army": army, "at": at, "id": None, "steps": None, "hits": 0, "origin": origin,
              "born": state["clock"], "stop": False}
    frame["placed"] += 1
    if plan is not None:
        plan[tok] = record
        events.append({"text": f"{army} plans to deploy [[{tok}|block]] at {board.name(at)}"})
        return
    state["blocks"][tok] = record
    events.append({"text": f"{army} deploys [[{tok}|block]] at {board.name(at)}"})


QUOTA_RULE = {"setup:south": "6.1: at most 9 steps in the Southern Region",
              "setup:north": "6.1: at most 9 steps in Maidos, Kilia Liman and Boghali"}


def _check_quota(state: dict[str, Any], army: str, origin: str, item: Any, dice: Any,
                 plan: dict[str, Any] | None = None) -> None:
    """The steps deployed (or planned) for ``origin`` (concealed: only their owner knows them)
    within its quota; dummies are free. The opponent checks the same when the blocks are opened."""
    quota = state["quota"].get(origin)
    if quota is None or not isinstance(item, str):
        return
    steps = lambda it: int(it.partition(":")[2] or 0) if it else 0  # noqa: E731  "bid:steps"; a dummy has none
    spent = sum(steps(dice.own_item(seat(state, army), t)) for t, b in [*state["blocks"].items(), *(plan or {}).items()]
                if b["army"] == army and b["origin"] == origin)
    if spent + steps(item) > quota:
        rule = QUOTA_RULE.get(origin, f"8.2.1: at most {quota} steps from this card")
        raise IllegalAction(f"{rule}: {spent} deployed, {steps(item)} more would make {spent + steps(item)}")


def do_allied_setup(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
                    events: list) -> None:
    """6.2 (cut off in the text; see RULES.md): groups A and B start concealed in their HQ spaces."""
    for hq, group in (("anzac-hq", "A"), ("british-hq", "B")):
        values = action.get(hq)
        want = sum(1 for b in BLOCKS.values() if b[1] == "allied" and b[4] == group.lower())
        if not isinstance(values, list) or len(values) != want:
            raise IllegalAction(f"group {group} sets up {want} blocks in {board.name(hq)}")
        for value in values:
            tok = dice.seal(seat(state, army), value)
            state["blocks"][tok] = {"army": army, "at": hq, "id": None, "steps": None, "hits": 0,
                                    "origin": f"setup:{group}", "born": state["clock"], "stop": False}
        events.append({"text": f"allied group {group}: {want} concealed blocks in {board.name(hq)}"})
    state["frames"].pop()
    draw(state, army, state["hand_size"], dice, events)  # 6.6


# ------------------------------------------------------------------ 7.1 turn sequence
def sequence(state: dict[str, Any], frame: dict[str, Any], dice: Any, events: list) -> bool:
    """Walk to the next stage; False when the game is over."""
    stage = state["stage"]
    if state["result"] is not None:
        return False
    if stage == "bid":  # 6.5 tournament: both seal a bid, then both open it
        state["frames"] += [{"k": "bid-open", "seat": s} for s in reversed(ARMIES)]
        state["frames"] += [{"k": "bid", "seat": s} for s in reversed(ARMIES)]
        state["bids"] = {}
        state["stage"] = "bid-result"
    elif stage == "bid-result":
        settle_bids(state, dice, events)
        state["stage"] = "ottoman-setup"
    elif stage == "ottoman-setup":
        state["frames"].append({"k": "deploy", "army": "ottoman", "origin": "setup", "placed": 0,
                                "spaces": list(board.SOUTH) + list(board.NORTH)})
        state["stage"] = "allied-setup"
    elif stage == "allied-setup":
        state["frames"].append({"k": "allied-setup", "army": "allied"})
        state["stage"] = "allied"
    elif stage in ARMIES:  # 7.1.1, 7.1.2
        if stage == "allied":
            state["turn"] += 1
            state["landed"] = []
            for b in state["blocks"].values():
                b["stop"] = False
            events.append({"text": f"— turn {state['turn']} —"})
        state["frames"].append({"k": "phase", "army": stage, "discarding": False})
        state["stage"] = "ottoman" if stage == "allied" else "supply"
    elif stage == "supply":
        supply_check(state, events)
        state["stage"] = "victory"
    elif stage == "victory":
        victory_check(state, events)
        state["stage"] = "allied"
    return True


def do_bid(state: dict[str, Any], frame: dict[str, Any], side: str, action: dict[str, Any], dice: Any,
           events: list) -> None:
    """6.5: a secret bid of 1-8 to play the Allies, sealed now and opened once both are in."""
    if frame["k"] == "bid":
        state["bids"][side] = dice.seal(side, action["bid"])
        events.append({"text": f"the player seated as {side} seals [[{state['bids'][side]}|bid]]"})
    else:
        value = dice.reveal(side, state["bids"][side])
        if value not in [str(n) for n in range(1, 9)]:
            raise IllegalAction(f"cheating: the sealed bid {value!r} is not a number from 1 to 8")
        state["bids"][side] = int(value)
        events.append({"text": f"the player seated as {side} bid {value}"})
    state["frames"].pop()


def settle_bids(state: dict[str, Any], dice: Any, events: list) -> None:
    """The lower bid plays the Allies with that hand size; a coin flip breaks a tie (6.5)."""
    bids = state["bids"]
    low = min(bids.values())
    takers = [s for s in ARMIES if bids[s] == low]
    if len(takers) > 1:
        coin = dice.coin("tournament bid tie: heads, the seat 'allied' plays the Allies (6.5)")
        takers = ["allied" if coin == "heads" else "ottoman"]
        events.append({"text": f"the bids tie at {low}: the coin shows {coin}"})
    state["seats"] = {"allied": takers[0], "ottoman": next(s for s in ARMIES if s != takers[0])}
    state["hand_size"] = low
    events.append({"text": f"the player seated as {takers[0]} plays the Allies, with a hand size of {low}; "
                           f"the player seated as {state['seats']['ottoman']} plays the Ottomans"})


def hand_limit(state: dict[str, Any], army: str) -> int:
    return state["hand_size"] if army == "allied" else OTTOMAN_HAND


def draw(state: dict[str, Any], army: str, count: int, dice: Any, events: list) -> None:
    """Draw from the Early subdeck, then the Late (6.3-6.4); when the deck runs out, the
    discards are shuffled in, removed cards excepted (7.1.1)."""
    deck = state["deck"][army]
    drawn: list[str] = []
    for sub in ("early", "late", "reshuffled"):  # the deck's own cards are drawn before the discards
        if sub == "reshuffled":
            if len(drawn) >= count or not state["discard"][army]:
                break
            pile = sorted(state["discard"][army])
            dice.add_private(seat(state, army), f"{army}-late", pile)
            deck["late"] += len(pile)
            state["discard"][army] = []
            events.append({"text": f"{army} shuffles {len(pile)} discarded cards into a new draw deck (7.1.1)"})
            sub = "late"
        n = min(count - len(drawn), deck[sub])
        if n:
            drawn += dice.draw_private(seat(state, army), f"{army}-{sub}", n)
            deck[sub] -= n
    state["hands"][army] += drawn
    events.append({"text": f"{army} draws {len(drawn)} card(s): " + ", ".join(f"[[{t}|card]]" for t in drawn),
                   "draws": len(drawn)})


def open_card(state: dict[str, Any], army: str, tok: str, dice: Any, cards: dict, in_hand: bool = True) -> str:
    """Open one of ``army``'s card tokens (from its hand, or played face down): the card id."""
    if in_hand and tok not in state["hands"][army]:
        raise IllegalAction(f"{army} holds no such card")
    cid = dice.reveal(seat(state, army), tok)
    if cid not in cards or cards[cid]["army"] != army:
        raise IllegalAction(f"cheating: {army}'s card {tok[:12]} opened as {cid!r}")
    if in_hand:
        state["hands"][army].remove(tok)
    return cid


def spend(state: dict[str, Any], army: str, cid: str, cards: dict, as_event: bool) -> None:
    """5.1, 8.2: an asterisked card played as an event leaves the game; anything else is discarded."""
    (state["removed"] if as_event and cards[cid]["asterisk"] else state["discard"])[army].append(cid)


def do_phase(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
             events: list, cards: dict) -> None:
    """7.1.1 / 7.1.2: play one card for OPS or event, or discard any cards and draw up."""
    do = action["do"]
    if do == "discard":
        cid = open_card(state, army, action["card"], dice, cards)
        state["discard"][army].append(cid)
        frame["discarding"] = True
        events.append({"text": f"{army} discards {cards[cid]['name']}"})
        return
    if do == "draw":
        state["frames"].pop()
        draw(state, army, max(0, hand_limit(state, army) - len(state["hands"][army])), dice, events)
        return
    if frame["discarding"]:
        raise IllegalAction("having discarded, draw up (7.1.1)")
    cid = open_card(state, army, action["card"], dice, cards)
    card = cards[cid]
    state["frames"].pop()
    if action["as"] == "ops":  # 8.1
        spend(state, army, cid, cards, False)
        events.append({"text": f"{army} plays {card['name']} for {card['ops']} OPS"})
        if card["ops"]:
            state["frames"].append({"k": "ops", "army": army, "left": card["ops"]})
        return
    kind = card["event"]["kind"]
    if kind in ("battle", "response"):
        raise IllegalAction(f"{card['name']} is a {kind} event: it cannot be played in a player phase")
    events.append({"text": f"{army} plays {card['name']} as an event"})
    state["frames"].append({"k": "event", "army": army, "card": cid})
    if may_respond(state, enemy(army), cards):
        state["frames"].append({"k": "response", "army": enemy(army), "card": cid})
        offer_plan(state, army, cid, cards)


def reinforcement_origin(state: dict[str, Any], cid: str) -> str:
    return f"card:{cid}:{state['clock']}"  # its own quota, even if the card comes round again


def offer_plan(state: dict[str, Any], army: str, cid: str, cards: dict) -> None:
    """8.2.1 with a response window open: the Ottoman may deploy his reinforcements now, as a
    plan (a standing order) carried out when the event stands, in the Allied file that answers
    the window, instead of a file of his own after it.  The blocks are sealed as at any deploy;
    the Allies see only how many tokens the plan holds (see RULES.md, "Hand-overs").  A
    cancelled event voids the plan: its tokens never reach the board."""
    ev = cards[cid]["event"]
    if army != "ottoman" or ev["kind"] not in ("reinforce", "suvla") or not ev.get("steps"):
        return
    origin = reinforcement_origin(state, cid)
    state["quota"][origin] = ev["steps"]
    state["frames"].append({"k": "deploy", "army": army, "origin": origin, "placed": 0,
                            "spaces": ["ottoman-hq"], "plan": {}})


def may_respond(state: dict[str, Any], army: str, cards: dict) -> bool:
    """A response window opens only while one of ``army``'s response cards may be in its hand:
    public knowledge (not yet discarded or removed), so the window itself tells nothing."""
    spent = set(state["discard"][army]) | set(state["removed"][army])
    return bool(state["hands"][army]) and any(
        c["army"] == army and c["event"]["kind"] == "response" and cid not in spent for cid, c in cards.items())


def do_response(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
                events: list, cards: dict) -> None:
    state["frames"].pop()
    if action["do"] == "pass":
        events.append({"text": f"{army} does not respond"})
        return
    cid = open_card(state, army, action["card"], dice, cards)
    if cards[cid]["event"]["kind"] != "response":
        raise IllegalAction(f"{cards[cid]['name']} cannot be played in response")
    spend(state, army, cid, cards, True)
    cancelled = state["frames"].pop()  # the event frame below
    state["discard"][cancelled["army"]].append(cancelled["card"])
    events.append({"text": f"{army} responds with {cards[cid]['name']}: "
                           f"{cards[cancelled['card']]['name']} is cancelled and discarded"
                           + (": its reinforcement plan is void" if cancelled.get("plan") is not None else "")})


def resolve_event(state: dict[str, Any], frame: dict[str, Any], events: list, cards: dict) -> None:
    """8.2: carry out the card (the kinds of cards.py), then discard or remove it."""
    army, cid = frame["army"], frame["card"]
    card, ev = cards[cid], cards[cid]["event"]
    state["frames"].pop()
    spend(state, army, cid, cards, True)
    kind = ev["kind"]
    if kind == "suvla":
        state["suvla_open"] = True
        events.append({"text": "the Suvla Region is open to movement (8.1.1)"})
    if kind in ("reinforce", "suvla"):
        if army == "allied":
            ids = ev.get("blocks") or [b for b, v in BLOCKS.items() if v[1] == "allied" and v[4] == ev.get("group")]
            ids = [b for b in ids if b not in state["entered"]]  # a card cancelled and replayed brings no one twice
            if ids:
                state["frames"].append({"k": "reinforce", "army": army, "card": cid, "blocks": sorted(ids)})
        elif frame.get("plan") is not None:  # given with the card (offer_plan): carried out now
            # in token order: a stored state's keys are sorted, so played and replayed events agree
            for tok, record in sorted(frame["plan"].items()):
                state["blocks"][tok] = dict(record, born=state["clock"])
                events.append({"text": f"{army} deploys [[{tok}|block]] at {board.name(record['at'])} "
                                       f"(its reinforcement plan, 8.2.1)"})
        elif ev.get("steps"):
            origin = reinforcement_origin(state, cid)
            state["quota"][origin] = ev["steps"]
            state["frames"].append({"k": "deploy", "army": army, "origin": origin, "placed": 0,
                                    "spaces": ["ottoman-hq"]})
            events.append({"text": f"ottoman reinforcements: up to {ev['steps']} steps into the Ottoman HQ (8.2.1)"})
    elif kind == "ops":
        state["frames"].append({"k": "ops", "army": army, "left": ev["ops"]})
        events.append({"text": f"{card['name']} gives {ev['ops']} OPS"})
    elif kind == "hand":
        state["hand_size"] = max(0, state["hand_size"] + ev["delta"])
        events.append({"text": f"the Allied hand size is now {state['hand_size']}"})
    elif kind == "manual":
        state["frames"].append({"k": "manual", "army": army, "card": cid})


def do_reinforce(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
                 events: list) -> None:
    """8.2.1: the Allied blocks the card names enter their HQ at full strength, concealed."""
    values = action.get("blocks")
    if not isinstance(values, list) or len(values) != len(frame["blocks"]):
        raise IllegalAction(f"the card brings {len(frame['blocks'])} blocks")
    hqs = sorted({BLOCKS[b][5] for b in frame["blocks"]})
    if len(hqs) != 1:
        raise IllegalAction("a reinforcement card's blocks enter one HQ space")
    for value in values:
        tok = dice.seal(seat(state, army), value)
        state["blocks"][tok] = {"army": army, "at": hqs[0], "id": None, "steps": None, "hits": 0,
                                "origin": f"card:{frame['card']}", "entering": frame["blocks"],
                                "born": state["clock"], "stop": False}
    state["entered"] += frame["blocks"]
    state["frames"].pop()
    names = ", ".join(board.block_name(b) for b in frame["blocks"])
    events.append({"text": f"allied reinforcements enter {board.name(hqs[0])}: {names}"})


def do_manual(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], events: list,
              cards: dict) -> None:
    """8.2 for an event the module cannot carry out: its owner says what it does, for the opponent
    to read, and may make the adjustments the module can make (the Allied hand size, opening the
    Suvla Region, OPS to spend), each logged as a manual adjustment."""
    head = f"{army}: event {cards[frame['card']]['name']} — manual adjustment"
    do = action["do"]
    if do == "done":
        if not frame.get("noted"):
            raise IllegalAction("first say what the event does ('note TEXT'): the opponent reads it")
        state["frames"].pop()
        return
    if do == "note":
        text = " ".join(str(action.get("text", "")).split())[:500]
        if not text:
            raise IllegalAction("say what the event does (a manual adjustment the opponent will read)")
        frame["noted"] = True
        events.append({"text": f"{head}: {text}"})
    elif do == "hand":
        delta = action["delta"]
        if not isinstance(delta, int) or isinstance(delta, bool) or not 1 <= abs(delta) <= 3:
            raise IllegalAction("the hand size changes by 1 to 3 up or down")
        state["hand_size"] = max(0, state["hand_size"] + delta)
        events.append({"text": f"{head}: Allied hand size {delta:+d}, now {state['hand_size']}"})
    elif do == "suvla":
        state["suvla_open"] = True
        events.append({"text": f"{head}: the Suvla Region is open (8.1.1)"})
    elif do == "ops":
        ops = action["ops"]
        if not frame.get("noted") or not isinstance(ops, int) or isinstance(ops, bool) or not 1 <= ops <= 4:
            raise IllegalAction("an event gives 1 to 4 OPS, after saying what it does ('note TEXT')")
        state["frames"].pop()
        state["frames"].append({"k": "ops", "army": army, "left": ops})
        events.append({"text": f"{head}: {ops} OPS to spend (8.1)"})
    else:
        raise IllegalAction("'note TEXT', 'hand size +N', 'open suvla', 'ops N' or 'done'")


# ------------------------------------------------------------------ 7.1.3 supply check
FORTS = ("sedd-el-bahr", "kilid-bahr")


def traces(state: dict[str, Any], army: str, space: str, occ: board.Occupancy | None = None) -> bool:
    """A route to a friendly HQ through no enemy-occupied space (and never the enemy's HQ)."""
    occ = board.occupancy(state) if occ is None else occ
    seen, todo = {space}, [space]
    while todo:
        here = todo.pop()
        if here in board.HQ[army]:
            return True
        for nxt in board.adjacent(here):
            if nxt in seen or (board.is_hq(nxt) and nxt not in board.HQ[army]) \
                    or board.occupant(state, nxt, occ) == enemy(army):
                continue
            seen.add(nxt)
            todo.append(nxt)
    return False


def out_of_supply(state: dict[str, Any], army: str) -> list[str]:
    occ = board.occupancy(state)
    spaces = sorted({b["at"] for b in state["blocks"].values() if b["army"] == army})
    return [t for s in spaces if not traces(state, army, s, occ) for t in board.tokens(state, s, army, occ)]


def supply_check(state: dict[str, Any], events: list) -> None:
    """Known blocks lose their step now; concealed ones (and a fort's choice of the two blocks
    it keeps in supply) are their owner's to resolve, in a ``supply`` frame."""
    cuts = {army: out_of_supply(state, army) for army in ARMIES}
    if not any(cuts.values()):
        events.append({"text": "supply check (7.1.3): every block traces to its HQ"})
    for army in reversed(ARMIES):  # frames are a stack: the Allied player resolves first
        cut = cuts[army]  # found before any block lost a step here: see the end of the loop
        if not cut:
            continue
        events.append({"text": f"supply check: {len(cut)} {army} block(s) out of supply"})
        forts = {f: [t for t in cut if state["blocks"][t]["at"] == f] for f in FORTS}
        choose = any(len(v) > 2 for v in forts.values())
        concealed = [t for t in cut if state["blocks"][t]["id"] is None]
        if choose or concealed:
            state["frames"].append({"k": "supply", "army": army, "cut": cut})
            continue
        for f, toks in forts.items():  # 7.1.3: the fort supplies up to two blocks inside it
            for t in toks[:2]:
                cut.remove(t)
        for t in cut:
            events.append({"text": "out of supply: " + board.hit(state, t)})
        cuts = {a: out_of_supply(state, a) for a in ARMIES}  # an eliminated block may reopen a route


def do_supply(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
              events: list) -> None:
    cut = [t for t in frame["cut"] if t in state["blocks"]]
    spared = action.get("spared", [])
    for f in FORTS:
        inside = [t for t in cut if state["blocks"][t]["at"] == f]
        mine = [t for t in spared if t in inside]
        if len(mine) != min(2, len(inside)):
            raise IllegalAction(f"{board.name(f)} keeps {min(2, len(inside))} of its blocks in supply: name them")
    if any(t not in cut or state["blocks"][t]["at"] not in FORTS for t in spared):
        raise IllegalAction("only blocks in a fort space can be kept in supply by it")
    eliminated = action.get("eliminated", [])
    state["frames"].pop()
    for t in cut:
        if t in spared:
            continue
        b = state["blocks"][t]
        if b["id"] is not None:
            events.append({"text": "out of supply: " + board.hit(state, t)})
        elif t in eliminated:  # a dummy, or a block on its last step: it is shown as it goes
            text = board.open_block(state, t, dice)
            if t in state["blocks"]:
                if state["blocks"][t]["steps"] != 1:
                    raise IllegalAction(f"{board.describe_block(b)} is not on its last step")
                text = board.hit(state, t)
            events.append({"text": "out of supply: " + text})
        else:  # loses a step unseen; checked whenever it is opened
            b["hits"] += 1
            events.append({"text": f"out of supply: a concealed block at {board.name(b['at'])} loses a step"})


# ------------------------------------------------------------------ 7.1.4 victory check
def victory_check(state: dict[str, Any], events: list) -> None:
    held = board.objectives_held(state)
    result = None
    if len(held) >= 4:
        result = {"winner": "allied", "result": "Allied victory",
                  "reason": f"Allied blocks hold {len(held)} objectives: " + ", ".join(board.name(s) for s in held)}
    elif state["hand_size"] <= 0:
        result = {"winner": "ottoman", "result": "Ottoman victory",
                  "reason": f"the Allied hand size is 0 and the Allies hold {len(held)} objectives"}
    limit = state["options"].get("turns")
    if result is None and limit and state["turn"] >= limit:
        result = {"winner": None, "result": "game stopped",
                  "reason": f"the agreed limit of {limit} turns (not a rule of the game: an option)"}
    if result is None:
        events.append({"text": f"victory check: the Allies hold {len(held)} of 4 objectives needed; "
                               f"Allied hand size {state['hand_size']}"})
        return
    state["result"] = result
    events.append({"text": f"victory check: {result['result']}: {result['reason']}"})
    for army in reversed(ARMIES):  # every concealed block is opened and checked against its seal
        if any(b["id"] is None for b in state["blocks"].values() if b["army"] == army):
            state["frames"].append({"k": "final", "army": army})


def do_final(state: dict[str, Any], frame: dict[str, Any], army: str, dice: Any, events: list) -> None:
    for tok in board.tokens(state, army=army):
        if state["blocks"].get(tok, {}).get("id") is None:
            events.append({"text": "at the end: " + board.open_block(state, tok, dice)})
    state["frames"].pop()

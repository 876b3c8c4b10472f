"""Operations (rules 8.1): movement and attacks; landing and landing fire (9.1)."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import IllegalAction

from . import board
from .board import enemy

LANDING_DICE = 3  # 9.1
LANDING_HIT = 3  # 9.1: each die of 3 or more


# ------------------------------------------------------------------ 8.1 OPS
def movable(state: dict[str, Any], army: str, tok: str, occ: board.Occupancy | None = None) -> list[str]:
    """Where one block may go from its space (8.1.1), landings (9.0) included.  ``occ``:
    ``board.occupancy(state)``, when the caller asks about several blocks of one state."""
    b = state["blocks"][tok]
    if b["stop"]:
        return []
    occ = board.occupancy(state) if occ is None else occ
    return [s for s in board.adjacent(b["at"])
            if board.may_enter(state, army, s, occ) or is_landing(state, army, b["at"], s, occ)]


def can_activate(state: dict[str, Any], army: str, space: str, occ: board.Occupancy) -> bool:
    """8.1.1: whether some block of ``army`` at ``space`` may move (what ``movable`` finds for one
    of them is somewhere).  The blocks of a space share its exits: only a stop sets one apart."""
    blocks = state["blocks"]
    return any(blocks[t]["army"] == army and not blocks[t]["stop"] for t in occ.get(space, ())) and any(
        board.may_enter(state, army, s, occ) or is_landing(state, army, space, s, occ) for s in board.adjacent(space))


def destinations(state: dict[str, Any], frame: dict[str, Any], army: str, tok: str,
                 occ: board.Occupancy | None = None) -> list[str]:
    """``movable`` less the beaches whose landing party already fills the space (4.5)."""
    occ = board.occupancy(state) if occ is None else occ
    return [s for s in movable(state, army, tok, occ)
            if len(frame["landing"].get(s, [])) < board.room(state, s, occ) or board.occupant(state, s, occ)]


def is_landing(state: dict[str, Any], army: str, src: str, dst: str, occ: board.Occupancy | None = None) -> bool:
    """8.1.1, 9.1: from an HQ space to a beach that is empty or (a landing attack) enemy-held."""
    return (board.is_hq(src) and board.terrain(dst) == "beach" and board.occupant(state, dst, occ) != army
            and not (board.in_suvla(dst) and not state["suvla_open"]))


def attacks(state: dict[str, Any], army: str, occ: board.Occupancy | None = None) -> list[tuple[str, str]]:
    """8.1.2: (attacking space, battle space) pairs; an attack from an HQ onto a beach is a landing."""
    occ = board.occupancy(state) if occ is None else occ
    blocks, foe = state["blocks"], enemy(army)
    out = []
    for src in sorted({b["at"] for b in blocks.values() if b["army"] == army and not b["stop"]}):
        for dst in board.adjacent(src):
            here = occ.get(dst)  # board.occupant, inline: this is asked of every neighbour
            if here and blocks[here[0]]["army"] == foe and not board.is_hq(dst):
                out.append((src, dst))
    return out


def do_ops(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
           events: list) -> None:
    do = action["do"]
    if do == "end":
        state["frames"].pop()
        events.append({"text": f"{army} ends operations" + (f", {frame['left']} OPS unused" if frame["left"] else "")})
        return
    if do == "activate":  # 8.1.1
        space = action["space"]
        occ = board.occupancy(state)
        if not can_activate(state, army, space, occ):
            raise IllegalAction(f"no {army} block at {space} can move")
        frame["left"] -= 1
        state["frames"].append({"k": "move", "army": army, "space": space, "moved": [], "landing": {}})
        events.append({"text": f"{army} spends 1 OPS to activate {board.name(space)}"})
        return
    src, dst = action["from"], action["to"]  # 8.1.2
    if (src, dst) not in attacks(state, army):
        raise IllegalAction(f"{army} cannot attack {dst} from {src}")
    frame["left"] -= 1
    events.append({"text": f"{army} spends 1 OPS to attack {board.name(dst)} from {board.name(src)}"})
    party = [t for t in board.tokens(state, src, army) if not state["blocks"][t]["stop"]]
    if is_landing(state, army, src, dst):
        start_landing(state, army, src, dst, party, events)
    else:
        from .combat import start_battle

        start_battle(state, army, src, dst, party, False, events)


def do_move(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
            events: list) -> None:
    if action["do"] == "done":
        state["frames"].pop()
        for beach, party in sorted(frame["landing"].items(), reverse=True):  # a stack: the first beach lands first
            start_landing(state, army, frame["space"], beach, party, events)
        return
    tok, dst = action["block"], action["to"]
    b = state["blocks"].get(tok)
    if b is None or b["army"] != army or b["at"] != frame["space"] or tok in frame["moved"]:
        raise IllegalAction("that block is not one of the activated space's blocks still to move")
    if dst not in destinations(state, frame, army, tok):
        raise IllegalAction(f"that block cannot move to {dst}")
    frame["moved"].append(tok)
    if is_landing(state, army, b["at"], dst):
        if dst in state["landed"] and board.occupant(state, dst) is None:  # 9.1: the beachhead is made
            b["at"], b["stop"] = dst, True
            events.append({"text": f"{army} lands a block at {board.name(dst)} behind the beachhead; it stops"})
            return
        frame["landing"].setdefault(dst, []).append(tok)
        events.append({"text": f"{army} sends a block to land at {board.name(dst)}"})
        return
    if state["blocks"][tok]["at"] in board.HQ[army] and dst in state["landed"]:
        b["stop"] = True  # 9.1: other blocks landing at the same beach this turn stop too
    b["at"] = dst
    events.append({"text": f"{army} moves a block from {board.name(frame['space'])} to {board.name(dst)}"})


# ------------------------------------------------------------------ 9.1 landing fire
def start_landing(state: dict[str, Any], army: str, hq: str, beach: str, party: list[str], events: list) -> None:
    state["frames"].append({"k": "landing", "army": army, "from": hq, "to": beach, "party": party, "card": None})
    events.append({"text": f"{army} attempts a landing at {board.name(beach)} with {len(party)} block(s): "
                           f"landing fire (9.1)"})


def do_landing_fire(state: dict[str, Any], frame: dict[str, Any], army: str, action: dict[str, Any], dice: Any,
                    events: list, cards: dict) -> None:
    """The defender of the beach (the Ottoman player) may add a card's bombardment dice, then rolls."""
    from .sequence import open_card, spend

    extra = 0
    if action["do"] == "bombard":
        cid = open_card(state, army, action["card"], dice, cards)
        spend(state, army, cid, cards, False)
        extra = cards[cid]["bombardment"]
        events.append({"text": f"{army} plays {cards[cid]['name']} for landing fire: +{extra} dice"})
    n = LANDING_DICE + extra
    hits = dice.pool(n, 6, LANDING_HIT, f"landing fire at {board.name(frame['to'])}: {n} dice, "
                                        f"each 3+ hits (9.1)")
    events.append({"text": f"landing fire at {board.name(frame['to'])}: {hits} hit(s)"})
    state["frames"].pop()
    lander = enemy(army)
    state["frames"].append({"k": "landed", "army": lander, "from": frame["from"], "to": frame["to"],
                            "party": frame["party"]})
    if hits:  # all landing blocks count as leading (9.1): shown, then hit
        from .combat import push_hits

        push_hits(state, lander, frame["from"], hits, frame["party"], [], events)
        state["frames"].append({"k": "reveal", "army": lander, "tokens": list(frame["party"]),
                                "why": "the landing blocks take hits as leading blocks (9.1)"})


def after_landing(state: dict[str, Any], frame: dict[str, Any], events: list) -> None:
    """Survivors move onto the empty beach, or attack it if it is held; either way they stop."""
    state["frames"].pop()
    party = [t for t in frame["party"] if t in state["blocks"]]
    beach = frame["to"]
    if not party:
        events.append({"text": f"the landing at {board.name(beach)} is thrown back"})
        return
    if board.occupant(state, beach) is None:
        for t in party[: board.room(state, beach)]:
            state["blocks"][t]["at"], state["blocks"][t]["stop"] = beach, True
        state["landed"].append(beach)
        events.append({"text": f"{len(party)} block(s) land at {board.name(beach)} and stop: a beachhead (9.1)"})
        board.stand_up_later(state, [beach])  # shown to take the landing fire's hits: concealed again
        return
    from .combat import start_battle

    start_battle(state, frame["army"], frame["from"], beach, party, True, events)

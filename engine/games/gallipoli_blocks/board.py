"""Blocks on the board: who owns what, where, and what is known of it (rules 3, 4).

A block on the board is a commitment token (pbem_engine.hidden.private ``seal``): its
owner's tool seals ``"<block id>:<steps>"`` (a dummy is just its id) and the
opponent sees only where the token stands.  The public record of a token:

    army, at      owner and space
    id, steps     None while concealed; filled in once the rules reveal it
    hits          hits taken while concealed (supply), checked when it opens
    origin        how it entered ("setup:south", "setup:north", "setup:A",
                  "card:<id>"): the rules its sealed value must obey
    born          the clock when it entered, so one block cannot be on the
                  board twice at once (checked when tokens open)
    stop          it landed this turn and may not move or attack (9.1)

A block the rules reveal stays revealed while the battle goes on; after it (10.1 step 11)
its owner stands it up again with a fresh token (``stand_up``), so that blocks concealed
together cannot be told apart once they move: the opponent knows only which blocks went
in (the group's public record), as a player at the table would.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from pbem_engine.protocol.core import IllegalAction

from .data import BLOCKS, SPACES

ARMIES = ("allied", "ottoman")
HQ = {"allied": ("anzac-hq", "british-hq"), "ottoman": ("ottoman-hq",)}
STACK = 6  # 4.5
SOUTH = tuple(s for s, v in SPACES.items() if v[1] == "southern")
NORTH = ("maidos", "kilia-liman", "boghali")  # 6.1 second deployment area


def enemy(army: str) -> str:
    return "ottoman" if army == "allied" else "allied"


def seat(state: dict[str, Any], army: str) -> str:
    """The player (pbem side) who commands ``army``: the tournament bid may swap them (6.5)."""
    return state["seats"][army]


def army_of(state: dict[str, Any], side: str) -> str:
    return next(a for a in ARMIES if state["seats"][a] == side)


def name(space: str) -> str:
    return SPACES[space][0]


def terrain(space: str) -> str:
    return SPACES[space][2]


def adjacent(space: str) -> tuple[str, ...]:
    return SPACES[space][4]


_IS_HQ = {s: v[2] == "hq" for s, v in SPACES.items()}  # asked for every neighbour of every move


def is_hq(space: str) -> bool:
    return _IS_HQ[space]  # a KeyError for no space of the map, as terrain() gives


def in_suvla(space: str) -> bool:
    return SPACES[space][1] == "suvla"


def objectives() -> list[str]:
    return [s for s, v in SPACES.items() if v[3]]


def strength(block_id: str, steps: int) -> int:
    """Current strength of a block with ``steps`` left (3.1-3.2); a dummy has none."""
    table = BLOCKS[block_id][3]
    return table[4 - steps] if table else 0


def is_dummy(block_id: str) -> bool:
    return not BLOCKS[block_id][3]


def block_name(block_id: str) -> str:
    return BLOCKS[block_id][0]


Occupancy = dict[str, list[str]]  # space -> its tokens, in the blocks' dict order


def occupancy(state: dict[str, Any]) -> Occupancy:
    """Where every token stands, read once from the blocks: the index a caller that asks many
    questions about one unchanging state (a prompt, a supply trace) passes to ``tokens``,
    ``occupant``, ``room`` and ``may_enter`` as ``occ``.  It is never stored in the state: it
    answers for the state it was read from, until that state changes."""
    occ: Occupancy = {}
    for t, b in state["blocks"].items():
        at = b["at"]
        if at in occ:
            occ[at].append(t)
        else:
            occ[at] = [t]
    return occ


def tokens(state: dict[str, Any], space: str | None = None, army: str | None = None,
           occ: Occupancy | None = None) -> list[str]:
    """Tokens on the board in a defined order, by entry then token: never the dict's order,
    which a state read back from its canonical (key-sorted) JSON does not keep."""
    blocks = state["blocks"]
    if space is not None and occ is not None:
        found = occ.get(space, ()) if army is None else [t for t in occ.get(space, ()) if blocks[t]["army"] == army]
    else:
        found = [t for t, b in blocks.items()
                 if (space is None or b["at"] == space) and (army is None or b["army"] == army)]
    return sorted(found, key=lambda t: (blocks[t]["born"], t))


def occupant(state: dict[str, Any], space: str, occ: Occupancy | None = None) -> str | None:
    if occ is not None:
        here = occ.get(space)
        return state["blocks"][here[0]]["army"] if here else None
    for b in state["blocks"].values():
        if b["at"] == space:
            return b["army"]
    return None


def room(state: dict[str, Any], space: str, occ: Occupancy | None = None) -> int:
    if is_hq(space):
        return 10**6
    if occ is not None:
        return STACK - len(occ.get(space, ()))
    return STACK - sum(1 for b in state["blocks"].values() if b["at"] == space)  # a count: no need to sort


def may_enter(state: dict[str, Any], army: str, space: str, occ: Occupancy | None = None) -> bool:
    """8.1.1: not enemy-occupied, not an enemy HQ, not Suvla before its card, within the stacking limit."""
    if is_hq(space) and space not in HQ[army]:
        return False
    if in_suvla(space) and not state["suvla_open"]:
        return False
    return occupant(state, space, occ) in (None, army) and room(state, space, occ) > 0


def parse_sealed(value: str) -> tuple[str, int | None]:
    """``"<id>:<steps>"`` or a dummy's ``"<id>"``; raises IllegalAction on anything else."""
    block_id, _, steps = value.partition(":")
    if block_id not in BLOCKS:
        raise IllegalAction(f"cheating: a sealed block is {value!r}, which is no block of the game")
    if is_dummy(block_id):
        if steps:
            raise IllegalAction(f"cheating: dummy {block_id} was sealed with steps")
        return block_id, None
    if steps not in ("1", "2", "3", "4"):
        raise IllegalAction(f"cheating: {block_id} was sealed with {steps!r} steps")
    return block_id, int(steps)


def sealed_value(block_id: str, steps: int | None) -> str:
    return block_id if steps is None else f"{block_id}:{steps}"


def check_origin(state: dict[str, Any], tok: str, block_id: str, steps: int | None) -> None:
    """What a just-opened token is must fit how it entered (6.1, 6.2, 8.2.1) and must not be
    on the board twice at once.  A tool never seals anything else: failing here is cheating."""
    b = state["blocks"][tok] if tok in state["blocks"] else state["gone"][tok]
    army, origin = b["army"], b["origin"]
    if BLOCKS[block_id][1] != army:
        raise IllegalAction(f"cheating: a {army} token opened as {block_id}")
    if origin.startswith("setup:") and army == "allied":
        group = origin.split(":")[1].lower()
        if BLOCKS[block_id][4] != group or steps != 4:
            raise IllegalAction(f"cheating: {block_id} at {steps} steps did not set up in group {group.upper()}")
    if origin.startswith("card:") and army == "allied":
        entering = b.get("entering", [])
        if block_id not in entering or steps != 4:
            raise IllegalAction(f"cheating: {block_id} is not a block the card brings at full strength")
    for other, x in chain(state["blocks"].items(), state["gone"].items()):
        if x.get("id") == block_id and other != tok \
                and x["born"] < b.get("died", 10**9) and b["born"] < x.get("died", 10**9):
            raise IllegalAction(f"cheating: {block_name(block_id)} is on the board twice")
    if origin.startswith("again:") and sealed_value(block_id, steps) not in state["again"][origin]:
        raise IllegalAction(f"cheating: {block_name(block_id)} at {steps} steps was not among the blocks "
                            f"stood up again together")
    quota = state["quota"].get(origin)
    if quota is not None:
        spent = sum(x["sealed_steps"] for x in chain(state["blocks"].values(), state["gone"].values())
                    if x["origin"] == origin and x.get("sealed_steps") is not None)
        if spent + (steps or 0) > quota:
            raise IllegalAction(f"cheating: more than {quota} steps deployed for {origin}")


def open_block(state: dict[str, Any], tok: str, dice: Any) -> str:
    """Reveal a token (its owner's envelope must carry the opening): its block id.
    Dummies are eliminated on the spot (3.6).  Returns an event text."""
    b = state["blocks"][tok]
    if b["id"] is not None:
        return f"{describe_block(b)} at {name(b['at'])} is revealed again"
    block_id, steps = parse_sealed(dice.reveal(seat(state, b["army"]), tok))
    check_origin(state, tok, block_id, steps)
    b["id"], b["sealed_steps"] = block_id, steps
    if steps is not None:
        b["steps"] = steps - b["hits"]
        if b["steps"] < 1:
            raise IllegalAction(f"cheating: {block_name(block_id)} should have been eliminated by its hits")
    elif b["hits"]:  # 3.6, 7.1.3: a dummy is eliminated by any hit
        raise IllegalAction("cheating: a dummy block that took a hit out of supply should have been eliminated")
    if block_id.startswith("ott-dummy"):
        eliminate(state, tok)
        return f"a block at {name(b['at'])} is revealed: a dummy, eliminated (3.6)"
    return f"{describe_block(b)} at {name(b['at'])} is revealed"


# ------------------------------------------------------------------ 10.1 step 11: concealed again
def stand_up_later(state: dict[str, Any], spaces: list[str]) -> None:
    """After a battle, the revealed survivors in ``spaces`` are concealed again: each owner issues
    their fresh tokens at his next decision (a file he sends anyway), never in a file of its own."""
    for army in ARMIES:
        shown = [t for s in spaces for t in tokens(state, s, army) if state["blocks"][t]["id"] is not None]
        if shown:
            pending = state.setdefault("standing", {}).setdefault(army, [])
            pending += [t for t in shown if t not in pending]


def standing(state: dict[str, Any], army: str) -> dict[str, list[str]]:
    """``army``'s revealed blocks still to stand up, grouped by space (and "<space>:stop" for the
    blocks that landed this turn, whose stop the fresh tokens keep)."""
    groups: dict[str, list[str]] = {}
    for t in state.get("standing", {}).get(army, []):
        b = state["blocks"].get(t)
        if b is not None and b["id"] is not None:
            groups.setdefault(b["at"] + (":stop" if b["stop"] else ""), []).append(t)
    return dict(sorted(groups.items()))


def stand_up_order(state: dict[str, Any], army: str) -> dict[str, Any]:
    """The owner's action: each group's blocks as sealed values (its tool shuffles each list)."""
    return {"do": "conceal", "spaces": {key: [{"$hide": sealed_value(state["blocks"][t]["id"], state["blocks"][t]["steps"])}
                                              for t in toks] for key, toks in standing(state, army).items()}}


def stand_up(state: dict[str, Any], army: str, action: dict[str, Any], dice: Any) -> list[str]:
    """10.1 step 11: fresh tokens for the revealed blocks of each group; the old tokens retire
    (kept with the eliminated ones, so that no block is ever on the board twice)."""
    groups, given = standing(state, army), action.get("spaces")
    if not isinstance(given, dict) or sorted(given) != list(groups) \
            or any(not isinstance(given[k], list) or len(given[k]) != len(v) for k, v in groups.items()):
        raise IllegalAction("stand up each revealed block once: " + ", ".join(
            f"{len(v)} at {name(k.split(':')[0])}" for k, v in groups.items()))
    texts, clock = [], state["clock"]
    for key, olds in groups.items():
        origin = f"again:{clock}:{key}"
        state.setdefault("again", {})[origin] = sorted(
            sealed_value(state["blocks"][t]["id"], state["blocks"][t]["steps"]) for t in olds)
        space, stop = key.split(":")[0], key.endswith(":stop")
        for t in olds:
            b = state["blocks"].pop(t)
            b["died"], b["retired"] = clock, True
            state["gone"][t] = b
        for value in given[key]:
            tok = dice.seal(seat(state, army), value)
            state["blocks"][tok] = {"army": army, "at": space, "id": None, "steps": None, "hits": 0,
                                    "origin": origin, "born": clock, "stop": stop}
        texts.append(f"{army} stands up {len(olds)} block{'s' if len(olds) > 1 else ''} at {name(space)} again: "
                     f"concealed, with fresh tokens (10.1 step 11)")
    state["standing"].pop(army, None)
    return texts


def describe_block(b: dict[str, Any]) -> str:
    if b["id"] is None:
        return "a concealed block"
    if b["steps"] is None:
        return block_name(b["id"])
    steps = b["steps"]
    return f"{block_name(b['id'])} ({steps} step{'' if steps == 1 else 's'}, strength {strength(b['id'], steps)})"


def eliminate(state: dict[str, Any], tok: str) -> None:
    b = state["blocks"].pop(tok)
    b["died"] = state["clock"]
    state["gone"][tok] = b


def hit(state: dict[str, Any], tok: str) -> str:
    """One hit on a revealed block (10.3.1, 10.3.4): one step lost, eliminated from step 1."""
    b = state["blocks"][tok]
    label = describe_block(b)
    if b["steps"] is None or b["steps"] <= 1:
        eliminate(state, tok)
        return f"{label} takes a hit and is eliminated"
    b["steps"] -= 1
    return f"{label} takes a hit: {b['steps']} step{'s' if b['steps'] > 1 else ''} left"


def objectives_held(state: dict[str, Any]) -> list[str]:
    return [s for s in objectives() if occupant(state, s) == "allied"]

"""A position of the block game set up by hand (rule cases): ``position(description) -> Position``,
the full valid state and the table of sealed items behind its tokens (pbem_engine.protocol.position).

The description (every key optional; a TOML table reads as one):

    start = "setup"        begin from GAME.setup("full-game", options) instead of a mid-game state
                           (turn 1, the Ottoman stage, clock 10, quotas of 9 steps)
    turn, stage, hand_size, suvla_open, landed, clock, result, quota = {origin = steps}, options
    blocks.<space> = ["T1=ott-9-div-25-rgt:2", "T2=ott-dummy-1 open", ...]
        a token, "=", its sealed value ("<block id>:<steps>" or a dummy id), then flags:
        open (revealed: id and steps public), stop (landed this turn), hits=N (hits taken
        while concealed), origin=ORIGIN (default: setup:south / setup:north for Ottoman
        blocks in those areas, otherwise card:reinforcement; setup:A / setup:B for Allied blocks
        of groups A / B, otherwise card:reinforcement), born=N, died=N, at=SPACE,
        entering=ID,ID (the blocks an Allied reinforcement card brings, default the block itself)
    gone = ["T9=ott-9-div-27-rgt:3 open ..."]   eliminated blocks (in state["gone"])
    hands.<army> = {C1 = "allied-card-01", ...}   cards in hand, token = card id
    discard.<army>, removed.<army> = [card ids]
    deck.<army> = {early = N, late = N}   (default: the subdeck's cards not in a hand or pile)
    frames = [{k = "phase", army = "allied"}, ...]   the decisions under way, pushed over
        {"k": "sequence"}; a battle frame needs only from/to/att (and whatever it overrides): its
        defaults are filled in; the last phase frame sets the stage
    sealed = {L1 = "T1 T2"}   further sealed values (e.g. a sealed choice of leading blocks)
    again = {"again:5:alexi" = ["br-29-div-86-bde:2"]}, standing = {allied = ["A1"]}   (10.1 step 11)

The dice (``Position.dice``): ``draws = [{side = "allied", pool = "allied-early", cards =
{C7 = "allied-card-05"}}]`` are the private draws the actions make, in order (side, pool and
count are checked, and each card is the side's and in the pool's subdeck); ``seals = ["K1", ...]``
the tokens new seals get, in order (then S1, S2...); ``values`` the die faces.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.protocol.core import RulesError
from pbem_engine.protocol.position import Position, unknown_keys, whole

from . import GAME, board, sequence
from . import cards as card_data
from .data import BLOCKS, SPACES

CARDS = card_data.DEFAULT
KEYS = ("start", "turn", "stage", "hand_size", "suvla_open", "landed", "clock", "result", "quota", "options",
        "blocks", "gone", "hands", "discard", "removed", "deck", "frames", "sealed", "again", "standing")
FLAGS = ("open", "stop", "hits", "origin", "born", "died", "at", "entering")
BATTLE_DEFAULTS = {"round": 1, "step": "bombard", "landing": False, "entrenched": None,
                   "cards": {"att": [], "def": []}, "mods": {"att": 0, "def": 0},
                   "lead": {"att": None, "def": []}, "led1": [], "shown": {"att": 0, "def": 0}}


def position(description: dict[str, Any]) -> Position:
    """The state ``description`` sets up (see the module's docstring), with its sealed items."""
    unknown_keys("position", description, KEYS)
    before = description
    table: dict[str, tuple[str, str]] = {}
    options = dict(table_of("options", before.get("options", {})))
    unknown_keys("options", options, tuple(GAME.options))
    if before.get("start", "setup") != "setup":
        raise ValueError(f"start = {before['start']!r}: the only start is 'setup'")
    if before.get("start") == "setup":
        try:
            state = GAME.setup("full-game", options)
        except RulesError as e:
            raise ValueError(f"options = {options!r}: {e}") from None
    else:
        state = sequence.new_state(options, CARDS)
        state.update({"turn": 1, "stage": "ottoman", "clock": 10, "quota": {"setup:south": 9, "setup:north": 9}})
    for key in ("again", "standing"):  # blocks stood up again (10.1 step 11): groups, and those still to stand up
        if key in before:
            state[key] = copy.deepcopy(before[key])
    for space, specs in table_of("blocks", before.get("blocks", {})).items():
        if space not in SPACES:
            raise ValueError(f"blocks: no space {space!r}")
        for spec in list_of(f"blocks.{space}", specs):
            tok, rec, value = parse_block(spec, space, f"blocks.{space}")
            state["blocks"][tok] = rec
            seal(table, f"blocks.{space}", tok, rec["army"], value)
    for spec in list_of("gone", before.get("gone", [])):
        tok, rec, value = parse_block(spec, None, "gone")
        rec.setdefault("died", 1)
        state["gone"][tok] = rec
        seal(table, "gone", tok, rec["army"], value)
    in_play: dict[str, list[str]] = {a: [] for a in board.ARMIES}
    for army, hand in table_of("hands", before.get("hands", {})).items():
        army_of("hands", army)
        state["hands"][army] = list(table_of(f"hands.{army}", hand))
        for tok, cid in hand.items():
            card(f"hands.{army}.{tok}", cid, army)
            seal(table, f"hands.{army}", tok, army, cid)
            in_play[army].append(cid)
    for pile in ("discard", "removed"):
        for army, cids in table_of(pile, before.get(pile, {})).items():
            army_of(pile, army)
            for cid in list_of(f"{pile}.{army}", cids):
                card(f"{pile}.{army}", cid, army)
            state[pile][army] = list(cids)
            in_play[army] += cids
    for tok, value in table_of("sealed", before.get("sealed", {})).items():
        if not isinstance(value, str) or not value.split():
            raise ValueError(f"sealed.{tok} = {value!r} is not a sealed text")
        first = state["blocks"].get(value.split()[0])
        seal(table, "sealed", tok, first["army"] if first else "allied", value)
    for army in board.ARMIES:  # default deck: what is in no hand or pile
        for sub in ("early", "late"):
            state["deck"][army][sub] = sum(1 for cid, c in CARDS.items() if c["army"] == army and c["subdeck"] == sub
                                           and cid not in in_play[army])
    for army, counts in table_of("deck", before.get("deck", {})).items():
        army_of("deck", army)
        unknown_keys(f"deck.{army}", counts, ("early", "late"))
        state["deck"][army].update({sub: whole(f"deck.{army}.{sub}", n, 0) for sub, n in counts.items()})
    if "frames" in before:
        state["frames"] = [{"k": "sequence"}] + [frame(state, f, f"frames[{i}]")
                                                for i, f in enumerate(list_of("frames", before["frames"]))]
        phases = [f["army"] for f in before["frames"] if f["k"] == "phase"]
        if phases:
            state["stage"] = "ottoman" if phases[-1] == "allied" else "supply"
    for key in ("turn", "hand_size", "clock"):
        if key in before:
            state[key] = whole(key, before[key], 0)
    for key in ("stage", "suvla_open", "landed", "result"):
        if key in before:
            state[key] = copy.deepcopy(before[key])
    for origin, steps in table_of("quota", before.get("quota", {})).items():
        state["quota"][origin] = whole(f"quota.{origin}", steps, 0)
    return Position(state, table, draw_check)


def seal(table: dict[str, tuple[str, str]], where: str, tok: str, side: str, value: str) -> None:
    if tok in table:
        raise ValueError(f"{where}: token {tok!r} is used twice")
    table[tok] = (side, value)


def draw_check(side: str, pool: str, cid: str) -> str | None:
    """Why card ``cid`` cannot be in ``side``'s private draw from ``pool``, or None."""
    if cid not in CARDS:
        return "no such card"
    if CARDS[cid]["army"] != side:
        return f"not an {side} card"
    if pool.endswith("-early") and CARDS[cid]["subdeck"] != "early":  # the late pool takes reshuffled discards too
        return f"not in {pool}"
    return None


# ------------------------------------------------------------------ the parts
def table_of(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} = {value!r} is not a table")
    return value


def list_of(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where} = {value!r} is not a list")
    return value


def army_of(where: str, army: str) -> str:
    if army not in board.ARMIES:
        raise ValueError(f"{where}: no army {army!r}; the armies are {', '.join(board.ARMIES)}")
    return army


def card(where: str, cid: Any, army: str) -> None:
    if cid not in CARDS:
        raise ValueError(f"{where}: no card {cid!r}")
    if CARDS[cid]["army"] != army:
        raise ValueError(f"{where}: {cid} is not an {army} card")


def default_origin(army: str, block_id: str, space: str | None) -> str:
    if army == "ottoman":
        return (sequence.deploy_area(space) if space else None) or "card:reinforcement"
    group = BLOCKS[block_id][4]
    return f"setup:{group.upper()}" if group in ("a", "b") else "card:reinforcement"


def parse_block(spec: Any, space: str | None, where: str) -> tuple[str, dict[str, Any], str]:
    """'T1=ott-9-div-25-rgt:2 open hits=1' -> (token, public record, sealed value)."""
    if not isinstance(spec, str) or "=" not in spec.split(" ")[0]:
        raise ValueError(f"{where}: {spec!r} is not 'TOKEN=<block id>:<steps> flags...'")
    head, *flags = spec.split()
    tok, _, value = head.partition("=")
    block_id, _, steps = value.partition(":")
    if block_id not in BLOCKS:
        raise ValueError(f"{where}: no block {block_id!r} in {spec!r}")
    army = BLOCKS[block_id][1]
    opts = dict(f.partition("=")[::2] for f in flags)
    bad = [f for f in opts if f not in FLAGS]
    if bad:
        raise ValueError(f"{where}: unknown flag {bad[0]!r} in {spec!r}; flags: {', '.join(FLAGS)}")
    at = opts.get("at", space)
    if at is not None and at not in SPACES:
        raise ValueError(f"{where}: no space {at!r} in {spec!r}")
    rec: dict[str, Any] = {"army": army, "at": at, "id": None, "steps": None,
                           "hits": whole(f"{where}: {tok}'s hits", opts.get("hits") or 0, 0),
                           "origin": opts.get("origin") or default_origin(army, block_id, at),
                           "born": whole(f"{where}: {tok}'s born", opts.get("born") or 0, 0), "stop": "stop" in opts}
    if rec["origin"].startswith("card:") and army == "allied":
        rec["entering"] = opts["entering"].split(",") if opts.get("entering") else [block_id]
    if steps and not BLOCKS[block_id][3]:
        raise ValueError(f"{where}: {block_id} is a dummy, it has no steps: {spec!r}")
    if steps:
        whole(f"{where}: {tok}'s steps", steps, 1, len(BLOCKS[block_id][3]))
    if "open" in opts:
        rec["id"] = block_id
        rec["sealed_steps"] = int(steps) if steps else None
        rec["steps"] = int(steps) - rec["hits"] if steps else None
    if "died" in opts:
        rec["died"] = whole(f"{where}: {tok}'s died", opts["died"], 0)
    return tok, rec, value


def frame(state: dict[str, Any], given: Any, where: str) -> dict[str, Any]:
    """A decision under way, with a battle's defaults filled in."""
    if not isinstance(given, dict) or not isinstance(given.get("k"), str):
        raise ValueError(f"{where} = {given!r} is not a table with a kind k")
    f = copy.deepcopy(given)
    if f["k"] == "battle":
        for key in ("from", "to", "att"):
            if key not in f:
                raise ValueError(f"{where}: a battle frame needs {key!r}")
        for key in ("from", "to"):
            if f[key] not in SPACES:
                raise ValueError(f"{where}.{key}: no space {f[key]!r}")
        army_of(f"{where}.att", f["att"])
        f.setdefault("def", board.enemy(f["att"]))
        for key, value in BATTLE_DEFAULTS.items():
            if isinstance(value, dict):
                f[key] = {**value, **f.get(key, {})}
            else:
                f.setdefault(key, copy.deepcopy(value))
        f.setdefault("party", board.tokens(state, f["from"], f["att"]))
    if f["k"] == "phase" and "army" not in f:
        raise ValueError(f"{where}: a phase frame needs 'army'")
    if f["k"] in ("phase", "ops") and "army" in f:
        army_of(f"{where}.army", f["army"])
    if f["k"] == "phase":
        f.setdefault("discarding", False)
    if f["k"] == "move":
        f.setdefault("moved", [])
        f.setdefault("landing", {})
    return f

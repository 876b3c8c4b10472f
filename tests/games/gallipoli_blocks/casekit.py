"""Build readable rule cases for the block game: a full valid state from a compact description,
and fake dice whose hidden items (sealed blocks, cards in hand, private draws) come from a table.

A case's ``[before]`` table (every key optional):

    start = "setup"        begin from GAME.setup("full-game", {}) instead of a mid-game state
    turn, stage, hand_size, suvla_open, landed, clock, quota, options
    blocks.<space> = ["T1=ott-9-div-25-rgt:2", "T2=ott-dummy-1 open", ...]
        a token, "=", its sealed value ("<block id>:<steps>" or a dummy id), then flags:
        open (revealed: id and steps public), stop (landed this turn), hits=N (hits taken
        while concealed), origin=ORIGIN (default: setup:south / setup:north for Ottoman
        blocks in those areas, otherwise card:reinforcement; setup:A / setup:B for Allied blocks
        of groups A / B, otherwise card:reinforcement), born=N
    gone = ["T9=ott-9-div-27-rgt:3 open ..."]   eliminated blocks (in state["gone"])
    hands.<army> = {C1 = "allied-card-01", ...}   cards in hand, token = card id
    discard.<army>, removed.<army> = [card ids]
    deck.<army> = {early = N, late = N}   (default: the subdeck's cards not in a hand, pile or frame)
    frames = [{k = "phase", army = "allied"}, ...]   pushed over {"k": "sequence"};
        a battle frame needs only from/to/att (and whatever it overrides); its defaults are filled in
    sealed = {L1 = "T1 T2"}   further sealed values (e.g. a sealed choice of leading blocks)
    again = {"again:5:alexi" = ["br-29-div-86-bde:2"]}, standing = {allied = ["A1"]}   (10.1 step 11)

``draws = [{side = "allied", pool = "allied-early", cards = {C7 = "allied-card-05"}}]``: the private
draws the actions make, in order (side, pool and count are checked).  ``seals = ["K1", ...]``: the
tokens new seals get, in order (then S1, S2...).  ``dice = [...]``: scripted die faces.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.gallipoli_blocks import GAME, board, sequence
from pbem_engine.games.gallipoli_blocks import cards as card_data
from pbem_engine.games.gallipoli_blocks.data import BLOCKS, SPACES

CARDS = card_data.table()


class CaseDice(ScriptedDice):
    """Scripted die faces plus an in-memory table of hidden items.

    ``table`` maps token -> (side, value); ``draws`` is the script of private draws;
    ``added`` records what ``add_private`` put back into each pool; ``opened`` lists reveals."""

    def __init__(self, values: list[int], table: dict[str, tuple[str, str]] | None = None,
                 draws: list[dict[str, Any]] | None = None, seals: list[str] | None = None) -> None:
        super().__init__(values)
        self.table = dict(table or {})
        self.draws = list(draws or [])
        self.seals = list(seals or [])
        self.added: dict[str, list[str]] = {}
        self.opened: list[str] = []
        self.drawn: list[tuple[str, str, int]] = []
        self._auto = 0

    def seal(self, side: str, value: Any) -> str:
        if isinstance(value, dict) and "$hide" in value:
            name = value.get("as")
            value = value["$hide"]
        else:
            name = None
        if not isinstance(value, str):
            raise AssertionError(f"seal of a non-text value {value!r}")
        if name is None and self.seals:
            name = self.seals.pop(0)
        if name is None:
            self._auto += 1
            name = f"S{self._auto}"
        if name in self.table:
            raise AssertionError(f"token {name} sealed twice")
        self.table[name] = (side, value)
        return name

    def reveal(self, side: str, token: str) -> str:
        if token not in self.table:
            raise AssertionError(f"reveal of unknown token {token!r}")
        owner, value = self.table[token]
        if owner != side:
            raise AssertionError(f"{side} opens {token}, which {owner} sealed")
        self.opened.append(token)
        return value

    def draw_private(self, side: str, pool: str, count: int) -> list[str]:
        if not self.draws:
            raise AssertionError(f"unscripted private draw: {side} draws {count} from {pool}")
        want = self.draws.pop(0)
        got = (side, pool, count)
        expected = (want["side"], want["pool"], len(want["cards"]))
        if got != expected:
            raise AssertionError(f"private draw {got} where the case scripts {expected}")
        for tok, cid in want["cards"].items():
            assert CARDS[cid]["army"] == side, f"{cid} is not a {side} card"
            if pool.endswith("-early"):  # the late pool also takes reshuffled discards
                assert CARDS[cid]["subdeck"] == "early", f"{cid} is not in {pool}"
            self.table[tok] = (side, cid)
        self.drawn.append(got)
        return list(want["cards"])

    def add_private(self, side: str, pool: str, items: list[str]) -> None:
        self.added.setdefault(pool, []).extend(items)


# ------------------------------------------------------------------ the state
def default_origin(army: str, block_id: str, space: str) -> str:
    if army == "ottoman":
        return sequence.deploy_area(space) or "card:reinforcement"
    group = BLOCKS[block_id][4]
    return f"setup:{group.upper()}" if group in ("a", "b") else "card:reinforcement"


def parse_block(spec: str, space: str | None) -> tuple[str, dict[str, Any], str]:
    """'T1=ott-9-div-25-rgt:2 open hits=1' -> (token, public record, sealed value)."""
    head, *flags = spec.split()
    tok, _, value = head.partition("=")
    block_id, _, steps = value.partition(":")
    if block_id not in BLOCKS:
        raise ValueError(f"no block {block_id!r} in {spec!r}")
    army = BLOCKS[block_id][1]
    opts = dict(f.partition("=")[::2] for f in flags)
    at = opts.get("at", space)
    rec: dict[str, Any] = {"army": army, "at": at, "id": None, "steps": None, "hits": int(opts.get("hits") or 0),
                           "origin": opts.get("origin") or default_origin(army, block_id, at),
                           "born": int(opts.get("born") or 0), "stop": "stop" in opts}
    if rec["origin"].startswith("card:") and army == "allied":
        rec["entering"] = opts["entering"].split(",") if opts.get("entering") else [block_id]
    if "open" in opts:
        rec["id"] = block_id
        rec["sealed_steps"] = int(steps) if steps else None
        rec["steps"] = int(steps) - rec["hits"] if steps else None
    if "died" in opts:
        rec["died"] = int(opts["died"])
    return tok, rec, value


BATTLE_DEFAULTS = {"round": 1, "step": "bombard", "landing": False, "entrenched": None,
                   "cards": {"att": [], "def": []}, "mods": {"att": 0, "def": 0},
                   "lead": {"att": None, "def": []}, "led1": [], "shown": {"att": 0, "def": 0}}


def build(before: dict[str, Any]) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    """The state a case starts from, and the table of sealed values behind its tokens."""
    table: dict[str, tuple[str, str]] = {}
    if before.get("start") == "setup":
        state = GAME.setup("full-game", dict(before.get("options", {})))
    else:
        state = sequence.new_state(dict(before.get("options", {})), CARDS)
        state.update({"turn": 1, "stage": "ottoman", "clock": 10,
                      "quota": {"setup:south": 9, "setup:north": 9}})
    for key in ("again", "standing"):  # blocks stood up again (10.1 step 11): groups, and those still to stand up
        if key in before:
            state[key] = copy.deepcopy(before[key])
    for space, specs in before.get("blocks", {}).items():
        if space not in SPACES:
            raise ValueError(f"no space {space!r}")
        for spec in specs:
            tok, rec, value = parse_block(spec, space)
            state["blocks"][tok] = rec
            table[tok] = (rec["army"], value)
    for spec in before.get("gone", []):
        tok, rec, value = parse_block(spec, None)
        rec.setdefault("died", 1)
        state["gone"][tok] = rec
        table[tok] = (rec["army"], value)
    in_play: dict[str, list[str]] = {a: [] for a in board.ARMIES}
    for army, hand in before.get("hands", {}).items():
        state["hands"][army] = list(hand)
        for tok, cid in hand.items():
            assert CARDS[cid]["army"] == army, f"{cid} is not an {army} card"
            table[tok] = (army, cid)
            in_play[army].append(cid)
    for pile in ("discard", "removed"):
        for army, cids in before.get(pile, {}).items():
            state[pile][army] = list(cids)
            in_play[army] += cids
    for tok, value in before.get("sealed", {}).items():
        first = state["blocks"].get(value.split()[0])
        side = first["army"] if first else "allied"
        table[tok] = (side, value)
    for army in board.ARMIES:  # default deck: what is in no hand, pile or frame
        for sub in ("early", "late"):
            state["deck"][army][sub] = sum(1 for cid, c in CARDS.items() if c["army"] == army and c["subdeck"] == sub
                                           and cid not in in_play[army])
    for army, counts in before.get("deck", {}).items():
        state["deck"][army].update(counts)
    if "frames" in before:
        state["frames"] = [{"k": "sequence"}]
        for frame in before["frames"]:
            frame = copy.deepcopy(frame)
            if frame["k"] == "battle":
                frame.setdefault("def", board.enemy(frame["att"]))
                for key, value in BATTLE_DEFAULTS.items():
                    if isinstance(value, dict):
                        frame[key] = {**value, **frame.get(key, {})}
                    else:
                        frame.setdefault(key, copy.deepcopy(value))
                frame.setdefault("party", board.tokens(state, frame["from"], frame["att"]))
            if frame["k"] == "phase":
                frame.setdefault("discarding", False)
            if frame["k"] == "move":
                frame.setdefault("moved", [])
                frame.setdefault("landing", {})
            state["frames"].append(frame)
        phases = [f["army"] for f in before["frames"] if f["k"] == "phase"]
        if phases:
            state["stage"] = "ottoman" if phases[-1] == "allied" else "supply"
    for key in ("turn", "stage", "hand_size", "suvla_open", "landed", "clock", "result"):
        if key in before:
            state[key] = before[key]
    for origin, steps in before.get("quota", {}).items():
        state["quota"][origin] = steps
    return state, table

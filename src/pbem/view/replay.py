"""``pbem replay``: one self-contained HTML file that steps through a whole game as one side saw it.

Each step is the game after one envelope: its events and rolls, the map, the situation lines
and the result, holding only what that side could know then (the same rules as the turn
report, ``report.context``): its own hidden items by name, the enemy's as concealed until the
rules opened them. Once a two-player game is over and every side has revealed its secret,
every step is shown with everything the end opened (the full view).

The steps are built in one pass over the ledger, so a long history costs time and memory in
proportion to its length: the events and rolls are read once and grouped by envelope, each
state is read and decoded once, the pack the map is drawn from is read once, and the view
before each step (where the pieces were, so that what moved is marked) is the previous step's,
kept from the pass, not read again. A refereed game's sealed views are read once too. What the
pass has drawn is not held to its end (each envelope's events and rolls are let go once drawn).

The page (``replay_page``) holds one map and each step's changes; see its docstring for what it
shows with script and without.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chain.hidden import public_knowledge, show, unread
from ..play import messages as talk
from ..play.witness import name_of as witness_name
from .report import map_pack, step_map

if TYPE_CHECKING:  # only for annotations
    from ..play.campaign import Campaign


@dataclass
class Frame:
    """One step: the game as ``side`` knew it after envelope ``seq``."""

    seq: int
    author: str
    kind: str
    events: list[str] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    outcome: str = ""  # "Result: ... -- why", or ""
    svg: str = ""  # the map, or "" where the game has none
    tracks: str = ""  # the board's tracks in words ("Turn: 3 · Weather: dry")
    messages: list[str] = field(default_factory=list)  # table talk signed in this envelope, as the side may read it


def full_view(campaign: Campaign) -> bool:
    """Whether every step shows everything the end opened: a finished two-player game (every side
    has revealed its secret by then)."""
    return campaign.waiting() is None and not campaign.refereed


def frames(campaign: Campaign, side: str | None = None, pack_dir: Path | None = None,
           progress: Callable[[int, int], None] | None = None) -> Iterator[Frame]:
    """Every step in order, one envelope each, built in one pass. ``progress(done, total)``
    after each step."""
    side = side or campaign.side
    ledger, game = campaign.ledger, campaign.game
    head = ledger.head()
    assert head is not None
    headers = ledger.headers(-1, head[0])
    events, rolls = _grouped(ledger.events(-1)), _grouped(ledger.rolls(-1))
    pack = map_pack(game, pack_dir) if hasattr(game, "board") else None
    if campaign.refereed and side != "referee":
        steps: Iterator[Frame] = _player_frames(campaign, side, headers, events, rolls, pack_dir, pack)
    else:
        steps = _frames(campaign, side, headers, events, rolls, full_view(campaign), pack_dir, pack)
    said = _grouped(talk.shown(campaign, side))  # sealed words only to their addressee and author
    for done, frame in enumerate(steps, 1):
        frame.messages = [m["line"] for m in said.pop(frame.seq, ())]
        yield frame
        if progress is not None:
            progress(done, len(headers))


def _grouped(rows: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Rows of the events or rolls table (in order) by envelope. The pass takes each envelope's
    rows out as it reaches it (``pop``): what it has drawn is not held to the end, nor walked
    again by every full collection of Python's cycle collector (a 10,000-envelope history's
    rows are some 40,000 lists and dicts)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["seq"], []).append(row)
    return out


def _frames(campaign: Campaign, side: str, headers: list[tuple[int, str, str, str]],
            events: dict[int, list[dict[str, Any]]], rolls: dict[int, list[dict[str, Any]]], full: bool,
            pack_dir: Path | None, pack: dict[str, Any] | None) -> Iterator[Frame]:
    """A two-player game, or a refereed one as its referee sees it (the full state): what
    ``report.context(campaign, side, since=seq - 1, at=seq)`` shows of each envelope, with
    ``known_after`` the last envelope where ``full``."""
    ledger, game, game_id = campaign.ledger, campaign.game, campaign.genesis["game"]
    own = side == campaign.side and not witness_name(campaign)  # a witness copy holds no secret: public view
    fixed: tuple[dict[str, str], dict[str, str]] | None = None
    if full:  # one basis for every step: the end, read once
        basis = ledger.state(headers[-1][0])[1]
        opened = campaign.knowledge(basis) if own else public_knowledge(game_id, basis)
        fixed = opened, unread(basis, side, opened) if own and not campaign.refereed else {}
    before = None
    for seq, author, kind, _ in headers:
        match = ledger.state(seq)[1]
        if campaign.refereed:  # the referee: the full state
            match = match["full"]
        frame = Frame(seq, author, kind, [e["text"] for e in events.pop(seq, ())
                                          if e["to"] is None or side in e["to"]], rolls.pop(seq, []))
        view = game.view(match["game"], side)
        frame.lines = game.describe(view)
        outcome = game.outcome(match["game"])
        known: dict[str, str] = {}
        if "private" in match or "dealt" in match:  # name our own hidden items, conceal everyone else's
            if fixed is not None:
                known, pending = fixed
            else:
                known = campaign.knowledge(match) if own else public_knowledge(game_id, match)
                pending = unread(match, side, known) if own and not campaign.refereed else {}
            frame.lines = [show(line, known, game, pending) for line in frame.lines]
            frame.events = [show(text, known, game, pending) for text in frame.events]
        frame.outcome = _result(outcome)
        if hasattr(game, "board"):
            _draw(frame, step_map(campaign, view, known, before, pack_dir, pack))
        before = view  # where the pieces were: what the next step marks as changed
        yield frame


def _player_frames(campaign: Campaign, side: str, headers: list[tuple[int, str, str, str]],
                   events: dict[int, list[dict[str, Any]]], rolls: dict[int, list[dict[str, Any]]],
                   pack_dir: Path | None, pack: dict[str, Any] | None) -> Iterator[Frame]:
    """A player of a refereed game: what the referee sealed to it, view by view (as
    ``report.context`` shows a player), each view read once."""
    import json

    from ..play.referee_orders import dealt_public, own_knowledge

    game = campaign.game
    rows = iter(campaign.ledger.views(side))
    pending_row = next(rows, None)
    view: dict[str, Any] | None = None
    known: dict[str, str] | None = None  # None: the view hides nothing (no hidden items to name)
    drawn: dict[str, Any] = {}
    for seq, author, kind, _ in headers:
        frame = Frame(seq, author, kind, [e["text"] for e in events.pop(seq, ()) if e["to"] is None or side in e["to"]],
                      rolls.pop(seq, []))
        new = False
        while pending_row is not None and pending_row[1] <= seq:  # the views sealed up to this envelope
            view, new = json.loads(pending_row[4]), True
            if pending_row[1] == seq:  # what this envelope did, as the referee told it
                frame.events = list(view["events"])
                frame.rolls = [dict(r, seq=seq, mode="referee") for r in view["rolls"]]
            pending_row = next(rows, None)
        if author in game.sides and kind == "turn" and not frame.events:  # orders only the referee opens
            whose = "your" if author == side else f"{author}'s"
            frame.events = [f"{whose} orders, sealed to the referee (its next file tells what they did)"]
        if view is None:
            frame.lines = ["The referee has not started the game yet."]
            yield frame
            continue
        if new:
            known = None
            if "private" in view or "dealt" in view:
                known = own_knowledge(campaign, view) if side == campaign.side else \
                    {**public_knowledge(campaign.genesis["game"], {"private": view.get("private", {})}),
                     **dealt_public(view)}
            drawn = step_map(campaign, view["view"], known or {}, None, pack_dir, pack) \
                if hasattr(game, "board") else {}
        frame.lines = game.describe(view["view"])
        if known is not None:
            frame.lines = [show(line, known, game) for line in frame.lines]
            frame.events = [show(t, known, game) for t in frame.events]
        frame.outcome = _result(view["outcome"])
        _draw(frame, drawn)
        yield frame


def _draw(frame: Frame, drawn: dict[str, Any]) -> None:
    frame.svg = drawn.get("map_svg", "")
    frame.tracks = " · ".join(f"{name}: {value}" for name, value in drawn.get("tracks", []))


def _result(outcome: Any) -> str:
    """An outcome (the game's, or a dict from a sealed view) as the page says it."""
    if not outcome:
        return ""
    result, reason = (outcome.get("result"), outcome.get("reason")) if isinstance(outcome, dict) else \
        (outcome.result, outcome.reason)
    return f"Result: {result}" + (f" — {reason}" if reason else "")


def render(campaign: Campaign, side: str | None = None, pack_dir: Path | None = None,
           progress: Callable[[int, int], None] | None = None) -> str:
    """The replay page (``replay_page``)."""
    from .replay_page import page

    return page(campaign, frames(campaign, side, pack_dir, progress), full_view(campaign), side or campaign.side)

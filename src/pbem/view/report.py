"""Turn reports from one side's point of view, rendered with jinja2.

The context is built only from ``game.view(state, side)``, the events whose
audience includes the side, and the rolls: hidden information is removed
here, where the report is produced, not in the template.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem_engine.protocol import match as protocol

from ..chain.hidden import TOKEN, public_knowledge, show, show_prompt, unread
from ..errors import PbemError
from ..play import messages as talk
from ..play.plays import unheaded
from ..play.witness import name_of as witness_name

if TYPE_CHECKING:  # only for annotations: the campaign (its recovery writes mail) reaches this module
    from ..play.campaign import Campaign


def context(campaign: Campaign, side: str | None = None, since: int | None = None,
            at: int | None = None, known_after: int | None = None, pack_dir: Path | None = None,
            image: bool = True, svg: bool = True) -> dict[str, Any]:
    """Everything a report shows to ``side`` (default: the campaign's own side).

    ``since``: show envelopes after this sequence number; default: after this
    side's own last envelope, i.e. what happened since it last acted.
    ``at``: the game as it stood after envelope ``at`` (a step back through the history).
    ``known_after``: name hidden items as known after that envelope (a replay of a finished game
    shows each step with everything opened by the end); default: as known at ``at``.
    ``pack_dir``: draw the map with this pack's locations (and its owner's map image, unless ``image``
    is False: a replay would repeat it at every step).  ``svg``: draw the map (the text report has none).
    """
    side = side or campaign.side
    own = side == campaign.side and not witness_name(campaign)  # a witness copy holds no secret: public view
    game = campaign.game
    genesis = campaign.genesis
    seq, match = campaign.ledger.state(at)
    if since is None:  # since our last envelope: found on the index, no envelope's text read
        last = campaign.ledger.last_of(side, seq)  # (not ``own``: that says whose secrets the view may use)
        since = last if last is not None else -1
    entries: dict[int, dict[str, Any]] = {}
    for s, author, kind, received in campaign.ledger.headers(since, seq):  # what the report tells, not the history
        entries[s] = {"seq": s, "author": author, "kind": kind, "received": received, "events": [], "rolls": []}
    for event in campaign.ledger.events(since):
        if event["seq"] in entries and (event["to"] is None or side in event["to"]):
            entries[event["seq"]]["events"].append(event["text"])
    for roll in campaign.ledger.rolls(since):
        if roll["seq"] in entries:
            entries[roll["seq"]]["rolls"].append(roll)
    if campaign.refereed:
        if side != "referee":
            return _player_context(campaign, side, since, seq, entries, pack_dir, image, svg)
        from ..play.refereeing import waiting as refereed_waiting

        waiting = refereed_waiting(campaign, match)  # as it stood at ``at``
        match = match["full"]
    else:
        waiting = protocol.waiting_for(game, match)
    prompt = game.prompt(match["game"])
    outcome = game.outcome(match["game"])
    view = game.view(match["game"], side)
    lines = game.describe(view)
    known: dict[str, str] = {}
    if "private" in match or "dealt" in match:  # name our own hidden items, conceal everyone else's
        basis = match if known_after is None else campaign.ledger.state(known_after)[1]
        known = campaign.knowledge(basis) if own else public_knowledge(genesis["game"], basis)
        pending = unread(basis, side, known) if own and not campaign.refereed else {}
        prompt = show_prompt(prompt, known, game)
        lines = [show(line, known, game, pending) for line in lines]
        for entry in entries.values():
            entry["events"] = [show(text, known, game, pending) for text in entry["events"]]
    if own and hasattr(game, "playable"):  # as `pbem play` offers it (odds, what fits)
        prompt = game.playable(match["game"], prompt, known)
    text = prompt.text
    ours = waiting and waiting["side"] == side == campaign.side and at is None and not campaign.refereed
    if ours and (waiting["why"] == "reveal" or waiting["why"] == "decide" and campaign.secrets_readable()
                 and campaign.draft(ask=False)):
        from ..play.turns import (
            shown_prompt,  # the roll our reveal resolves, or our draft, then our decision, as play lists it
        )

        prompt = shown_prompt(campaign)
        text = f"after your reveal: {prompt.text}" if waiting["why"] == "reveal" else prompt.text
    mine = waiting and waiting["why"] in ("decide", "reveal") and prompt.side == side
    if mine and side != campaign.side:  # a report for the opponent (a mail body): our tool cannot see
        mine, text = False, ""          # his hand or his concealed pieces, so his own tool lists his choices
    out = _context(campaign, side, seq, entries, lines, waiting, text,
                   [c.label for c in prompt.choices] if mine else [], outcome, match["mode"], known)
    if waiting and waiting["side"] == side != campaign.side:
        out["next_step"] = ("It is your decision: ingest the attached turn file, then 'pbem play' lists your "
                            "choices (or 'pbem report').")
    before = None
    if 0 <= since < seq:  # where the pieces were when this side last acted: what moved since is marked
        then = campaign.ledger.state(since)[1]
        before = game.view((then["full"] if campaign.refereed else then)["game"], side)  # a referee's: full
    out.update(_map(campaign, view, known, before, pack_dir, image, svg))
    return out


def _place(at: str) -> str:
    """A place that is no location of the map, in words: a pack's 'turn:N' (pieces that arrive on
    turn N) or 'off-map'."""
    turn = re.fullmatch(r"turn:(\d+)", at)
    return f"arriving on turn {turn.group(1)}" if turn else at.replace("-", " ")


def _map(campaign: Campaign, view: dict[str, Any], known: dict[str, str],
         before: dict[str, Any] | None = None, pack_dir: Path | None = None, image: bool = True,
         svg: bool = True, pack: MapPack | None = None) -> dict[str, Any]:
    """The map and the table of locations for the HTML report, as the viewer may know them;
    ``before``: the view when the viewer last acted (locations whose pieces changed are marked);
    ``pack``: the pack to draw with and its locations, already read (``map_pack``), else read here."""
    game = campaign.game
    if not hasattr(game, "board"):
        return {"map_svg": "", "spaces": []}
    board = game.board(view)
    if before is not None:
        then = Counter((p["at"], p["side"]) for p in game.board(before)["pieces"])
        now = Counter((p["at"], p["side"]) for p in board["pieces"])
        for at in sorted({at for at, _ in (then - now) + (now - then)}):
            board.setdefault("marks", {}).setdefault(at, []).append("changed since your last turn")
    for piece in board["pieces"]:
        tokens = TOKEN.findall(piece["label"])
        piece["known"] = bool(tokens) and all(tok in known for tok, _ in tokens)
        piece["label"] = show(piece["label"], known, game)
    loaded, (locations, rows, background) = map_pack(game, pack_dir) if pack is None else pack
    locations = list(locations)  # this map's own list: the pack's may serve many
    if hasattr(game, "map_locations"):  # a module whose own map (a player's data) has more places than its pack
        locations = game.map_locations(locations, view)
    pack = loaded or {}
    pack_map = pack.get("map", {})
    head = pack.get("pack") if isinstance(pack.get("pack"), dict) else {}
    if head.get("colours"):  # the sides' colours as the game's own counters have them: the pack's first
        board["colours"] = {**board.get("colours", {}), **head["colours"]}
    offset = head.get("offset")
    names = {loc["id"]: loc.get("name", loc["id"]) for loc in locations}
    spaces: dict[str, dict[str, Any]] = {}
    for piece in board["pieces"]:
        row = spaces.setdefault(piece["at"], {"name": names.get(piece["at"], _place(piece["at"])), "pieces": []})
        row["pieces"].append(piece)
    order = {lid: i for i, lid in enumerate(names)}
    table = [spaces[k] for k in sorted(spaces, key=lambda k: (order.get(k, len(order)), k))]
    hands = []
    for army, cards in board.get("hands", {}).items():
        held = []
        for label in cards:
            tokens = [tok for tok, _ in TOKEN.findall(label)]
            item = known.get(tokens[0]) if tokens else None
            worth = game.item_values(view, item) if item and hasattr(game, "item_values") else ""
            held.append({"name": show(label, known, game), "worth": worth})
        hands.append({"side": army, "cards": held, "deck": board.get("decks", {}).get(army, "")})
    if not svg:
        return {"map_svg": "", "spaces": table, "hands": hands, "tracks": board.get("tracks", []), "side_colours": {}}
    from . import mapsvg

    return {"map_svg": mapsvg.draw(locations, board, tuple(game.sides), game.title, rows,
                                  background if image else None,
                                  provisional=isinstance(pack_map, dict) and bool(pack_map.get("provisional")),
                                  offset=offset), "spaces": table,
            "hands": hands,
            "tracks": board.get("tracks", []), "side_colours": mapsvg.colours(tuple(game.sides))}


def step_map(campaign: Campaign, view: dict[str, Any], known: dict[str, str], before: dict[str, Any] | None,
             pack_dir: Path | None = None, pack: MapPack | None = None) -> dict[str, Any]:
    """The map of ``context`` for one step of a replay (``view.replay``): without the owner's map
    image (it would repeat at every step), drawn with ``pack`` (``map_pack``, read once)."""
    return _map(campaign, view, known, before, pack_dir, image=False, pack=pack)


# The pack a map is drawn from (None: none), and its locations, ``rows`` direction and the owner's
# background image (``_pack_locations``).
MapPack = tuple[dict[str, Any] | None, tuple[list[dict[str, Any]], str | None, Any]]


def map_pack(game, pack_dir: Path | None = None) -> MapPack:
    """The pack a map is drawn from and its locations, read once for many maps (``step_map``): a
    replay of 10,000 envelopes drew 10,000 maps, and each of them looked the shipped packs up twice
    (a folder listed, each pack's files stat'ed: a fifth of a step's time) and, with ``--pack``,
    checked the pack and read its image again."""
    loaded = _pack_of(game, pack_dir)
    return loaded, _pack_locations(game, pack_dir, loaded)


def _pack_of(game, pack_dir: Path | None) -> dict[str, Any] | None:
    """The pack the map is drawn from (see ``_pack_locations``)."""
    from ..chain import datapack

    if pack_dir is not None:
        return datapack.load(pack_dir)
    if getattr(game, "pack", None):
        return game.pack
    shipped = datapack.shipped()
    return datapack.load(shipped[game.name]) if game.name in shipped else None


def _pack_locations(game, pack_dir: Path | None, pack: dict[str, Any] | None = None
                    ) -> tuple[list[dict[str, Any]], str | None, Any]:
    """The locations to draw, the pack's ``rows`` direction and the owner's background image:
    a pack the player gives (``--pack DIR``: better coordinates, a map image he owns); else a
    table-top game's own pack; for a rules module, the shipped pack of the same name (``_map``
    adds the places of a rules module whose map has more than its pack, ``map_locations``, drawn
    at the pack's coordinates where the pack has them).  ``pack``: that pack, when the caller has
    read it already (``_pack_of``)."""
    from ..chain import datapack

    if pack_dir is not None:
        pack = datapack.load(pack_dir) if pack is None else pack
        problems = datapack.check(pack)
        if problems:
            raise PbemError("the pack to draw the map with has problems", "; ".join(map(str, problems[:5])),
                            code="bad-pack")
        return list(pack.get("location", [])), pack["pack"].get("rows"), datapack.background(pack_dir, pack)
    if getattr(game, "locations", None):
        return list(game.locations.values()), game.pack.get("pack", {}).get("rows"), None
    shipped = datapack.shipped()
    if game.name not in shipped:
        return [], None, None
    pack = datapack.load(shipped[game.name]) if pack is None else pack
    return list(pack.get("location", [])), pack.get("pack", {}).get("rows"), None


NEXT = {"reveal": "Your reveal is owed: run 'pbem play' to send it.",
        "deck": "Your opponent's draw or shuffle waits for your keys or shuffle step: run 'pbem play' to send them.",
        "secret": "Reveal your private secret so your draws can be checked: run 'pbem play'.",
        "start": "Every player has joined: start the game with 'pbem play'.",
        "adjudicate": "Adjudicate the orders received: run 'pbem play'; it writes one file per player.",
        "disclose": "The game is over: disclose it with 'pbem play' so every player can check it."}


def _context(campaign: Campaign, side: str, seq: int, entries: dict[int, dict[str, Any]], lines: list[str],
             waiting: dict[str, Any] | None, prompt_text: str, choices: list[str], outcome: Any, mode: str,
             known: dict[str, str]) -> dict[str, Any]:
    game, genesis = campaign.game, campaign.genesis
    owed = None if waiting is None else show(  # another side's prompt names its hidden items: as the report's
        waiting["text"] if waiting["text"].startswith("waiting for") else
        f"waiting for {waiting['side']}: {unheaded(waiting['side'], waiting['text'])}", known, game)
    if seq < campaign.ledger.head()[0]:  # a step back (--at N): what was owed then, not what to do now
        then = "the game was over" if waiting is None else "it was your decision" if waiting["side"] == side \
            and waiting["why"] == "decide" else owed
        next_step = f"As it stood after envelope #{seq}: {then}."
    elif waiting is None:
        next_step = "The game is over. Check the whole history with: pbem verify"
    elif waiting["side"] == side:
        next_step = NEXT.get(waiting["why"], "It is your decision: run 'pbem play'.")
    else:
        next_step = f"Nothing for you to do: {owed.rstrip('.')}."
    players = {s: genesis["body"]["sides"][s]["name"] for s in game.sides}
    if mode == "referee":
        players["referee"] = genesis["body"]["referee"]["name"]
    watcher = witness_name(campaign)
    if watcher:
        players[campaign.side] = f"witness {watcher}"
    said = talk.shown(campaign, side, upto=seq)  # table talk: every message this side may read, to #seq
    for m in said:
        if m["seq"] in entries:
            entries[m["seq"]].setdefault("messages", []).append(m["line"])
    return {
        "title": game.title,
        "module": game.name,
        "module_version": game.version,
        "game_id": genesis["game"],
        "scenario": genesis["body"]["scenario"],
        "mode": mode,
        "side": side,
        "players": players,
        "seq": seq,
        "entries": [dict(entries[s], messages=entries[s].get("messages", [])) for s in sorted(entries)],
        "messages": said,  # {seq, author, to, sealed, text, line}: the whole conversation, for the page
        "messages_waiting": [m["line"] for m in talk.waiting_lines(campaign)] if side == campaign.side and not watcher
        else [],
        "lines": lines,
        "waiting": waiting,
        "choices": choices,
        "prompt": prompt_text,
        "outcome": outcome,
        "next_step": next_step,
        "provisional": list(game.provisional_in(genesis["body"].get("options") or {})
                            if hasattr(game, "provisional_in") else game.provisional),
        "map_svg": "", "spaces": [], "tracks": [], "side_colours": {}, "hands": [],  # filled by _map where the game has a board
    }


def _player_context(campaign: Campaign, side: str, since: int, seq: int, entries: dict[int, dict[str, Any]],
                    pack_dir: Path | None = None, image: bool = True, svg: bool = True) -> dict[str, Any]:
    """A player in a referee game knows only the views the referee sealed to it (and, in a game
    with hidden pools, its own items, named with its own secret)."""
    from ..play.referee_orders import (
        dealt_public,
        latest_view,
        own_knowledge,
        shown_decision,
    )

    for _, view_seq, _, _, payload in campaign.ledger.views(side):
        if view_seq > since and view_seq in entries:
            view = json.loads(payload)
            entries[view_seq]["events"] = list(view["events"])
            entries[view_seq]["rolls"] = [dict(r, seq=view_seq, mode="referee") for r in view["rolls"]]
    for entry in entries.values():  # a player's file holds orders only the referee opens: said, not left blank
        if entry["author"] in campaign.game.sides and entry["kind"] == "turn" and not entry["events"]:
            whose = "your" if entry["author"] == side else f"{entry['author']}'s"
            entry["events"] = [f"{whose} orders, sealed to the referee (its next file tells what they did)"]
    views = [json.loads(p) for _, view_seq, _, _, p in campaign.ledger.views(side) if view_seq <= seq]
    view = views[-1] if views else None
    game = campaign.game
    lines = game.describe(view["view"]) if view else ["The referee has not started the game yet."]
    latest = latest_view(campaign)
    waiting = campaign.waiting() if not view or view["seq"] == latest["seq"] else view["waiting"]
    mine = view is not None and view["prompt"] is not None and waiting is not None and waiting["side"] == side
    labels = [label for label, _ in view["prompt"]["choices"]] if mine else []
    text = view["prompt"]["text"] if mine else ""
    known: dict[str, str] = {}
    if view is not None and ("private" in view or "dealt" in view):  # name our own hidden items, conceal others'
        known = own_knowledge(campaign, view) if side == campaign.side else \
            {**public_knowledge(campaign.genesis["game"], {"private": view.get("private", {})}), **dealt_public(view)}
        lines = [show(line, known, game) for line in lines]
        labels, text = [show(label, known, game) for label in labels], show(text, known, game)
        for entry in entries.values():
            entry["events"] = [show(t, known, game) for t in entry["events"]]
    if mine and side == campaign.side and view["seq"] == latest["seq"]:  # as 'pbem play' lists it: after our draft
        prompt, _ = shown_decision(campaign)
        if prompt is not None and prompt.side == side:
            labels, text = [c.label for c in prompt.choices], prompt.text
    out = _context(campaign, side, seq, entries, lines, waiting, text, labels,
                   view["outcome"] if view else None, "referee", known)
    if view is not None:
        out.update(_map(campaign, view["view"], known, None, pack_dir, image, svg))
    return out


def template_dir() -> Path:
    """The installed templates (package ``pbem.templates``, from ``templates/`` of the repository),
    found from the package's own file: importlib.resources and its readers cost a cold report
    about 7 ms of imports (pbem is never imported from a zip)."""
    import pbem.templates

    return Path(pbem.templates.__file__).parent


def environment():
    import jinja2

    def load(name: str) -> str | None:
        try:
            return template_dir().joinpath(name).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    env = jinja2.Environment(loader=jinja2.FunctionLoader(load), autoescape=jinja2.select_autoescape(["html.j2"]),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, bytecode_cache=_compiled_templates())
    env.filters["dice"] = dice_text
    env.filters["wrap80"] = _wrap80
    env.filters["compact"] = _compact
    return env


def _compiled_templates() -> Any:
    """Templates compiled once and kept between runs, like Python's own bytecode: a cold report
    skips compiling its template (about 15 ms). Jinja's cache folder is private to the user
    (mode 0700, checked); an entry is used only for the very source it was compiled from. None
    where there is no such folder: every run compiles, as before."""
    import jinja2

    class Quiet(jinja2.FileSystemBytecodeCache):  # a cache that cannot be read or written is no cache
        def load_bytecode(self, bucket: Any) -> None:
            try:
                super().load_bytecode(bucket)
            except (OSError, EOFError, ValueError, TypeError):  # unreadable, cut short, damaged
                bucket.reset()

        def dump_bytecode(self, bucket: Any) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    try:
        return Quiet(pattern="pbem-%s.cache")
    except (OSError, RuntimeError):  # no temporary folder, or one that is not the user's alone
        return None


def _wrap80(line: str) -> str:
    """A line of the text report folded to 80 columns, continuation lines indented under it."""
    import textwrap

    lead = len(line) - len(line.lstrip(" "))
    return "\n".join(textwrap.wrap(line, 80, subsequent_indent=" " * (lead + 4), break_long_words=False,
                                    break_on_hyphens=False)) or line


def _compact(pieces: list[dict[str, Any]]) -> str:
    """A location's pieces in a few characters: per side, steps where known, '?' for a concealed
    enemy piece, '*' for one of the viewer's own concealed pieces (its name is in the situation)."""
    sides: dict[str, list[str]] = {}
    for p in pieces:
        mark = p["badge"] or ("*" if p.get("known") else "?" if p["concealed"] else "-")
        sides.setdefault(str(p.get("side")), []).append(mark)
    return "; ".join(f"{side} {' '.join(marks)}" for side, marks in sides.items())


def dice_text(roll: dict[str, Any]) -> str:
    values = " ".join(str(v) for v in roll["values"])
    result = f" = {roll['result']}" if roll.get("result") is not None else ""
    tags = []
    if roll.get("scripted"):
        tags.append("SCRIPTED")
    if roll.get("mode") == "unsealed":
        tags.append("UNSEALED")
    tag = f" [{', '.join(tags)}]" if tags else ""
    return f"{roll['spec']}: {values}{result}{tag}"


def render(campaign: Campaign, fmt: str = "text", side: str | None = None, since: int | None = None,
           at: int | None = None, pack_dir: Path | None = None) -> str:
    """The report as plain text (an e-mail body) or HTML."""
    if fmt == "text":
        return text(context(campaign, side, since, at, pack_dir=pack_dir, svg=False))
    template = {"html": "report.html.j2"}[fmt]
    return environment().get_template(template).render(**context(campaign, side, since, at, pack_dir=pack_dir))


def _field(value: Any, name: str) -> Any:
    """``value.name`` as a template reads it: a dict's entry or an object's attribute."""
    return value[name] if isinstance(value, dict) else getattr(value, name)


def text(c: dict[str, Any]) -> str:
    """The plain-text report of a ``context``: lines of at most 80 columns where they can be folded.
    Written in Python, not as a template: a cold ``pbem play`` writes one as its mail's body, and
    importing and loading Jinja cost it about 18 ms."""
    out = [_wrap80(f"{c['title']} -- report for {c['side']} ({c['players'][c['side']]})"),
           f"Game {c['game_id']}",
           _wrap80(f"Scenario {c['scenario']}, dice {c['mode']}, after envelope #{c['seq']}")]
    if c["provisional"]:
        out.append("PROVISIONAL DATA (reconstructed, not from the rulebook):")
        out += [_wrap80(f"  - {note}") for note in c["provisional"]]
    out += ["", "What happened", "-------------"]
    for e in c["entries"]:
        out.append(f"#{e['seq']} {e['author']} ({e['kind']}):")
        out += [_wrap80(f"  {line}") for line in e["events"]]
        out += [_wrap80(f"  > {line}") for line in e["messages"]]
        for r in e["rolls"]:
            how = (f" (a forced roll, sealed at once in #{r['seq']})" if r["declared_in"] == r["seq"]
                   and r["mode"] == "sealed" else f" (declared in #{r['declared_in']}, seeded in #{r['seq']})")
            out.append(_wrap80(f"  roll: {r['purpose']}: {dice_text(r)}{how}"))
    if not c["entries"]:
        out.append("Nothing new since your last turn file.")
    if c["messages_waiting"]:
        out += ["", "Your messages for your next turn file:"] + [_wrap80(f"  > {line}") for line in c["messages_waiting"]]
    out.append("")
    if c["spaces"]:
        out.append("Where the pieces are (a number: steps; ?: concealed; *: your own, concealed)")
        out += [f"  {'%-26s' % row['name'][:26]} {_compact(row['pieces'])}" for row in c["spaces"]]
        out.append("")
    for hand in c["hands"]:
        if hand["cards"] and hand["cards"][0]["worth"]:
            out.append(f"{hand['side']} hand, with each card's values")
            out += [_wrap80(f"  {card['name']}" + (f": {card['worth']}" if card["worth"] else ""))
                    for card in hand["cards"]]
            out.append("")
    out += ["The situation", "-------------"] + [_wrap80(line) for line in c["lines"]]
    outcome = c["outcome"]
    if outcome:
        reason = _field(outcome, "reason")
        out += ["", _wrap80(f"RESULT: {_field(outcome, 'result')}" + (f" -- {reason}" if reason else "")), ""]
    out += ["", "What is asked of you", "--------------------", c["next_step"]]
    if c["choices"]:
        out.append(_wrap80(c["prompt"]))
        out += [_wrap80(f"  {i}. {choice}") for i, choice in enumerate(c["choices"], 1)]
    return "\n".join(out) + "\n"


def map_after(campaign: Campaign, match: dict[str, Any]) -> dict[str, Any]:
    """The map and table of locations of ``context`` as they stand in ``match`` (our draft
    previewed, ``turns.drafted``): our own side's view, our own hidden items by name, what changed
    since our last turn file marked (the draft's moves among them).  For ``pbem serve``."""
    side, game = campaign.side, campaign.game
    known = campaign.knowledge(match) if "private" in match else {}
    own = [s for s, _, author, _, _, _ in campaign.ledger.envelopes() if author == side]
    before = game.view(campaign.ledger.state(own[-1])[1]["game"], side) if own else None
    return _map(campaign, game.view(match["game"], side), known, before)

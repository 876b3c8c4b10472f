"""Hand-overs: what a game turn costs by e-mail, in people's decisions, turn files and days.

Each game is played to the end several times by its own simple player (the demo's: ``choose``,
the game's ``player``), both sides in their own campaigns exchanging real signed turn files
(sealed dice); in refereed mode (``handovers_refereed``) a referee's campaign adjudicates
unattended between them. Every turn file is recorded in the order it was sent: its game turn (the
module's own ``turn`` or ``round`` once it is applied), its author, and whether its making needed
a *person*: whether its tool asked the player (the ``ask`` callback) at a prompt that is not
forced (``pbem_engine.protocol.core.forced``). A file that only reveals a link, carries deck
steps, the end-of-game secret or forced choices only, and every file of a referee, needs no one.

Per game turn, from the first to the last complete one (the game's end cuts the last short), the
bench (``handovers_report``) prints the medians over game turns of

* ``human``: the files that needed a person;
* ``floor``: the files that must pass from one person to the other in sequence by the rules' own
  information flow, with the standing orders the module offers (``handovers_floors``: the block
  game's own analysis, or the times the deciding person changes);
* ``files``: every turn file (a referee's adjudication counts once, though a copy goes to each
  player);
* ``days``: calendar days, simulated (``sent_times``): each person answers once a day at 09:00, a
  file that needs a person is signed at its author's first 09:00 strictly after the file before it
  was sent, any other file ten minutes after the file before it. A game turn's days run from the
  previous game turn's last file to its own last file.

as ``handovers GAME MODE: human H per game turn (floor F), files N, days D`` (``line``).
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

DAY = 24 * 60  # minutes
HOUR = 9  # every person answers once a day, at 09:00
AUTO = 10  # minutes: a file that needs no person follows the file before it


# --- the day model -------------------------------------------------------------------------------

def sent_times(files: Iterable[tuple[str, bool]], hours: dict[str, float] | None = None, start: int = HOUR * 60
               ) -> list[int]:
    """When each file is sent, in minutes from midnight of day 0, for files in the order they are
    sent, each ``(author, needs a person)``: a person's file at the author's first daily hour
    (``hours``, default 09:00 for everyone) strictly after the file before it; any other file
    ``AUTO`` minutes after it.  ``start``: when the file before the first was sent (09:00 of day 0:
    the join, say)."""
    out = []
    t = start
    for author, person in files:
        if person:
            at = round((hours or {}).get(author, HOUR) * 60)
            t = at + ((t - at) // DAY + 1) * DAY  # the first daily ``at`` strictly after t
        else:
            t += AUTO
        out.append(t)
    return out


def days_per_turn(files: list[dict[str, Any]], hours: dict[str, float] | None = None) -> dict[int, float]:
    """Days of each game turn: from the previous game turn's last file to its own last file
    (``files`` in the order sent, each with ``turn``, ``side`` and ``person``; a file of no game
    turn, the set-up's, belongs to the time before the first)."""
    times = sent_times(((f["side"], f["person"]) for f in files), hours)
    before: dict[int, int] = {}  # each game turn: when the file before its first one was sent
    last: dict[int, int] = {}
    previous = HOUR * 60
    for f, t in zip(files, times):
        turn = f["turn"]
        if turn is not None:
            before.setdefault(turn, previous)
            last[turn] = t
        previous = t
    return {turn: (last[turn] - before[turn]) / DAY for turn in last}


# --- the lines -------------------------------------------------------------------------------------

def _number(x: float) -> str:
    return f"{x:g}"


def line(game: str, mode: str, human: float, floor: float, files: float, days: float) -> str:
    """``handovers GAME MODE: human H per game turn (floor F), files N, days D``."""
    return (f"handovers {game} {mode}: human {_number(human)} per game turn (floor {_number(floor)}), "
            f"files {_number(files)}, days {days:.1f}")


def per_turn(files: list[dict[str, Any]], floor: Callable[[list[dict[str, Any]], str | None], int],
             hours: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """The complete game turns of one game (``files`` in the order sent): for each, its number, its
    files, those that needed a person (``human``), its floor (``floor(its files, the author of the
    last file before them that needed a person)``), its days; and, to explain them, the files of
    the same person again (``again``), those that needed a person who chose nothing (``no
    choice``), its battles and its files by kind."""
    turns = sorted({f["turn"] for f in files if f["turn"] is not None and f["turn"] >= 1})
    days = days_per_turn(files, hours)
    out = []
    for turn in turns[:-1]:  # the last game turn is cut short by the end
        start = next(i for i, f in enumerate(files) if f["turn"] == turn)
        mine = [f for f in files if f["turn"] == turn]
        people = [f["side"] for f in files[:start] if f["person"] or f.get("sealed")]
        before = people[-1] if people else None
        out.append({"turn": turn, "files": len(mine), "human": sum(f["person"] for f in mine),
                    "floor": floor(mine, before), "days": days[turn], "again": again(mine, before),
                    "no choice": sum(f["no choice"] for f in mine), "battles": sum(f["battles"] for f in mine),
                    "kinds": Counter(f["kind"] for f in mine)})
    return out


def again(files: list[dict[str, Any]], before: str | None) -> int:
    """The files that needed a person whose author also made the last such file before them: the
    same person again, the other side's files between them needing no one (a reveal for a roll, a
    deck step, forced choices only his tool could make).  A file of a tool that carries out an order
    its person sealed earlier (``sealed``) passes that person's decision on, as his own file would."""
    n = 0
    for f in files:
        if f["person"]:
            n += f["side"] == before
        if f["person"] or f.get("sealed"):
            before = f["side"]
    return n


FIGURES = ("human", "floor", "files", "days", "again", "no choice")


def medians(turns: list[dict[str, Any]]) -> dict[str, float]:
    """The median of each figure over ``turns`` (``per_turn``'s)."""
    return {k: statistics.median(t[k] for t in turns) for k in FIGURES}


# --- two players, their own campaigns ------------------------------------------------------------

def entropy(tag: str):
    counter = iter(range(10**9))
    return lambda n: hashlib.sha256(f"pbem/bench/{tag}/{next(counter)}".encode()).digest()[:n]


def identity(name: str, seed: int):
    from pbem.wire.keys import Identity

    return Identity(name, Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"{name}{seed}".encode()).digest()))


def recording(camp, choose: Callable, asked: list, describe: Callable | None = None):
    """The ``ask`` of a simulated person: ``choose(prompt, camp)`` answers; each question is noted
    in ``asked`` as (what it decides, by ``describe(state)``; its number of choices; whether it was
    forced; whether the answer was the one choice listed, at a prompt that lists only one)."""
    from pbem_engine.protocol.core import forced

    def ask(prompt, events, rolls, refusal):
        state = camp.situation[0]
        answer = choose(prompt, camp)
        only = len(prompt.choices) == 1 and answer.strip() in ("1", prompt.choices[0].label)
        asked.append((describe(state) if describe and state is not None else "", len(prompt.choices),
                      forced(prompt), only))
        return answer

    return ask


def needed_person(asked: list) -> bool:
    """A file needed a person: its tool asked at a prompt that is not forced."""
    return any(not forced for _, _, forced, _ in asked)


def no_choice(asked: list) -> bool:
    """A file that needed a person though nothing was chosen: every prompt it asked at that is not
    forced (a free one, where orders may be typed) listed one choice, and that was the answer."""
    return needed_person(asked) and all(only for _, _, forced, only in asked if not forced)


def planning(prompt, camp) -> str:
    """The block game's person: a battle plan whenever the rules offer one (combat.do_plan; the
    prompt's choice is then only 'decide each step'), else the game's own player (which gives the
    Ottoman reinforcement plans, sequence.offer_plan, as a deployment)."""
    from pbem_engine.games.gallipoli_blocks.rules import LATER
    from pbem.commands.demo import choose

    if prompt.free and any(c.label == LATER for c in prompt.choices):
        return "plan lead strongest; events all"
    return choose(prompt, camp)


def battles(result) -> int:
    """The battles and landings a file's actions started (the block game's events)."""
    return sum(1 for e in result.events if e["text"].startswith("battle for"))


def play_files(module: str, options: dict[str, Any] | None, seed: int, root: Path, *, scenario: str | None = None,
               choose: Callable | None = None, describe: Callable | None = None,
               note: Callable | None = None) -> list[dict[str, Any]]:
    """One two-player game by the game's own player (``choose``, default the demo's), both sides in
    their own campaigns (``root``/a, ``root``/b): a record for each turn file after the join, in
    the order sent: ``turn`` (the game turn once it is applied), ``side``, ``person``, ``no choice``,
    ``kind`` (decision, forced choice, reveal only, deck step, or why the file was owed), ``asks``
    (``recording``'s), ``actions``, ``rolls``, ``battles``, ``owed`` (why the next file is owed),
    and what ``note(state, match before it, waiting, result)`` adds."""
    from pbem.commands.demo import choose as demo_choose
    from pbem.commands.demo import game_turn
    from pbem.play.campaign import Campaign
    from pbem_engine.registry import get_game

    game = get_game(module)
    sealed = getattr(game, "sealed_orders", ())
    first, second = game.sides[0], game.sides[1]
    a, b = identity("a", seed), identity("b", seed)
    one, genesis = Campaign.new(root / "a", module, first, a, b.public, "b", scenario, options or None,
                                entropy=entropy(f"{module}/{seed}/a"))
    two, joined = Campaign.join(root / "b", genesis.raw, b, entropy=entropy(f"{module}/{seed}/b"))
    one.ingest([("join", joined.raw)])
    camps, who = {first: one, second: two}, {first: a, second: b}
    files: list[dict[str, Any]] = []
    try:
        for _ in range(5000):
            waiting = one.waiting()
            if waiting is None:
                break
            side = waiting["side"]
            camp = camps[side]
            match = camp.match()
            asked: list = []
            result = camp.play(who[side], [], recording(camp, choose or demo_choose, asked, describe))
            camps[second if side == first else first].ingest([("bench", result.envelope.raw)])
            person = needed_person(asked)
            kind = ("decision" if person else "forced choice" if result.drafted else "reveal only"
                    if match["pending"] else "deck step" if result.envelope.content["body"].get("decks")
                    else waiting["why"])
            record = {"turn": game_turn(one.match()["game"]), "side": side, "person": person,
                      "no choice": no_choice(asked), "kind": kind, "asks": asked, "actions": len(result.drafted),
                      "rolls": len(result.rolls), "battles": battles(result), "owed": (one.waiting() or {}).get("why"),
                      "sealed": not person and any(x.get("do") in sealed for x in result.drafted)}
            if note is not None:
                record.update(note(match["game"], match, waiting, result))
            files.append(record)
        else:
            raise RuntimeError(f"{module}: the game did not end")
    finally:
        for camp in (one, two):
            camp.ledger.close()
    return files


def play_one(module: str, options: dict[str, Any], seed: int, root: Path) -> list[tuple[int, int]]:
    """One game of ``module`` by its own player (campaigns in ``root``/a and ``root``/b): for each
    complete game turn, its number of turn files and of battles and landings."""
    files = play_files(module, options, seed, root)
    turns = sorted({f["turn"] for f in files if f["turn"] is not None and f["turn"] >= 1})[:-1]
    return [(sum(1 for f in files if f["turn"] == t), sum(f["battles"] for f in files if f["turn"] == t))
            for t in turns]

"""``pbem bench``'s hand-over lines: one per game and mode, then what explains them.

    handovers GAME MODE: human H per game turn (floor F), files N, days D

(``handovers``'s docstring says what each figure is; ``handovers_floors`` how each game's floor is
found).  The games are played in worker processes, as many as there are cores, the longest
first; the figures do not depend on the order or the process (seeded games).
"""

from __future__ import annotations

import os
import statistics
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple


class Setting(NamedTuple):
    game: str
    mode: str  # "two-player" or "refereed"
    options: dict[str, Any]
    scenario: str | None = None
    cost: float = 1.0  # seconds a game, about: the longest are started first


# The games, shortened by their ``turns`` option (the last game turn played is cut short by the
# end and not counted).  Assault on Gallipoli keeps its landing turn and one more (a game may end
# early by sudden death): one of its games takes up to two minutes, most of it the landing plans.
SETTINGS = (
    Setting("gallipoli-blocks", "two-player", {"turns": 4}),
    Setting("gallipoli-blocks", "refereed", {"turns": 4}),
    Setting("assault-on-gallipoli", "two-player", {"turns": 3}, None, 60),  # the landing turn and one more
    Setting("blood-on-the-tigris", "two-player", {"turns": 8}, "campaign", 4),  # Scenario 1's first seven turns
    Setting("hill60", "two-player", {}, None, 0.3),
    Setting("gallipoli-1915", "two-player", {"last_turn": 8}, "helles", 2),  # the landing day's first eight turns
    Setting("gallipoli-1915", "refereed", {"last_turn": 8}, "helles", 3),
)


def play(setting: Setting, seed: int) -> list[dict[str, Any]]:
    """One seeded game of ``setting``: its turn files (``handovers.play_files``' records)."""
    from . import handovers, handovers_refereed
    from .handovers_assault import frame

    choose = handovers.planning if setting.game == "gallipoli-blocks" else None
    describe = frame if setting.game == "assault-on-gallipoli" else None
    flow = handovers_refereed.play_files if setting.mode == "refereed" else handovers.play_files
    with tempfile.TemporaryDirectory(prefix="pbem-handovers-") as tmp:
        return flow(setting.game, setting.options, seed, Path(tmp), scenario=setting.scenario, choose=choose,
                    describe=describe)


def _play(job: tuple[Setting, int]) -> list[dict[str, Any]]:
    return play(*job)


def play_all(settings: tuple[Setting, ...], games: int, workers: int | None = None) -> list[list]:
    """``games`` seeded games of each setting: for each setting, each game's files; played by
    ``workers`` processes (default: one a core; 1: in this process)."""
    jobs = sorted(((s, seed) for s in settings for seed in range(games)), key=lambda j: -j[0].cost)
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    import multiprocessing

    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():  # fork: nothing is imported again
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            played = list(pool.map(_play, jobs))
    else:
        played = [_play(j) for j in jobs]
    out: list[list] = [[] for _ in settings]
    for (setting, _), files in zip(jobs, played):
        out[settings.index(setting)].append(files)
    return out


EVENING = 21  # the hour of the second side's player, in the explanation's other reckoning of days


def measure(setting: Setting, games: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """The figures of ``setting`` over its played ``games``: the medians over every complete game
    turn (``handovers.medians``), and the game turns themselves."""
    from pbem_engine.registry import get_game

    from .handovers import medians, per_turn
    from .handovers_floors import FLOORS

    second = get_game(setting.game).sides[1]
    turns = []
    for files in games:
        mine = per_turn(files, FLOORS[setting.game])
        for t, late in zip(mine, per_turn(files, FLOORS[setting.game], {second: EVENING})):
            t["days, evening"] = late["days"]
        turns += mine
    if not turns:
        raise RuntimeError(f"{setting.game} {setting.mode}: no complete game turn was played")
    return {"setting": setting, "games": len(games), "turns": turns, "second": second, **medians(turns),
            "days, evening": statistics.median(t["days, evening"] for t in turns)}


def _mean(values: list[float]) -> str:
    return f"{statistics.fmean(values):.1f}" if values else "-"


def explain(m: dict[str, Any]) -> list[str]:
    """What the line's figures are made of: the files by kind, the same person again (where the
    human count passes the floor), the files a person made without choosing anything; the game
    turns with a battle apart (the block game), the landing turn apart (Assault on Gallipoli)."""
    from .handovers import line, medians

    s, turns = m["setting"], m["turns"]
    kinds = Counter()
    for t in turns:
        kinds.update(t["kinds"])
    out = [f"{len(turns)} game turns of {m['games']} game(s); files per game turn (means): "
           + ", ".join(f"{k} {kinds[k] / len(turns):.1f}" for k in sorted(kinds, key=lambda k: (-kinds[k], k))),
           f"human (mean {_mean([t['human'] for t in turns])}) = hand-overs from one person to the other "
           f"{_mean([t['human'] - t['again'] for t in turns])} + the same person again (the other side's files between "
           f"needed no one: a reveal, a deck step, forced choices) "
           f"{_mean([t['again'] for t in turns])}; of them a person who chose nothing (the one choice listed) "
           f"{_mean([t['no choice'] for t in turns])}; floor (mean) {_mean([t['floor'] for t in turns])}",
           f"days if the {m['second']} player answers at {EVENING}:00 instead of 09:00: median "
           f"{m['days, evening']:.1f} (at the same hour, each file that needs a person waits for the next morning)"]
    parts: list[tuple[str, list]] = []
    if s.game == "gallipoli-blocks":
        out.append("the floor counts the attacker's file that opens his battle plan, which needs no person when he "
                   "has nothing left to decide (his tool writes it alone; in refereed mode the referee opens it)")
        parts = [("with a battle or landing", [t for t in turns if t["battles"]]),
                 ("without", [t for t in turns if not t["battles"]])]
    elif s.game == "gallipoli-1915":
        out.append("the Ottoman's standing CD fire binds, so its roll is sealed at once in his own file, with his "
                   "activations; the Entente plans his next landings with his activations ('plan assault: ...', "
                   "sealed), and his tool gives them with the daylight draw: files of his tool, no person's")
    elif s.game == "assault-on-gallipoli":
        parts = [("turn 1 (the landing)", [t for t in turns if t["turn"] == 1]),
                 ("later turns", [t for t in turns if t["turn"] > 1])]
    for title, chosen in parts:
        if chosen:
            sub = medians(chosen)
            out.append(f"{title} ({len(chosen)}): "
                       + line(s.game, s.mode, sub["human"], sub["floor"], sub["files"], sub["days"])
                       .split(": ", 1)[1])
    return out


def report(echo: Callable[[str], None], games: int = 3, workers: int | None = None,
           settings: tuple[Setting, ...] = SETTINGS) -> list[dict[str, Any]]:
    """Play ``games`` seeded games of each setting and echo its line, then what explains it."""
    from .handovers import line

    played = play_all(settings, games, workers)
    out = [measure(s, each) for s, each in zip(settings, played)]
    for m in out:
        s = m["setting"]
        echo(line(s.game, s.mode, m["human"], m["floor"], m["files"], m["days"]))
        for text in explain(m):
            echo("    " + text)
    return out

"""Every game as quick as the others: the play page, a click on it, and a cold command, per game.

A game of each module is played by its own player (two campaigns exchanging real signed turn
files, bench/handovers.py); at up to ``SAMPLES`` points where a person has a decision, the deciding
side's campaign is copied aside (untimed). Then, round after round, every copy of every game in
turn:

* **the play page**: ``Seat.page()`` as ``pbem serve`` builds it for a request (the campaign
  opened, the report of our view, the decision with its legal choices, its map);
* **a click**: ``Seat.choose`` of the decision's first legal choice (drafted, or asked to confirm
  where it would sign), in a fresh copy of that campaign each time (copied untimed);
* **a cold command**: ``pbem status`` of the game's finished campaign, a new process.

Medians per game. Targets (issue "Honest benchmarks"): Blood on the Tigris's page and click within
1.5x the block game's, its cold command within 1.3x; every other game is printed beside them.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

GAMES = {"gallipoli-blocks": {"turns": 2}, "blood-on-the-tigris": None, "assault-on-gallipoli": None, "hill60": None}
SAMPLES = 8  # decision points kept per game
PAGE, CLICK, COLD = 1.5, 1.5, 1.3  # Blood on the Tigris to the block game


def _snapshots(module: str, options: dict[str, Any] | None, root: Path, samples: int) -> tuple[list, Path]:
    """Copies of the deciding side's campaign at up to ``samples`` decisions spread over one game,
    each with its identity; and the first side's finished campaign."""
    from pbem.play.campaign import Campaign

    from .handovers import identity, play_files

    seed = 7
    where = root / module
    kept: list[tuple[Path, Any]] = []
    seen = [0]

    def note(state, match, waiting, result) -> dict[str, Any]:
        seen[0] += 1
        if len(kept) >= samples or seen[0] % 3:  # every third file: points spread over the game
            return {}
        for name in ("a", "b"):
            camp = Campaign.open(where / name, readonly=True)
            try:
                now = camp.waiting()
                mine = now is not None and now["side"] == camp.side and now["why"] in ("decide", "reveal")
            finally:
                camp.ledger.close()
            if mine:
                copy = root / "kept" / module / f"{len(kept)}-{name}"
                shutil.copytree(where / name, copy)
                kept.append((copy, identity(name, seed)))
        return {}

    play_files(module, options, seed, where, note=note)
    return kept, where / "a"


def _page(campaign: Path, who: Any) -> tuple[float, str | None]:
    """Seconds to build the play page; the first legal choice's number (None: nothing to click)."""
    from pbem.web.serve_game import Seat

    start = time.perf_counter()
    page = Seat(campaign, who).page()
    took = time.perf_counter() - start
    choices = page["decision"]["choices"]
    return took, (str(choices[0]["n"]) if choices else None)


def _click(campaign: Path, who: Any, order: str, work: Path) -> float:
    from pbem.web.serve_game import Seat

    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(campaign, work)
    seat = Seat(work, who)
    start = time.perf_counter()
    seat.choose(order)
    return time.perf_counter() - start


def _cold(campaign: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pbem", "status", "--campaign", str(campaign)], check=True,
                   capture_output=True, env=env, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(games: dict[str, Any] = GAMES, samples: int = SAMPLES, rounds: int = 3,
            env: dict[str, str] | None = None) -> dict[str, dict[str, float]]:
    """Per game: median page, click and cold-command seconds, and how many points were timed."""
    with tempfile.TemporaryDirectory(prefix="pbem-bench-pages-") as tmp:
        root = Path(tmp)
        points, finished = {}, {}
        for module, options in games.items():
            points[module], finished[module] = _snapshots(module, options, root, samples)
        times: dict[str, dict[str, list[float]]] = {m: {"page": [], "click": [], "cold": []} for m in games}
        orders = {}
        for i in range(rounds + 1):
            for module in games:
                for k, (campaign, who) in enumerate(points[module]):
                    took, order = _page(campaign, who)
                    orders[(module, k)] = order
                    if order is not None:
                        clicked = _click(campaign, who, order, root / "click")
                    if i:  # the first round warms the imports and the file cache: not timed
                        times[module]["page"].append(took)
                        if order is not None:
                            times[module]["click"].append(clicked)
                cold = _cold(finished[module], env or {})
                if i:
                    times[module]["cold"].append(cold)
    return {m: {k: statistics.median(v) if v else 0.0 for k, v in t.items()} | {"points": len(points[m])}
            for m, t in times.items()}


def report(echo: Callable[[str], None], env: dict[str, str] | None = None, samples: int = SAMPLES,
           games: dict[str, Any] = GAMES) -> dict[str, float]:
    m = measure(games, samples, env=env)
    echo("play page, a click and a cold pbem status per game (medians over decisions of one game by its own "
         "player, taken in turn, game after game; bench/pages.py):")
    for module, t in m.items():
        echo(f"  {module}: page {t['page'] * 1000:.0f} ms, click {t['click'] * 1000:.0f} ms, cold status "
             f"{t['cold'] * 1000:.0f} ms ({t['points']:.0f} decisions)")
    out: dict[str, float] = {}
    tigris, blocks = m.get("blood-on-the-tigris"), m.get("gallipoli-blocks")
    if tigris and blocks and blocks["page"] and blocks["click"] and blocks["cold"]:
        ratios = (tigris["page"] / blocks["page"], tigris["click"] / blocks["click"], tigris["cold"] / blocks["cold"])
        verdict = ["OK" if r <= target else "MISSED" for r, target in zip(ratios, (PAGE, CLICK, COLD))]
        echo(f"  Blood on the Tigris to the block game: page {ratios[0]:.2f}x (target <= {PAGE}) {verdict[0]}, "
             f"click {ratios[1]:.2f}x (target <= {CLICK}) {verdict[1]}, cold status {ratios[2]:.2f}x "
             f"(target <= {COLD}) {verdict[2]}")
        out = {"tigris_page_ratio": ratios[0], "tigris_click_ratio": ratios[1], "tigris_cold_ratio": ratios[2]}
    return out

"""Cold commands (a new process each, as a player runs them) against their own import floors.

``pbem status``, ``report``, ``play`` and ``ingest`` of a long history, and ``ingest`` of a short one,
each timed round after round in turn with its floor (bench/floors.py: Python starting and importing
exactly what that command imports from outside pbem), so that a command and its floor run under the
same load. Medians of the rounds: on a loaded machine the best runs of commands this short vary
more. What each command must do beside start-up is prepared untimed before each of its runs: ``play``
signs red's next turn file in a fresh copy of the campaign, ``ingest`` takes the next envelope into an
untouched copy of the database; both copies are written to disk first.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pbem.play.campaign import Campaign
from pbem.wire.envelope import Envelope

from .floors import describe, floor_command, imports_of

LATENCY = 1.3  # cold commands, to their import floors
GROWTH = 1.15  # cold ingest, long history to short


def _play_ready(campaign: Path, extra: Envelope, work: Path) -> Path:
    """A copy of red's campaign where red is to play: ``extra`` (the next envelope) ingested
    first if it is blue's."""
    ready = work / "ready"
    shutil.copytree(campaign, ready)
    if extra.author != "red":
        camp = Campaign.open(ready)
        try:
            camp.ingest([("next", extra.raw)])
        finally:
            camp.ledger.close()
    return ready


class _Command:
    """One command: its arguments, what to prepare untimed before each run, its floor, its times."""

    def __init__(self, label: str, args: list[str], prepare: Callable[[], None] | None = None):
        self.label, self.args, self.prepare = label, args, prepare
        self.floor: list[str] = []
        self.modules: list[str] = []
        self.times: list[float] = []
        self.floor_times: list[float] = []


def _ingest(db: Path, extra: Envelope, work: Path, label: str) -> _Command:
    work.mkdir(parents=True, exist_ok=True)
    turn = work / "next.pbem"
    turn.write_text(extra.raw)
    target = work / "campaign"
    target.mkdir(exist_ok=True)

    def fresh() -> None:  # each run ingests into an untouched copy, already written to disk
        shutil.copyfile(db, target / "campaign.db")
        shutil.rmtree(target / "received", ignore_errors=True)
        os.sync()

    return _Command(label, ["ingest", "--campaign", str(target), str(turn)], fresh)


def _timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(long: tuple[Path, Envelope], short: tuple[Path, Envelope], work: Path, rounds: int,
            env: dict[str, str], parts: set[str]) -> list[_Command]:
    """Each command of ``parts`` ("report": status, report, play; "ingest": ingest of both histories)
    and its floor, ``rounds`` rounds in turn after one untimed round that writes the bytecode."""
    (big_db, big_extra), (small_db, small_extra) = long, short
    campaign = big_db.parent
    commands = []
    if "report" in parts:
        ready, played = _play_ready(campaign, big_extra, work), work / "played"

        def fresh_play() -> None:
            shutil.rmtree(played, ignore_errors=True)
            shutil.copytree(ready, played)
            os.sync()

        commands += [_Command("status", ["status", "--campaign", str(campaign)]),
                     _Command("report", ["report", "--campaign", str(campaign)]),
                     _Command("play", ["play", "--campaign", str(played), "1"], fresh_play)]
    if "ingest" in parts:
        commands += [_ingest(small_db, small_extra, work / "ingest-short", "ingest short"),
                     _ingest(big_db, big_extra, work / "ingest-long", "ingest")]
    env = dict(env, PBEM_HOME=str(campaign.parent / "home"))
    for c in commands:  # the floor: what this command imported from outside pbem (found untimed)
        if c.prepare:
            c.prepare()
        c.modules = imports_of(c.args, env)
        c.floor = floor_command(c.modules, env)
    for i in range(rounds + 1):
        for c in commands:
            if c.prepare:
                c.prepare()
            took = _timed([sys.executable, "-m", "pbem", *c.args], env)
            floor = _timed(c.floor, env)
            if i:  # the first round writes the bytecode: not timed
                c.times.append(took)
                c.floor_times.append(floor)
    return commands


def report(commands: list[_Command], envelopes: int, small: int, echo: Callable[[str], None]) -> dict[str, float]:
    out: dict[str, float] = {}
    by = {c.label: c for c in commands}
    for c in commands:
        took, floor = statistics.median(c.times), statistics.median(c.floor_times)
        ratio = took / floor
        history = small if c.label == "ingest short" else envelopes
        name = c.label.split()[0]
        echo(f"pbem {name} (cold process, median of {len(c.times)} taken in turn with its floor), history {history}: "
             f"{took * 1000:.0f} ms, ratio {ratio:.2f} to its import floor ({floor * 1000:.0f} ms: "
             f"{describe(c.modules)}; target <= {LATENCY}) {'OK' if ratio <= LATENCY else 'MISSED'}")
        out[f"{c.label.replace(' ', '_')}_ratio"] = ratio
    if "ingest" in by and "ingest short" in by:
        growth = statistics.median(by["ingest"].times) / statistics.median(by["ingest short"].times)
        echo(f"  ingest growth, {envelopes} vs {small} envelopes: {growth:.2f}x (target <= {GROWTH}) "
             f"{'OK' if growth <= GROWTH else 'MISSED'}")
        out["growth"] = growth
    return out

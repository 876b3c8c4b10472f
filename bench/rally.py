"""Rally the Troops' replay of a recorded block game, timed in the same run as ours (bench/rally_replay.js).

The peer's figure is measured, never printed as a constant: a copy of one of its games' public
``rules.js`` (Hammer of the Scots is the block game: ``data.js`` beside it) is run under Node.
pbem ships none of it; the user points the bench at his own copy with ``pbem bench --rally DIR``
(or ``PBEM_BENCH_RALLY``). Without one, or without Node, the bench says so and times ours alone.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).resolve().with_name("rally_replay.js")
SCENARIO = "Braveheart"  # Hammer of the Scots' shortest scenario: whole games, as ours are


def where(given: str | None = None) -> Path | None:
    """The folder holding Rally's rules.js: given, or ``PBEM_BENCH_RALLY``; None when neither."""
    folder = given or os.environ.get("PBEM_BENCH_RALLY")
    return Path(folder) if folder else None


def measure(folder: Path | None, games: int = 3, rounds: int = 7, scenario: str = SCENARIO
            ) -> dict[str, Any] | str:
    """Rally's replay per action (``cold_us``, ``warm_us``, ``actions``), or why it was not timed."""
    if folder is None:
        return "not timed: give a copy of its Hammer of the Scots rules.js with pbem bench --rally DIR"
    if not (folder / "rules.js").is_file():
        return f"not timed: no rules.js in {folder}"
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        return "not timed: Node is not installed"
    done = subprocess.run([node, str(DRIVER), str(folder), scenario, str(games), str(rounds)],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        error = next((ln.strip() for ln in lines if re.match(r"\w*Error\b", ln.strip())), lines[-1] if lines else "no message")
        return f"not timed: its rules failed under Node ({error[:200]})"
    return json.loads(done.stdout.strip().splitlines()[-1])

"""The campaigns a player made or joined, recorded under his home (``games.json`` beside his
keys), so ``pbem status --all`` finds every one of them wherever its folder is.

A list of absolute folder paths, written atomically under a lock (two ``pbem new`` at once both
land).  Only ever a help for finding games: a campaign is whole without it, and a folder moved
or deleted is reported, never an error.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

from ..errors import PbemError
from .files import atomic_write

FILE = "games.json"
MOST = 10_000  # campaigns recorded at most (the oldest are dropped past it)
MAX_BYTES = 4 * 1024 * 1024


def known(home: Path) -> list[Path]:
    """The campaign folders recorded under ``home``, oldest first.

    :raises PbemError: the file is damaged or too large (``unreadable``)."""
    path = Path(home) / FILE
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return []
    except OSError as e:
        raise PbemError(f"cannot read {path}", e.strerror or str(e), code="unreadable") from None
    try:
        if len(data) > MAX_BYTES:
            raise ValueError(f"over {MAX_BYTES} bytes")
        items = json.loads(data)
        if not isinstance(items, list) or not all(isinstance(i, str) and i for i in items):
            raise ValueError("not a list of folder paths")
    except ValueError as e:
        raise PbemError(f"{path} is damaged", f"{str(e)[:200]}; delete it and each game is found again when it is "
                        "next opened by pbem new or join", code="unreadable") from None
    return [Path(i) for i in items]


def remember(home: Path, directory: Path) -> None:
    """Record ``directory`` under ``home`` (once; nothing if it is there already)."""
    home = Path(home)
    home.mkdir(parents=True, exist_ok=True)
    with (home / "games.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        items = [str(p) for p in known(home)]
        where = str(Path(directory).resolve())
        if where in items:
            return
        items = (items + [where])[-MOST:]
        atomic_write(home / FILE, json.dumps(items, indent=1) + "\n")

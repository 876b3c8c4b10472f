"""Writing files so that a crash never leaves half of one.

Every file pbem writes (secrets, drafts, turn files in sent/ and received/, outbox mail,
evidence, configuration) goes through ``atomic_write``: the bytes go to a temporary file in
the same folder, are flushed and fsynced, and the temporary file is renamed over the target.
A reader therefore sees the old file or the new one, never an empty or truncated one, and a
kill at any moment leaves at worst a stray ``.*.tmp`` file, which the next write replaces.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes | str, mode: int = 0o644) -> Path:
    """Replace ``path`` with ``data`` in one step (mode ``mode``; 0600 for secrets)."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    sync_folder(path.parent)
    return path


def sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

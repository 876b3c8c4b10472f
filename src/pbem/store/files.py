"""Writing files so that a crash never leaves half of one.

Every file pbem writes (secrets, drafts, turn files in sent/ and received/, outbox mail,
evidence, configuration) goes through ``atomic_write``: the bytes go to a temporary file in
the same folder, are flushed and fsynced, and the temporary file is renamed over the target.
A reader therefore sees the old file or the new one, never an empty or truncated one, and a
kill at any moment leaves at worst a stray ``.NAME.RANDOM.tmp`` file, which the next command that
takes the campaign lock removes (``pbem.play.recovery``).
"""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write(path: Path, data: bytes | str, mode: int = 0o644) -> Path:
    """Replace ``path`` with ``data`` in one step (mode ``mode``; 0600 for secrets)."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = temporary(path)
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


def temporary(path: Path) -> tuple[int, Path]:
    """A new file beside ``path`` (mode 0600, opened for writing) and its name, ``.NAME.RANDOM.tmp``:
    what ``tempfile.mkstemp`` makes, without importing it (a cold pbem play spares ``shutil`` and
    the compression modules it brings)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp"
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:  # pragma: no cover - 48 random bits met a stray file
            continue


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

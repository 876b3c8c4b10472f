"""The floors a cold command is timed against: exactly the imports it makes outside the project.

A cold ``pbem status`` pays for starting Python, importing what it needs from outside pbem (click,
sqlite3, json, ...), and its own work. Its floor is the first two and nothing else: a process that
starts Python and imports the very modules the command imported from outside the project, found by
running the command once with a hook that lists ``sys.modules`` when it exits. A floor that imports
more (jinja2 for a command that never renders a page) hides the command's own start-up in the floor.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = ("pbem", "pbem_engine")  # our own packages: their import time is the command's, not the floor's

# Runs the command in this process (as `python -m pbem` would) and writes, when it exits, the modules it
# imported beyond those a bare interpreter starts with, in the order they were imported.
_LIST = """import sys
bare = set(sys.modules)
import atexit, json, runpy  # runpy: what `python -m pbem` runs by; json: pbem imports it anyway
out = sys.argv[1]
def _write():
    with open(out, "w") as f:
        json.dump([m for m in sys.modules if m not in bare], f)
atexit.register(_write)
sys.argv = ["pbem"] + sys.argv[2:]
runpy.run_module("pbem", run_name="__main__", alter_sys=True)
"""


def _outside(name: str) -> bool:
    return name.split(".")[0] not in PROJECT and not name.startswith("__")


def imports_of(args: list[str], env: dict[str, str] | None = None) -> list[str]:
    """The modules from outside the project that ``pbem ARGS`` imports, in import order."""
    with tempfile.TemporaryDirectory(prefix="pbem-floor-") as tmp:
        listing = Path(tmp) / "modules.json"
        subprocess.run([sys.executable, "-c", _LIST, str(listing), *args], capture_output=True,
                       env=env, stdin=subprocess.DEVNULL)
        names = json.loads(listing.read_text())
    return [n for n in names if _outside(n)]


def floor_command(modules: list[str], env: dict[str, str] | None = None) -> list[str]:
    """A process that imports ``modules`` and does nothing else. Names a plain ``import`` cannot
    take (a module that installs itself under another name) are left out, after one untimed try each."""
    probe = "import importlib, sys\nfor m in sys.argv[1:]:\n    try:\n        importlib.import_module(m)\n" \
            "        print(m)\n    except Exception:\n        pass\n"
    done = subprocess.run([sys.executable, "-c", probe, *modules], capture_output=True, text=True, env=env)
    importable = done.stdout.split()
    return [sys.executable, "-c", "import " + ", ".join(importable) if importable else "pass"]


def describe(modules: list[str]) -> str:
    """The floor in a few words: the outside packages it imports and how many modules in all."""
    tops = []
    for m in modules:
        top = m.split(".")[0].lstrip("_")
        if top not in tops:
            tops.append(top)
    third = [t for t in tops if t in _THIRD_PARTY]
    return (f"python importing the {len(modules)} modules it imports from outside pbem"
            f" ({', '.join(third) if third else 'standard library only'}, and the standard library)")


# The third-party packages pbem may import (pyproject's dependencies): named in a floor's description.
_THIRD_PARTY = ("click", "sqlite_utils", "sqlite_fts4", "cryptography", "nacl", "jinja2", "markupsafe", "orjson",
                "cffi", "tabulate", "dateutil", "pluggy")


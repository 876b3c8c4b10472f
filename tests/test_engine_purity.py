"""The engine is a pure library: no files, clocks, network, environment or global random."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"

FORBIDDEN_MODULES = {
    "os", "sys", "time", "datetime", "random", "socket", "pathlib", "io", "subprocess", "shutil",
    "tempfile", "glob", "secrets", "uuid", "urllib", "http", "ssl", "select", "asyncio", "threading",
    "multiprocessing", "sqlite3", "sqlite_utils", "click", "jinja2", "cryptography", "pbem", "tomllib",
    "locale", "platform", "signal", "getpass", "pickle", "importlib.resources",
}
FORBIDDEN_CALLS = {"open", "input", "print", "eval", "exec", "__import__", "breakpoint", "hash", "id"}


def engine_files():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 6, "the engine package was not found"
    return files


def violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        bad = [n for n in names if n in FORBIDDEN_MODULES or n.split(".")[0] in FORBIDDEN_MODULES]
        if bad:
            found.append(f"{path.name}:{node.lineno} imports {bad[0]}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
    return found


def test_engine_imports_and_calls_nothing_impure():
    problems = [v for path in engine_files() for v in violations(path)]
    assert problems == []


def test_the_checker_catches_impurity(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nfrom os import environ\nimport time as t\nx = open('f')\nh = hash('a')\n")
    found = violations(bad)
    assert len(found) == 5, found


def test_the_engine_imported_from_a_checkout_as_engine_fails_at_once_naming_pbem_engine():
    """A script that puts the checkout on its path and imports ``engine`` would get a second copy
    of the rules, whose refusals the installed copy's code does not recognise: it fails instead."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "import engine"], cwd=ENGINE.parent, capture_output=True, text=True)
    assert done.returncode == 1 and "ImportError" in done.stderr and "'pbem_engine'" in done.stderr, done.stderr
    ok = subprocess.run([sys.executable, "-c", "import pbem_engine.games.hill60"], cwd=ENGINE.parent,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr

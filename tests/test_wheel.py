"""What a user installs: the built wheel holds every module, pack, template and data file, and
everything loads from it; the suite itself runs against the installed package, not the checkout.

A test run inside a checkout could import the source folders and never notice a package
missing from the wheel (issue 10: ``pbem demo`` crashed on a fresh install for that reason).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# repository folder -> installed package path (as in setup.py)
FOLDERS = {"src/pbem": "pbem", "engine": "pbem_engine", "templates": "pbem/templates",
           "packs": "pbem/packs", "bench": "pbem/bench"}


def _source_files() -> dict[str, Path]:
    """Every file a user needs, by its path inside the wheel: all of those folders' files."""
    out: dict[str, Path] = {}
    for folder, installed in FOLDERS.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(base)
            if path.is_dir() or "__pycache__" in rel.parts or path.suffix == ".pyc":
                continue
            if folder == "src/pbem" and rel.parts[0] in {"templates", "packs", "bench"}:
                continue
            out[f"{installed}/{rel.as_posix()}"] = path
    return out


def _editable() -> bool:
    """True when pbem is installed in development (editable) mode."""
    try:
        text = metadata.distribution("pbem").read_text("direct_url.json") or "{}"
    except metadata.PackageNotFoundError:
        return False
    return bool(json.loads(text).get("dir_info", {}).get("editable"))


def test_the_suite_imports_the_installed_package_not_the_checkout():
    import pbem
    import pbem_engine

    dist = metadata.distribution("pbem")
    assert dist.version == pbem.__version__
    if _editable():
        pytest.skip("pbem is installed in editable mode: the checkout is the installed package")
    sources = [(ROOT / folder).resolve() for folder in FOLDERS]
    for module in (pbem, pbem_engine):
        where = Path(module.__file__).resolve()
        inside = [folder for folder in sources if folder in where.parents]
        assert not inside, f"{module.__name__} was imported from the checkout's {inside[0]}: {where}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # built from a copy, so that the build leaves nothing in the checkout
    source = tmp_path_factory.mktemp("source")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"pip wheel failed:\n{done.stdout}\n{done.stderr}")
    (built,) = out.glob("pbem-*.whl")
    return built


def test_the_wheel_holds_every_module_pack_template_and_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = _source_files()
    missing = sorted(set(expected) - names)
    assert not missing, f"missing from the wheel: {missing}"
    # spot checks that the sweep itself looks where it should
    for must in ("pbem_engine/games/gallipoli_blocks/RULES.md", "pbem/templates/report.html.j2",
                 "pbem/packs/assault-on-gallipoli/pack.toml", "pbem/bench/__init__.py", "pbem/cli.py"):
        assert must in expected and must in names, must
    top = {name.split("/")[0] for name in names if not name.startswith("pbem-")}
    assert top == {"pbem", "pbem_engine"}, f"top-level names installed: {sorted(top)}"


LOAD_EVERYTHING = r"""
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import pbem, pbem_engine
for m in (pbem, pbem_engine):
    assert Path(m.__file__).resolve().is_relative_to(Path(sys.argv[1]).resolve()), m.__file__
from pbem_engine.registry import BUILTIN_GAMES, get_game, tabletop_game
from pbem.chain import datapack
from pbem.view.report import environment, template_dir
from importlib import resources
games = [get_game(n).name for n in sorted(BUILTIN_GAMES) if n != "tabletop"]
packs = datapack.shipped()
assert len(packs) >= 4, packs
for name, folder in packs.items():
    pack = datapack.load(folder)
    tabletop_game(pack)
env = environment()
templates = sorted(p.name for p in template_dir().iterdir() if p.name.endswith(".j2"))
for t in templates:
    env.get_template(t)
rules = [p.name for p in resources.files("pbem_engine.games").iterdir() if (p / "RULES.md").is_file()]
import pbem.bench, pbem.cli
print(len(games), len(packs), len(templates), len(rules))
"""


def test_everything_loads_from_the_wheel(wheel, tmp_path):
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-P", "-c", LOAD_EVERYTHING, str(unpacked)], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    games, packs, templates, rules = map(int, done.stdout.split())
    from pbem_engine.registry import BUILTIN_GAMES

    assert games == len(BUILTIN_GAMES) - 1
    assert packs == len([p for p in (ROOT / "packs").iterdir() if (p / "pack.toml").is_file()])
    assert templates == len(list((ROOT / "templates").glob("*.j2")))
    assert rules == len(list((ROOT / "engine" / "games").glob("*/RULES.md")))

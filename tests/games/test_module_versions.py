"""Each game module's RULES.md names the module version it describes, and it is the module's own
``version`` (issue 29, item 13: Assault on Gallipoli's said "4" where the module was "5").  The
version a RULES.md gives is the one its opening part (before the first "##" heading) names; a
module whose opening names none is held only to never naming a version it has not reached."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem_engine.registry import BUILTIN_GAMES, get_game

GAMES = Path(__file__).resolve().parents[2] / "engine" / "games"
VERSION = re.compile(r"[Mm]odule version \"?(\d+)\"?")
MUST_SAY = {"assault-on-gallipoli", "blood-on-the-tigris"}  # theirs open with the version they describe


def rules_md(name: str) -> Path:
    return GAMES / BUILTIN_GAMES[name].split(":")[0].rsplit(".", 1)[1] / "RULES.md"


@pytest.mark.parametrize("name", sorted(n for n in BUILTIN_GAMES if n != "tabletop"))
def test_rules_md_names_the_modules_own_version(name: str) -> None:
    version = getattr(get_game(name), "version", None)
    path = rules_md(name)
    if version is None or not path.exists():
        pytest.skip(f"{name}: no version or no RULES.md")
    text = path.read_text()
    opening = text.split("\n## ", 1)[0]
    said = VERSION.findall(opening)
    if name in MUST_SAY:
        assert said, f"{path}: its opening names no module version"
    assert all(v == version for v in said[:1]), f"{path} says module version {said[0]}, the module is {version}"
    assert all(int(v) <= int(version) for v in VERSION.findall(text)), f"{path} names a version the module has not reached"

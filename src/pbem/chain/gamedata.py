"""A player's own game data for a rules module that takes it (``check_data``): the map, counters,
Scenario Booklets and fire modifiers he owns, one TOML file a part in a directory.

``pbem pack template MODULE DIR`` writes the module's own provisional tables there to start
from; ``pbem new MODULE --pack DIR`` (and ``pbem pack check --game MODULE DIR``) read them back,
checked whole by the module, and the parsed data travels in the signed invitation as the option
``data``.  The engine reads no file: reading and writing is here, at the edge.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from ..errors import PbemError
from ..store.files import atomic_write

MAX_FILE = 1 << 20  # a part's file is a few KB (a pack's, under 100 KB); anything larger is refused unread
MAX_DEPTH = 32  # tables and arrays inside one another: honest data is under 8; the invitation holds 48

HEADER = """# {module}: {part} ({what}).
# PROVISIONAL: pbem's reconstruction, not the publisher's (the rulebook lacks it; RULES.md gives
# each reason).  Put your copy's values in its place, or delete this file to keep ours; then
#   pbem pack check --game {module} {dir}
#   pbem new {module} --pack {dir} ...
"""
WHAT = {"map": "areas, edges with their flags, the landing table",
        "counters": "counter types, units and Leaders, each merged by id over ours",
        "scenarios": "the Scenario Booklets: any of the scenarios, each replacing ours whole",
        "fire": "the to-hit number and the modifiers' values, merged by name over ours"}


def read_file(path: Path) -> Any:
    """A data file of the player's (TOML, or JSON by its suffix), bounded: its size before it is
    parsed, its nesting after (walked without recursion; a parser's own recursion caught).

    :raises OSError: unreadable.  :raises ValueError: too large, not TOML/JSON, too deep.
    """
    if path.stat().st_size > MAX_FILE:
        raise ValueError(f"larger than {MAX_FILE // 1024} KB")
    text = path.read_text(encoding="utf-8")
    too_deep = f"nested deeper than {MAX_DEPTH} levels"
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except RecursionError:
        raise ValueError(too_deep) from None
    todo = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise ValueError(too_deep)
            todo.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return data


def game_of(module: str) -> Any:
    """The rules module, if it takes a player's own data (else a usage error)."""
    import click
    from pbem_engine.registry import UnknownGame, get_game

    try:
        game = get_game(module)
    except UnknownGame as e:
        raise PbemError("no such game module", str(e), code="bad-module") from None
    if not hasattr(game, "check_data"):
        raise click.UsageError(f"{module} takes no data of yours (--pack DIR is for table-top mode and "
                               "assault-on-gallipoli)")
    return game


def read(module: str, directory: Path) -> dict[str, Any]:
    """The parts found in ``directory``, parsed and checked whole by the module: every problem
    listed at once in one refusal (exit 1), nothing written."""
    game = game_of(module)
    parts = list(game.data_template())
    if not directory.is_dir():
        raise PbemError(f"no directory {directory}", "give the directory holding your data files", code="bad-data")
    found = {p: directory / f"{p}.toml" for p in parts if (directory / f"{p}.toml").is_file()}
    strays = sorted(f.name for f in directory.glob("*.toml") if f.stem not in parts and f.name != "pack.toml")
    if not found:
        raise PbemError(f"no game data in {directory}",
                        f"expected any of {', '.join(p + '.toml' for p in parts)}; "
                        f"'pbem pack template {module} DIR' writes ours to start from", code="bad-data")
    data: dict[str, Any] = {}
    problems = [f"{name}: not a part of the data (the parts are {', '.join(parts)})" for name in strays]
    for part, path in found.items():
        try:
            data[part] = read_file(path)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            problems.append(f"{path.name}: cannot read it: {str(e)[:200]}")
    problems += [f"{where}: not a whole number (the invitation holds whole numbers only)"
                 for where in fractions(data)]
    if not problems:
        problems = game.check_data(data)
    if problems:
        raise PbemError(f"your data in {directory} has {len(problems)} problem(s); nothing was written",
                        "\n  ".join(problems[:60]) + (f"\n  ... and {len(problems) - 60} more" if len(problems) > 60
                                                      else ""), code="bad-data")
    return data


def write_template(module: str, directory: Path) -> list[Path]:
    """The module's own tables, one commented TOML file a part; refuses to overwrite any."""
    game = game_of(module)
    template = game.data_template()
    paths = [directory / f"{part}.toml" for part in template]
    there = [p.name for p in paths if p.exists()]
    if there:
        raise PbemError(f"{directory} already holds {', '.join(there)}", "nothing was written; give an empty "
                        "directory or delete those files", code="exists")
    directory.mkdir(parents=True, exist_ok=True)
    for part, path in zip(template, paths):
        text = HEADER.format(module=module, part=part, what=WHAT.get(part, part), dir=directory) + "\n" + dumps(
            template[part])
        assert tomllib.loads(text) == template[part]  # what the player edits reads back as ours
        atomic_write(path, text)
    return paths


def fractions(value: Any, path: str = "") -> list[str]:
    """Where a parsed file holds a number that is not whole (the signed invitation has none)."""
    if isinstance(value, float):
        return [path or "the file"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in fractions(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in fractions(v, f"{path}[{i}]")]
    return []


# ------------------------------------------------------------------ a small TOML writer
BARE = re.compile(r"[A-Za-z0-9_-]+\Z")


def _key(k: str) -> str:
    return k if BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {type(v).__name__}")


def _long(v: Any) -> str:
    """A long list one item a line (an edge, a wave), so the player can edit it."""
    text = _value(v)
    if isinstance(v, list) and len(text) > 100:
        return "[\n" + "".join(f"    {_value(x)},\n" for x in v) + "]"
    return text


def dumps(table: dict[str, Any], path: tuple[str, ...] = ()) -> str:
    """Whole numbers, text, booleans, lists and tables as TOML: a table's plain values first,
    then its sub-tables as [headers] (tables inside lists as inline tables)."""
    lines = [f"{_key(k)} = {_long(v)}" for k, v in table.items() if not isinstance(v, dict)]
    out = "\n".join(lines) + ("\n" if lines else "")
    for k, v in table.items():
        if isinstance(v, dict):
            sub = path + (k,)
            if any(not isinstance(x, dict) for x in v.values()) or not v:
                out += f"\n[{'.'.join(_key(p) for p in sub)}]\n"
            out += dumps(v, sub)
    return out

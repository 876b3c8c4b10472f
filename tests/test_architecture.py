"""The product's rooms and the style rules they keep.

``src/pbem`` is laid out in rooms, one subpackage per concern, in layers: a module imports only
from its own room and the rooms below it (``LAYERS``), never upward; at most eight modules stay at
the top.  No module imports another's private names (``from .m import _name``, ``module._name``,
``obj._name`` where ``_name`` is not its own), no two modules import each other, directly or round
a longer circle (function-level imports count too; an import under ``if TYPE_CHECKING:``, for
annotations only, is never made and does not), and none is over 600 lines.  The engine
(``engine/``, installed as ``pbem_engine``) keeps the same rules among its own modules."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "pbem"
ENGINE = Path(__file__).resolve().parent.parent / "engine"
ALLOWED_PRIVATE = {"_exit", "_getframe", "_asdict", "_replace", "_fields", "_make"}  # the standard library's own
# the rooms, lowest first: a module may import its own room and those before it
LAYERS = ["errors", "limits", "store", "wire", "chain", "play", "view", "check", "mailbox", "web", "commands", "cli"]
# the engine's rooms, lowest first (``registry`` finds the games by name, never by an import)
ENGINE_LAYERS = ["canonical", "chance", "hidden", "protocol", "games", "registry"]
MAX_LINES = 600


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name inside it ('play.campaign', 'errors')."""
    found = {".".join(p.relative_to(root).with_suffix("").parts): p for p in sorted(root.rglob("*.py"))
             if p.stem != "__main__" and "__pycache__" not in p.parts}
    found = {name.removesuffix(".__init__") if name.endswith(".__init__") else name: p
             for name, p in found.items() if name != "__init__"}
    assert len(found) >= 20 or root != PACKAGE, "the pbem package was not found"
    return found


def room(module: str) -> str:
    return module.split(".")[0]


def _own_names(tree: ast.Module) -> set[str]:
    """Every name a module defines: its functions, classes, methods, globals and attributes it sets."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, (ast.Name, ast.Attribute)) and \
        ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _imported(node: ast.ImportFrom, name: str, known: set[str], package: str = "pbem"
              ) -> list[tuple[str, str | None]]:
    """(module of the package, imported name or None) for a relative or absolute import of it."""
    if node.level:
        parts = name.split(".")[:-1] if not _is_package(name, known) else name.split(".")
        parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
        base = ".".join(parts + ([node.module] if node.module else []))
    elif node.module and (node.module == package or node.module.startswith(package + ".")):
        base = node.module[len(package) + 1:]
    else:
        return []
    out = []
    for alias in node.names:
        full = f"{base}.{alias.name}" if base else alias.name
        if full in known:  # from . import history, from .play import campaign
            out.append((full, None))
        elif base in known:
            out.append((base, alias.name))
    return out


def _is_package(name: str, known: set[str]) -> bool:
    return any(other.startswith(name + ".") for other in known)


def analyse(root: Path = PACKAGE, package: str = "pbem") -> tuple[dict[str, set[str]], list[str]]:
    """(module -> modules of the package it imports, private-name violations)."""
    mods = modules(root)
    known = set(mods)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    problems: list[str] = []
    for name, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        own = _own_names(tree)
        typing_only = {id(n) for block in ast.walk(tree) if _is_type_checking(block)
                       for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in typing_only:  # never imported at run time: annotations only
                continue
            if isinstance(node, ast.ImportFrom):
                for target, imported in _imported(node, name, known, package):
                    graph[name].add(target)
                    if imported and imported.startswith("_") and not imported.startswith("__") and target != name:
                        problems.append(f"{name.replace('.', '/')}.py:{node.lineno} imports {target}.{imported}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(package + ".") and alias.name[len(package) + 1:] in known:
                        graph[name].add(alias.name[len(package) + 1:])
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                base = node.value
                if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                    continue
                if node.attr in own or node.attr in ALLOWED_PRIVATE:
                    continue
                problems.append(f"{name.replace('.', '/')}.py:{node.lineno} uses {ast.unparse(node)}")
        graph[name].discard(name)
    return graph, problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_uses_another_modules_private_names():
    _, problems = analyse()
    assert problems == []


def test_no_import_cycles_among_the_modules():
    graph, _ = analyse()
    assert cycles(graph) == []


def test_no_import_cycles_in_the_engine():
    graph, problems = analyse(ENGINE, "pbem_engine")
    assert cycles(graph) == []
    assert problems == []


def upward(graph: dict[str, set[str]], layers: list[str] = LAYERS) -> list[str]:
    """Imports of a room above the importer's (``layers``): each 'a -> b'."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if layers.index(room(b)) > layers.index(room(a)))


def test_the_engine_keeps_its_rooms_and_no_game_imports_another():
    graph, _ = analyse(ENGINE, "pbem_engine")
    assert {room(m) for m in graph} == set(ENGINE_LAYERS)
    assert upward(graph, ENGINE_LAYERS) == []
    assert sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if room(a) == room(b) == "games" and a.split(".")[:2] != b.split(".")[:2]) == []
    for folder in sorted(p for p in ENGINE.iterdir() if (p / "__init__.py").is_file()):
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text())) or ""
        assert "May import" in doc, f"engine/{folder.name}/__init__.py: say what it holds and may import"


def test_every_room_imports_only_its_own_and_the_rooms_below():
    graph, _ = analyse()
    assert {room(m) for m in graph} <= set(LAYERS)
    assert upward(graph) == []


def test_the_top_holds_at_most_eight_modules_and_every_room_says_what_it_may_import():
    top = [p for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")]
    assert len(top) <= 8, sorted(p.name for p in top)
    for folder in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()):
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text())) or ""
        assert "May import" in doc and len(doc) > 80, f"{folder.name}/__init__.py: say what it holds and may import"


def test_no_module_is_over_600_lines():
    long = [f"{p.relative_to(p.parents[2])}: {n}" for root in (PACKAGE, ENGINE) for p in sorted(root.rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert long == []


def test_the_checker_catches_private_imports_and_cycles(tmp_path):
    for n in range(20):
        (tmp_path / f"filler{n}.py").write_text("")
    (tmp_path / "a.py").write_text("from .b import _hidden, shown\n\ndef f(camp):\n    return camp._secret()\n")
    (tmp_path / "b.py").write_text("def g():\n    from . import c\n    return c\n\ndef _hidden():\n    pass\n"
                                   "\ndef shown(x):\n    return x._own()\n\ndef _own():\n    pass\n")
    (tmp_path / "c.py").write_text("from pbem.a import shown\nimport os\nos._exit(0)\n")
    (tmp_path / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .e import E\n")
    (tmp_path / "e.py").write_text("from . import d\n")
    (tmp_path / "room").mkdir()
    (tmp_path / "room" / "__init__.py").write_text("")
    (tmp_path / "room" / "f.py").write_text("from ..a import shown\nfrom . import g\n")
    (tmp_path / "room" / "g.py").write_text("def h():\n    from .f import shown\n")
    graph, problems = analyse(tmp_path)
    assert problems == ["a.py:1 imports b._hidden", "a.py:4 uses camp._secret"]
    assert cycles(graph) == [["a", "b", "c"], ["room.f", "room.g"]]
    assert graph["room.f"] == {"a", "room.g"}

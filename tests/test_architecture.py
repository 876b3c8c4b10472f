"""The product's modules keep to the style rule: no module imports another's private names
(``from .m import _name``, ``module._name``, ``obj._name`` where ``_name`` is not its own), and
no two modules import each other, directly or round a longer circle (function-level imports
count too; an import under ``if TYPE_CHECKING:``, for annotations only, is never made and
does not)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "pbem"
ALLOWED_PRIVATE = {"_exit", "_getframe", "_asdict", "_replace", "_fields", "_make"}  # the standard library's own


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    found = {p.stem: p for p in sorted(root.glob("*.py")) if p.stem not in ("__init__", "__main__")}
    assert len(found) >= 20 or root != PACKAGE, "the pbem package was not found"
    return found


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


def _imported(node: ast.ImportFrom, name: str, known: set[str]) -> list[tuple[str, str | None]]:
    """(module of the package, imported name or None) for a relative or ``pbem.`` import."""
    if node.level == 1:
        base = node.module
    elif node.level == 0 and node.module and (node.module == "pbem" or node.module.startswith("pbem.")):
        base = node.module[len("pbem."):] if node.module != "pbem" else None
    else:
        return []
    out = []
    for alias in node.names:
        if base is None:  # from . import history
            if alias.name in known:
                out.append((alias.name, None))
        elif base in known:
            out.append((base, alias.name))
    return out


def analyse(root: Path = PACKAGE) -> tuple[dict[str, set[str]], list[str]]:
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
                for target, imported in _imported(node, name, known):
                    graph[name].add(target)
                    if imported and imported.startswith("_") and not imported.startswith("__") and target != name:
                        problems.append(f"{name}.py:{node.lineno} imports {target}.{imported}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("pbem.") and alias.name[5:] in known:
                        graph[name].add(alias.name[5:])
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                base = node.value
                if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                    continue
                if node.attr in own or node.attr in ALLOWED_PRIVATE:
                    continue
                problems.append(f"{name}.py:{node.lineno} uses {ast.unparse(node)}")
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


def test_the_checker_catches_private_imports_and_cycles(tmp_path):
    for n in range(20):
        (tmp_path / f"filler{n}.py").write_text("")
    (tmp_path / "a.py").write_text("from .b import _hidden, shown\n\ndef f(camp):\n    return camp._secret()\n")
    (tmp_path / "b.py").write_text("def g():\n    from . import c\n    return c\n\ndef _hidden():\n    pass\n"
                                   "\ndef shown(x):\n    return x._own()\n\ndef _own():\n    pass\n")
    (tmp_path / "c.py").write_text("from pbem.a import shown\nimport os\nos._exit(0)\n")
    (tmp_path / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .e import E\n")
    (tmp_path / "e.py").write_text("from . import d\n")
    graph, problems = analyse(tmp_path)
    assert problems == ["a.py:1 imports b._hidden", "a.py:4 uses camp._secret"]
    assert cycles(graph) == [["a", "b", "c"]]

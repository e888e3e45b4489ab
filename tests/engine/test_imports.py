"""No import cycle in engine/: every module can be understood (and imported) before the ones that import it.

The graph is read from the source with `ast`, every import counted wherever it stands (a cycle hidden inside
a function is still a cycle), except imports only for type checking. It is the graph of the whole package: importing
`engine.core.orders` first runs `engine/core/__init__.py`, so a module depends on the packages above what it imports
too (not on its own packages, which are already importing when it runs).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports."""
    paths = {module_name(p): p for p in ENGINE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in paths else base)
        own = set(ancestors(name))
        packages = {p for t in targets for p in ancestors(t) if p not in own}
        graph[name] = {t for t in targets | packages if t in paths and t != name}
    return graph


def ancestors(module: str) -> list[str]:
    """The packages a module's import runs first: `a`, `a.b` for `a.b.c`."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_the_graph_sees_the_engine() -> None:
    graph = import_graph()
    assert len(graph) == len(list(ENGINE.rglob("*.py")))
    assert "engine.rulesets.lote_modern.orderform" in graph
    assert "engine.core.errors" in graph["engine.core.ruleset"]
    # a module of one ruleset importing engine.core.* depends on engine/core/__init__.py as well
    assert "engine.core" in graph["engine.rulesets.lote_modern.orderform"]
    # and a handler does not depend on its own package, already importing when it runs
    assert "engine.rulesets.lote_modern.handlers" not in graph["engine.rulesets.lote_modern.handlers.leaders"]


def test_a_cycle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_in_the_engine() -> None:
    assert cycles(import_graph()) == []

"""No import circles inside the tournaments app, not even through an import inside a function: a circle means a
subject is split across files (STYLE.md). Reads (selectors, the clock's state, prizes) never import services."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """{module: the modules of `package` it imports}, every import counted (a function's own too). `from a import b`
    points at `a.b` when that is a module of the package, else at `a`; importing a submodule does not count as
    importing its parent package's `__init__` (Python runs it, but it names no subject)."""
    files = {module_name(path, root): path for path in (root / package).rglob("*.py") if "migrations" not in path.parts}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    targets.add(submodule if submodule in files else base)
        graph[name] = {target for target in targets if target in files and target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_tournaments_has_no_import_circle():
    assert circles(import_graph("tournaments")) == []


def test_reads_never_import_services():
    graph = import_graph("tournaments")
    for reader in ("tournaments.selectors", "tournaments.clock", "tournaments.prizes"):
        assert not {name for name in graph.get(reader, set()) if name.startswith("tournaments.services")}, reader


def test_the_walk_finds_a_circle_through_a_function_level_import(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    (tmp_path / "tournaments").mkdir()
    (tmp_path / "tournaments" / "__init__.py").write_text("")
    (tmp_path / "tournaments" / "reads.py").write_text("def later():\n    from tournaments import writes\n")
    (tmp_path / "tournaments" / "writes.py").write_text("from .reads import later\n")
    (tmp_path / "tournaments" / "apart.py").write_text("from tournaments.reads import later\n")
    assert circles(import_graph("tournaments", tmp_path)) == [["tournaments.reads", "tournaments.writes"]]

"""No import circles inside games/online, the tournaments app or the engine, not even through an import inside a
function: a circle means a subject is split across files (STYLE.md). Online play's modules share only public
names, and the tournaments app reaches online play only through its public modules (services, selectors, models,
the stream)."""

import ast
import re

import pytest

from tests.engine.imports import imports_run
from tests.tournaments.test_import_circles import ROOT, circles, import_graph, module_name

# What the tournaments app may import of online play: the writes (the services package's public names), the
# reads, the rows, and the live stream it shares.
PUBLIC = {"games.online.services", "games.online.selectors", "games.online.models", "games.online.stream"}


def engine_graph() -> dict[str, set[str]]:
    """The engine's runtime imports, function-level ones included (a `TYPE_CHECKING` import runs never)."""
    files = {module_name(path): path for path in (ROOT / "games" / "engine").rglob("*.py")}
    return {name: {m for m in imports_run(path, files) if m in files and m != name} for name, path in files.items()}


@pytest.mark.parametrize("package", ["games/online", "tournaments"])
def test_no_import_circle(package):
    graph = import_graph(package)
    assert len(graph) > 10  # the walk found the package's modules
    assert circles(graph) == []


def test_no_import_circle_anywhere_in_games():
    """The whole games app (online, real-cards tables, words and rules pages, the engine) at run time: an import
    under `TYPE_CHECKING` runs never and does not count; a function's own import does."""
    files = {module_name(path): path for path in (ROOT / "games").rglob("*.py") if "migrations" not in path.parts}
    graph = {name: {m for m in imports_run(path, files) if m in files and m != name} for name, path in files.items()}
    assert "games.phases" in graph["games.words"]
    assert circles(graph) == []


def test_no_import_circle_in_the_engine():
    graph = engine_graph()
    assert "games.engine.serialize" in graph["games.engine.state"]  # a function-level import is seen
    assert circles(graph) == []


def documented_layers(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """docs/architecture.md's table of games/online: {module: what it may import of games/online}. A row's last cell
    names modules (`turns`: `services/turns.py` when there is one, else `turns.py`) or says "all below"; every
    module may import the rows (`models`) and who may do what (`permissions`)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("### games/online, one module per subject")[1].split("\n### ")[0]
    order, last_cells = [], {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", cells[0]) if line.startswith("| `") else []
        if len(names) == 1:
            module = "games.online." + names[0].removesuffix(".py").replace("/", ".")
            order.append(module)
            last_cells[module] = cells[-1]

    def resolve(name: str) -> str:
        inside = f"games.online.services.{name}"
        return inside if inside in graph else f"games.online.{name}"

    layers = {}
    for index, module in enumerate(order):
        cell = last_cells[module]
        named = set(order[index + 1 :]) if cell == "all below" else {resolve(n) for n in re.findall(r"`([^`]+)`", cell)}
        layers[module] = named | {"games.online.models", "games.online.permissions"}
    return layers


def test_online_modules_import_only_what_the_architecture_allows():
    graph = import_graph("games/online")
    layers = documented_layers(graph)
    services = {name for name in graph if name.startswith("games.online.services.")}
    assert services <= set(layers), f"undocumented: {sorted(services - set(layers))}"
    assert layers["games.online.services.base"] == {"games.online.models", "games.online.permissions"}
    beyond = {module: sorted(graph[module] - allowed) for module, allowed in layers.items() if graph[module] - allowed}
    assert beyond == {}


def test_the_online_walk_sees_every_import():
    """The online graph holds the imports inside functions and `from package import module` as the module."""
    graph = import_graph("games/online")
    assert "games.online.services.turns" in graph["games.online.services.moves"]
    assert "games.online.services.moves" in graph["games.online.services.acting"]


def test_the_walk_finds_an_online_circle_through_a_function_level_import(tmp_path):
    online = tmp_path / "games" / "online" / "services"
    online.mkdir(parents=True)
    for folder in (tmp_path / "games", tmp_path / "games" / "online", online):
        (folder / "__init__.py").write_text("")
    (online / "turns.py").write_text("def later():\n    from games.online.services import moves\n")
    (online / "moves.py").write_text("from games.online.services.turns import later\n")
    assert circles(import_graph("games/online", tmp_path)) == [
        ["games.online.services.moves", "games.online.services.turns"]
    ]


def private_imports(package: str, *, inside: str) -> list[str]:
    """Each `from X import _name` in `package` where X is a module under `inside` other than the importer."""
    found = []
    for path in (ROOT / package).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(inside):
                found += [
                    f"{module_name(path)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and node.module != module_name(path)
                ]
    return found


def test_online_modules_share_public_names_only():
    assert private_imports("games/online", inside="games.online") == []


def test_tournaments_reach_online_play_through_its_public_modules():
    assert private_imports("tournaments", inside="games") == []
    reached = {target for targets in _tournament_imports().values() for target in targets}
    assert "games.online.services" in reached
    assert {target for target in reached if target.startswith("games.online")} <= PUBLIC


def _tournament_imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / "tournaments").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games.online"):
                # `from games.online import services` reaches the module `games.online.services`.
                names = [
                    f"{node.module}.{alias.name}" if node.module == "games.online" else node.module
                    for alias in node.names
                ]
            found.setdefault(module_name(path), set()).update(names)
    return found

"""What a module imports when it runs, read from its source (for the layering and bot tests)."""

import ast
from collections.abc import Container
from pathlib import Path


def imports_run(path: Path, modules: Container[str]) -> set[str]:
    """Every module `path` imports when it runs: at module level and inside functions (not `TYPE_CHECKING`)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                # `from games.engine import views` imports the module `games.engine.views`.
                child = f"{node.module}.{alias.name}"
                found.add(child if child in modules else node.module)
    return found

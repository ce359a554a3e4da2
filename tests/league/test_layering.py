"""Apps depend one way (docs/architecture.md): config <- league <- games <- tournaments, and accounts beside
games on league. Every import counts, a function's own included; nothing is excused."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "league", "accounts", "games", "tournaments")
# What each app may import of the others: everything not listed is refused, in every direction.
MAY_IMPORT = {
    "config": set(),
    "league": {"config"},
    "accounts": {"config", "league"},
    "games": {"config", "league"},
    "tournaments": {"config", "league", "games"},
}


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Every module a file imports, at its top or inside a function (relative imports resolved)."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.add(node.module)
    return names


def app_imports(app: str, root: Path = ROOT) -> dict[str, set[str]]:
    """{file: the other apps it imports} for every Python file of an app (migrations included)."""
    found = {}
    for path in sorted((root / app).rglob("*.py")):
        others = {name.split(".")[0] for name in imported_modules(path, root)} & set(APPS) - {app}
        if others:
            found[str(path.relative_to(root))] = others
    return found


@pytest.mark.parametrize(
    ("app", "other"), [(app, other) for app in APPS for other in APPS if other != app and other not in MAY_IMPORT[app]]
)
def test_an_app_imports_only_the_apps_below_it(app, other):
    offenders = sorted(path for path, others in app_imports(app).items() if other in others)
    assert offenders == [], f"{app} must not import {other}: {offenders}"


def test_the_allowed_directions_are_used_and_form_no_circle():
    # The map is honest: every allowed direction is one the code takes, and no two apps may import each other.
    used = {app: set().union(*app_imports(app).values()) for app in APPS}
    assert {app: used[app] for app in APPS} == MAY_IMPORT
    for app, allowed in MAY_IMPORT.items():
        assert all(app not in MAY_IMPORT[other] for other in allowed)


def test_the_check_sees_an_import_inside_a_function_and_a_relative_one(tmp_path):
    (tmp_path / "league" / "views").mkdir(parents=True)
    (tmp_path / "league" / "probe.py").write_text("def later():\n    from games.models import Game\n    return Game\n")
    (tmp_path / "league" / "views" / "probe.py").write_text("from ..tournaments import x\nimport accounts.views\n")
    found = app_imports("league", tmp_path)
    assert found == {"league/probe.py": {"games"}, "league/views/probe.py": {"accounts"}}

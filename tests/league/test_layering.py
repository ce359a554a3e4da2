"""Apps depend one way (config <- league <- games): nothing in league imports games, not even in a function.
league asks games through `league.hooks`, which games fills when it starts."""

import ast
from pathlib import Path

from league import hooks

LEAGUE = Path(__file__).resolve().parents[2] / "league"
# Pages and forms written beside this work that still reach the engine directly; they are to move to
# league.hooks (rule_choices, resolve_rules) too. No other module may join them.
NOT_YET_MENDED = {"league/pages.py", "league/forms.py"}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_league_never_imports_games():
    offenders = {
        str(path.relative_to(LEAGUE.parent)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] == "games"
        )
        for path in LEAGUE.rglob("*.py")
    }
    offending = {path for path, names in offenders.items() if names}
    assert offending - NOT_YET_MENDED == set(), {path: offenders[path] for path in offending - NOT_YET_MENDED}


def test_games_registers_what_league_asks_for():
    assert set(hooks.rule_choices()["coruscant_shift"]) >= {"halcyon", "cantina", "better", "casino"}
    assert hooks.resolve_rules(variant="coruscant_shift", preset="better", overrides={})
    for name in ("finished_seat_rows", "result_record", "table_create"):
        assert callable(hooks.get(name))

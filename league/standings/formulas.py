"""Points formulas: small pluggable classes, each with a key, a name and one function.

`points(result, parameters)` turns one player's place in one event into points. The
registry `FORMULAS` maps keys to classes; `validate_parameters` is called when a league
or season is saved so a bad table or expression is refused then, not at computation.
"""

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from config.errors import ApplicationError


@dataclass(frozen=True)
class PlaceResult:
    """What a formula may look at: one player's result in one event."""

    players: int
    place: int
    buy_in: int = 0
    prize_pool: int = 0
    rebuys: int = 0
    knockouts: int = 0


class PointsFormula:
    key: ClassVar[str]
    name: ClassVar[str]

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        raise NotImplementedError

    def validate_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        """Return the cleaned parameters or raise ApplicationError."""
        return {}


class FixedPoints(PointsFormula):
    """Points from an editable table: place 1 gets table[0], and so on; places past the table get 0."""

    key = "fixed"
    name = "Fixed points per place"
    default_table: ClassVar[list[float]] = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        table = parameters.get("table") or self.default_table
        return float(table[result.place - 1]) if result.place <= len(table) else 0.0

    def validate_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        table = parameters.get("table", self.default_table)
        if (
            not isinstance(table, list)
            or not table
            or not all(isinstance(x, int | float) and not isinstance(x, bool) and x >= 0 for x in table)
        ):
            raise ApplicationError(
                "The fixed points table must be a non-empty list of numbers of at least 0, first place first, "
                "e.g. [25, 18, 15].",
                extra={"field": "points_parameters.table"},
            )
        return {"table": table}


class LinearPoints(PointsFormula):
    """`n - place + 1`: the winner of an n-player event gets n points, the last gets 1."""

    key = "linear"
    name = "Linear (n - place + 1)"

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        return float(result.players - result.place + 1)


class SquareRootPoints(PointsFormula):
    """`10 * sqrt(n) / sqrt(place)`: bigger fields are worth more, with diminishing returns."""

    key = "sqrt"
    name = "Square root (10 * sqrt(n) / sqrt(place))"

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        return 10 * math.sqrt(result.players) / math.sqrt(result.place)


class LogarithmicPoints(PointsFormula):
    """`ln((n + 1) / place)`: the classic home-game formula."""

    key = "log"
    name = "Logarithmic (ln((n + 1) / place))"

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        return math.log((result.players + 1) / result.place)


class CustomPoints(PointsFormula):
    """An organiser's own expression over named variables, evaluated safely (simpleeval, never eval)."""

    key = "custom"
    name = "Custom formula"
    variables: ClassVar[tuple[str, ...]] = ("players", "place", "buy_in", "prize_pool", "rebuys", "knockouts")
    functions: ClassVar[dict[str, Any]] = {
        "sqrt": math.sqrt,
        "ln": math.log,
        "log10": math.log10,
        "min": min,
        "max": max,
        "abs": abs,
        "round": round,
    }
    max_length = 300

    def _evaluate(self, expression: str, names: dict[str, Any]) -> float:
        from simpleeval import SimpleEval

        evaluator = SimpleEval(names=names, functions=self.functions)
        value = evaluator.eval(expression)
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value) or math.isinf(value):
            raise ValueError("the formula must give a finite number")
        return float(value)

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        names = {name: getattr(result, name) for name in self.variables}
        return self._evaluate(parameters["expression"], names)

    def validate_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        allowed = ", ".join(self.variables)
        functions = ", ".join(self.functions)
        expression = parameters.get("expression")
        if not isinstance(expression, str) or not expression.strip() or len(expression) > self.max_length:
            raise ApplicationError(
                f"A custom formula needs an expression of 1 to {self.max_length} characters over {allowed}, "
                "e.g. 'players - place + 1'.",
                extra={"field": "points_parameters.expression"},
            )
        # Try it on a few sample results: unknown names, attributes, calls and runaway sizes are refused now.
        samples = [
            PlaceResult(players=n, place=p, buy_in=450, prize_pool=450 * n, rebuys=1, knockouts=1)
            for n, p in ((2, 1), (2, 2), (8, 3), (12, 12))
        ]
        for sample in samples:
            try:
                self._evaluate(expression, {name: getattr(sample, name) for name in self.variables})
            except Exception as exc:
                raise ApplicationError(
                    f"The custom formula {expression!r} cannot be used: {exc}. Use numbers, + - * / ** ( ), "
                    f"the variables {allowed} and the functions {functions}.",
                    extra={"field": "points_parameters.expression"},
                ) from exc
        return {"expression": expression.strip()}


FORMULAS: dict[str, PointsFormula] = {
    formula.key: formula
    for formula in (FixedPoints(), LinearPoints(), SquareRootPoints(), LogarithmicPoints(), CustomPoints())
}


def get_formula(key: str) -> PointsFormula:
    try:
        return FORMULAS[key]
    except KeyError:
        raise ApplicationError(
            f"Unknown points formula {key!r}; choose one of {', '.join(FORMULAS)}.", extra={"field": "points_formula"}
        ) from None


def validate_formula(key: str, parameters: dict[str, Any] | None) -> dict[str, Any]:
    """Check a formula key and its parameters; return the cleaned parameters."""
    if parameters is not None and not isinstance(parameters, dict):
        raise ApplicationError("Points parameters must be an object.", extra={"field": "points_parameters"})
    return get_formula(key).validate_parameters(parameters or {})

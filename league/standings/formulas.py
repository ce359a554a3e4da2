"""Points formulas: small pluggable classes, each with a key, a name and one function.

`points(result, parameters)` turns one player's place in one event into points. The
registry `FORMULAS` maps keys to classes; `validate_parameters` is called when a league
or season is saved so a bad table or expression is refused then, not at computation.
"""

import ast
import logging
import math
import operator
from dataclasses import dataclass
from typing import Any, ClassVar

from config.errors import ApplicationError

logger = logging.getLogger(__name__)


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
    max_places = 1000
    max_points = 1_000_000

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        table = parameters.get("table") or self.default_table
        return float(table[result.place - 1]) if result.place <= len(table) else 0.0

    def validate_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        table = parameters.get("table", self.default_table)
        if (
            not isinstance(table, list)
            or not table
            or len(table) > self.max_places
            or not all(
                isinstance(x, int | float)
                and not isinstance(x, bool)
                and math.isfinite(x)
                and 0 <= x <= self.max_points
                for x in table
            )
        ):
            raise ApplicationError(
                f"The fixed points table must be a non-empty list of numbers from 0 to {self.max_points:,} "
                f"(at most {self.max_places} places), first place first, e.g. [25, 18, 15].",
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
    max_exponent = 100
    sample_players = 64

    @staticmethod
    def _power(base: Any, exponent: Any) -> float:
        """`**` in float arithmetic with a small exponent: huge results fail at once instead of running for seconds."""
        if abs(exponent) > CustomPoints.max_exponent:
            raise ValueError(f"exponents above {CustomPoints.max_exponent} are not allowed")
        return float(base) ** float(exponent)

    # Arithmetic and comparisons only; no bit shifts or membership tests.
    operators: ClassVar[dict[type, Any]] = {
        ast.Add: operator.add,
        ast.Sub: operator.sub,
        ast.Mult: operator.mul,
        ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod,
        ast.Pow: _power,
        ast.USub: operator.neg,
        ast.UAdd: operator.pos,
        ast.Not: operator.not_,
        ast.Eq: operator.eq,
        ast.NotEq: operator.ne,
        ast.Gt: operator.gt,
        ast.Lt: operator.lt,
        ast.GtE: operator.ge,
        ast.LtE: operator.le,
    }

    def _evaluate(self, expression: str, names: dict[str, Any]) -> float:
        from simpleeval import SimpleEval

        evaluator = SimpleEval(names=names, functions=self.functions, operators=self.operators)
        value = evaluator.eval(expression)
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value) or math.isinf(value):
            raise ValueError("the formula must give a finite number")
        return float(value)

    def points(self, result: PlaceResult, parameters: dict[str, Any]) -> float:
        names = {name: getattr(result, name) for name in self.variables}
        try:
            return self._evaluate(parameters["expression"], names)
        except Exception:
            # A result past the checked samples (e.g. a division by zero at 100 players) scores 0 rather than
            # stopping every standings table of the league.
            logger.warning("custom formula %r gave no number for %s; scored 0", parameters.get("expression"), result)
            return 0.0

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
        # Try it on sample results: every place of events of up to 64 players, with and without buy-ins,
        # re-buys and knock-outs. Unknown names, attributes, calls, runaway sizes and divisions by zero
        # are refused now, not when standings are computed.
        samples = [
            PlaceResult(players=n, place=p, buy_in=b, prize_pool=b * n, rebuys=r, knockouts=min(k, n - 1))
            for n in range(1, self.sample_players + 1)
            for p in range(1, n + 1)
            for b, r, k in ((450, 1, 1), (0, 0, 0), (1000, 3, n - 1))
        ]
        for sample in samples:
            try:
                self._evaluate(expression, {name: getattr(sample, name) for name in self.variables})
            except Exception as exc:
                reason = str(exc).rstrip(".")
                raise ApplicationError(
                    f"The custom formula {expression!r} cannot be used: {reason}. Use numbers, + - * / ** ( ), "
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

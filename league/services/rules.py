"""Checks of a league's or season's settings: game rules (asked of the games app's provider, `league.providers`),
points formula, tie-breakers and counts. Services, model `clean()` and admin forms all call these,
so invalid settings cannot be saved from any entry point."""

from typing import Any

from config.errors import ApplicationError
from league.models import MAX_COUNT, League, Season, Visibility
from league.providers import RulesRefused, games
from league.services.common import Refusals
from league.standings.compute import Rules
from league.standings.formulas import validate_formula
from league.standings.metrics import validate_tie_breakers


def resolve_game_rules(*, variant: str, preset: str, overrides: dict | None) -> dict[str, Any]:
    """The engine's full option set for these rules; an engine refusal becomes a user error."""
    if overrides is not None and not isinstance(overrides, dict):
        raise ApplicationError(
            "Option overrides must be an object of option names to values.", extra={"field": "option_overrides"}
        )
    if not isinstance(variant, str) or not isinstance(preset, str):
        raise ApplicationError("The variant and the preset are names (text).", extra={"field": "rules"})
    try:
        return games().resolve_rules(variant=variant, preset=preset, overrides=overrides or {})
    except RulesRefused as exc:
        raise ApplicationError(f"These game rules are not allowed: {exc}", extra={"field": "rules"}) from exc


def _title(name: str) -> str:
    return name.replace("_", " ").title()


def _presets_in_words(variant: str) -> str:
    presets = list(games().rule_choices().get(variant, ()))
    return ", ".join(presets[:-1]) + f" or {presets[-1]}" if len(presets) > 1 else "".join(presets)


def _check_variant_and_preset(variant: Any, preset: Any) -> None:
    """Both named: a variant with no preset (an empty selection on the form) is refused, naming the presets."""
    variants = games().rule_choices()
    if not variant:
        raise ApplicationError(
            f"Choose a variant ({', '.join(variants)}) and one of its presets.", extra={"field": "variant"}
        )
    if not preset and isinstance(variant, str) and variant in variants:
        raise ApplicationError(
            f"Choose a preset of {_title(variant)}: {_presets_in_words(variant)} (the preset sets every option "
            "you do not change).",
            extra={"field": "preset"},
        )
    if not preset:
        raise ApplicationError("A league needs a variant and a preset.", extra={"field": "rules"})


def check_rules(fields: dict[str, Any], *, fallback: League | None = None) -> None:
    """Validate rules, points and tie-breakers present in `fields` (in place: cleaned values replace raw ones).
    Every wrong field is reported at once (`Refusals`)."""
    refusals = Refusals()
    if {"variant", "preset", "option_overrides"} & fields.keys():
        with refusals.check():
            variant = fields.get("variant") or (fallback.variant if fallback else "")
            preset = fields.get("preset") or (fallback.preset if fallback else "")
            _check_variant_and_preset(variant, preset)
            resolve_game_rules(variant=variant, preset=preset, overrides=fields.get("option_overrides") or {})
    if "points_formula" in fields or "points_parameters" in fields:
        with refusals.check():
            key = fields.get("points_formula") or (fallback.points_formula if fallback else "")
            fields["points_parameters"] = validate_formula(key, fields.get("points_parameters") or {})
    if "tie_breakers" in fields:
        with refusals.check():
            fields["tie_breakers"] = validate_tie_breakers(fields["tie_breakers"])
    # Each count by the name the league's form gives it (the API's field name is in `extra.field`).
    for key, label, minimum, nullable in (
        ("best_n", "Best N events count", 1, True),
        ("min_players", "Minimum players", 1, False),
    ):
        value = fields.get(key)
        if key not in fields or (value is None and nullable):
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_COUNT:
            blank = " (or blank, null in the API, for every event)" if nullable else ""
            with refusals.check():
                raise ApplicationError(
                    f"{label} ({key}) must be a whole number from {minimum} to {MAX_COUNT:,}{blank}; got {value!r}.",
                    extra={"field": key},
                )
    if "visibility" in fields and fields["visibility"] not in Visibility.values:
        with refusals.check():
            raise ApplicationError(
                f"Visibility must be one of {', '.join(Visibility.values)}.", extra={"field": "visibility"}
            )
    refusals.raise_any()


def _check_season_variant(rules: dict[str, Any], league: League) -> None:
    """A season naming another variant than its league's names one of that variant's presets: the league's
    preset is another variant's (blank with the league's own variant keeps the league's preset)."""
    variant = rules.get("variant")
    if (
        isinstance(variant, str)
        and not rules.get("preset")
        and variant != league.variant
        and variant in games().rule_choices()
    ):
        raise ApplicationError(
            f"A season of {_title(variant)} needs one of its presets: {_presets_in_words(variant)}; the league's "
            f"preset ({league.preset}) is {_title(league.variant)}'s. Choose one, or leave the variant blank to keep "
            "the league's rules.",
            extra={"field": "preset"},
        )


def check_season_rules(fields: dict[str, Any], league: League) -> None:
    """A season's dates and its overrides of the league's rules and points (in place, like `check_rules`), every
    wrong field at once."""
    refusals = Refusals()
    starts, ends = fields.get("starts_on"), fields.get("ends_on")
    if starts and ends and ends < starts:
        with refusals.check():
            raise ApplicationError(
                "A season cannot end before it starts: its end date (ends_on) must be on or after its start date "
                "(starts_on).",
                extra={"field": "ends_on"},
            )
    rules = {k: fields[k] for k in ("variant", "preset", "option_overrides") if fields.get(k)}
    if rules:
        with refusals.check():
            _check_season_variant(rules, league)
            resolve_game_rules(
                variant=rules.get("variant") or league.variant,
                preset=rules.get("preset") or league.preset,
                overrides={**(league.option_overrides or {}), **(rules.get("option_overrides") or {})},
            )
    with refusals.check():
        if fields.get("points_formula"):
            fields["points_parameters"] = validate_formula(
                fields["points_formula"], fields.get("points_parameters") or {}
            )
        elif fields.get("points_parameters"):
            raise ApplicationError(
                "Season points parameters need a points formula; set points_formula as well.",
                extra={"field": "points_parameters"},
            )
    refusals.raise_any()


def seasons_under_rules_check(league: League, rules: dict[str, Any]) -> None:
    """A change of a league's rules (`rules`: its variant, preset and overrides as they would be) keeps every season's
    own rules valid: a season that leaves its variant or preset blank, or overrides an option, inherits from the
    league, so a new variant can leave it naming another variant's preset or options. Refused naming each season."""
    changed = League(
        pk=league.pk,
        variant=rules.get("variant") or league.variant,
        preset=rules.get("preset") or league.preset,
        option_overrides=rules.get("option_overrides") if "option_overrides" in rules else league.option_overrides,
    )
    broken = []
    for season in league.seasons.order_by("starts_on", "pk"):
        fields = {key: getattr(season, key) for key in ("variant", "preset", "option_overrides")}
        try:
            check_season_rules(fields, changed)
        except ApplicationError as exc:
            broken.append(f"season {season.name!r}: {exc.message}")
    if broken:
        raise ApplicationError(
            "These league rules would leave a season's own rules invalid, so nothing was changed: "
            + "; ".join(broken)
            + ". Change that season's variant, preset or option overrides first (or choose league rules they fit).",
            extra={"field": "variant" if "variant" in rules else "rules"},
        )


def league_settings_check(league: League) -> None:
    """Check every setting of a league as it stands (model clean, admin, and before a result is stored)."""
    fields = {
        key: getattr(league, key)
        for key in (
            "variant",
            "preset",
            "option_overrides",
            "points_formula",
            "points_parameters",
            "tie_breakers",
            "best_n",
            "min_players",
            "visibility",
        )
    }
    check_rules(fields)


def season_settings_check(season: Season) -> None:
    fields = {
        key: getattr(season, key)
        for key in ("starts_on", "ends_on", "variant", "preset", "option_overrides", "points_formula")
    }
    fields["points_parameters"] = season.points_parameters
    check_season_rules(fields, season.league)


def season_rules(league: League, season: Season | None) -> Rules:
    """The standings rules of a season (its points formula when it has one) or of the league (all-time)."""
    formula, parameters = league.points_formula, league.points_parameters
    if season is not None and season.points_formula:
        formula, parameters = season.points_formula, season.points_parameters
    return Rules(
        formula=formula,
        parameters=parameters or {},
        best_n=league.best_n,
        min_players=league.min_players,
        ties_share_better_place=league.ties_share_better_place,
        tie_breakers=tuple(league.tie_breakers or ()),
    )


def standings_rules_check(league: League, season: Season | None) -> None:
    """Refuse, before anything is written, to book a result that the standings could not score."""
    rules = season_rules(league, season)
    validate_formula(rules.formula, rules.parameters)
    validate_tie_breakers(list(rules.tie_breakers))

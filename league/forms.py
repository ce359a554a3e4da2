"""Forms of the organiser pages: they turn typed inputs into the arguments of `league.services`, and
show what a service refuses beside the field it names. No rule lives here: choices are listed from the
engine and the registries, and every value is checked by the same service the API calls."""

import re
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS

from config.errors import ApplicationError, field_messages
from league.models import BuyInPolicy, ChipSet, EventKind, League, Role, Season, Visibility
from league.pages import option_in_words
from league.providers import games
from league.services.players import DUPLICATE_NAME
from league.standings.formulas import FORMULAS
from league.standings.metrics import DEFAULT_TIE_BREAKERS, METRICS

# ApplicationError.extra["field"] names the service's field; these are the form fields that show them.
SERVICE_FIELDS = {
    "rules": "preset",
    "points_parameters": "points_formula",
    "points_parameters.table": "points_table",
    "points_parameters.expression": "points_expression",
    "addon": "seats",
    "rebuys": "seats",
    "places": "seats",
    "final_credits": "seats",
    "hands": "seats",
}


# The engine names the option it refuses ("Option 'big_blind' must be ..."): its input shows the refusal.
OPTION_IN_MESSAGE = re.compile(r"[Oo]ption '(\w+)'")


def show_error(form: forms.Form, exc: ApplicationError) -> None:
    """Put a service's refusal beside the field it names, or above the form when it names none; a refusal of
    several fields (`extra["fields"]`, see `league.services.Refusals`) beside each of them."""
    form.refused_codes = (*getattr(form, "refused_codes", ()), exc.code)
    errors = field_messages(exc.extra, exc.message)
    for field, messages in errors.items():
        for message in messages:
            form.add_error(form_field(form, field, message), message)


def form_field(form: forms.Form, field: str | None, message: str) -> str | None:
    """The form field that shows a refusal of the service's `field` (None: above the form)."""
    if field in ("rules", "option_overrides"):
        named = OPTION_IN_MESSAGE.search(message)
        if named and f"opt_{named.group(1)}" in form.fields:
            return f"opt_{named.group(1)}"
    field = SERVICE_FIELDS.get(field, field)
    return field if field in form.fields else None


def show_checks(form: forms.Form, check: Any, fields: dict[str, Any]) -> None:
    """Run a service's check of `fields` (it writes nothing) from a form's clean(), and show what it refuses
    beside the fields that are not refused already: the organiser sees every wrong field at once, and the rules
    stay in the service."""
    try:
        check(fields)
    except ApplicationError as exc:
        errors = field_messages(exc.extra, exc.message)
        refused = set(form.errors) - {NON_FIELD_ERRORS}
        for field, messages in errors.items():
            for message in messages:
                shown = form_field(form, field, message)
                if shown not in refused:
                    form.add_error(shown, message)


def checkable(form: forms.Form, fields: dict[str, Any]) -> dict[str, Any]:
    """The service fields whose inputs the form took (those it refused itself are left out of the service's check)."""
    return {key: value for key, value in fields.items() if key not in form.errors}


def _unbound(args: tuple, kwargs: dict[str, Any]) -> bool:
    """No data given (a GET: the views pass `request.POST or None`): the form starts from the saved object."""
    return (not args or args[0] is None) and kwargs.get("data") is None


def _select(choices: list[tuple[str, str]]) -> forms.Select:
    return forms.Select(choices=choices)


class ChipSetField(forms.ModelChoiceField):
    """A chip set chosen by its chips' values, not its name alone."""

    def __init__(self, **kwargs: Any) -> None:
        queryset = ChipSet.objects.order_by("name").prefetch_related("denominations")
        help_text = "Site-wide: a site admin adds chip sets and their values in the admin (Admin, then Chip sets)."
        super().__init__(queryset=queryset, required=False, help_text=help_text, **kwargs)

    def label_from_instance(self, obj: ChipSet) -> str:
        values = sorted((d.value for d in obj.denominations.all()), reverse=True)
        return f"{obj.name}: chips of {', '.join(f'{v:,}' for v in values)}" if values else obj.name


class BuyInPolicyField(forms.ModelChoiceField):
    """A buy-in policy chosen by what it costs, not its name alone."""

    def __init__(self, **kwargs: Any) -> None:
        queryset = BuyInPolicy.objects.order_by("name")
        super().__init__(queryset=queryset, required=False, label="Buy-in policy", **kwargs)

    def label_from_instance(self, obj: BuyInPolicy) -> str:
        return f"{obj.name}: {obj.terms}"


class NumberList(forms.CharField):
    """Numbers separated by commas ("25, 18, 15"), parsed into a list; what the numbers may be is the service's call."""

    def __init__(self, *, whole: bool = False, **kwargs: Any) -> None:
        self.whole = whole
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[float | int] | None:
        text = super().to_python(value)
        if not text:
            return None
        numbers: list[float | int] = []
        parts = [part.strip() for part in text.replace(";", ",").split(",")]
        if not any(parts):
            kind = "whole numbers" if self.whole else "numbers"
            raise forms.ValidationError(
                f"{text!r} holds no number: write {kind} separated by commas, or leave it blank."
            )
        for part in parts:
            if not part:
                continue
            try:
                number = float(part)
            except ValueError:
                kind = "whole numbers" if self.whole else "numbers"
                raise forms.ValidationError(f"{part!r} is not a number; write {kind} separated by commas.") from None
            if number.is_integer():
                number = int(number)
            elif self.whole:
                raise forms.ValidationError(f"{part!r} is not a whole number; write whole numbers separated by commas.")
            numbers.append(number)
        return numbers

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value


# Rules: the engine's variants, presets and options.


def option_specs() -> list[dict[str, Any]]:
    """Every option of every variant, with the input that edits it: a choice, yes/no, a number or numbers."""
    specs = []
    for spec in games().option_specs():
        only = "" if len(spec["variants"]) > 1 else f" ({spec['variants'][0].replace('_', ' ').title()})"
        specs.append({**spec, "label": spec["name"].replace("_", " ").capitalize() + only})
    return specs


def variant_choices() -> list[tuple[str, str]]:
    return [(v, v.replace("_", " ").title()) for v in games().rule_choices()]


def preset_choices(blank: str | None = None) -> list[tuple[str, str]]:
    """Every variant's presets (the engine refuses a preset of another variant, saying which it has)."""
    choices = []
    for variant, presets in games().rule_choices().items():
        suffix = "" if variant == "coruscant_shift" else f" ({variant.replace('_', ' ').title()})"
        choices += [(p, p.replace("_", " ").capitalize() + suffix) for p in presets]
    return [("", blank), *choices] if blank is not None else choices


def grouped_preset_choices(blank: str | None = None) -> list:
    """The presets grouped by variant under the variant's name (the same name as the variant choice, which the
    organiser pages' script matches to keep only the chosen variant's group choosable): "Better" under
    "Coruscant Shift", "Universe" under "Classic"."""
    groups = [
        (label, [(preset, preset.replace("_", " ").title()) for preset in games().rule_choices()[variant]])
        for variant, label in variant_choices()
    ]
    return [("", blank), *groups] if blank is not None else groups


def _variant_choices(spec: dict[str, Any]) -> list:
    """A choice option's choices: one list when every variant that has it offers the same, else grouped by
    variant, each offering only its own (the engine refuses another's, naming what is allowed)."""
    by_variant = spec.get("by_variant") or {}
    if len({frozenset(choices) for choices in by_variant.values()}) <= 1:
        return [(c, c.replace("_", " ")) for c in spec["choices"]]
    return [
        (variant.replace("_", " ").title(), [(c, c.replace("_", " ")) for c in choices])
        for variant, choices in by_variant.items()
    ]


# What a list-of-numbers option holds, and an example of it.
_NUMBER_LISTS = {
    "ante_increments": ("Four whole numbers (2, 3, 4 and 5+ players left)", "5, 3, 2, 1"),
    "market_prices": ("Three whole numbers (the Pilot, the Wing, the Gunner)", "1, 2, 3"),
}


def _option_field(spec: dict[str, Any], *, blank: str, help_text: str, examples: bool, number_help: str) -> forms.Field:
    """A form field overriding one engine option: blank (shown as `blank`) keeps the value it would have. Its input
    names the variants that have the option (`data-variants`): the organiser pages' script shows it only for them."""
    field = _option_field_of_kind(spec, blank=blank, help_text=help_text, examples=examples, number_help=number_help)
    field.widget.attrs["data-variants"] = " ".join(spec["variants"])
    return field


def _option_field_of_kind(
    spec: dict[str, Any], *, blank: str, help_text: str, examples: bool, number_help: str
) -> forms.Field:
    label = spec["label"]
    if spec["kind"] == "choice":
        choices = [("", blank), *_variant_choices(spec)]
        return forms.CharField(label=label, required=False, widget=_select(choices), help_text=help_text)
    if spec["kind"] == "bool":
        choices = [("", blank), ("yes", "yes"), ("no", "no")]
        return forms.CharField(label=label, required=False, widget=_select(choices), help_text=help_text)
    if spec["kind"] == "ints":
        words, example = _NUMBER_LISTS.get(spec["name"], ("Whole numbers separated by commas", ""))
        hint = f"{words}, e.g. {example}. " if examples and example else f"{words}. "
        return NumberList(whole=True, label=label, required=False, help_text=hint + help_text)
    return forms.IntegerField(label=label, required=False, help_text=number_help)


def option_form_field(spec: dict[str, Any]) -> forms.Field:
    help_text = "Blank keeps the preset's value."
    return _option_field(spec, blank="(preset)", help_text=help_text, examples=True, number_help=help_text)


class RulesMixin:
    """Variant, preset and typed overrides of the engine's known options (fields `opt_<name>`)."""

    def add_rule_fields(self, *, blank: str | None = None) -> None:
        self.fields["variant"] = forms.CharField(
            label="Variant",
            required=blank is None,
            widget=_select(([("", blank)] if blank is not None else []) + variant_choices()),
        )
        self.fields["preset"] = forms.CharField(
            label="Preset", required=blank is None, widget=_select(grouped_preset_choices(blank))
        )
        for spec in option_specs():
            self.fields[f"opt_{spec['name']}"] = option_form_field(spec)

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{spec['name']}"] for spec in option_specs()]

    def rules_fields(self) -> dict[str, Any]:
        """The rules as the services take them: variant and preset (blank: inherited) and the typed overrides."""
        data = self.cleaned_data
        return {
            "variant": data.get("variant") or "",
            "preset": data.get("preset") or "",
            "option_overrides": self.option_overrides(),
        }

    def option_overrides(self) -> dict[str, Any]:
        overrides: dict[str, Any] = {}
        for spec in option_specs():
            value = self.cleaned_data.get(f"opt_{spec['name']}")
            if value in (None, "", []):
                continue
            if spec["kind"] == "bool":
                value = value == "yes"
            overrides[spec["name"]] = value
        return overrides

    @staticmethod
    def initial_overrides(overrides: dict[str, Any]) -> dict[str, Any]:
        initial = {}
        for name, value in (overrides or {}).items():
            if isinstance(value, bool):
                value = "yes" if value else "no"
            initial[f"opt_{name}"] = value
        return initial


def season_option_field(spec: dict[str, Any], inherited: dict[str, Any]) -> forms.Field:
    """An override of one engine option for a season, showing the league's value (blank keeps it); an option the
    league's variant does not have (the season plays another) takes the season's preset's value when blank."""
    if spec["name"] in inherited:
        help_text = f"The league's: {option_in_words(inherited[spec['name']])}. Blank keeps it."
    else:
        help_text = "Not a rule of the league's variant: blank takes the season's preset's value."
    return _option_field(
        spec,
        blank="(the league's)",  # its value is in the help: a select stays narrow enough for a grid cell
        help_text=help_text,
        examples=False,
        number_help=help_text + " A number, or blank." if spec.get("optional") else help_text,
    )


def league_options(league: League | None) -> dict[str, Any]:
    """The league's rules as the engine resolves them ({} when they do not resolve)."""
    from league.services import resolve_game_rules

    if league is None:
        return {}
    try:
        return resolve_game_rules(variant=league.variant, preset=league.preset, overrides=league.option_overrides)
    except ApplicationError:
        return {}


# Points formula and tie-breakers


def formula_choices(blank: str | None = None) -> list[tuple[str, str]]:
    choices = [(key, formula.name) for key, formula in FORMULAS.items()]
    return [("", blank), *choices] if blank is not None else choices


def points_parameters(formula: str, table: list | None, expression: str | None) -> dict[str, Any]:
    """The parameters of the chosen formula from the inputs that describe them (the others are ignored)."""
    if formula == "fixed" and table:
        return {"table": table}
    if formula == "custom":
        return {"expression": expression or ""}
    return {}


class PointsMixin:
    def add_points_fields(self, *, blank: str | None = None) -> None:
        self.fields["points_formula"] = forms.CharField(
            label="Points formula", required=blank is None, widget=_select(formula_choices(blank))
        )
        self.fields["points_table"] = NumberList(
            label="Points per place (fixed formula)",
            required=False,
            help_text="First place first, e.g. 25, 18, 15, 12. Blank uses 25, 18, 15, 12, 10, 8, 6, 4, 2, 1.",
        )
        self.fields["points_expression"] = forms.CharField(
            label="Expression (custom formula)",
            required=False,
            max_length=1000,
            help_text="Over players, place, buy_in, prize_pool, rebuys, knockouts, e.g. players - place + 1.",
        )

    def points_fields(self) -> dict[str, Any]:
        formula = self.cleaned_data.get("points_formula") or ""
        parameters = points_parameters(
            formula, self.cleaned_data.get("points_table"), self.cleaned_data.get("points_expression")
        )
        return {"points_formula": formula, "points_parameters": parameters}

    @staticmethod
    def initial_points(formula: str, parameters: dict[str, Any]) -> dict[str, Any]:
        return {
            "points_formula": formula,
            "points_table": (parameters or {}).get("table"),
            "points_expression": (parameters or {}).get("expression", ""),
        }


def tie_breaker_rows(order: list[str], used: list[str]) -> list[dict[str, Any]]:
    """Every metric once, in the organiser's order (then the rest), with whether it breaks ties."""
    keys = [k for k in order if k in METRICS]
    keys = list(dict.fromkeys(keys + [k for k in METRICS if k not in keys]))
    return [
        {"key": key, "name": METRICS[key].name, "used": key in used, "first": i == 0, "last": i == len(keys) - 1}
        for i, key in enumerate(keys)
    ]


def moved(order: list[str], move: str) -> list[str]:
    """The order after an arrow button: "wins:up" swaps wins with the metric above it."""
    key, _, direction = move.partition(":")
    order = [k for k in order if k in METRICS]
    order += [k for k in METRICS if k not in order]
    if key not in order:
        return order
    index = order.index(key)
    other = index - 1 if direction == "up" else index + 1
    if 0 <= other < len(order):
        order[index], order[other] = order[other], order[index]
    return order


class LeagueForm(RulesMixin, PointsMixin, forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    slug = forms.SlugField(
        label="Address (slug)",
        max_length=80,
        required=False,
        help_text="Letters, digits and hyphens, used in the league's address; blank makes one from the name.",
    )
    description = forms.CharField(label="Description", required=False, widget=forms.Textarea(attrs={"rows": 3}))
    visibility = forms.CharField(label="Visibility", widget=_select(list(Visibility.choices)))
    chip_set = ChipSetField(label="Chip set", empty_label="(none)")
    buy_in_policy = BuyInPolicyField(
        empty_label="(none)",
        help_text="Site-wide: a site admin adds buy-in policies in the admin (Admin, then Buy-in policies).",
    )
    best_n = forms.IntegerField(
        label="Best N events count", required=False, help_text="Blank: every event counts for the standings."
    )
    min_players = forms.IntegerField(
        label="Minimum players", help_text="Events with fewer players do not count for the standings."
    )
    ties_share_better_place = forms.BooleanField(label="Tied players share the better place", required=False)
    members_may_open_tables = forms.BooleanField(
        label="Members may open online tables",
        required=False,
        help_text="Off: only organisers open tables in the lobby. On: any member of the league may.",
    )
    # Read from the ordered checkboxes (see tie_rows); the field is here so a refusal shows beside them.
    tie_breakers = forms.Field(label="Tie-breakers", required=False)

    def __init__(self, *args: Any, league: League | None = None, **kwargs: Any) -> None:
        self.league = league
        if league is not None and not args and "initial" not in kwargs:
            kwargs["initial"] = self.initial_from(league)
        kwargs.setdefault("initial", {}).setdefault("min_players", 2)
        kwargs["initial"].setdefault("ties_share_better_place", True)
        kwargs["initial"].setdefault("variant", "coruscant_shift")
        kwargs["initial"].setdefault("preset", "better")
        kwargs["initial"].setdefault("points_formula", "linear")
        super().__init__(*args, **kwargs)
        self.add_rule_fields()
        # Left blank, the service's refusal says which variants and presets there are (not "This field is required").
        self.fields["variant"].required = self.fields["preset"].required = False
        self.add_points_fields()

    @classmethod
    def initial_from(cls, league: League) -> dict[str, Any]:
        return {
            "name": league.name,
            "slug": league.slug,
            "description": league.description,
            "visibility": league.visibility,
            "variant": league.variant,
            "preset": league.preset,
            **cls.initial_overrides(league.option_overrides),
            "chip_set": league.chip_set_id,
            "buy_in_policy": league.buy_in_policy_id,
            **cls.initial_points(league.points_formula, league.points_parameters),
            "tie_breakers": list(league.tie_breakers or []),
            "tie_order": list(league.tie_breakers or []),
            "best_n": league.best_n,
            "min_players": league.min_players,
            "ties_share_better_place": league.ties_share_better_place,
            "members_may_open_tables": league.members_may_open_tables,
        }

    def tie_rows(self) -> list[dict[str, Any]]:
        if self.is_bound:
            order, used = self.data.getlist("tie_order"), self.data.getlist("tie_breakers")
        else:
            used = list(self.initial.get("tie_breakers") or DEFAULT_TIE_BREAKERS)
            order = list(self.initial.get("tie_order") or used)
        return tie_breaker_rows(order, used)

    def service_fields(self) -> dict[str, Any]:
        """Keyword arguments for `league_create` / `league_update`, from a valid form."""
        data = self.cleaned_data
        order = [k for k in self.data.getlist("tie_order") if k in METRICS] or list(METRICS)
        used = self.data.getlist("tie_breakers")
        fields = {
            "name": data.get("name"),
            "description": data.get("description"),
            "visibility": data.get("visibility"),
            **self.rules_fields(),
            "chip_set": data.get("chip_set"),
            "buy_in_policy": data.get("buy_in_policy"),
            **self.points_fields(),
            # Checked metrics in the order shown; anything else sent is passed on for the service to refuse.
            "tie_breakers": [k for k in order if k in used] + [k for k in used if k not in order],
            "best_n": data.get("best_n"),
            "min_players": data.get("min_players"),
            "ties_share_better_place": data.get("ties_share_better_place"),
            "members_may_open_tables": data.get("members_may_open_tables"),
        }
        if data.get("slug"):
            fields["slug"] = data["slug"]
        return fields

    def clean(self) -> dict[str, Any]:
        """The service's checks of every field the form took, so that all wrong fields show at once."""
        from league.services import league_fields_check

        data = super().clean()
        fields = checkable(self, self.service_fields())
        if self.league is not None:
            fields.setdefault("slug", self.league.slug)  # blank keeps the address, as the edit saves it
        show_checks(self, league_fields_check, fields)
        return data

    def changed_service_fields(self) -> dict[str, Any]:
        """Only what differs from the league as saved, so the audit trail shows what was changed."""
        fields = self.service_fields()
        league = self.league
        changed = {}
        for key, value in fields.items():
            current = getattr(league, key)
            if current != value:
                changed[key] = value
        if {"points_formula", "points_parameters"} & changed.keys():
            changed.update(points_formula=fields["points_formula"], points_parameters=fields["points_parameters"])
        if {"variant", "preset", "option_overrides"} & changed.keys():
            changed.update(
                variant=fields["variant"], preset=fields["preset"], option_overrides=fields["option_overrides"]
            )
        return changed


def initial_from_post(data: Any) -> dict[str, Any]:
    """A submitted form as initial values, to show it again unchanged without judging it (the tie-breaker arrows)."""
    lists = {"tie_order", "tie_breakers"}
    return {key: data.getlist(key) if key in lists else data.get(key) for key in data}


class PointsPreviewForm(PointsMixin, forms.Form):
    """What a points formula gives each place of a field of the given size."""

    players = forms.IntegerField(label="Field size", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_points_fields()


class RulesPreviewForm(RulesMixin, forms.Form):
    def __init__(self, *args: Any, blank: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_rule_fields(blank=blank)


# Seasons, members, events


class SeasonForm(RulesMixin, PointsMixin, forms.Form):
    """A season: its dates, and what differs from its league: variant, preset, single engine options (each
    shown with the league's value), points formula and buy-in policy."""

    name = forms.CharField(label="Name", max_length=120)
    starts_on = forms.DateField(label="Starts on", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label="Ends on", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    buy_in_policy = BuyInPolicyField(
        empty_label="(the league's)",
    )

    def __init__(self, *args: Any, league: League | None = None, season: Season | None = None, **kwargs: Any) -> None:
        self.season = season
        self.league = season.league if season is not None else league
        if season is not None and _unbound(args, kwargs):
            kwargs["initial"] = {
                "name": season.name,
                "starts_on": season.starts_on,
                "ends_on": season.ends_on,
                "variant": season.variant,
                "preset": season.preset,
                **self.initial_overrides(season.option_overrides),
                "buy_in_policy": season.buy_in_policy_id,
                **PointsMixin.initial_points(season.points_formula, season.points_parameters),
            }
        super().__init__(*args, **kwargs)
        self.fields["variant"] = forms.CharField(
            label="Variant", required=False, widget=_select([("", "(the league's)"), *variant_choices()])
        )
        league_rules = (
            f"{self.league.preset.replace('_', ' ').title()}, a {self.league.variant.replace('_', ' ').title()} preset"
            if self.league is not None
            else "its preset"
        )
        self.fields["preset"] = forms.CharField(
            label="Preset",
            required=False,
            widget=_select(grouped_preset_choices("(the league's)")),
            help_text=f"Blank keeps the league's ({league_rules}); another variant than the league's needs one of "
            "its own presets.",
        )
        inherited = league_options(self.league)
        for spec in option_specs():
            self.fields[f"opt_{spec['name']}"] = season_option_field(spec, inherited)
        self.add_points_fields(blank="(the league's)")

    def service_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data.get("name"),
            "starts_on": data.get("starts_on"),
            "ends_on": data.get("ends_on"),
            **self.rules_fields(),
            "buy_in_policy": data.get("buy_in_policy"),
            **self.points_fields(),
        }

    def clean(self) -> dict[str, Any]:
        """The service's checks of every field the form took, so that all wrong fields show at once."""
        from league.services import season_fields_check

        data = super().clean()
        show_checks(
            self, lambda fields: season_fields_check(fields, self.league), checkable(self, self.service_fields())
        )
        return data

    def changed_service_fields(self) -> dict[str, Any]:
        fields = self.service_fields()
        changed = {key: value for key, value in fields.items() if getattr(self.season, key) != value}
        if {"points_formula", "points_parameters"} & changed.keys():
            changed.update(points_formula=fields["points_formula"], points_parameters=fields["points_parameters"])
        return changed


class GuestForm(forms.Form):
    display_name = forms.CharField(label="Guest's name", max_length=80, required=False)
    # Sent by the "add anyway" button shown when the name is an existing player's (services.refuse_namesake).
    confirm_duplicate = forms.BooleanField(required=False, widget=forms.HiddenInput)

    @property
    def namesake(self) -> bool:
        """The name was refused as an existing player's: the page offers to add the guest anyway."""
        return DUPLICATE_NAME in getattr(self, "refused_codes", ())


class AddUserForm(forms.Form):
    username = forms.CharField(label="Username of a registered user", max_length=150)
    role = forms.CharField(label="Role", widget=_select(list(Role.choices)), initial=Role.PLAYER)


class RoleForm(forms.Form):
    role = forms.CharField(label="Role", widget=_select(list(Role.choices)))


class EventForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    kind = forms.CharField(label="Kind", widget=_select(list(EventKind.choices)), initial=EventKind.GAME)
    season = forms.ModelChoiceField(label="Season", queryset=Season.objects.none(), empty_label=None)
    starts_at = forms.DateTimeField(
        label="Starts at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    chip_set = ChipSetField(label="Chip set", empty_label="(the league's)")
    buy_in_policy = BuyInPolicyField(
        empty_label="(the season's or league's)",
    )
    counts_for_standings = forms.BooleanField(label="Counts for the standings", required=False, initial=True)

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(league=league).order_by("-starts_on", "id")

    def service_fields(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data.pop("season")
        return data


class EventEditForm(EventForm):
    """An event's name, kind, start, chips, buy-in and whether it counts; its status has its own buttons."""

    def __init__(self, *args: Any, event: Any, **kwargs: Any) -> None:
        self.event = event
        if _unbound(args, kwargs):
            kwargs["initial"] = {
                "name": event.name,
                "kind": event.kind,
                "starts_at": event.starts_at,
                "chip_set": event.chip_set_id,
                "buy_in_policy": event.buy_in_policy_id,
                "counts_for_standings": event.counts_for_standings,
            }
        super().__init__(*args, league=event.season.league, **kwargs)
        del self.fields["season"]

    def service_fields(self) -> dict[str, Any]:
        return dict(self.cleaned_data)

    def changed_service_fields(self) -> dict[str, Any]:
        return {key: value for key, value in self.service_fields().items() if getattr(self.event, key) != value}

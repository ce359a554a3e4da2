"""Admin for chip sets, buy-in policies, leagues and the rest; the ledger is read-only here."""

from django import forms
from django.contrib import admin

from league.models import (
    AuditEntry,
    BuyInPolicy,
    ChipSet,
    Denomination,
    Event,
    EventResult,
    League,
    LedgerEntry,
    Membership,
    Player,
    Season,
    Standing,
)
from league.providers import games
from league.standings.formulas import FORMULAS


def variant_choices() -> list[tuple[str, str]]:
    return [(variant, variant.replace("_", " ").title()) for variant in games().rule_choices()]


def preset_choices() -> list[tuple[str, str]]:
    presets = sorted({preset for presets in games().rule_choices().values() for preset in presets})
    return [(preset, preset.title()) for preset in presets]


def formula_choices() -> list[tuple[str, str]]:
    return [(key, getattr(formula, "name", key)) for key, formula in FORMULAS.items()]


class LeagueDataAdmin(admin.ModelAdmin):
    """A site admin's save or delete changes what the league's pages show: it moves the league's data
    version after commit (`league.services.versions`), so the page cache renders them afresh."""

    def league_ids(self, obj) -> set[int]:
        for path in ("league_id", "season.league_id", "event.season.league_id"):
            value = obj
            for name in path.split("."):
                value = getattr(value, name, None)
            if value is not None:
                return {value}
        return {obj.pk} if isinstance(obj, League) else set()

    def _changed(self, league_ids: set[int]) -> None:
        from league.services import league_data_changed

        for league_id in league_ids:
            league_data_changed(league_id=league_id)

    def save_model(self, request, obj, form, change) -> None:
        saved = type(obj).objects.filter(pk=obj.pk).first() if change else None
        before = self.league_ids(saved) if saved is not None else set()
        super().save_model(request, obj, form, change)
        self._changed(before | self.league_ids(obj))  # an object moved to another league changes both

    def delete_model(self, request, obj) -> None:
        league_ids = self.league_ids(obj)
        super().delete_model(request, obj)
        self._changed(league_ids)

    def delete_queryset(self, request, queryset) -> None:
        league_ids = {league_id for obj in queryset for league_id in self.league_ids(obj)}
        super().delete_queryset(request, queryset)
        self._changed(league_ids)


def _blank(choices):
    return lambda: [("", "(the league's)"), *choices()]


class LeagueAdminForm(forms.ModelForm):
    """Rules and points picked from what the engine and the standings know, never typed; the model's clean()
    then runs the services' checks (options, formula parameters, tie-breakers)."""

    variant = forms.ChoiceField(choices=variant_choices)
    preset = forms.ChoiceField(choices=preset_choices)
    points_formula = forms.ChoiceField(choices=formula_choices)

    class Meta:
        model = League
        fields = "__all__"  # noqa: DJ007 (the ModelAdmin picks the fields; this form only swaps widgets)


class SeasonAdminForm(forms.ModelForm):
    variant = forms.ChoiceField(choices=_blank(variant_choices), required=False)
    preset = forms.ChoiceField(choices=_blank(preset_choices), required=False)
    points_formula = forms.ChoiceField(choices=_blank(formula_choices), required=False)

    class Meta:
        model = Season
        fields = "__all__"  # noqa: DJ007 (the ModelAdmin picks the fields; this form only swaps widgets)


class DenominationFormSet(forms.BaseInlineFormSet):
    """A chip set's denominations as the API checks them: its starting chips may name only chips it still has (a
    chip renamed or deleted here would otherwise leave a starting stack of chips that no longer exist)."""

    def clean(self) -> None:
        super().clean()
        names = {
            form.cleaned_data["name"]
            for form in self.forms
            if form.cleaned_data.get("name") and not form.cleaned_data.get("DELETE")
        }
        starting = self.instance.starting_chips
        if not isinstance(starting, dict):
            return  # the chip set's own form refuses the shape (ChipSet.clean)
        unknown = set(starting) - names
        if unknown:
            raise forms.ValidationError(
                f"Starting chips name unknown denominations: {', '.join(sorted(unknown))}; use "
                f"{', '.join(sorted(names)) or 'a denomination of this set'}, or change the starting chips first."
            )


class DenominationInline(admin.TabularInline):
    model = Denomination
    formset = DenominationFormSet
    extra = 1


def _leagues_using(field: str, pk: int) -> set[int]:
    """The leagues whose pages show a chip set or buy-in policy: set on the league, a season or an event."""
    leagues = set(League.objects.filter(**{field: pk}).values_list("pk", flat=True))
    if any(f.name == field for f in Season._meta.get_fields()):  # seasons have a buy-in policy, no chip set
        leagues |= set(Season.objects.filter(**{field: pk}).values_list("league_id", flat=True))
    return leagues | set(Event.objects.filter(**{field: pk}).values_list("season__league_id", flat=True))


@admin.register(ChipSet)
class ChipSetAdmin(LeagueDataAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [DenominationInline]

    def league_ids(self, obj) -> set[int]:
        return _leagues_using("chip_set", obj.pk)

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        self._changed(self.league_ids(form.instance))  # its denominations, edited inline


@admin.register(BuyInPolicy)
class BuyInPolicyAdmin(LeagueDataAdmin):
    list_display = ["name", "buy_in", "rebuys_allowed", "max_rebuys", "rebuy_amount", "addon_allowed", "addon_amount"]

    def league_ids(self, obj) -> set[int]:
        """The league page shows its buy-in policy's buy-in and re-buys."""
        return _leagues_using("buy_in_policy", obj.pk)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


class SeasonInline(admin.TabularInline):
    model = Season
    form = SeasonAdminForm
    extra = 0
    fields = ["name", "starts_on", "ends_on", "points_formula", "buy_in_policy"]


@admin.register(League)
class LeagueAdmin(LeagueDataAdmin):
    form = LeagueAdminForm
    list_display = ["name", "slug", "visibility", "preset", "points_formula"]
    list_filter = ["visibility", "preset", "points_formula"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["join_mode"]  # set on the organisers' joining page (audited, makes the code)
    inlines = [SeasonInline, MembershipInline]

    def save_related(self, request, form, formsets, change) -> None:
        from league.services import standings_schedule

        super().save_related(request, form, formsets, change)
        standings_schedule(league_id=form.instance.pk)


@admin.register(Player)
class PlayerAdmin(LeagueDataAdmin):
    list_display = ["display_name", "user", "created_at"]

    def league_ids(self, obj) -> set[int]:
        """A player's name shows on the pages of every league they play in."""
        return set(Membership.objects.filter(player_id=obj.pk).values_list("league_id", flat=True))

    search_fields = ["display_name", "user__username"]
    readonly_fields = ["claim_code"]


@admin.register(Season)
class SeasonAdmin(LeagueDataAdmin):
    form = SeasonAdminForm
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]


@admin.register(Event)
class EventAdmin(LeagueDataAdmin):
    list_display = ["name", "season", "kind", "status", "starts_at"]
    list_filter = ["kind", "status", "season__league"]


@admin.register(Membership)
class MembershipAdmin(LeagueDataAdmin):
    list_display = ["player", "league", "role", "joined_at"]
    list_filter = ["role", "league"]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "event", "game", "player", "kind", "amount", "hand", "reason", "created_at"]
    list_filter = ["kind"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["league", "scope", "rank", "player", "points", "wins", "net_credits"]
    list_filter = ["league", "scope"]


@admin.register(EventResult)
class EventResultAdmin(ReadOnlyAdmin):
    list_display = ["event", "place", "player", "players", "credits_in", "credits_out"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "object_type", "object_id"]
    list_filter = ["action"]

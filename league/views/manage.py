"""Organiser pages: leagues, seasons, members and guests, events and tables.

Every form calls the same `league.services` function as the API and shows its refusal beside the field
it names; who may do what is asked of `league.permissions`, as the API does.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Prefetch, QuerySet
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.errors import ApplicationError
from league import forms, pages, permissions, selectors, services
from league.models import Event, League, Membership, Player, Role, Season
from league.standings.formulas import PlaceResult, get_formula, validate_formula

MAX_PREVIEW_PLAYERS = 64
T = TypeVar("T")


def _signed_in(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return None


# One text for every object an organiser page cannot find, whether it is missing or in a league hidden from
# the user: the 404 says nothing about which.
NOT_FOUND = "No such page."


def visible_or_404(request: HttpRequest, queryset: QuerySet, league_path: str, **lookup: Any) -> Any:
    """The object the address names when its league is one the user may see; else the same 404 as for a
    missing object, after the same single query, so nobody can tell that a members-only league's object exists."""
    leagues = selectors.league_list(user=request.user).values("pk")
    found = queryset.filter(**lookup, **{f"{league_path}__in": leagues}).first()
    if found is None:
        raise Http404(NOT_FOUND)
    return found


def managed_league(request: HttpRequest, league: League) -> League:
    """As the API: a league the user cannot see is missing (404); one they may see but not run is 403."""
    if not permissions.can_see_league(request.user, league):
        raise Http404(NOT_FOUND)
    if not permissions.can_manage_league(request.user, league):
        raise PermissionDenied(f"Only the organisers of {league.name} (or a site admin) may change this.")
    return league


def _league(request: HttpRequest, slug: str) -> League:
    league = visible_or_404(request, League.objects.select_related("chip_set", "buy_in_policy"), "pk", slug=slug)
    return managed_league(request, league)


def managed_event(request: HttpRequest, pk: int) -> Event:
    event = visible_or_404(request, Event.objects.select_related("season__league"), "season__league", pk=pk)
    managed_league(request, event.season.league)
    return event


def manager_required(view):
    """Anonymous users go to the log-in page first; the view then checks the league."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _signed_in(request) or view(request, *args, **kwargs)

    return wrapped


def _render(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return render(request, template, context, status=status)


def form_saved(request: HttpRequest, form: Form, save: Callable[[], T], *, field: str | None = None) -> T | None:
    """What the service call `save` returns for a valid POST of the form; None when the form is not sent, not
    valid, or refused by the service (the refusal shown beside the field it names, else beside `field`)."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return save()
    except ApplicationError as exc:
        if field is not None:
            exc.extra.setdefault("field", field)
        forms.show_error(form, exc)
        return None


def _changes(request: HttpRequest, form: Form, update: Callable[..., T], target: T, **of: Any) -> Callable[[], T]:
    """`save` for an edit form: its changed fields through the service `update` (no call when none changed)."""

    def save() -> T:
        changed = form.changed_service_fields()
        return update(actor=request.user, **of, **changed) if changed else target

    return save


def _status(form: Form) -> int:
    return 400 if form.is_bound and form.errors else 200


# Dashboard


@require_GET
@manager_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Leagues I organise (every league for a site admin), with their seasons and recent events."""
    user = request.user
    leagues = League.objects.order_by("name")
    if not permissions.is_admin(user):
        organised = [pk for pk, role in selectors.user_league_roles(user).items() if role == Role.ORGANISER]
        leagues = leagues.filter(pk__in=organised)
    events = Event.objects.select_related("season").order_by("-starts_at")
    leagues = leagues.annotate(member_count=Count("memberships", distinct=True)).prefetch_related(
        Prefetch("seasons", queryset=Season.objects.order_by("-starts_on", "id")),
        Prefetch("seasons__events", queryset=events, to_attr="event_list"),
    )
    rows = []
    for league in leagues:
        league_events = sorted(
            (event for season in league.seasons.all() for event in season.event_list),
            key=lambda e: e.starts_at,
            reverse=True,
        )
        rows.append({"league": league, "events": league_events[:5], "more": max(0, len(league_events) - 5)})
    context = {"rows": rows, "can_create": permissions.can_create_league(user)}
    return _render(request, "manage/dashboard.html", context)


# Leagues


def _league_form_page(request: HttpRequest, league: League | None) -> HttpResponse:
    if request.method == "POST" and request.POST.get("move"):
        # An arrow button of the tie-breakers without JavaScript: show the form again in the new order.
        initial = forms.initial_from_post(request.POST)
        initial["tie_order"] = forms.moved(request.POST.getlist("tie_order"), request.POST["move"])
        form = forms.LeagueForm(initial=initial, league=league)
    elif request.method == "POST":
        form = forms.LeagueForm(request.POST, league=league)
        if league is None:
            saved = form_saved(
                request, form, lambda: services.league_create(actor=request.user, **form.service_fields())
            )
        else:
            saved = form_saved(request, form, _changes(request, form, services.league_update, league, league=league))
        if saved is not None:
            asked = form.cleaned_data.get("slug")
            moved = (
                f" Its address {asked!r} was taken, so it is {saved.slug!r}." if asked and asked != saved.slug else ""
            )
            messages.success(request, f"{saved.name} is saved.{moved}")
            return redirect("manage-league", slug=saved.slug)
    else:
        form = forms.LeagueForm(league=league)
    status = _status(form)
    values = _form_values(form)
    context = {
        "form": form,
        "league": league,
        "rules_preview": rules_preview_context(values),
        "points_preview": points_preview_context(values),
    }
    return _render(request, "manage/league_form.html", context, status)


def _form_values(form: forms.LeagueForm) -> Any:
    """What the form shows now, as query data for the previews."""
    from django.http import QueryDict

    if form.is_bound:
        return form.data
    values = QueryDict(mutable=True)
    for name, field in form.fields.items():
        value = form[name].value()
        if value is not None and not isinstance(value, list | tuple):
            values[name] = value
        elif isinstance(field, forms.NumberList) and value:
            values[name] = field.prepare_value(value)
    return values


@require_http_methods(["GET", "POST"])
@manager_required
def league_create(request: HttpRequest) -> HttpResponse:
    if not permissions.can_create_league(request.user):
        raise PermissionDenied(
            "Only site admins may create leagues here: ask one to start yours and make you its organiser."
        )
    return _league_form_page(request, None)


@require_http_methods(["GET", "POST"])
@manager_required
def league_edit(request: HttpRequest, slug: str) -> HttpResponse:
    return _league_form_page(request, _league(request, slug))


@require_GET
@manager_required
def league_hub(request: HttpRequest, slug: str) -> HttpResponse:
    """One league's organiser page: its settings in brief, seasons, events and the current standings."""
    league = _league(request, slug)
    seasons = list(
        Season.objects.filter(league=league).annotate(event_count=Count("events")).order_by("-starts_on", "id")
    )
    events = list(Event.objects.filter(season__league=league).select_related("season").order_by("-starts_at")[:20])
    current = seasons[0] if seasons else None
    context = {
        "league": league,
        "seasons": seasons,
        "events": events,
        "current": current,
        "standings": selectors.standings_rows(league=league, season=current)[:10],
        "member_count": Membership.objects.filter(league=league).count(),
        # The formula in words, as the league's page says it (not its key).
        "points": pages.points_in_words(league.points_formula, league.points_parameters),
    }
    return _render(request, "manage/league_hub.html", context)


def rules_preview_context(data: Any) -> dict[str, Any]:
    """The full option set of the chosen variant, preset and overrides, as the engine resolves them."""
    form = forms.RulesPreviewForm(data)
    if not form.is_valid():
        return {"error": " ".join(str(e) for errors in form.errors.values() for e in errors)}
    variant, preset = form.cleaned_data["variant"], form.cleaned_data["preset"]
    try:
        options = services.resolve_game_rules(variant=variant, preset=preset, overrides=form.option_overrides())
        preset_values = services.resolve_game_rules(variant=variant, preset=preset, overrides={})
    except ApplicationError as exc:
        return {"error": exc.message}
    rows = [
        {
            "name": name.replace("_", " ").capitalize(),
            "key": name,  # the page names it in words (`option_label`, `option_words`)
            "raw": value,
            "value": _shown(value),
            "changed": value != preset_values.get(name),
        }
        for name, value in options.items()
    ]
    return {"options": rows, "preset": preset}


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value).replace("_", " ")


def points_preview_context(data: Any) -> dict[str, Any]:
    """Points per place for a field of the given size, as the standings would give them."""
    form = forms.PointsPreviewForm(data)
    if not form.is_valid():
        return {"error": " ".join(str(e) for errors in form.errors.values() for e in errors)}
    players = form.cleaned_data["players"] or 8
    if not 1 <= players <= MAX_PREVIEW_PLAYERS:
        return {"error": f"Preview a field of 1 to {MAX_PREVIEW_PLAYERS} players; got {players}.", "players": players}
    fields = form.points_fields()
    try:
        parameters = validate_formula(fields["points_formula"], fields["points_parameters"])
    except ApplicationError as exc:
        return {"error": exc.message, "players": players}
    formula = get_formula(fields["points_formula"])
    rows = [
        (place, formula.points(PlaceResult(players=players, place=place), parameters))
        for place in range(1, players + 1)
    ]
    return {"players": players, "rows": rows}


@require_GET
@manager_required
def rules_preview(request: HttpRequest) -> HttpResponse:
    return _render(request, "manage/_rules_preview.html", rules_preview_context(request.GET))


@require_GET
@manager_required
def points_preview(request: HttpRequest) -> HttpResponse:
    return _render(request, "manage/_points_preview.html", points_preview_context(request.GET))


# Seasons


@require_http_methods(["GET", "POST"])
@manager_required
def seasons(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's seasons and a form for a new one."""
    league = _league(request, slug)
    form = forms.SeasonForm(request.POST or None, league=league, initial={"starts_on": timezone.localdate()})
    season = form_saved(
        request, form, lambda: services.season_create(actor=request.user, league=league, **form.service_fields())
    )
    if season is not None:
        messages.success(
            request,
            f"{season.name} is created."
            if season.name.lower().startswith("season")
            else f"Season {season.name} is created.",
        )
        return redirect("manage-seasons", slug=league.slug)
    season_list = (
        Season.objects.filter(league=league)
        .select_related("buy_in_policy")
        .annotate(event_count=Count("events"))
        .order_by("-starts_on", "id")
    )
    season_list = list(season_list)
    for season in season_list:  # a season's own points formula in words, as the league's pages say it
        season.points_words = (
            pages.points_in_words(season.points_formula, season.points_parameters) if season.points_formula else ""
        )
    status = _status(form)
    # No event in any season yet: the page names the next step (a newcomer organiser stopped here).
    first_event = bool(season_list) and not any(season.event_count for season in season_list)
    context = {"league": league, "seasons": season_list, "form": form, "first_event": first_event}
    return _render(request, "manage/seasons.html", context, status)


@require_http_methods(["GET", "POST"])
@manager_required
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    season = visible_or_404(request, Season.objects.select_related("league"), "league", pk=pk)
    league = managed_league(request, season.league)
    form = forms.SeasonForm(request.POST or None, season=season)
    if form_saved(request, form, _changes(request, form, services.season_update, season, season=season)):
        messages.success(request, f"Season {form.cleaned_data['name']} is saved.")
        return redirect("manage-seasons", slug=league.slug)
    status = _status(form)
    return _render(request, "manage/season_form.html", {"league": league, "season": season, "form": form}, status)


# Members and guests


def _members_page(
    request: HttpRequest,
    league: League,
    *,
    guest_form: forms.GuestForm | None = None,
    user_form: forms.AddUserForm | None = None,
    errors: dict[int, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    members = list(
        Membership.objects.filter(league=league)
        .select_related("player__user")
        .order_by("role", "player__display_name", "player_id")
    )
    context = {
        "league": league,
        "members": members,
        "organisers": sum(1 for m in members if m.role == Role.ORGANISER),
        "guest_form": guest_form or forms.GuestForm(),
        "user_form": user_form or forms.AddUserForm(),
        "row_errors": errors or {},
        "roles": Role.choices,
    }
    return _render(request, "manage/members.html", context, status)


@require_GET
@manager_required
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's members with their roles, guests' claim codes, and forms to add guests and users."""
    return _members_page(request, _league(request, slug))


@require_POST
@manager_required
def member_add_guest(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    form = forms.GuestForm(request.POST)

    @transaction.atomic  # the guest and their membership, or neither
    def add() -> Player:
        name = form.cleaned_data["display_name"]
        confirm = form.cleaned_data["confirm_duplicate"]
        services.refuse_namesake(actor=request.user, display_name=name, league=league, confirm_duplicate=confirm)
        player = services.player_create(actor=request.user, display_name=name)
        services.membership_add(actor=request.user, league=league, player=player, role=Role.PLAYER)
        return player

    player = form_saved(request, form, add, field="display_name")
    if player is not None:
        messages.success(request, f"{player.display_name} is added as a guest; share their claim code below.")
        return redirect("manage-members", slug=league.slug)
    return _members_page(request, league, guest_form=form, status=409 if form.namesake else 400)


@require_POST
@manager_required
def member_add_user(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    form = forms.AddUserForm(request.POST)
    if form.is_valid():
        username = form.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username__iexact=username).first()
        player = Player.objects.filter(user=user).first() if user is not None else None
        # As the API: a player only of members-only leagues closed to you is as unknown as a missing one.
        if player is not None and not selectors.player_addable_list(user=request.user).filter(pk=player.pk).exists():
            user = None
        if user is None:
            form.add_error("username", f"No registered user is named {username!r}; check the spelling.")
        else:
            try:
                with transaction.atomic():
                    player = player or services.player_for_user(user=user)
                    services.membership_add(
                        actor=request.user, league=league, player=player, role=form.cleaned_data["role"]
                    )
            except ApplicationError as exc:
                exc.extra.setdefault("field", "username")
                forms.show_error(form, exc)
            else:
                name = player.display_name
                also = "" if name == user.get_username() else f" ({user.get_username()})"
                messages.success(request, f"{name}{also} is now a member.")
                return redirect("manage-members", slug=league.slug)
    return _members_page(request, league, user_form=form, status=400)


def _membership(request: HttpRequest, pk: int) -> Membership:
    membership = visible_or_404(request, Membership.objects.select_related("league", "player"), "league", pk=pk)
    managed_league(request, membership.league)
    return membership


@require_POST
@manager_required
def member_role(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _membership(request, pk)
    form = forms.RoleForm(request.POST)
    try:
        if not form.is_valid():
            raise ApplicationError(f"Role must be one of {', '.join(Role.values)}.")
        services.membership_update(actor=request.user, membership=membership, role=form.cleaned_data["role"])
    except ApplicationError as exc:
        return _members_page(request, membership.league, errors={membership.pk: exc.message}, status=400)
    messages.success(request, f"{membership.player.display_name} is now {form.cleaned_data['role']}.")
    return redirect("manage-members", slug=membership.league.slug)


@require_POST
@manager_required
def member_remove(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _membership(request, pk)
    try:
        services.membership_remove(actor=request.user, membership=membership)
    except ApplicationError as exc:
        return _members_page(request, membership.league, errors={membership.pk: exc.message}, status=400)
    messages.success(request, f"{membership.player.display_name} is no longer a member of {membership.league.name}.")
    return redirect("manage-members", slug=membership.league.slug)


# Events and tables


@require_http_methods(["GET", "POST"])
@manager_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    initial = {"starts_at": timezone.localtime().replace(second=0, microsecond=0)}
    form = forms.EventForm(request.POST or None, league=league, initial=initial)
    if not form.fields["season"].queryset.exists():
        messages.info(request, "An event belongs to a season: create the league's first season.")
        return redirect("manage-seasons", slug=league.slug)
    event = form_saved(
        request,
        form,
        lambda: services.event_create(actor=request.user, season=form.cleaned_data["season"], **form.service_fields()),
    )
    if event is not None:
        messages.success(request, f"{event.name} is created.")
        return redirect("manage-event", pk=event.pk)
    status = _status(form)
    return _render(request, "manage/event_form.html", {"league": league, "form": form}, status)


@require_http_methods(["GET", "POST"])
@manager_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = managed_event(request, pk)
    form = forms.EventEditForm(request.POST or None, event=event)
    if form_saved(request, form, _changes(request, form, services.event_update, event, event=event)):
        messages.success(request, f"{form.cleaned_data['name']} is saved.")
        return redirect("manage-event", pk=event.pk)
    status = _status(form)
    context = {"league": event.season.league, "event": event, "form": form}
    return _render(request, "manage/event_form.html", context, status)

"""League pages: the leagues you can see, and a league's page (standings of the season in the URL, sortable,
provisional standings from running events, its events, its rules in words)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from league import page_cache, page_stamps, pages, selectors
from league.models import JoinMode, JoinRequest
from league.permissions import can_create_league, can_manage_league

# Where a cached league page holds the viewer's own "Ask to join" box (their request pending, declined or none).
ASK_SLOT: SafeString = mark_safe("<!--page-cache:ask-to-join-->")


def league_list_page(request: HttpRequest) -> HttpResponse:
    leagues = list(selectors.league_list(user=request.user).order_by("name"))
    for league in leagues:
        league.rules_in_words = pages.league_rules_in_words(league, None)
        league.points_in_words = pages.points_in_words(league.points_formula, league.points_parameters)
    context = {"leagues": leagues, "typed": "", "error": "", "can_create": can_create_league(request.user)}
    return render(request, "league/league_list.html", context)


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """`?season=<id>|all` picks the table (bookmarkable), `?sort=&dir=` orders it; htmx gets the table only.

    The whole page is rendered once per state of the league's data (its data version) and kind of viewer,
    then served from the cache (`league.page_cache.serve_page`) after reading the league's row alone."""
    state = page_stamps.league_by_slug(slug, user=request.user)
    if state is None or not state.visible_to(request.user):
        raise Http404("No such league.")
    raw_season = request.GET.get("season")
    sort = request.GET.get("sort", "")
    sort = sort if sort in pages.STANDING_SORTS else "rank"
    direction = request.GET.get("dir", "")
    direction = direction if direction in ("asc", "desc") else ""
    if getattr(request, "htmx", False):
        return HttpResponse(_league_fragments(request, slug, raw_season, sort, direction)[1]["standings_html"])
    season_key = page_cache.plain_param(raw_season, allowed=("all",))
    return page_cache.serve_page(
        request,
        name="league",
        stamps=[state.stamp],
        parts=[season_key, sort, direction],
        render=lambda csrf_token: _render_league_page(request, slug, raw_season, sort, direction, csrf_token),
        slots={ASK_SLOT: lambda: _ask_box(request, slug)} if request.user.is_authenticated else None,
    )


def _ask_box(request: HttpRequest, slug: str) -> str:
    """The viewer's "Ask to join": a pending request shows as pending (no second button), a declined one says so."""
    league = selectors.league_by_slug(user=request.user, slug=slug)
    join_request = JoinRequest.objects.filter(league=league, user=request.user).only("status").first()
    return render_to_string("league/_ask.html", {"league": league, "join_request": join_request}, request)


def _league_fragments(request: HttpRequest, slug: str, raw_season, sort: str, direction: str) -> tuple:
    """The league (read again: the page shows all of it) and its page's fragments, from their own cache."""
    league = selectors.league_by_slug(user=request.user, slug=slug)
    my_player_id = selectors.user_player_id(request.user)

    def build() -> dict:
        return pages.league_fragments(
            league=league, raw_season=raw_season, sort=sort, direction=direction, my_player_id=my_player_id
        )

    season_key = page_cache.plain_param(raw_season, allowed=("all",))
    if season_key is None:
        fragments = build()
    else:
        stamp = page_cache.league_stamp(league.pk, league.created_at, league.data_version)
        key = page_cache.fragment_key("league", [stamp], season_key, sort, direction, my_player_id)
        fragments = page_cache.cached(key, build)
    if not fragments["known"]:
        raise Http404(f"{league.name} has no season {raw_season!r}; pick one from the list.")
    return league, fragments


def _render_league_page(request, slug: str, raw_season, sort: str, direction: str, csrf_token) -> str:
    league, fragments = _league_fragments(request, slug, raw_season, sort, direction)
    context = {
        "league": league,
        "seasons": fragments["seasons"],
        "season": fragments["season"],
        "rules": fragments["rules"],
        "season_changes": fragments["season_changes"],
        "standings_html": fragments["standings_html"],
        "events_html": fragments["events_html"],
        "can_manage": can_manage_league(request.user, league),
        "is_member": league.pk in selectors.user_league_roles(request.user),
        "points": pages.points_in_words(league.points_formula, league.points_parameters),
        "ask_box": "",
    }
    asking = request.user.is_authenticated and not context["is_member"] and league.join_mode == JoinMode.REQUEST
    if asking:  # the viewer's own request, filled in on each request (never cached)
        context["ask_box"] = ASK_SLOT if csrf_token is not None else _ask_box(request, slug)
    return page_cache.render_page(request, "league/league_detail.html", context, csrf_token)

"""League pages: the leagues you can see, and a league's page (standings of the season in the URL, sortable,
provisional standings from running events, its events, its rules in words)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from league import page_cache, page_stamps, pages, selectors
from league.models import JoinMode, JoinRequest, Season
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
    then served from the cache (`league.page_cache.serve_page`) after reading the league's row alone. A value the
    page does not take (a season not of the league, a column it does not sort by, a direction) is answered with
    the page of the default in its place and a notice naming what was wrong and what is allowed: a 400, served
    from the default's cached copy with the notice filled in, so a made-up value never makes or changes an entry.
    htmx gets the standings with the notice, as a 200, so that it swaps them in."""
    state = page_stamps.league_by_slug(slug, user=request.user)
    if state is None or not state.visible_to(request.user):
        raise Http404("No such league.")
    raw_season = request.GET.get("season")
    wrong: list[dict[str, str]] = []
    sort = request.GET.get("sort", "")
    if sort not in ("", *pages.STANDING_SORTS):
        wrong.append({"param": "sort", "value": sort})
    sort = sort if sort in pages.STANDING_SORTS else "rank"
    direction = request.GET.get("dir", "")
    if direction not in ("", "asc", "desc"):
        wrong.append({"param": "dir", "value": direction})
    direction = direction if direction in ("asc", "desc") else ""
    if getattr(request, "htmx", False):
        try:
            fragments = _league_fragments(request, slug, raw_season, sort, direction)[1]
        except UnknownSeason:
            wrong.insert(0, {"param": "season", "value": raw_season or ""})
            fragments = _league_fragments(request, slug, None, sort, direction)[1]
        notice = _query_notice(request, slug, wrong) if wrong else ""
        return HttpResponse(fragments["standings_html"].replace(STANDINGS_NOTICE_SLOT, notice))

    def serve(season: str | None) -> HttpResponse:
        def notice() -> str:
            return _query_notice(request, slug, wrong) if wrong else ""

        slots = {NOTICE_SLOT: notice}
        if request.user.is_authenticated:
            slots[ASK_SLOT] = lambda: _ask_box(request, slug)
        return page_cache.serve_page(
            request,
            name="league",
            stamps=[state.stamp],
            parts=[page_cache.plain_param(season, allowed=("all",)), sort, direction],
            render=lambda csrf_token: _render_league_page(
                request, slug, season, sort, direction, csrf_token, notice=NOTICE_SLOT if csrf_token else notice()
            ),
            slots=slots,
        )

    try:
        response = serve(raw_season)
    except UnknownSeason:
        wrong.insert(0, {"param": "season", "value": raw_season or ""})
        response = serve(None)
    if wrong:
        response.status_code = 400
    return response


class UnknownSeason(Exception):
    """The league has no season the address names."""


# Where a league page holds the notice of a query value it does not take (filled in on each request, never
# cached): at the top of the page, and at the top of the standings that htmx swaps in.
NOTICE_SLOT: SafeString = mark_safe("<!--page-cache:query-notice-->")
STANDINGS_NOTICE_SLOT: SafeString = pages.STANDINGS_NOTICE_SLOT


def _query_notice(request: HttpRequest, slug: str, wrong: list[dict[str, str]]) -> str:
    """What the address asked for that the page does not take, and what it takes (escaped: the values are the
    visitor's own text). A wrong season is shown as the default, the latest season (all time when there is none)."""
    league = selectors.league_by_slug(user=request.user, slug=slug)
    seasons = list(Season.objects.filter(league=league).order_by("-starts_on", "-id"))
    sorts = [(key, title) for key, _, _, title, _ in pages.SORT_COLUMNS]
    shown_season = pages.season_from_query(seasons, None)[0]
    context = {"notices": wrong, "league": league, "seasons": seasons, "shown_season": shown_season, "sorts": sorts}
    return render_to_string("league/_query_notice.html", context, request)


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
        fragments = pages.league_fragments(
            league=league, raw_season=raw_season, sort=sort, direction=direction, my_player_id=my_player_id
        )
        if not fragments["known"]:  # raised before the cache stores it: a made-up season makes no entry
            raise UnknownSeason(raw_season)
        return fragments

    season_key = page_cache.plain_param(raw_season, allowed=("all",))
    if season_key is None:
        fragments = build()
    else:
        stamp = page_cache.league_stamp(league.pk, league.created_at, league.data_version)
        key = page_cache.fragment_key("league", [stamp], season_key, sort, direction, my_player_id)
        fragments = page_cache.cached(key, build)
    return league, fragments


def _render_league_page(
    request, slug: str, raw_season, sort: str, direction: str, csrf_token, *, notice: str = ""
) -> str:
    league, fragments = _league_fragments(request, slug, raw_season, sort, direction)
    context = {
        "league": league,
        "seasons": fragments["seasons"],
        "season": fragments["season"],
        "rules": fragments["rules"],
        "season_changes": fragments["season_changes"],
        # The page's notice sits at its top; the standings' own slot is for htmx's swap alone.
        "standings_html": mark_safe(fragments["standings_html"].replace(STANDINGS_NOTICE_SLOT, "")),  # noqa: S308 - rendered HTML, a comment taken out
        "query_notice": notice,  # the slot, or the notice rendered (escaped) for this request
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

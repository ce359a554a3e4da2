"""League pages: the leagues you can see, and a league's page (standings of the season in the URL, sortable,
provisional standings from running events, its events, its rules in words)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league import page_cache, pages, selectors
from league.permissions import can_manage_league


def league_list_page(request: HttpRequest) -> HttpResponse:
    leagues = list(selectors.league_list(user=request.user).order_by("name"))
    for league in leagues:
        league.rules_in_words = pages.league_rules_in_words(league, None)
    return render(request, "league/league_list.html", {"leagues": leagues})


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """`?season=<id>|all` picks the table (bookmarkable), `?sort=&dir=` orders it; htmx gets the table only.

    The standings and the events are rendered once per state of the league's data (its data version) and
    viewer's row, then served from the cache (`league.page_cache`)."""
    league = selectors.league_by_slug(user=request.user, slug=slug)
    raw_season = request.GET.get("season")
    sort = request.GET.get("sort", "")
    sort = sort if sort in pages.STANDING_SORTS else "rank"
    direction = request.GET.get("dir", "")
    direction = direction if direction in ("asc", "desc") else ""
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
    if getattr(request, "htmx", False):
        return HttpResponse(fragments["standings_html"])
    context = {
        "league": league,
        "seasons": fragments["seasons"],
        "season": fragments["season"],
        "rules": fragments["rules"],
        "season_changes": fragments["season_changes"],
        "standings_html": fragments["standings_html"],
        "events_html": fragments["events_html"],
        "can_manage": can_manage_league(request.user, league),
    }
    return render(request, "league/league_detail.html", context)

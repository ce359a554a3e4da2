"""League pages: the leagues you can see, and a league's page (standings of the season in the URL, sortable,
provisional standings from running events, its events, its rules in words)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league import pages, selectors
from league.models import Season
from league.permissions import can_manage_league


def league_list_page(request: HttpRequest) -> HttpResponse:
    leagues = list(selectors.league_list(user=request.user).order_by("name"))
    for league in leagues:
        league.rules_in_words = pages.rules_in_words(league.variant, league.preset, league.option_overrides)
    return render(request, "league/league_list.html", {"leagues": leagues})


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """`?season=<id>|all` picks the table (bookmarkable), `?sort=&dir=` orders it; htmx gets the table only."""
    league = selectors.league_by_slug(user=request.user, slug=slug)
    seasons = list(Season.objects.filter(league=league).order_by("-starts_on", "-id"))
    season, known = pages.season_from_query(seasons, request.GET.get("season"))
    if not known:
        raise Http404(f"{league.name} has no season {request.GET.get('season')!r}; pick one from the list.")
    rows, sort, direction = pages.sort_rows(
        selectors.standings_rows(league=league, season=season), request.GET.get("sort", ""), request.GET.get("dir", "")
    )
    provisional, running = pages.provisional_rows(league=league, season=season)
    season_param = str(season.pk) if season else "all"
    context = {
        "league": league,
        "seasons": seasons,
        "season": season,
        "season_param": season_param,
        "rows": rows,
        "sort": sort,
        "direction": direction,
        "sort_columns": SORT_COLUMNS,
        "provisional": provisional,
        "running": running,
        "my_player_id": selectors.user_player_id(request.user),
        "events": pages.league_events(league=league, season=season),
        "rules": pages.rules_in_words(
            season.variant or league.variant if season else league.variant,
            season.preset or league.preset if season else league.preset,
            (season.option_overrides if season and season.option_overrides else league.option_overrides),
        ),
        "can_manage": can_manage_league(request.user, league),
    }
    template = "league/_standings.html" if getattr(request, "htmx", False) else "league/league_detail.html"
    return render(request, template, context)


# (sort key, header, numeric column, title, CSS class: some columns give way on a phone)
SORT_COLUMNS = [
    ("rank", "#", True, "Rank", ""),
    ("player", "Player", False, "Player", ""),
    ("points", "Points", True, "Points", ""),
    ("wins", "Wins", True, "Wins", ""),
    ("net", "Net credits", True, "Net credits", ""),
    ("place", "Avg. place", True, "Average place", "hide-narrow"),
    ("events", "Events", True, "Events counted / played", "hide-narrow"),
    ("pot", "Biggest pot", True, "Biggest pot won", "hide-narrow"),
]

"""League pages: the leagues you can see, and a league's standings table (htmx swaps the season)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league import selectors
from league.models import Season


def league_list_page(request: HttpRequest) -> HttpResponse:
    leagues = selectors.league_list(user=request.user).order_by("name")
    return render(request, "league/league_list.html", {"leagues": leagues})


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = selectors.league_by_slug(user=request.user, slug=slug)
    seasons = list(Season.objects.filter(league=league).order_by("-starts_on"))
    chosen = request.GET.get("season")
    season = next((s for s in seasons if str(s.pk) == chosen), None) if chosen else (seasons[0] if seasons else None)
    context = {
        "league": league,
        "seasons": seasons,
        "season": season,
        "rows": selectors.standings_rows(league=league, season=season),
    }
    template = "league/_standings.html" if getattr(request, "htmx", False) else "league/league_detail.html"
    return render(request, template, context)

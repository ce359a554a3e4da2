"""A player's pages: home for a signed-in user, `/me/`, and a player's page (summary figures, credits over
time per season or all time, a game hand by hand, results and the paginated ledger)."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from league import hooks, pages, selectors
from league.permissions import can_edit_player


def home_page(request: HttpRequest) -> HttpResponse:
    """Everyone sees the running events; a signed-in user also their leagues, events and last results."""
    context = {"running_public": pages.public_running_events(user=request.user)}
    if request.user.is_authenticated:
        context.update(pages.home_for(user=request.user, now=timezone.now()))
    return render(request, "site/home.html", context)


def my_player(request: HttpRequest) -> HttpResponse:
    """The header's "My player": the signed-in user's player page, or the profile to make or claim one."""
    player_id = selectors.user_player_id(request.user)
    if player_id is None:
        return redirect("profile" if request.user.is_authenticated else "account_login")
    return redirect("player-detail", pk=player_id)


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """`?scope=all|<season id>` picks the credits chart, `?game=<id>` the hand-by-hand one, `?page=` the ledger."""
    player = pages.player_for_viewer(user=request.user, pk=pk)
    league_ids = pages.visible_league_ids(user=request.user)
    results = list(pages.player_results(user=request.user, player=player, league_ids=league_ids))
    seasons = pages.player_seasons(results)
    scope = request.GET.get("scope", "all")
    season = next((s for s in seasons if str(s.pk) == scope), None)
    scope = str(season.pk) if season else "all"
    lines = pages.player_ledger_lines(player=player, league_ids=league_ids)
    steps = pages.credits_over_time(lines, season)
    games = pages.games_with_hands(lines)
    chosen = request.GET.get("game")
    game = next((g for g in games if str(g["game"]) == chosen), games[0] if games else None)
    hands = pages.game_hands(lines, game["game"]) if game else []
    ledger = Paginator(lines[::-1], 25).get_page(request.GET.get("page"))
    for line in ledger:
        line["amount_text"] = f"{line['amount']:,}"
    context = {
        "player": player,
        "summary": pages.player_summary(results),
        "results_body": pages.results_body(results),
        "seasons": seasons,
        "scope": scope,
        "season": season,
        "credits_chart": pages.chart(
            "credits-chart",
            f"Net credits over time, {season.league.name} {season.name}"
            if season
            else "Net credits over time, all time",
            x=[step["at"] for step in steps],
            x_labels=[f"{step['at']:%d %b %Y} · {step['label']}" for step in steps],
            series=[{"label": player.display_name, "values": [step["cumulative"] for step in steps]}],
            x_label="Date",
            y_label="Net credits",
        ),
        "games": games,
        "game_options": pages.game_options(games, game["game"] if game else None),
        "game": game,
        "hands_chart": pages.chart(
            "hands-chart",
            f"Stack hand by hand, {game['label']}" if game else "Stack hand by hand",
            x=[point["hand"] for point in hands],
            x_labels=["buy-in" if point["hand"] == 0 else f"hand {point['hand']}" for point in hands],
            series=[{"label": player.display_name, "values": [point["credits"] for point in hands]}],
            x_label="Hand",
            y_label="Credits",
        ),
        "ledger": ledger,
        "leagues": pages.player_leagues(user=request.user, player=player),
        "is_me": player.user_id is not None and player.user_id == request.user.pk,
        "can_manage": can_edit_player(request.user, player),
    }
    if context["is_me"]:  # "My tables": online tables are the player's own business
        tables = hooks.player_tables(player_id=player.pk)
        context["my_tables"] = {
            "now": [t for t in tables if t["seated"]],
            "played": [t for t in tables if not t["seated"]],
        }
    return render(request, "players/player_detail.html", context)

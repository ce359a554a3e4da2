"""Reads for the site's league and player pages: standings tables (stored and provisional), a league's
events, a player's summary, results, ledger and credit charts, and the rules said in words.

Every read takes the viewer and keeps to leagues they may see (`league.selectors`), so a page never
shows more than the API would.
"""

from datetime import datetime
from typing import Any

from django.db.models import Avg, Count, F, Max, Q, QuerySet, Sum

from games.engine import EngineError, resolve_options
from league import selectors
from league.models import Event, EventResult, EventStatus, League, LedgerEntry, LedgerKind, Player, Season
from league.services import season_rules
from league.standings.compute import ResultRow, compute_standings

# Sortable standings columns: the URL's `sort` key, the row field, and the natural direction.
STANDING_SORTS: dict[str, tuple[str, bool]] = {
    "rank": ("rank", False),
    "player": ("display_name", False),
    "points": ("points", True),
    "wins": ("wins", True),
    "net": ("net_credits", True),
    "place": ("average_place", False),
    "events": ("events_played", True),
    "pot": ("biggest_pot", True),
}
NET_KINDS = (LedgerKind.HAND_WON, LedgerKind.HAND_LOST, LedgerKind.ADJUSTMENT)


def sort_rows(rows: list[dict[str, Any]], sort: str, direction: str) -> tuple[list[dict[str, Any]], str, str]:
    """Rows ordered by a known column (unknown keys fall back to rank); returns rows, key and direction."""
    if sort not in STANDING_SORTS:
        sort = "rank"
    field, descending = STANDING_SORTS[sort]
    if direction not in ("asc", "desc"):
        direction = "desc" if descending else "asc"
    ordered = sorted(rows, key=lambda row: (row[field], row["rank"]), reverse=direction == "desc")
    return ordered, sort, direction


def season_from_query(seasons: list[Season], raw: str | None) -> tuple[Season | None, bool]:
    """The season a `?season=` names: an id of the league's, "all" (None), or nothing (the latest).

    Returns (season, known): an id that is not one of the league's seasons is unknown.
    """
    if raw in (None, ""):
        return (seasons[0] if seasons else None), True
    if raw == "all":
        return None, True
    season = next((s for s in seasons if str(s.pk) == raw), None)
    return season, season is not None


def provisional_rows(*, league: League, season: Season | None) -> tuple[list[dict[str, Any]], list[Event]]:
    """Standings as they would be if the running events ended now; empty when no running event has results.

    Stored standings count finished events only; this adds the running ones, computed on the fly.
    """
    running = Event.objects.filter(season__league=league, status=EventStatus.RUNNING, counts_for_standings=True)
    if season is not None:
        running = running.filter(season=season)
    running = list(running.filter(results__isnull=False).distinct().order_by("starts_at"))
    if not running:
        return [], []
    results = EventResult.objects.filter(
        event__season__league=league,
        event__counts_for_standings=True,
        event__status__in=[EventStatus.FINISHED, EventStatus.RUNNING],
    )
    if season is not None:
        results = results.filter(event__season=season)
    fields = ResultRow._fields
    rows = [ResultRow(*values) for values in results.values_list(*fields)]
    names = dict(Player.objects.filter(pk__in={row.player_id for row in rows}).values_list("pk", "display_name"))
    table = [
        {
            "rank": rank,
            "player": tally.player_id,
            "display_name": names.get(tally.player_id, ""),
            "points": tally.points,
            "wins": tally.wins,
            "net_credits": tally.net_credits,
            "average_place": tally.average_place,
            "events_played": tally.events_played,
            "events_counted": tally.events_counted,
            "biggest_pot": tally.biggest_pot,
        }
        for rank, tally in compute_standings(rows, season_rules(league, season))
    ]
    return table, running


def league_events(*, league: League, season: Season | None) -> QuerySet[Event]:
    """The league's events, running first, then planned, then finished, newest first within each."""
    events = Event.objects.filter(season__league=league).select_related("season")
    if season is not None:
        events = events.filter(season=season)
    return events.annotate(players=Count("results", distinct=True)).order_by("-status", "-starts_at")[:50]


_TIE_RULES = {"split": "ties split the pot", "draw": "ties draw again"}
_ESCALATION = {
    "double_blinds": "blinds double each orbit",
    "cantina": "the ante rises as players drop out",
}
_END_RULES = {
    "last_player": "played until one player holds every credit",
    "everyone_deals": "over when everyone has dealt once",
    "never": "players come and go (casino)",
}


def rules_in_words(variant: str, preset: str, overrides: dict | None) -> str:
    """ "Better Coruscant Shift, blinds 5/10, blinds double each orbit, 450 credits each, ties split the pot"."""
    name = variant.replace("_", " ").title()
    try:
        options = resolve_options(variant, preset, overrides or {})
    except EngineError:
        return f"{preset.title()} {name} (options the engine does not accept)"
    parts = [f"{preset.title()} {name}"]
    if options.get("small_blind") or options.get("big_blind"):
        parts.append(f"blinds {options['small_blind']:,}/{options['big_blind']:,}")
    if options.get("ante"):
        parts.append(f"ante {options['ante']:,}")
    if options.get("escalation") in _ESCALATION:
        parts.append(_ESCALATION[options["escalation"]])
    if options.get("betting") == "fixed_stay":
        parts.append(f"pay {options['stay_cost']:,} to stay")
    else:
        parts.append("no-limit betting")
    parts.append(f"{options['starting_stack']:,} credits each")
    parts.append(_TIE_RULES.get(options.get("tie_rule"), ""))
    parts.append(_END_RULES.get(options.get("end_rule"), ""))
    if options.get("rebuys"):
        parts.append("re-buys allowed")
    return ", ".join(part for part in parts if part)


# Players


def player_for_viewer(*, user: Any, pk: int) -> Player:
    """A player the viewer may see (a member of a league they can see, or themselves), or Http404."""
    from django.http import Http404

    player = selectors.player_list(user=user).filter(pk=pk).select_related("user").first()
    if player is None:
        raise Http404("No such player.")
    return player


def _visible_results(*, user: Any, player: Player) -> QuerySet[EventResult]:
    return EventResult.objects.filter(player=player, event__season__league__in=selectors.league_list(user=user))


def player_summary(*, user: Any, player: Player) -> dict[str, Any]:
    """Events played, wins, average place, net credits and biggest pot, over every event the viewer can see."""
    results = _visible_results(user=user, player=player).filter(event__status=EventStatus.FINISHED)
    figures = results.aggregate(
        events=Count("id"),
        wins=Count("id", filter=Q(place=1)),
        average_place=Avg("place"),
        credits_in=Sum("credits_in"),
        credits_out=Sum("credits_out"),
        biggest_pot=Max("biggest_pot"),
    )
    figures["net_credits"] = (figures.pop("credits_out") or 0) - (figures.pop("credits_in") or 0)
    figures["biggest_pot"] = figures["biggest_pot"] or 0
    return figures


def player_results(*, user: Any, player: Player) -> QuerySet[EventResult]:
    return (
        _visible_results(user=user, player=player)
        .select_related("event__season__league")
        .annotate(net=F("credits_out") - F("credits_in"))
        .order_by("-event__starts_at", "-event_id")
    )


def player_ledger(*, user: Any, player: Player) -> QuerySet[LedgerEntry]:
    return (
        LedgerEntry.objects.filter(player=player, event__season__league__in=selectors.league_list(user=user))
        .select_related("event")
        .annotate(played_at=F("game__played_at"))
        .order_by("-id")
    )


def player_leagues(*, user: Any, player: Player) -> list[League]:
    return list(selectors.league_list(user=user).filter(memberships__player=player).order_by("name"))


def player_seasons(*, user: Any, player: Player) -> list[Season]:
    """Seasons the player has results in, newest first."""
    return list(
        Season.objects.filter(league__in=selectors.league_list(user=user), events__results__player=player)
        .select_related("league")
        .distinct()
        .order_by("-starts_on", "-id")
    )


def credits_over_time(*, user: Any, player: Player, season: Season | None) -> list[dict[str, Any]]:
    """Cumulative net credits after each game (or event adjustment), in time order: the player page's chart."""
    entries = LedgerEntry.objects.filter(
        player=player, kind__in=NET_KINDS, event__season__league__in=selectors.league_list(user=user)
    )
    if season is not None:
        entries = entries.filter(event__season=season)
    per_step: dict[tuple, dict[str, Any]] = {}
    for game_id, event_id, event_name, played_at, starts_at, amount in entries.values_list(
        "game_id", "event_id", "event__name", "game__played_at", "event__starts_at", "amount"
    ):
        key = (game_id, event_id)
        step = per_step.setdefault(
            key, {"game": game_id, "event": event_id, "label": event_name, "at": played_at or starts_at, "net": 0}
        )
        step["net"] += amount
    running = 0
    points = []
    for step in sorted(per_step.values(), key=lambda s: (s["at"], s["event"], s["game"] or 0)):
        running += step["net"]
        points.append({**step, "cumulative": running})
    return points


def game_hands(*, user: Any, player: Player, game_id: int) -> list[dict[str, Any]]:
    """The player's stack after buying in and after each known hand of one game, from the ledger."""
    entries = LedgerEntry.objects.filter(
        player=player, game_id=game_id, reversal=False, event__season__league__in=selectors.league_list(user=user)
    ).exclude(kind=LedgerKind.PAYOUT)
    latest = (
        LedgerEntry.objects.filter(game_id=game_id, correction__isnull=False)
        .order_by("-correction_id")
        .values_list("correction_id", flat=True)
        .first()
    )
    entries = entries.filter(correction_id=latest).order_by("id").values_list("kind", "hand", "amount")
    stack, points = 0, []
    for kind, hand, amount in entries:
        stack += amount
        if kind in (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON):
            if points and points[-1]["hand"] == 0:
                points[-1]["credits"] = stack
            else:
                points.append({"hand": 0, "credits": stack})
        elif hand is not None:
            points.append({"hand": hand, "credits": stack})
    return points


def games_with_hands(*, user: Any, player: Player) -> list[dict[str, Any]]:
    """The player's games whose hands are known (ledger lines with a hand number), newest first."""
    rows = (
        LedgerEntry.objects.filter(
            player=player, hand__isnull=False, event__season__league__in=selectors.league_list(user=user)
        )
        .values("game_id", "event__name", "game__played_at")
        .annotate(hands=Max("hand"))
        .order_by("-game__played_at", "-game_id")
    )
    return [
        {"game": row["game_id"], "label": row["event__name"], "at": row["game__played_at"], "hands": row["hands"]}
        for row in rows
        if row["game_id"] is not None
    ]


# The signed-in user's home


def home_for(*, user: Any, now: datetime) -> dict[str, Any]:
    """My leagues, my running and next events, my last results."""
    player = Player.objects.filter(user=user).first()
    leagues = list(selectors.league_list(user=user).filter(memberships__player__user=user).order_by("name"))
    league_ids = [league.pk for league in leagues]
    running = list(
        Event.objects.filter(season__league_id__in=league_ids, status=EventStatus.RUNNING)
        .select_related("season__league")
        .order_by("starts_at")[:10]
    )
    upcoming = list(
        Event.objects.filter(season__league_id__in=league_ids, status=EventStatus.PLANNED)
        .select_related("season__league")
        .order_by("starts_at")[:5]
    )
    results = list(player_results(user=user, player=player)[:5]) if player else []
    return {"my_player": player, "my_leagues": leagues, "running": running, "upcoming": upcoming, "results": results}


def public_running_events(*, user: Any) -> list[Event]:
    """Running events of leagues the viewer can see: the home page shows them to everyone."""
    return list(
        selectors.event_list(user=user)
        .filter(status=EventStatus.RUNNING)
        .select_related("season__league")
        .order_by("starts_at")[:10]
    )


# Charts


def chart(
    chart_id: str,
    title: str,
    *,
    x: list[Any],
    x_labels: list[str],
    series: list[dict[str, Any]],
    x_label: str,
    y_label: str,
) -> dict[str, Any]:
    """The data of one chart for `site/_chart.html`: x values (datetimes become Unix seconds), a label per x
    for the table fallback, and series of values (None where a series has no point)."""
    is_time = bool(x) and isinstance(x[0], datetime)
    data = {
        "x": [value.timestamp() if isinstance(value, datetime) else value for value in x],
        "time": is_time,
        "x_label": x_label,
        "y_label": y_label,
        "series": [{"label": line["label"], "values": list(line["values"])} for line in series],
    }
    rows = [
        {"label": label, "values": [line["values"][index] for line in series]} for index, label in enumerate(x_labels)
    ]
    return {"id": chart_id, "title": title, "data": data, "rows": rows, "series": series, "empty": not x}

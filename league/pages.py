"""Reads for the site's league and player pages: standings tables (stored and provisional), a league's
events, a player's summary, results, ledger and credit charts, and the rules said in words.

Every read takes the viewer and keeps to leagues they may see (`league.selectors`), so a page never
shows more than the API would.
"""

from datetime import datetime
from html import escape  # Django's escape is this one wrapped for lazy text: 1,000 names a table, plain is faster
from itertools import chain
from typing import Any

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Case, CharField, F, Max, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from league import selectors
from league.models import (
    Event,
    EventKind,
    EventResult,
    EventStatus,
    League,
    LedgerEntry,
    LedgerKind,
    Player,
    Role,
    Season,
)
from league.providers import RulesRefused, games
from league.services import season_rules
from league.standings.compute import ResultRow, compute_standings
from league.standings.formulas import FixedPoints

# Where the standings hold a notice of a query value the league page does not take, filled in by the page (for
# htmx, which swaps the standings alone); the cached fragment keeps the slot only.
STANDINGS_NOTICE_SLOT: SafeString = mark_safe("<!--page-cache:standings-notice-->")

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
# (sort key, header, numeric column, title, CSS class: some columns give way on a phone)
SORT_COLUMNS = [
    ("rank", "#", True, "Rank", ""),
    ("player", "Player", False, "Player", ""),
    ("points", "Points", True, "Points", ""),
    ("wins", "Wins", True, "Wins", "hide-phone"),
    ("net", "Net credits", True, "Net credits", ""),
    ("place", "Avg. place", True, "Average place", "hide-narrow"),
    ("events", "Events", True, "Events counted / played", "hide-narrow"),
    ("pot", "Biggest pot", True, "Biggest pot won", "hide-narrow"),
]


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


def league_rules_in_words(league: League, season: Season | None) -> str:
    """The rules games of the season (or the league) are played by, in words: the season's variant and preset
    when it sets them, and its single options over the league's (as games of the season are created)."""
    policy = (season.buy_in_policy if season is not None else None) or league.buy_in_policy
    stake = policy.buy_in if policy is not None and policy.buy_in else None  # online tables start at the buy-in
    if season is None:
        return rules_in_words(league.variant, league.preset, league.option_overrides, stake=stake)
    return rules_in_words(
        season.variant or league.variant,
        season.preset or league.preset,
        {**(league.option_overrides or {}), **(season.option_overrides or {})},
        stake=stake,
    )


POINTS_IN_WORDS = {
    "linear": "one point for each player in the event, less one for each place below first (the last scores 1)",
    "sqrt": "10 \u00d7 the square root of the field \u00f7 the square root of the place (bigger fields are worth more)",
    "log": "the natural logarithm of (players + 1) \u00f7 place",
    "custom": "the league's own formula",
}


def points_in_words(key: str, parameters: dict | None = None) -> str:
    """A points formula (`league.standings.formulas`) in words for a page, never its key."""
    if key == "fixed":
        table = (parameters or {}).get("table") or FixedPoints.default_table
        shown = ", ".join(f"{points:g}" for points in table[:5]) + (", \u2026" if len(table) > 5 else "")
        return f"fixed points for each place ({shown})"
    return POINTS_IN_WORDS.get(key, "the league's own formula")


def league_fragments(
    *, league: League, raw_season: str | None, sort: str, direction: str, my_player_id: int | None
) -> dict[str, Any]:
    """Everything of the league page that comes from the league's data, rendered: its seasons, the one asked
    for (`known` False when the league has no such season), the rules in words, and the standings and
    events as HTML. Cached by the league page under the league's data version."""
    from django.template.loader import render_to_string

    seasons = list(Season.objects.filter(league=league).order_by("-starts_on", "-id"))
    season, known = season_from_query(seasons, raw_season)
    if not known:
        return {"known": False}
    rows, sort, direction = sort_rows(selectors.standings_rows(league=league, season=season), sort, direction)
    provisional, running = provisional_rows(league=league, season=season)
    context = {
        "league": league,
        "season": season,
        "season_param": str(season.pk) if season else "all",
        "rows": standings_body(rows, my_player_id),
        "sort": sort,
        "direction": direction,
        "sort_columns": SORT_COLUMNS,
        "provisional": standings_body(provisional, my_player_id) if provisional else None,
        "running": running,
        "events_body": events_body(league_events(league=league, season=season)),
        "notice_slot": STANDINGS_NOTICE_SLOT,
    }
    return {
        "known": True,
        "seasons": seasons,
        "season": season,
        "rules": league_rules_in_words(league, season),
        "season_changes": season_changes_in_words(league, season),
        "standings_html": render_to_string("league/_standings.html", context),
        "events_html": render_to_string("league/_events.html", context),
    }


def league_events(*, league: League, season: Season | None) -> list[Event]:
    """The league's running and planned events, then its latest finished ones (50 in all), each with its
    player count. Two short reads: sorting every finished event by status too would cost more."""
    events = Event.objects.filter(season__league=league).select_related("season")
    if season is not None:
        events = events.filter(season=season)
    open_events = list(
        events.filter(status__in=[EventStatus.RUNNING, EventStatus.PLANNED]).order_by("-status", "-starts_at")[:50]
    )
    left = 50 - len(open_events)
    if season is not None:
        finished = list(events.filter(status=EventStatus.FINISHED).order_by("-starts_at")[:left])
    else:  # each season's latest from its own index, then merged: across seasons PostgreSQL sorted every event
        per_season = [
            events.filter(season_id=pk, status=EventStatus.FINISHED).order_by("-starts_at")[:left]
            for pk in Season.objects.filter(league=league).values_list("pk", flat=True)
        ]
        finished = sorted(chain.from_iterable(per_season), key=lambda event: event.starts_at, reverse=True)[:left]
    shown = open_events + finished
    counts = event_player_counts([event.pk for event in shown], open_ids=[event.pk for event in open_events])
    for event in shown:
        event.players = counts.get(event.pk, 0)
    return shown


def event_player_counts(event_ids: list[int], *, open_ids: list[int]) -> dict[int, int]:
    """Each event's players in one query: those with a result and, at an event not finished yet, also those
    taking part so far (seated at its online or real-cards tables, in its tournament's field; the games app says
    who, `GamesProvider.taking_part`). A running tournament has no result before it completes."""
    if not event_ids:
        return {}
    parts = [EventResult.objects.filter(event__in=event_ids).values_list("event_id", "player_id").order_by()]
    if open_ids:
        parts += [part.order_by() for part in games().taking_part(event_ids=open_ids)]
    pairs = parts[0].union(*parts[1:])  # UNION: a player counts once per event
    sql, params = pairs.query.sql_with_params()
    count = f"SELECT event_id, COUNT(*) FROM ({sql}) AS taking_part GROUP BY event_id"  # noqa: S608 - Django's SQL
    with connection.cursor() as cursor:
        cursor.execute(count, params)
        return dict(cursor.fetchall())


def events_body(events: list[Event]) -> SafeString:
    """The league page's events table rows as HTML in one pass (50 rows, four lookups each in a template)."""
    if not events:
        return mark_safe('<tr><td colspan="5">No events yet.</td></tr>')
    statuses, kinds = dict(EventStatus.choices), dict(EventKind.choices)
    rows = []
    for event in events:
        starts = timezone.localtime(event.starts_at)
        rows.append(
            f'<tr><td><a href="/events/{event.pk}/">{escape(event.name)}</a></td>'
            f'<td><span class="badge {escape(event.status)}">'
            f"{escape(statuses.get(event.status, event.status))}</span></td>"
            f'<td class="hide-narrow">{escape(kinds.get(event.kind, event.kind))}</td>'
            f'<td><time datetime="{starts.isoformat()}">{starts.day} {starts:%b %Y}</time></td>'
            f'<td class="num">{event.players:,}</td></tr>'
        )
    return mark_safe("\n".join(rows))  # noqa: S308 - every value above is a number, a date or escaped


ME_ROW = ' class="me" aria-current="true"'
ME_BADGE = ' <span class="badge">you</span>'


def standings_body(rows: list[dict[str, Any]], my_player_id: int | None) -> SafeString:
    """A standings table's rows as HTML, built here in one pass: a 1,000-row table costs a join of strings
    rather than 12,000 template nodes. Names are escaped; numbers get thousands separators."""
    if not rows:
        return mark_safe('<tr><td colspan="8">No results yet.</td></tr>')
    cells = []
    for row in rows:
        net = row["net_credits"]
        me = row["player"] == my_player_id
        mark, badge = (ME_ROW, ME_BADGE) if me else ("", "")
        cells.append(
            f'<tr{mark}><td class="num">{row["rank"]}</td>'
            f'<td class="name"><a href="/players/{row["player"]}/">{escape(row["display_name"])}</a>{badge}</td>'
            f'<td class="num">{row["points"]:,.2f}</td><td class="num hide-phone">{row["wins"]:,}</td>'
            f'<td class="num{" pos" if net > 0 else " neg" if net < 0 else ""}">{net:,}</td>'
            f'<td class="num hide-narrow">{row["average_place"]:,.2f}</td>'
            f'<td class="num hide-narrow">{row["events_counted"]:,}/{row["events_played"]:,}</td>'
            f'<td class="num hide-narrow">{row["biggest_pot"]:,}</td></tr>'
        )
    return mark_safe("\n".join(cells))  # noqa: S308 - every value above is a number or escaped


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


def option_in_words(value: Any) -> str:
    """An option's value as the pages say it: 1,000; no limit; yes; none; 5, 3, 2, 1."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return ", ".join(option_in_words(v) for v in value)
    return str(value).replace("_", " ")


def season_changes_in_words(league: League, season: Season | None) -> str:
    """The single options a season changes, each with the league's value: "starting stack 777 (the league's
    450), hands 20 (the league's none)"; blank when it changes none."""
    if season is None or not season.option_overrides:
        return ""
    try:
        base = games().resolve_rules(
            variant=league.variant, preset=league.preset, overrides=league.option_overrides or {}
        )
    except RulesRefused:
        base = {}
    return ", ".join(
        f"{name.replace('_', ' ')} {option_in_words(value)} (the league's {option_in_words(base.get(name))})"
        for name, value in sorted(season.option_overrides.items())
    )


def rules_name(variant: str, preset: str) -> str:
    """ "Better Coruscant Shift" (the presets read as adjectives), "Corellian Spike (Galaxy Series)", "Classic"."""
    name = variant.replace("_", " ").title()
    preset_name = preset.replace("_", " ").title()
    if variant == "coruscant_shift":
        return f"{preset_name} {name}"
    return name if preset_name == name else f"{name} ({preset_name})"


def rules_in_words(variant: str, preset: str, overrides: dict | None, *, stake: int | None = None) -> str:
    """ "Better Coruscant Shift, blinds 5/10, blinds double each orbit, 450 credits each, ties split the pot".
    `stake`: the credits each player starts with when a buy-in sets it (an online table's stake is its buy-in),
    said as such where it differs from the rules' own starting stack."""
    name = rules_name(variant, preset)
    try:
        options = games().resolve_rules(variant=variant, preset=preset, overrides=overrides or {})
    except RulesRefused:
        return f"{name} (options the engine does not accept)"
    parts = [name]
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
    if stake and stake != options["starting_stack"]:
        rules_stack, online = options["starting_stack"], f"{stake:,} credits each at online tables"
        parts.append(f"{rules_stack:,} credits each (the buy-in sets the stake: {online})")
    else:
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

    player = selectors.player_list(user=user).filter(pk=pk).first()  # the page needs user_id only
    if player is None:
        raise Http404("No such player.")
    return player


def visible_league_ids(*, user: Any) -> list[int]:
    return list(selectors.league_list(user=user).values_list("pk", flat=True))


def visible_league_stamps(*, user: Any) -> list[tuple[int, str]]:
    """(id, stamp) of each league the viewer can see, in one query: the stamp (`page_cache.league_stamp`)
    names the state of its data, so a page built from these leagues is cached under their stamps."""
    from league.page_cache import league_stamp

    rows = selectors.league_list(user=user).order_by("pk").values_list("pk", "created_at", "data_version")
    return [(pk, league_stamp(pk, created_at, version)) for pk, created_at, version in rows]


def player_results(*, user: Any, player: Player, league_ids: list[int] | None = None) -> QuerySet[EventResult]:
    """The player's event results in leagues the viewer can see, newest first, with their net credits."""
    if league_ids is None:
        league_ids = visible_league_ids(user=user)
    return (
        EventResult.objects.filter(player=player, event__season__league_id__in=league_ids)
        .select_related("event__season__league")
        .annotate(net=F("credits_out") - F("credits_in"))
        .order_by("-event__starts_at", "-event_id")
    )


def results_body(results: list[EventResult]) -> SafeString:
    """The player page's results table rows as HTML, built in one pass (200 events are 200 rows)."""
    if not results:
        return mark_safe('<tr><td colspan="6">No results yet.</td></tr>')
    rows = []
    for result in results:
        event = result.event
        running = ' <span class="badge provisional">provisional</span>' if event.status == EventStatus.RUNNING else ""
        net = result.credits_out - result.credits_in
        rows.append(
            f'<tr><td><a href="/events/{event.pk}/">{escape(event.name)}</a>{running}</td>'
            f'<td class="hide-narrow">{escape(event.season.league.name)}</td>'
            f"<td>{event.starts_at.day} {event.starts_at:%b %Y}</td>"
            f'<td class="num">{result.place}/{result.players}</td><td class="num">{result.buy_in:,}</td>'
            f'<td class="num{" pos" if net > 0 else " neg" if net < 0 else ""}">{net:,}</td></tr>'
        )
    return mark_safe("\n".join(rows))  # noqa: S308 - every value above is a number or escaped


def player_summary(results: list[EventResult], net: dict[str, int]) -> dict[str, Any]:
    """Events, wins, average place and biggest pot over the finished events among `results`; net credits as the
    ledger has them (`player_net`: what the chart and the API say), with the part still in play."""
    finished = [result for result in results if result.event.status == EventStatus.FINISHED]
    return {
        "events": len(finished),
        "wins": sum(1 for result in finished if result.place == 1),
        "average_place": sum(result.place for result in finished) / len(finished) if finished else None,
        "net_credits": net["net_credits"],
        "in_play": net["in_play"],
        "biggest_pot": max((result.biggest_pot for result in finished), default=0),
    }


def player_net(*, player: Player, league_ids: list[int]) -> dict[str, int]:
    """The player's net credits over all their lines in these leagues, as the standings count them
    (`selectors.NET_CHANGE`: a running game's hands so far, a tournament's buy-ins once paid), and `in_play`: the
    part booked at events not finished yet (a running tournament's buy-in, until its payout). One query."""
    return player_lines(player=player, league_ids=league_ids).aggregate(
        net_credits=Sum(selectors.NET_CHANGE, default=0),
        in_play=Sum(selectors.NET_CHANGE, filter=~Q(event__status=EventStatus.FINISHED), default=0),
    )


def player_seasons(results: list[EventResult]) -> list[Season]:
    """Seasons the player has results in, newest first."""
    seasons = {result.event.season.pk: result.event.season for result in results}
    return sorted(seasons.values(), key=lambda season: (season.starts_on, season.pk), reverse=True)


def player_leagues(*, user: Any, player: Player) -> list[League]:
    return list(selectors.league_list(user=user).filter(memberships__player=player).order_by("name"))


def player_lines(*, player: Player, league_ids: list[int]) -> QuerySet[LedgerEntry]:
    """The player's ledger lines in the given leagues, each with one timestamp `at` (its game's, else its
    event's start)."""
    return LedgerEntry.objects.filter(player=player, event__season__league_id__in=league_ids).annotate(
        at=Coalesce("game__played_at", "event__starts_at")
    )


LEDGER_PAGE_FIELDS = (
    "id",
    "event_id",
    "event__name",
    "event__season__league_id",
    "at",
    "kind",
    "hand",
    "amount",
    "reversal",
    "correction_id",
)


def audit_league_ids(user: Any) -> frozenset[int] | None:
    """Leagues whose ledger reasons the viewer may read (their organisers'), or None for all (site admins):
    as `selectors.ledger_list` decides for the API."""
    if selectors.is_admin(user):
        return None
    return frozenset(league for league, role in selectors.user_league_roles(user).items() if role == Role.ORGANISER)


def ledger_page(
    *,
    player: Player,
    league_ids: list[int],
    page: str | None,
    audit: frozenset[int] | None = frozenset(),
    per_page: int = 25,
) -> Page:
    """One page of the player's ledger, newest first: the page's 25 lines and a count, read by the database.
    A line's reason is kept only for the leagues in `audit` (None: every league), as the API shows it."""
    if audit is None:
        reason = F("reason")
    elif audit:
        when = When(event__season__league_id__in=audit, then=F("reason"))
        reason = Case(when, default=Value(""), output_field=CharField())
    else:
        reason = Value("", output_field=CharField())
    lines = (
        player_lines(player=player, league_ids=league_ids)
        # A line is shown at its game's time, or, for a line of no game (an adjustment, a tournament's buy-in or
        # prize), when it was booked: listed newest first, the times then read in order.
        .annotate(reason_shown=reason, shown_at=Coalesce("game__played_at", "created_at"))
        .order_by("-id")
        .values(*LEDGER_PAGE_FIELDS, "reason_shown", "shown_at")
    )
    ledger = Paginator(lines, per_page).get_page(page)
    labels = dict(LedgerKind.choices)
    shown = []
    for line in ledger.object_list:
        amount, money = player_side(line["kind"], line["amount"])
        shown.append(
            {
                **line,
                "reason": line["reason_shown"],
                "at": line["shown_at"],
                "kind_label": labels.get(line["kind"], line["kind"]),
                "amount": amount,
                "money": money,
                "amount_text": f"{amount:+,}" if amount else "0",
                "note": line_note(reversal=line["reversal"], correction_id=line["correction_id"]),
            }
        )
    ledger.object_list = shown
    return ledger


# Lines that move money between the player and the table: a buy-in is stored as chips coming onto the table
# (+), which for the player is money going out; the payout the other way round.
MONEY_KINDS = frozenset((LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON, LedgerKind.PAYOUT))


def player_side(kind: str, amount: int) -> tuple[int, bool]:
    """A ledger line's amount as the player reads it, and whether it is money (paid in or taken home) rather
    than chips won or lost at the table: money paid in is negative, money taken home positive; hands (and
    adjustments) as they moved the player's stack."""
    return (-amount, True) if kind in MONEY_KINDS else (amount, False)


def line_note(*, reversal: bool, correction_id: int | None) -> str:
    """What a line is in a corrected game's history (or a refund), in words every viewer may read: the lines a
    correction reversed and the result it booked instead. The reason and author stay the organisers'."""
    if correction_id is not None:
        return f"correction {correction_id}: {'reversal' if reversal else 'new result'}"
    return "refund" if reversal else ""


def credits_over_time(*, player: Player, league_ids: list[int], season: Season | None) -> list[dict[str, Any]]:
    """Cumulative net credits after each game (or event adjustment), in time order: the player page's chart.
    The database adds up each game's lines, so a regular's 2,000 lines come back as 200 steps."""
    lines = player_lines(player=player, league_ids=league_ids)
    if season is not None:
        lines = lines.filter(event__season_id=season.pk)
    # Every game the player has a line in is a step, one that broke even (no hand line) included: a player
    # with one result sees it on the chart.
    steps = (
        lines.values("game_id", "event_id", "event__name", "at")
        .annotate(net=Sum(selectors.NET_CHANGE, default=0))
        .order_by()
        .values_list("game_id", "event_id", "event__name", "at", "net")
    )
    points, running = [], 0
    for game, event, label, at, net in sorted(steps, key=lambda s: (s[3], s[1], s[0] or 0)):
        running += net
        points.append({"game": game, "event": event, "label": label, "at": at, "net": net, "cumulative": running})
    return points


def games_with_hands(*, player: Player, league_ids: list[int]) -> list[dict[str, Any]]:
    """The player's games whose hands are known (ledger lines with a hand number), newest first."""
    rows = (
        player_lines(player=player, league_ids=league_ids)
        .filter(hand__isnull=False, game__isnull=False)
        .values("game_id", "event__name", "at")
        .annotate(hands=Max("hand"))
        .order_by()
        .values_list("game_id", "event__name", "at", "hands")
    )
    games = [{"game": game, "label": label, "at": at, "hands": hands} for game, label, at, hands in rows]
    return sorted(games, key=lambda g: (g["at"], g["game"]), reverse=True)


def game_options(games: list[dict[str, Any]], chosen: int | None) -> SafeString:
    """The game picker's options as HTML in one pass (a regular has hundreds of games)."""
    options = [
        f'<option value="{g["game"]}"{" selected" if g["game"] == chosen else ""}>{escape(g["label"])}, '
        f"{g['at'].day} {g['at']:%b %Y} ({g['hands']} hands)</option>"
        for g in games
    ]
    return mark_safe("".join(options))  # noqa: S308 - labels are escaped


def game_hands(*, player: Player, league_ids: list[int], game_id: int) -> list[dict[str, Any]]:
    """The player's stack after buying in and after each known hand of one game (its latest correction)."""
    game_lines = list(
        player_lines(player=player, league_ids=league_ids)
        .filter(game_id=game_id, reversal=False)
        .order_by("id")
        .values("kind", "hand", "amount", "correction_id")
    )
    latest = max((line["correction_id"] for line in game_lines if line["correction_id"]), default=None)
    stack, points = 0, []
    for line in game_lines:
        if line["correction_id"] != latest or line["kind"] == LedgerKind.PAYOUT:
            continue
        stack += line["amount"]
        if line["kind"] in (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON):
            if points and points[-1]["hand"] == 0:
                points[-1]["credits"] = stack
            else:
                points.append({"hand": 0, "credits": stack})
        elif line["hand"] is not None:
            points.append({"hand": line["hand"], "credits": stack})
    return points


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
        {
            "label": label,
            "values": ["\u2013" if line["values"][index] is None else f"{line['values'][index]:,}" for line in series],
        }
        for index, label in enumerate(x_labels)
    ]
    body = "".join(
        f"<tr><td>{escape(row['label'])}</td>"
        + "".join(f'<td class="num">{value}</td>' for value in row["values"])
        + "</tr>"
        for row in rows
    )
    body = mark_safe(body)  # noqa: S308 - labels are escaped, values are formatted numbers
    return {"id": chart_id, "title": title, "data": data, "body": body, "series": series, "empty": not x}

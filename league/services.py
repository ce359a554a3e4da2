"""Every write to the league models: keyword-only, atomic, audited; events and tasks after commit."""

from collections import defaultdict
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.db.models import Model, Sum
from django.utils import timezone
from django.utils.text import slugify

from config.errors import ApplicationError, ConflictError
from config.events import publish
from league.models import (
    MAX_COUNT,
    MAX_CREDITS,
    AuditEntry,
    BuyInPolicy,
    ChipSet,
    Event,
    EventKind,
    EventResult,
    EventStatus,
    League,
    LedgerEntry,
    LedgerKind,
    Membership,
    Player,
    Role,
    Season,
    Standing,
    Visibility,
)
from league.standings.compute import ResultRow, Rules, compute_standings
from league.standings.formulas import validate_formula
from league.standings.metrics import validate_tie_breakers

ALL_TIME = "all"


def season_scope(season_id: int) -> str:
    return f"season-{season_id}"


def audit(*, actor: Any, action: str, obj: Model, league: League | None = None, data: dict | None = None) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        league=league,
        object_type=obj._meta.label,
        object_id=str(obj.pk),
        data=data or {},
    )


def resolve_game_rules(*, variant: str, preset: str, overrides: dict | None) -> dict[str, Any]:
    """The engine's full option set for these rules; an engine refusal becomes a user error."""
    from games.engine import EngineError, resolve_options

    if overrides is not None and not isinstance(overrides, dict):
        raise ApplicationError("Option overrides must be an object of option names to values.")
    try:
        return resolve_options(variant, preset, overrides or {})
    except EngineError as exc:
        raise ApplicationError(f"These game rules are not allowed: {exc}", extra={"field": "rules"}) from exc


def _check_rules(fields: dict[str, Any], *, fallback: League | None = None) -> None:
    """Validate rules, points and tie-breakers present in `fields` (in place: cleaned values replace raw ones)."""
    if {"variant", "preset", "option_overrides"} & fields.keys():
        variant = fields.get("variant") or (fallback.variant if fallback else "")
        preset = fields.get("preset") or (fallback.preset if fallback else "")
        if variant or preset:
            resolve_game_rules(variant=variant, preset=preset, overrides=fields.get("option_overrides") or {})
    if "points_formula" in fields or "points_parameters" in fields:
        key = fields.get("points_formula") or (fallback.points_formula if fallback else "")
        if key:
            fields["points_parameters"] = validate_formula(key, fields.get("points_parameters") or {})
    if "tie_breakers" in fields:
        fields["tie_breakers"] = validate_tie_breakers(fields["tie_breakers"])
    for key, minimum, nullable in (("best_n", 1, True), ("min_players", 1, False)):
        value = fields.get(key)
        if key not in fields or (value is None and nullable):
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_COUNT:
            blank = " (or null for every event)" if nullable else ""
            raise ApplicationError(
                f"{key} must be a whole number from {minimum} to {MAX_COUNT:,}{blank}; got {value!r}.",
                extra={"field": key},
            )
    if fields.get("visibility") and fields["visibility"] not in Visibility.values:
        raise ApplicationError(f"Visibility must be one of {', '.join(Visibility.values)}.")


# Players


@transaction.atomic
def player_create(*, actor: Any, display_name: str, user: Any = None) -> Player:
    display_name = (display_name or "").strip()
    if not display_name:
        raise ApplicationError("A player needs a display name of 1 to 80 characters.")
    if user is not None and Player.objects.filter(user=user).exists():
        raise ConflictError(f"User {user.get_username()} already has a player profile.")
    player = Player.objects.create(display_name=display_name, user=user, created_by=actor if user is None else user)
    audit(actor=actor, action="player.create", obj=player, data={"display_name": display_name})
    return player


@transaction.atomic
def player_update(*, actor: Any, player: Player, display_name: str) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    display_name = (display_name or "").strip()
    if not display_name:
        raise ApplicationError("A player needs a display name of 1 to 80 characters.")
    before = player.display_name
    player.display_name = display_name
    player.save(update_fields=["display_name"])
    audit(actor=actor, action="player.update", obj=player, data={"before": before, "after": display_name})
    for league_id in player.memberships.values_list("league_id", flat=True):
        standings_schedule(league_id=league_id)
    return player


@transaction.atomic
def player_claim(*, user: Any, player: Player, claim_code: str) -> Player:
    """A user takes over a guest player an organiser entered, with the code the organiser gave them."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise ConflictError("This player is already linked to an account; only guest players can be claimed.")
    if Player.objects.filter(user=user).exists():
        raise ConflictError("Your account already has a player profile; one account links to one player.")
    if not claim_code or claim_code != player.claim_code:
        raise ApplicationError("The claim code does not match; ask the league organiser for this player's code.")
    player.user = user
    player.save(update_fields=["user"])
    audit(actor=user, action="player.claim", obj=player)
    return player


def player_for_user(*, user: Any) -> Player:
    """The user's player profile, created on first need."""
    player = Player.objects.filter(user=user).first()
    return player or player_create(actor=user, display_name=user.get_username(), user=user)


def _refuse_unknown_fields(fields: dict[str, Any], allowed: set[str], what: str) -> None:
    unknown = set(fields) - allowed
    if unknown:
        raise ApplicationError(f"Unknown {what} fields: {', '.join(sorted(unknown))}.")


# Leagues, seasons, memberships

LEAGUE_FIELDS = {
    "name",
    "slug",
    "description",
    "visibility",
    "variant",
    "preset",
    "option_overrides",
    "chip_set",
    "buy_in_policy",
    "points_formula",
    "points_parameters",
    "tie_breakers",
    "best_n",
    "min_players",
    "ties_share_better_place",
}


@transaction.atomic
def league_create(*, actor: Any, name: str, **fields: Any) -> League:
    """Create a league; the creating user becomes its first organiser."""
    _refuse_unknown_fields(fields, LEAGUE_FIELDS, "league")
    fields.setdefault("slug", slugify(name)[:80])
    if not fields["slug"]:
        raise ApplicationError("A league needs a name with at least one letter or digit.")
    if League.objects.filter(slug=fields["slug"]).exists():
        raise ConflictError(f"A league with the address {fields['slug']!r} exists already; choose another slug.")
    fields.setdefault("points_formula", "linear")
    fields.setdefault("variant", "coruscant_shift")
    fields.setdefault("preset", "better")
    fields.setdefault("option_overrides", {})
    _check_rules(fields)
    league = League.objects.create(name=name, **fields)
    if getattr(actor, "is_authenticated", False):
        Membership.objects.create(league=league, player=player_for_user(user=actor), role=Role.ORGANISER)
    audit(actor=actor, action="league.create", obj=league, league=league, data={"name": name})
    publish("league.created", {"league": league.slug})
    return league


@transaction.atomic
def league_update(*, actor: Any, league: League, **fields: Any) -> League:
    _refuse_unknown_fields(fields, LEAGUE_FIELDS, "league")
    league = League.objects.select_for_update().get(pk=league.pk)
    if "slug" in fields and League.objects.filter(slug=fields["slug"]).exclude(pk=league.pk).exists():
        raise ConflictError(f"A league with the address {fields['slug']!r} exists already; choose another slug.")
    merged = {key: fields.get(key, getattr(league, key)) for key in ("variant", "preset", "option_overrides")}
    if {"variant", "preset", "option_overrides"} & fields.keys():
        fields.update(merged)
    if "points_parameters" in fields or "points_formula" in fields:
        fields.setdefault("points_formula", league.points_formula)
        fields.setdefault("points_parameters", league.points_parameters if "points_formula" not in fields else {})
    _check_rules(fields)
    before = {key: _plain(getattr(league, key)) for key in fields}
    for key, value in fields.items():
        setattr(league, key, value)
    league.save()
    audit(
        actor=actor, action="league.update", obj=league, league=league, data={"before": before, "after": _plain(fields)}
    )
    standings_schedule(league_id=league.pk)
    return league


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Model):
        return value.pk
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def _lock_league_roles(league_id: int) -> None:
    """Lock the league first: two organisers stepping down at once cannot both leave, and a player
    added twice at once is refused once rather than hitting the unique constraint."""
    list(League.objects.select_for_update().filter(pk=league_id).values_list("pk", flat=True))


def _keep_an_organiser(membership: Membership) -> None:
    others = Membership.objects.filter(league_id=membership.league_id, role=Role.ORGANISER).exclude(pk=membership.pk)
    if not others.exists():
        raise ConflictError("A league keeps at least one organiser; name another organiser first.")


@transaction.atomic
def membership_add(*, actor: Any, league: League, player: Player, role: str = Role.PLAYER) -> Membership:
    if role not in Role.values:
        raise ApplicationError(f"Role must be one of {', '.join(Role.values)}.")
    _lock_league_roles(league.pk)
    if Membership.objects.filter(league=league, player=player).exists():
        raise ConflictError(f"{player} is already a member of {league}.")
    membership = Membership.objects.create(league=league, player=player, role=role)
    audit(actor=actor, action="membership.add", obj=membership, league=league, data={"player": player.pk, "role": role})
    return membership


@transaction.atomic
def membership_update(*, actor: Any, membership: Membership, role: str) -> Membership:
    if role not in Role.values:
        raise ApplicationError(f"Role must be one of {', '.join(Role.values)}.")
    _lock_league_roles(membership.league_id)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    before = membership.role
    if before == Role.ORGANISER and role != Role.ORGANISER:
        _keep_an_organiser(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    audit(
        actor=actor,
        action="membership.update",
        obj=membership,
        league=membership.league,
        data={"before": before, "after": role},
    )
    return membership


@transaction.atomic
def membership_remove(*, actor: Any, membership: Membership) -> None:
    _lock_league_roles(membership.league_id)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.ORGANISER:
        _keep_an_organiser(membership)
    audit(
        actor=actor,
        action="membership.remove",
        obj=membership,
        league=membership.league,
        data={"player": membership.player_id},
    )
    membership.delete()


SEASON_FIELDS = {
    "name",
    "starts_on",
    "ends_on",
    "variant",
    "preset",
    "option_overrides",
    "points_formula",
    "points_parameters",
    "buy_in_policy",
}


def _check_season(fields: dict[str, Any], league: League) -> None:
    starts, ends = fields.get("starts_on"), fields.get("ends_on")
    if starts and ends and ends < starts:
        raise ApplicationError("A season cannot end before it starts; set ends_on on or after starts_on.")
    rules = {k: fields[k] for k in ("variant", "preset", "option_overrides") if fields.get(k)}
    if rules:
        resolve_game_rules(
            variant=rules.get("variant") or league.variant,
            preset=rules.get("preset") or league.preset,
            overrides={**league.option_overrides, **(rules.get("option_overrides") or {})},
        )
    if fields.get("points_formula"):
        fields["points_parameters"] = validate_formula(fields["points_formula"], fields.get("points_parameters") or {})
    elif fields.get("points_parameters"):
        raise ApplicationError("Season points parameters need a points formula; set points_formula as well.")


@transaction.atomic
def season_create(*, actor: Any, league: League, name: str, starts_on: date, **fields: Any) -> Season:
    _refuse_unknown_fields(fields, SEASON_FIELDS, "season")
    fields.update(name=name, starts_on=starts_on)
    _check_season(fields, league)
    season = Season.objects.create(league=league, **fields)
    audit(actor=actor, action="season.create", obj=season, league=league, data={"name": name})
    return season


@transaction.atomic
def season_update(*, actor: Any, season: Season, **fields: Any) -> Season:
    _refuse_unknown_fields(fields, SEASON_FIELDS, "season")
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    merged = {key: fields.get(key, getattr(season, key)) for key in SEASON_FIELDS}
    _check_season(merged, season.league)
    if "points_parameters" in fields or "points_formula" in fields:
        fields["points_parameters"] = merged["points_parameters"]
    before = {key: _plain(getattr(season, key)) for key in fields}
    for key, value in fields.items():
        setattr(season, key, value)
    season.save()
    audit(
        actor=actor,
        action="season.update",
        obj=season,
        league=season.league,
        data={"before": before, "after": _plain(fields)},
    )
    standings_schedule(league_id=season.league_id)
    return season


# Events

EVENT_FIELDS = {"name", "kind", "status", "starts_at", "chip_set", "buy_in_policy", "counts_for_standings"}


@transaction.atomic
def event_create(*, actor: Any, season: Season, name: str, starts_at: datetime, **fields: Any) -> Event:
    _refuse_unknown_fields(fields, EVENT_FIELDS, "event")
    if fields.get("kind", EventKind.GAME) not in EventKind.values:
        raise ApplicationError(f"An event's kind must be one of {', '.join(EventKind.values)}.")
    if fields.get("status", EventStatus.PLANNED) not in EventStatus.values:
        raise ApplicationError(f"An event's status must be one of {', '.join(EventStatus.values)}.")
    event = Event.objects.create(season=season, name=name, starts_at=starts_at, **fields)
    audit(actor=actor, action="event.create", obj=event, league=season.league, data={"name": name})
    publish("event.created", {"event": event.pk, "league": season.league.slug})
    return event


@transaction.atomic
def event_update(*, actor: Any, event: Event, **fields: Any) -> Event:
    _refuse_unknown_fields(fields, EVENT_FIELDS, "event")
    if "status" in fields and fields["status"] not in EventStatus.values:
        raise ApplicationError(f"An event's status must be one of {', '.join(EventStatus.values)}.")
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    before = {key: _plain(getattr(event, key)) for key in fields}
    for key, value in fields.items():
        setattr(event, key, value)
    event.save()
    audit(
        actor=actor,
        action="event.update",
        obj=event,
        league=event.season.league,
        data={"before": before, "after": _plain(fields)},
    )
    publish("event.updated", {"event": event.pk, "status": event.status})
    standings_schedule(league_id=event.season.league_id)
    return event


def effective_buy_in_policy(event: Event) -> BuyInPolicy | None:
    return event.buy_in_policy or event.season.buy_in_policy or event.season.league.buy_in_policy


def effective_chip_set(event: Event) -> ChipSet | None:
    return event.chip_set or event.season.league.chip_set


# Ledger


@transaction.atomic
def ledger_adjust(*, actor: Any, event: Event, player: Any, amount: int, reason: str) -> LedgerEntry:
    """An organiser's manual correction of a player's credits at an event: needs a reason."""
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("An adjustment needs a reason, e.g. 'miscounted chips at table 2'.")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or abs(amount) > MAX_CREDITS:
        raise ApplicationError(
            f"An adjustment's amount must be a non-zero whole number of credits from -{MAX_CREDITS:,} to "
            f"{MAX_CREDITS:,}; got {amount!r}."
        )
    if not getattr(actor, "is_authenticated", False):
        raise ApplicationError("An adjustment needs an author: log in first.")
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    league = event.season.league
    # Only someone of this league, or who already has credits booked at this event, can be adjusted.
    if not (
        Membership.objects.filter(league=league, player=player).exists()
        or LedgerEntry.objects.filter(event=event, player=player).exists()
    ):
        from league.selectors import player_addable_list

        known = player_addable_list(user=actor).filter(pk=player.pk).exists()
        raise ApplicationError(
            f"{player if known else f'Player {player.pk}'} is not a member of {league}; adjust only the credits "
            "of this league's players.",
            extra={"field": "player"},
        )
    entry = LedgerEntry.objects.create(
        event=event, player=player, kind=LedgerKind.ADJUSTMENT, amount=amount, reason=reason, author=actor
    )
    audit(
        actor=actor,
        action="ledger.adjust",
        obj=entry,
        league=event.season.league,
        data={"amount": amount, "reason": reason},
    )
    event_results_rebuild(event=event)
    standings_schedule(league_id=event.season.league_id)
    return entry


# Event results and standings


def event_results_rebuild(*, event: Event) -> list[EventResult]:
    """Derive each player's event result from the event's finished games and its ledger adjustments.

    A player ranks by the latest round they reached, then by their place in that round's game;
    players on the same rung share a place.
    """
    from games.models import GameStatus, Seat

    seats = list(
        Seat.objects.filter(game__event=event, game__status=GameStatus.FINISHED)
        .select_related("game")
        .order_by("game__round", "game_id", "number")
    )
    # Credits in and out come from the ledger: buy-ins, re-buys and add-ons in; payouts and adjustments out.
    credits_in: dict[int, int] = defaultdict(int)
    credits_out: dict[int, int] = defaultdict(int)
    for player_id, kind, amount in (
        LedgerEntry.objects.filter(event=event)
        .values("player_id", "kind")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "kind", "total")
    ):
        if kind in (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON):
            credits_in[player_id] += amount
        elif kind == LedgerKind.PAYOUT:
            credits_out[player_id] -= amount
        elif kind == LedgerKind.ADJUSTMENT:
            credits_out[player_id] += amount
    per_player: dict[int, dict[str, Any]] = {}
    for seat in seats:
        row = per_player.setdefault(
            seat.player_id,
            {"buy_in": 0, "rebuys": 0, "knockouts": 0, "biggest_pot": 0},
        )
        row["buy_in"] += seat.buy_in
        row["rebuys"] += seat.rebuys
        row["knockouts"] += seat.knockouts
        row["biggest_pot"] = max(row["biggest_pot"], seat.biggest_pot)
        row["rung"] = (-seat.game.round, seat.place or 0)
    EventResult.objects.filter(event=event).delete()
    if not per_player:
        return []
    prize_pool = sum(credits_in[player_id] for player_id in per_player)
    ordered = sorted(per_player.items(), key=lambda item: item[1]["rung"])
    counts: dict[tuple, int] = defaultdict(int)
    for _, row in ordered:
        counts[row["rung"]] += 1
    results, place, previous = [], 0, None
    for index, (player_id, row) in enumerate(ordered, start=1):
        if row["rung"] != previous:
            place, previous = index, row["rung"]
        results.append(
            EventResult(
                event=event,
                player_id=player_id,
                place=place,
                players=len(ordered),
                tied=counts[row["rung"]],
                buy_in=row["buy_in"],
                credits_in=credits_in[player_id],
                credits_out=credits_out[player_id],
                rebuys=row["rebuys"],
                knockouts=row["knockouts"],
                biggest_pot=row["biggest_pot"],
                prize_pool=prize_pool,
            )
        )
    return EventResult.objects.bulk_create(results)


def standings_schedule(*, league_id: int) -> None:
    """Queue a standings recomputation for after the current transaction commits."""
    from league.tasks import standings_recompute_task

    # One recomputation per league per transaction, however many changes it holds.
    pending = transaction.get_connection().run_on_commit
    if any(getattr(entry[1], "standings_league_id", None) == league_id and not entry[1].done for entry in pending):
        return

    def queue() -> None:
        queue.done = True
        standings_recompute_task.delay(league_id)

    queue.standings_league_id = league_id
    queue.done = False
    transaction.on_commit(queue)


def season_rules(league: League, season: Season | None) -> Rules:
    formula, parameters = league.points_formula, league.points_parameters
    if season is not None and season.points_formula:
        formula, parameters = season.points_formula, season.points_parameters
    return Rules(
        formula=formula,
        parameters=parameters or {},
        best_n=league.best_n,
        min_players=league.min_players,
        ties_share_better_place=league.ties_share_better_place,
        tie_breakers=tuple(league.tie_breakers or ()),
    )


_ROW_FIELDS = (
    "event_id",
    "player_id",
    "place",
    "players",
    "tied",
    "buy_in",
    "credits_in",
    "credits_out",
    "rebuys",
    "knockouts",
    "biggest_pot",
    "prize_pool",
)


@transaction.atomic
def standings_recompute(*, league_id: int) -> int:
    """Rebuild every stored standings table of a league (each season and all-time); safe to run twice.

    Returns the number of rows written.
    """
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        return 0
    seasons = {season.pk: season for season in Season.objects.filter(league=league)}
    rows_by_season: dict[int, list[ResultRow]] = defaultdict(list)
    query = EventResult.objects.filter(
        event__season__league=league, event__status=EventStatus.FINISHED, event__counts_for_standings=True
    ).values_list("event__season_id", *_ROW_FIELDS)
    for season_id, *values in query.iterator(chunk_size=5000):
        rows_by_season[season_id].append(ResultRow(*values))
    now = timezone.now()
    new_rows: list[Standing] = []
    names = dict(Player.objects.filter(memberships__league=league).values_list("pk", "display_name"))
    missing = {row.player_id for rows in rows_by_season.values() for row in rows} - names.keys()
    names.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name"))

    def add(scope: str, season: Season | None, rows: list[ResultRow]) -> None:
        for rank, tally in compute_standings(rows, season_rules(league, season)):
            new_rows.append(
                Standing(
                    league=league,
                    season=season,
                    scope=scope,
                    player_id=tally.player_id,
                    display_name=names.get(tally.player_id, ""),
                    rank=rank,
                    points=round(tally.points, 6),
                    wins=tally.wins,
                    net_credits=tally.net_credits,
                    average_place=round(tally.average_place, 6),
                    events_played=tally.events_played,
                    events_counted=tally.events_counted,
                    biggest_pot=tally.biggest_pot,
                    computed_at=now,
                )
            )

    for season_id, season in seasons.items():
        add(season_scope(season_id), season, rows_by_season.get(season_id, []))
    add(ALL_TIME, None, [row for rows in rows_by_season.values() for row in rows])
    Standing.objects.filter(league=league).delete()
    Standing.objects.bulk_create(new_rows, batch_size=2000)
    _write_standings_tables(league, seasons, new_rows, now)
    publish("standings.updated", {"league": league.slug})
    return len(new_rows)


def standings_payload(league: League, season: Season | None, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The standings document the API serves (StandingsOutput)."""
    formula = season.points_formula if season is not None and season.points_formula else league.points_formula
    return {
        "league": league.slug,
        "season": season.pk if season else None,
        "points_formula": formula,
        "tie_breakers": list(league.tie_breakers or []),
        "rows": rows,
    }


def _write_standings_tables(league: League, seasons: dict[int, Season], rows: list[Standing], now: datetime) -> None:
    import json

    from league.models import StandingsTable
    from league.selectors import STANDING_COLUMNS, STANDING_KEYS

    by_scope: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r.scope, r.rank, r.display_name, r.player_id)):
        values = [getattr(row, column) for column in STANDING_COLUMNS]
        by_scope[row.scope].append(dict(zip(STANDING_KEYS, values, strict=True)))
    tables = [
        StandingsTable(
            league=league,
            scope=scope,
            payload=json.dumps(standings_payload(league, season, by_scope.get(scope, [])), separators=(",", ":")),
            computed_at=now,
        )
        for scope, season in [(ALL_TIME, None), *((season_scope(pk), season) for pk, season in seasons.items())]
    ]
    StandingsTable.objects.filter(league=league).delete()
    StandingsTable.objects.bulk_create(tables)


# Chip sets and buy-in policies (site admins)


@transaction.atomic
def chip_set_create(
    *,
    actor: Any,
    name: str,
    slug: str,
    denominations: list[dict[str, Any]],
    description: str = "",
    starting_chips: dict | None = None,
) -> ChipSet:
    from league.models import Denomination

    if ChipSet.objects.filter(slug=slug).exists() or ChipSet.objects.filter(name=name).exists():
        raise ConflictError(f"A chip set named {name!r} or with slug {slug!r} exists already.")
    if not denominations:
        raise ApplicationError("A chip set needs at least one denomination (name, colour, credit value).")
    values = [d["value"] for d in denominations]
    names = [d["name"] for d in denominations]
    if len(set(values)) != len(values) or len(set(names)) != len(names) or min(values) < 1:
        raise ApplicationError("Each denomination needs its own name and its own credit value of at least 1.")
    unknown = set(starting_chips or {}) - set(names)
    if unknown:
        raise ApplicationError(
            f"Starting chips name unknown denominations: {', '.join(sorted(unknown))}; use {', '.join(names)}."
        )
    chip_set = ChipSet.objects.create(
        name=name, slug=slug, description=description, starting_chips=starting_chips or {}
    )
    Denomination.objects.bulk_create(
        Denomination(chip_set=chip_set, name=d["name"], colour=d.get("colour", ""), value=d["value"])
        for d in denominations
    )
    audit(actor=actor, action="chip_set.create", obj=chip_set, data={"denominations": denominations})
    return chip_set


@transaction.atomic
def buy_in_policy_create(*, actor: Any, name: str, **fields: Any) -> BuyInPolicy:
    if BuyInPolicy.objects.filter(name=name).exists():
        raise ConflictError(f"A buy-in policy named {name!r} exists already.")
    if fields.get("rebuys_allowed") and not fields.get("rebuy_amount"):
        raise ApplicationError("Re-buys are allowed but the re-buy amount is 0; give the credits a re-buy buys.")
    if fields.get("addon_allowed") and not fields.get("addon_amount"):
        raise ApplicationError("Add-ons are allowed but the add-on amount is 0; give the credits an add-on buys.")
    policy = BuyInPolicy.objects.create(name=name, **fields)
    audit(actor=actor, action="buy_in_policy.create", obj=policy, data={"name": name, **fields})
    return policy

"""Reads of the league models, including who may see and change what."""

from collections import defaultdict
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)

from league.models import (
    ALL_TIME,
    ChipSet,
    Event,
    EventKind,
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
    season_scope,
)


def is_admin(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def user_player_id(user: Any) -> int | None:
    """The id of the user's player profile (cached on the user object for the request)."""
    if not getattr(user, "is_authenticated", False):
        return None
    if not hasattr(user, "_player_id_cache"):
        user._player_id_cache = Player.objects.filter(user=user).values_list("pk", flat=True).first()
    return user._player_id_cache


def user_league_roles(user: Any) -> dict[int, str]:
    """{league id: role} for the user's memberships (cached on the user object for the request)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    if not hasattr(user, "_league_roles_cache"):
        user._league_roles_cache = dict(Membership.objects.filter(player__user=user).values_list("league_id", "role"))
    return user._league_roles_cache


def remember_role(user: Any, league_id: int, role: str) -> None:
    """A membership made on `user`'s behalf in this request joins the roles already read on the user object
    (`user_league_roles`), so the same request may act on it; nothing is done when none were read."""
    if hasattr(user, "_league_roles_cache"):
        user._league_roles_cache[league_id] = role


def load_viewer(user: Any) -> None:
    """Read the signed-in user's player id and league roles in one query, for `user_player_id` and
    `user_league_roles` (each of which would read its own) to answer from for the rest of the request."""
    if not getattr(user, "is_authenticated", False) or hasattr(user, "_league_roles_cache"):
        return
    rows = list(Player.objects.filter(user=user).values_list("pk", "memberships__league_id", "memberships__role"))
    if not hasattr(user, "_player_id_cache"):
        user._player_id_cache = rows[0][0] if rows else None
    user._league_roles_cache = {league_id: role for _, league_id, role in rows if league_id is not None}


def is_organiser(user: Any, league_id: int) -> bool:
    return is_admin(user) or user_league_roles(user).get(league_id) == Role.ORGANISER


def owns_guest(user: Any, player: Player) -> bool:
    """Whether `user` answers for this guest (an unclaimed player): a guest belongs to the leagues it plays in
    (the one that entered it, and any its organisers added it to) and to the organiser who entered it. Their
    organisers, that organiser and site admins may add it to a league, read its claim code and rename it;
    another league's organiser enters their own guest or adds the person's account instead."""
    if not getattr(user, "is_authenticated", False) or player.user_id is not None:
        return False
    if is_admin(user) or player.created_by_id == user.pk:
        return True
    organised = {league_id for league_id, role in user_league_roles(user).items() if role == Role.ORGANISER}
    if not organised:
        return False
    return Membership.objects.filter(player_id=player.pk, league_id__in=organised).exists()


def can_see_league(user: Any, league: League) -> bool:
    return league.visibility == Visibility.PUBLIC or is_admin(user) or league.pk in user_league_roles(user)


def league_list(*, user: Any) -> QuerySet[League]:
    leagues = League.objects.select_related("chip_set", "buy_in_policy")
    if is_admin(user):
        return leagues
    if not getattr(user, "is_authenticated", False):
        return leagues.filter(visibility=Visibility.PUBLIC)
    member = Membership.objects.filter(league=OuterRef("pk"), player__user=user)
    return leagues.filter(Q(visibility=Visibility.PUBLIC) | Exists(member))


def season_list(*, user: Any) -> QuerySet[Season]:
    return Season.objects.filter(league__in=league_list(user=user)).select_related("league", "buy_in_policy")


def event_list(*, user: Any) -> QuerySet[Event]:
    return (
        Event.objects.filter(season__league__in=league_list(user=user))
        .select_related("season__league", "chip_set", "buy_in_policy")
        .prefetch_related("tables")
    )


def membership_list(*, user: Any) -> QuerySet[Membership]:
    return Membership.objects.filter(league__in=league_list(user=user)).select_related("player", "league")


def player_list(*, user: Any) -> QuerySet[Player]:
    """Admins see every player; others see members of leagues they can see, and themselves."""
    players = Player.objects.all()
    if is_admin(user):
        return players
    in_visible = Membership.objects.filter(player=OuterRef("pk"), league__in=league_list(user=user))
    condition = Exists(in_visible)
    if getattr(user, "is_authenticated", False):
        condition |= Q(user=user) | Q(created_by=user)
    return players.filter(condition)


def player_addable_list(*, user: Any) -> QuerySet[Player]:
    """Players the user may name, seat or add to a league: those they can see, and players in no league yet.

    A player whose every league is members-only and closed to the user stays unknown to them. Of these, a guest
    joins a league only by those who answer for it (`owns_guest`, checked by `services.membership_add`).
    """
    if is_admin(user):
        return Player.objects.all()
    no_league = ~Exists(Membership.objects.filter(player=OuterRef("pk")))
    return Player.objects.filter(Q(pk__in=player_list(user=user).values("pk")) | no_league)


def player_claimable_list(*, user: Any, claim_code: str) -> QuerySet[Player]:
    """Players a claim may name: those the user may know of, and the one whose code they hold.

    A player of members-only leagues closed to the user is, without its code, as unknown as a missing one.
    """
    return Player.objects.filter(Q(pk__in=player_addable_list(user=user).values("pk")) | Q(claim_code=claim_code))


def chip_set_list() -> QuerySet[ChipSet]:
    return ChipSet.objects.prefetch_related("denominations")


def ledger_list(*, user: Any) -> QuerySet[LedgerEntry]:
    """Ledger lines of leagues the user can see, each annotated `audit_visible`: whether the user may see
    its author and reason (the league's organisers and site admins, as `permissions.can_manage_league`)."""
    if is_admin(user):
        audit_visible = Value(True)
    elif getattr(user, "is_authenticated", False):
        audit_visible = Exists(
            Membership.objects.filter(league=OuterRef("event__season__league"), player__user=user, role=Role.ORGANISER)
        )
    else:
        audit_visible = Value(False)
    return (
        LedgerEntry.objects.filter(event__season__league__in=league_list(user=user))
        .select_related("player", "author", "event__season__league")
        .annotate(audit_visible=ExpressionWrapper(audit_visible, output_field=BooleanField()))
    )


STANDING_COLUMNS = (
    "rank",
    "player_id",
    "display_name",
    "points",
    "wins",
    "net_credits",
    "average_place",
    "events_played",
    "events_counted",
    "biggest_pot",
)
STANDING_KEYS = ("rank", "player", *STANDING_COLUMNS[2:])


def standings_rows(*, league: League, season: Season | None) -> list[dict[str, Any]]:
    """The stored standings table, in one query without joins, shaped as the API serves it."""
    scope = season_scope(season.pk) if season else ALL_TIME
    rows = (
        Standing.objects.filter(league_id=league.pk, scope=scope)
        .order_by("rank", "display_name", "player_id")
        .values_list(*STANDING_COLUMNS)
    )
    return [dict(zip(STANDING_KEYS, row, strict=True)) for row in rows]


def standings_table(*, league: League, scope: str) -> str | None:
    """The stored standings document of one scope, in one query; None when not computed yet."""
    from league.models import StandingsTable

    return StandingsTable.objects.filter(league_id=league.pk, scope=scope).values_list("payload", flat=True).first()


def league_by_slug(*, user: Any, slug: str) -> League:
    """One league the user may see, or Http404 (a members-only league is invisible to outsiders)."""
    from django.http import Http404

    # One query answers both: a hidden league is filtered out as a missing one is, with the same work.
    league = league_list(user=user).filter(slug=slug).first()
    if league is None:
        raise Http404("No such league.")
    return league


def chip_history_for_game(*, game_id: int) -> dict[str, Any]:
    """Each player's credits through one game, from the ledger: after buying in (hand 0), after each
    hand when hands are known, else once at the end (hand null). A corrected game shows its latest result."""
    # The latest correction is the one with the highest id among the game's ledger lines (a correction
    # always books its reversal lines): read from the ledger, so league needs nothing of the games app.
    latest = (
        LedgerEntry.objects.filter(game_id=game_id, correction__isnull=False)
        .order_by("-correction_id")
        .values_list("correction_id", flat=True)
        .first()
    )
    entries = (
        LedgerEntry.objects.filter(game_id=game_id, correction_id=latest, reversal=False)
        .exclude(kind=LedgerKind.PAYOUT)
        .select_related("player")
        .order_by("id")
    )
    series: dict[int, dict[str, Any]] = {}
    hands_known = False
    for entry in entries:
        line = series.setdefault(
            entry.player_id, {"player": entry.player_id, "display_name": entry.player.display_name, "points": []}
        )
        credits = (line["points"][-1]["credits"] if line["points"] else 0) + entry.amount
        if entry.kind in BUY_KINDS:
            if line["points"] and line["points"][-1]["hand"] == 0:
                line["points"][-1]["credits"] = credits
            else:
                line["points"].append({"hand": 0, "credits": credits})
        else:
            hands_known = hands_known or entry.hand is not None
            line["points"].append({"hand": entry.hand, "credits": credits})
    for line in series.values():  # a player who broke even in a game without hands still ends somewhere
        if len(line["points"]) == 1:
            line["points"].append({"hand": None, "credits": line["points"][0]["credits"]})
    return {"game": game_id, "hands_known": hands_known, "series": list(series.values())}


BUY_KINDS = (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON)


# What a ledger line adds to its player's net credits, as the standings count them (credits out less credits in).
# At a game, its hands: the net moves hand by hand while the game is played, and the buy-in and the payout that
# settle it add up to the same. At a tournament, whose chips are not credits and whose tables book no hands, what
# was paid in (buy-ins, re-buys, add-ons) and the prize taken out (a payout, stored as chips leaving the table). An
# adjustment counts at either.
_TOURNAMENT_MONEY = Q(
    event__kind=EventKind.TOURNAMENT,
    kind__in=[LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON, LedgerKind.PAYOUT],
)
_GAME_HANDS = Q(kind__in=[LedgerKind.HAND_WON, LedgerKind.HAND_LOST]) & ~Q(event__kind=EventKind.TOURNAMENT)
NET_CHANGE = Case(
    When(_TOURNAMENT_MONEY, then=-F("amount")),
    When(_GAME_HANDS | Q(kind=LedgerKind.ADJUSTMENT), then=F("amount")),
    default=Value(0),
    output_field=IntegerField(),
)


def chip_history_for_player(*, player: Player, league: League, season: Season | None) -> dict[str, Any]:
    """A player's stack through each game and their cumulative net credits across the season (or all time)."""
    entries = LedgerEntry.objects.filter(player=player, event__season__league=league)
    if season is not None:
        entries = entries.filter(event__season=season)
    entries = entries.select_related("event", "game").annotate(net_change=NET_CHANGE).order_by("game__played_at", "id")
    games: dict[Any, dict[str, Any]] = {}
    cumulative = in_play = 0
    timeline = []
    stacks: dict[Any, int] = defaultdict(int)
    for entry in entries:
        key = entry.game_id or f"event-{entry.event_id}"
        stacks[key] += entry.amount
        game = games.setdefault(
            key,
            {
                "game": entry.game_id,
                "event": entry.event_id,
                "event_name": entry.event.name,
                "played_at": entry.game.played_at if entry.game else entry.created_at,
                "points": [],
            },
        )
        if entry.kind != LedgerKind.PAYOUT:
            game["points"].append({"kind": entry.kind, "hand": entry.hand, "credits": stacks[key]})
        if entry.net_change:
            cumulative += entry.net_change
            if entry.event.status != EventStatus.FINISHED:
                in_play += entry.net_change
            timeline.append(
                {"game": entry.game_id, "event": entry.event_id, "at": game["played_at"], "net_credits": cumulative}
            )
    return {
        "player": player.pk,
        "display_name": player.display_name,
        "season": season.pk if season else None,
        "games": list(games.values()),
        "cumulative": timeline,
        "net_credits": cumulative,
        "in_play": in_play,
    }


def chip_history_for_season(*, league: League, season: Season | None) -> list[dict[str, Any]]:
    """Every player's cumulative net credits after each event of the season (or all time), from the ledger."""
    entries = LedgerEntry.objects.filter(event__season__league=league).annotate(net_change=NET_CHANGE)
    if season is not None:
        entries = entries.filter(event__season=season)
    rows = entries.exclude(net_change=0).values_list(
        "player_id", "player__display_name", "event_id", "event__name", "event__starts_at", "net_change"
    )
    per_event: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    for player_id, name, event_id, event_name, starts_at, amount in rows:
        names[player_id] = name
        event = per_event.setdefault(
            event_id, {"event": event_id, "name": event_name, "at": starts_at, "net": defaultdict(int)}
        )
        event["net"][player_id] += amount
    running: dict[int, int] = defaultdict(int)
    series: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for event in sorted(per_event.values(), key=lambda e: (e["at"], e["event"])):
        for player_id, net in event["net"].items():
            running[player_id] += net
            series[player_id].append(
                {
                    "event": event["event"],
                    "event_name": event["name"],
                    "at": event["at"],
                    "net_credits": running[player_id],
                }
            )
    return [
        {"player": player_id, "display_name": names[player_id], "points": points}
        for player_id, points in sorted(series.items(), key=lambda item: names[item[0]])
    ]


def ledger_balance(*, player: Player, event: Event) -> int:
    """What the player holds at the event's tables now: the sum of their ledger lines (0 once paid out)."""
    return sum(LedgerEntry.objects.filter(player=player, event=event).values_list("amount", flat=True))

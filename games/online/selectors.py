"""Reads of online tables. A viewer only ever gets the engine's view for their own seat (or a spectator's)."""

import threading
from collections import OrderedDict
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.core.exceptions import SynchronousOnlyOperation
from django.db.models import Prefetch, QuerySet
from django.urls import reverse
from django.utils import timezone

from games import hooks as game_hooks
from games.engine import Game
from games.engine.views import own_entropy
from games.history import pots_in_play
from games.online.models import (
    ChangeKind,
    ChangeStatus,
    OnlineAction,
    OnlineSeat,
    OnlineTable,
    SeatChange,
    TableStatus,
)
from games.online.permissions import (
    can_run_table,
    can_sit,
    has_person,
    is_host,
    is_own_seat,
    sit_refusal,
    start_refusal,
)
from games.online.prepared import Prepared
from league.pages import rules_name
from league.selectors import league_list

# The statuses of a table still in play (open, running or paused).
ACTIVE = (TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)


def table_list(*, user: Any, statuses: tuple[str, ...] | None = None) -> QuerySet[OnlineTable]:
    """Tables of leagues the user can see, newest first (the saved engine state is not even loaded)."""
    tables = (
        OnlineTable.objects.filter(event__season__league__in=league_list(user=user))
        .select_related("event__season__league")
        .prefetch_related(Prefetch("seats", queryset=OnlineSeat.objects.order_by("number")))
        .defer("state", "history")
    )
    if statuses:
        tables = tables.filter(status__in=statuses)
    return tables


def lobby_tables(*, user: Any) -> QuerySet[OnlineTable]:
    return table_list(user=user, statuses=ACTIVE)


def seat_of(table: OnlineTable, user: Any) -> OnlineSeat | None:
    """The user's seat: their league player's, or their account's at a casual game."""
    return next((s for s in table.seats.all() if not s.left and is_own_seat(user, s)), None)


def public_log(table: OnlineTable, hand: int) -> list[dict]:
    """The hand's decisions as the table saw them: who did what and for how much; never which cards."""
    rows = OnlineAction.objects.filter(table=table, hand=hand).select_related("seat").order_by("id")
    return [
        {"seat": row.seat.number, "name": row.seat.name, "verb": row.verb, "amount": row.amount, "source": row.source}
        for row in rows
    ]


# The reads a table's streams make for every change, compiled once per process (`prepared`).
_ROW = Prepared(
    OnlineTable,
    lambda pk: OnlineTable.objects.select_related("event__season__league").defer("history", "results").filter(pk=pk),
)
_SEATS = Prepared(OnlineSeat, lambda pk: OnlineSeat.objects.filter(table_id=pk).order_by("number"))
_LOG = Prepared(
    OnlineAction,
    lambda pk, hand: (
        OnlineAction.objects.filter(table_id=pk, hand=hand)
        .order_by("id")
        .only("id", "seat_id", "verb", "amount", "source")
    ),
    arguments=2,
)


def fresh_row(pk: int) -> OnlineTable | None:
    """The table's row as a rendering needs it (with its event, season and league; without the finished hands,
    `history` and `results`: long, never shown) and its seats, in two queries compiled once per process: what a
    table's streams read for every change."""
    rows = _ROW.fetch(pk)
    if not rows:
        return None
    table = rows[0]
    seats = _SEATS.fetch(pk)
    for seat in seats:
        OnlineSeat.table.field.set_cached_value(seat, table)
    cached = table.seats.all()
    cached._result_cache, cached._prefetch_done = seats, True
    table._prefetched_objects_cache = {"seats": cached}
    return table


def _log_by_seats(table: OnlineTable, hand: int, seats: list[OnlineSeat]) -> list[dict] | None:
    """`public_log` with the table's seats already read (no join), or None when an action's seat is not among them."""
    by_id = {seat.pk: seat for seat in seats}
    rows = _LOG.fetch(table.pk, hand)
    if any(row.seat_id not in by_id for row in rows):
        return None
    return [
        {
            "seat": by_id[row.seat_id].number,
            "name": by_id[row.seat_id].name,
            "verb": row.verb,
            "amount": row.amount,
            "source": row.source,
        }
        for row in rows
    ]


def is_cash_table(table: OnlineTable) -> bool:
    """A cash table (casino: the game never ends by itself) takes and lets go of players between hands. A
    tournament's table plays end rule `never` too, but the tournament seats and moves its players."""
    return table.options.get("end_rule") == "never" and table.tournament_table is None


def seats_open(table: OnlineTable) -> bool:
    """Whether a seat can be taken now: before the start, or at a running cash table (between hands); never at a
    tournament's table (the tournament seats its players)."""
    if table.tournament_table is not None:
        return False
    return table.status == TableStatus.OPEN or (
        is_cash_table(table) and table.status in (TableStatus.RUNNING, TableStatus.PAUSED)
    )


def table_summary(table: OnlineTable, *, user: Any) -> dict:
    """What the lobby shows: stakes, rules, seats free and players."""
    seats = [s for s in table.seats.all() if not s.left]
    return _summary(
        table,
        seats,
        can_sit=seats_open(table)
        and len(seats) < table.seat_count
        and can_sit(user, table)
        and seat_of(table, user) is None,
    )


def _summary(table: OnlineTable, seats: list[OnlineSeat], *, can_sit: bool) -> dict:
    return {
        "id": table.pk,
        "name": table.name,
        # A casual game belongs to no league and no event: null in both (as in My games, `games.my_rows`).
        "league": table.event.season.league.name if table.event_id else None,
        "event": table.event.name if table.event_id else None,
        "status": table.status,
        "preset": table.preset,
        "rules": rules_name(table.variant, table.preset),  # "Better Coruscant Shift", "Classic (Universe)"
        "buy_in": table.buy_in,
        "seat_count": table.seat_count,
        "seats_free": table.seat_count - len(seats),
        "turn_seconds": table.turn_seconds,
        "hands": (table.options or {}).get("hands"),  # a short game's number of hands, else None
        "players": [s.name for s in seats],
        "version": table.version,
        "can_sit": can_sit,
    }


def _read_with_state(table: OnlineTable) -> None:
    """Read the table's row again with its state, in one query, when it was listed without it (`table_list`
    defers it): the state would load in a later query, so a page could show the version of one row read with
    the state of a newer one (v99 over v100's reveal) and its forms carry a stale version."""
    if "state" not in table.get_deferred_fields():
        return
    skip = {"history", "results"}  # long, and not shown here
    fields = [f.attname for f in table._meta.concrete_fields if not f.is_relation and f.attname not in skip]
    table.refresh_from_db(fields=fields)


# Set while a stream works out its viewer's state on the event loop (`stream._rendered`): only what is already
# computed may be used there; anything to compute (an engine view, a rendering) is refused as a query would be, and
# made in a thread, so the loop is never held for long while every other stream and request of the process waits.
KEPT_ONLY: ContextVar[bool] = ContextVar("kept_only", default=False)


def refuse_unless_kept(found: bool) -> None:
    if not found and KEPT_ONLY.get():
        raise SynchronousOnlyOperation("not computed yet: made in a thread")


class TableVersion:
    """What every viewer of one version of a table is shown alike, worked out once per process: the row, its
    seats, the engine's views (each seat's own, and the spectators'), each player's entropy and the hand's log.
    Views are computed on first use; a viewer is given only the one for their seat (`table_state`)."""

    def __init__(self, table: OnlineTable) -> None:
        self.table = table
        self.seats = list(table.seats.all())
        self.game = Game.from_json(table.state) if table.state else None
        self._views: dict[int | None, dict] = {}
        self._entropy: dict[int, dict] = {}
        self._logs: dict[int, list[dict]] = {}
        self._host: list[str | None] = []
        self._lock = threading.Lock()

    @property
    def key(self) -> tuple:
        return version_key(self.table)

    def view(self, engine_seat: int | None) -> dict | None:
        """The engine's view for `engine_seat` (None: a spectator's). Shared between viewers: never changed."""
        if self.game is None:
            return None
        with self._lock:
            refuse_unless_kept(engine_seat in self._views)
            if engine_seat not in self._views:
                game = self.game
                view = game.spectator_view() if engine_seat is None else game.view_for(engine_seat)
                if view.get("hand") and view["hand"]["pots"]:
                    # The pots as the table shows them: an uncalled bet is a bet, not a side pot (`pots_in_play`).
                    view["hand"]["pots"] = pots_in_play(view)
                self._views[engine_seat] = view
                if engine_seat is not None:
                    self._entropy[engine_seat] = own_entropy(game, engine_seat)
            return self._views[engine_seat]

    def entropy(self, engine_seat: int) -> dict:
        self.view(engine_seat)
        return self._entropy[engine_seat]

    def host_name(self) -> str | None:
        """The username of whoever opened the table (its host, who starts it with the organisers), read once."""
        if self.table.created_by_id is None:
            return None
        with self._lock:
            refuse_unless_kept(bool(self._host))
            if not self._host:
                user_model = get_user_model()
                name = user_model.objects.filter(pk=self.table.created_by_id).values_list("username", flat=True)
                self._host.append(name.first())
            return self._host[0]

    def read_ahead(self) -> None:
        """Read now what a viewer's state reads of the database (the hand's public log), so that a stream can work
        out each viewer's state without it (`stream._rendered`, on the event loop)."""
        view = self.view(None)
        if view and view.get("hand"):
            self.log(view["hand"]["number"])

    def log(self, hand: int) -> list[dict]:
        with self._lock:
            if hand not in self._logs:
                found = _log_by_seats(self.table, hand, self.seats)
                self._logs[hand] = public_log(self.table, hand) if found is None else found
            return self._logs[hand]


def version_key(table: OnlineTable) -> tuple:
    """What one version of a table is known by: `version` counts every change a player makes, and `updated_at`
    moves with every save of the row (entropy added, a tournament's next level), so no two differ in content."""
    return (table.pk, table.version, table.updated_at)


_versions: OrderedDict[tuple, TableVersion] = OrderedDict()
_versions_lock = threading.Lock()
VERSIONS_KEPT = 512  # a few versions of each of a few hundred tables: each holds a state of a few KB


def table_version(table: OnlineTable) -> TableVersion:
    """This version of the table as every viewer sees it alike, from this process's memory when another
    request or stream already read it (the row given decides which version: read it just before)."""
    found = _kept(version_key(table))  # a row read without its state (`table_list`) need not read it then
    if found is not None:
        return found
    _read_with_state(table)
    found = _kept(version_key(table)) or TableVersion(table)
    with _versions_lock:
        found = _versions.setdefault(found.key, found)
        while len(_versions) > VERSIONS_KEPT:
            _versions.popitem(last=False)
    return found


def _kept(key: tuple) -> TableVersion | None:
    with _versions_lock:
        found = _versions.get(key)
        if found is not None:
            _versions.move_to_end(key)
        return found


def table_state(table: OnlineTable, *, user: Any) -> dict:
    """The table for this viewer: public table data, the engine's view for their seat (or a spectator's),
    what they may do and the hand's public log. The version and the state shown come from one row read; the
    seats are read now (the pages, which read the row just before, share each version's reads: `table_version`)."""
    _read_with_state(table)
    return state_for(TableVersion(table), user=user)


def state_for(shared: TableVersion, *, user: Any) -> dict:
    """`table_state` from a version's shared reads: only what is this viewer's own is worked out here."""
    table = shared.table
    me = next((s for s in shared.seats if not s.left and is_own_seat(user, s)), None)
    view = entropy = None
    if shared.game is not None:
        if me is not None and me.engine_seat is not None:
            view, entropy = shared.view(me.engine_seat), shared.entropy(me.engine_seat)
        else:
            view = shared.view(None)
    now = timezone.now()
    seconds_left = max(0.0, (table.deadline - now).total_seconds()) if table.deadline else None
    hand = view["hand"]["number"] if view and view.get("hand") else None
    runner = can_run_table(user, table)
    my_row = next((p for p in (view or {}).get("players", []) if me and p["seat"] == me.engine_seat), None)
    between_hands = bool(view) and not view.get("waiting_for") and not view.get("over")
    tournament_rebuy = None
    if table.tournament_table is not None and my_row is not None:
        # At a tournament's table: the tournament's re-buy (its period, its amount, its threshold: out of chips,
        # or at or below a stack it sets), and chips of a re-buy already on their way to this seat (they join at
        # the next hand break).
        offer = game_hooks.online_rebuy_offer(event_id=table.event_id, player_id=me.player_id, stack=my_row["stack"])
        if offer is not None or my_row["stack"] == 0:
            tournament_rebuy = {
                "offer": offer,
                "on_the_way": SeatChange.objects.filter(
                    target=table, player_id=me.player_id, kind=ChangeKind.REBUY, status=ChangeStatus.ON_THE_WAY
                )
                .values_list("stack", flat=True)
                .first(),
            }
    seated = [s for s in shared.seats if not s.left]
    open_now = seats_open(table)
    refusal = sit_refusal(user, table)
    seat_free = (
        open_now
        and (table.status == TableStatus.OPEN or between_hands)
        and me is None
        and len(seated) < table.seat_count
    )
    why_not_sit = refusal if seat_free else None
    # Run by its runner while open; a casual game only with a person seated (the bots play for nobody). Started
    # once `start_refusal` has nothing to say; else the runner sees the button disabled and why.
    runs_open = runner and table.status == TableStatus.OPEN
    why_not_start = start_refusal(table, seated) if runs_open else None
    startable = runs_open and (not table.is_casual or has_person(seated))
    return {
        "table": {
            **_summary(
                table, seated, can_sit=open_now and len(seated) < table.seat_count and refusal is None and me is None
            ),
            "turn_version": table.turn_version,
            "deadline": table.deadline.isoformat() if table.deadline else None,
            "seconds_left": seconds_left,
            "game": table.game_id,
            "levels": _levels_in_force(table, view),
            "next_levels": table.pending_levels,
            "paused_for": table.paused_for or None,  # "nobody": it paused itself, every person away
            "ending": table.ending,  # its runner ended the game: it ends at the next hand break
            # A casual game's host (its name says whose game it is); at a league table not yet started, who starts
            # it, for those who cannot (its host and the organisers).
            "host": shared.host_name()
            if table.is_casual or (table.status == TableStatus.OPEN and table.event_id is not None and not runner)
            else None,
            # A casual game's invite token, the key of its share link: shown to its host and its seated players
            # while it takes seats, to nobody else (a spectator who came with the link does not get it back).
            "invite": table.invite
            if table.is_casual and table.status == TableStatus.OPEN and (me is not None or is_host(user, table))
            else None,
        },
        "seats": [
            {
                "number": s.number,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot_kind or None,
                "engine_seat": s.engine_seat,
                "away": s.away,
                "left": s.left,
                "you": me is not None and s.pk == me.pk,
            }
            for s in shared.seats
        ],
        # `entropy`: what this player's browser added to the hand's seed (and to the next one's): theirs only.
        "you": {"seat": me.number, "engine_seat": me.engine_seat, "away": me.away, "entropy": entropy} if me else None,
        # A seat is free to take now, but not by this user: why, and how to become able to.
        "why_not_sit": why_not_sit,
        # The game cannot start yet (its runner's view): why, in the words the start's refusal (409) uses.
        "why_not_start": why_not_start,
        "can": {
            "sit": seat_free and why_not_sit is None,
            "leave": me is not None
            and table.tournament_table is None
            and (
                table.status == TableStatus.OPEN
                or (is_cash_table(table) and between_hands and table.status != TableStatus.FINISHED)
            ),
            "start": runs_open and why_not_start is None,
            # Bots for the empty seats: not at a tournament's table (its registered players only), not with no seat
            # empty, not at a casual table nobody sits at (`table_fill_bots` refuses each).
            "fill_bots": startable and table.tournament_table is None and len(seated) < table.seat_count,
            "pause": runner and table.status == TableStatus.RUNNING,
            "resume": runner and table.status == TableStatus.PAUSED,
            "rebuy": my_row is not None
            and (my_row["stack"] == 0 or table.tournament_table is not None)
            and table.status in (TableStatus.RUNNING, TableStatus.PAUSED)
            and (
                bool(tournament_rebuy and tournament_rebuy["offer"] and tournament_rebuy["on_the_way"] is None)
                if table.tournament_table is not None
                else between_hands and bool(table.options.get("rebuys"))
            ),
            # A league table's game (not a cash table's, which closes; not a tournament's), at its next hand break.
            "end": runner
            and table.event_id is not None
            and table.tournament_table is None
            and table.options.get("end_rule") != "never"
            and table.status in (TableStatus.RUNNING, TableStatus.PAUSED)
            and not table.ending,
            # A cash table between hands; a casual game before it starts too (unplayed: everyone may have left).
            "close": runner
            and (
                (table.options.get("end_rule") == "never" and table.status in (TableStatus.RUNNING, TableStatus.PAUSED))
                or (table.is_casual and table.status == TableStatus.OPEN)
            ),
        },
        "view": view,
        "log": shared.log(hand) if hand else [],
        "tournament_rebuy": tournament_rebuy,
    }


def with_share_link(state: dict, build_absolute_uri: Any) -> dict:
    """`state` with its table's share link (`table.invite_link`, the address with `?invite=`) when it gives the
    viewer the invite token: the page shows it to copy, the API gives it whole (`build_absolute_uri`: the
    request's)."""
    token = state["table"].get("invite")
    path = f"{reverse('online-table', args=[state['table']['id']])}?{urlencode({'invite': token})}" if token else None
    return {**state, "table": {**state["table"], "invite_link": build_absolute_uri(path) if path else None}}


def _levels_in_force(table: OnlineTable, view: dict | None) -> dict:
    """The forced bets of the hand being played (or the last one); before the start, the table's options."""
    if view and view.get("levels"):
        return {key: view["levels"][key] for key in ("ante", "small_blind", "big_blind", "min_bet")}
    return {key: table.options.get(key, 0) for key in ("ante", "small_blind", "big_blind", "min_bet")}


# ----- a tournament's tables: who sits where, with which stack ------------------------------------------


def seated_online(*, event_id: int) -> dict[int, dict[str, int]]:
    """Where each player sits online now: `{"online_table", "table"}` (the tournament table), by player id."""
    rows = OnlineSeat.objects.filter(
        table__event_id=event_id, table__tournament_table__isnull=False, table__status__in=ACTIVE, left=False
    ).values_list("player_id", "table_id", "table__tournament_table")
    return {player_id: {"online_table": table_id, "table": number} for player_id, table_id, number in rows}


def known_stacks(*, event_id: int) -> dict[int, dict[str, Any]]:
    """Each player's stack at the event's tournament tables, by player id (stacks are public): from the latest
    online table each sat at, `{"stack", "table", "online_table", "active"}`. A hand in progress counts what
    the player had when it was dealt (their stack plus what they put in this hand); a player moving between
    tables counts the stack they carry, at the table they are going to. Three queries."""
    tables = {
        row["pk"]: row
        for row in OnlineTable.objects.filter(event_id=event_id, tournament_table__isnull=False)
        .order_by()
        .values("pk", "tournament_table", "status", "state", "buy_in")
    }
    seats = (
        OnlineSeat.objects.filter(table_id__in=tables)
        .order_by("table_id")
        .values("table_id", "player_id", "name", "engine_seat", "stack", "left")
    )
    games: dict[int, Game | None] = {}
    known: dict[int, dict[str, Any]] = {}
    for seat in seats:
        table = tables[seat["table_id"]]
        if seat["left"]:
            continue
        if table["pk"] not in games:
            games[table["pk"]] = Game.from_json(table["state"]) if table["state"] else None
        game = games[table["pk"]]
        if game is None or seat["engine_seat"] is None:
            stack = seat["stack"] if seat["stack"] is not None else table["buy_in"]
        else:
            stack = game.stacks[seat["engine_seat"]]
            if game.in_hand:
                stack += game.hand.contributions.get(seat["engine_seat"], 0)
        # Tables come in the order they were opened: a later table's stack replaces an earlier one's.
        known[seat["player_id"]] = {
            "stack": stack,
            "table": table["tournament_table"],
            "online_table": table["pk"],
            "active": table["status"] in ACTIVE,
        }
    moving = SeatChange.objects.filter(
        event_id=event_id, kind=ChangeKind.MOVE, status=ChangeStatus.ON_THE_WAY, target_id__in=tables
    ).values_list("player_id", "stack", "target_id")
    for player_id, stack, target_id in moving:
        table = tables[target_id]
        known[player_id] = {
            "stack": stack or 0,
            "table": table["tournament_table"],
            "online_table": target_id,
            "active": table["status"] in ACTIVE,
        }
    return known


def rebuys_on_the_way(*, event_id: int) -> set[int]:
    """The players whose re-buy's chips are on their way to one of the event's online tables."""
    return set(
        SeatChange.objects.filter(event_id=event_id, kind=ChangeKind.REBUY, status=ChangeStatus.ON_THE_WAY).values_list(
            "player_id", flat=True
        )
    )


def tournament_table_in_play(*, event_id: int, number: int) -> bool:
    """Whether the event's tournament table `number` has an online table open, running or paused."""
    return OnlineTable.objects.filter(event_id=event_id, tournament_table=number, status__in=ACTIVE).exists()


def rebuy_place(*, event_id: int, player_id: int) -> dict[str, Any] | None:
    """Where the player sits online now at one of the event's tournament tables, with their stack between hands
    (a player out of chips is in no hand) and whether a re-buy's chips are on their way to them; None when they
    sit at none."""
    seat = (
        OnlineSeat.objects.filter(
            player_id=player_id,
            left=False,
            table__event_id=event_id,
            table__tournament_table__isnull=False,
            table__status__in=ACTIVE,
        )
        .select_related("table")
        .order_by("-table_id")
        .first()
    )
    if seat is None:
        return None
    table = seat.table
    stack = seat.stack if seat.stack is not None else table.buy_in
    if table.state and seat.engine_seat is not None:
        game = Game.from_json(table.state)
        stack = game.stacks[seat.engine_seat]
        if game.in_hand:
            stack += game.hand.contributions.get(seat.engine_seat, 0)
    pending = SeatChange.objects.filter(
        event_id=event_id, player_id=player_id, kind=ChangeKind.REBUY, status=ChangeStatus.ON_THE_WAY
    ).first()
    return {
        "table": table.pk,
        "tournament_table": table.tournament_table,
        "status": table.status,
        "stack": stack,
        "pending": pending.stack if pending else None,
    }

"""A tournament's physical table played with real cards (docs/tabletop.md, "Tournament tables"): opened for its
seated players by the tournament's control room, and the stacks the tournament reads from it.

The tournament app calls these (games never imports tournaments); what the table tells the tournament while it
plays is in `tournament_hands.py`.
"""

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from games.engine.errors import EngineError
from games.engine.realcards.game import RealCardsGame
from games.services.checks import checked_preset
from games.tabletop import landing, services, tournament_hands
from games.tabletop.models import MAX_SEATS, MIN_SEATS, RealSeat, RealTable, RealTableStatus
from games.tabletop.tournament_hands import CHIPS, TOURNAMENT, live_stacks, owed
from league.models import AuditEntry, Event, Player
from league.services import audit

IN_PLAY = (RealTableStatus.OPEN, RealTableStatus.PLAYING)


@transaction.atomic
def realtable_open_seated(
    *,
    actor: Actor,
    event: Event,
    tournament_table: int,
    players: list[Player],
    stacks: list[int],
    variant: str,
    preset: str,
    options: dict,
    has_dice: bool = True,
) -> RealTable:
    """Open and start a tournament table's real-cards table: its players seated in order (seat 1 deals first),
    each with their own stack, the rules checked by the engine; the actor (the tournament's organiser, checked by
    the caller) hosts it. Joining and leaving are the tournament's: the seats are fixed from the start."""
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise ConflictError(
            f"A real-cards table seats {MIN_SEATS} to {MAX_SEATS} players; this table has {len(players)}."
        )
    if len(stacks) != len(players) or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in stacks):
        raise ApplicationError(f"Give one stack of at least 1 chip per player; got {stacks!r}.")
    if not isinstance(has_dice, bool):
        raise ApplicationError("has_dice is true or false.", extra={"field": "has_dice"})
    preset = checked_preset(variant, preset)
    names: list[str] = []
    for player in players:
        name = player.display_name[:40]
        names.append(name if name not in names else f"{name[:34]} ({player.pk})"[:40])
    setup = {
        "variant": variant,
        "preset": preset,
        "options": dict(options),
        "players": [[name, stack] for name, stack in zip(names, stacks, strict=True)],
        "dealer": 0,
    }
    master = f"{secrets.randbits(128):032x}"
    try:
        RealCardsGame(setup, master=master)
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise ApplicationError(
            f"These rules do not make a real-cards game: {exc}", extra={"field": "options"}
        ) from None
    table = RealTable.objects.create(
        code=services._new_code(),
        host=actor,
        variant=variant,
        preset=preset,
        options=dict(options),
        starting_credits=max(stacks),
        has_dice=has_dice,
        master=master,
        event=event,
        tournament_table=tournament_table,
        setup=setup,
        status=RealTableStatus.PLAYING,
    )
    taken: set[int] = set()
    for number, (player, name) in enumerate(zip(players, names, strict=True)):
        user = player.user_id if player.user_id and player.user_id not in taken else None
        taken.add(user or 0)
        RealSeat.objects.create(table=table, number=number, name=name, user_id=user, player=player)
    audit(
        actor=actor,
        action="real_table.open",
        obj=table,
        league=event.season.league,
        data={"variant": variant, "preset": preset, "tournament_table": tournament_table, "stacks": stacks},
    )
    services._announce(table, "opened")
    return table


def table_in_play(*, event_id: int, number: int) -> RealTable | None:
    """The real-cards table playing this tournament table now, if there is one."""
    return RealTable.objects.filter(event_id=event_id, tournament_table=number, status__in=IN_PLAY).first()


def tables_in_play(*, event_id: int) -> dict[int, dict[str, Any]]:
    """Each tournament table played on real cards now: `{"code", "id", "status"}`, by table number."""
    rows = RealTable.objects.filter(event_id=event_id, tournament_table__isnull=False, status__in=IN_PLAY).values(
        "pk", "code", "status", "tournament_table"
    )
    return {row["tournament_table"]: {"id": row["pk"], "code": row["code"], "status": row["status"]} for row in rows}


def known_stacks(*, event_id: int) -> dict[int, dict[str, Any]]:
    """Each player's stack at the event's real-cards tournament tables, by player id (stacks are public): from the
    latest such table each sat at, `{"stack", "table", "real_table", "active"}`; a hand in progress counts what the
    player had when it was dealt. Two queries; a table's game is rebuilt from its steps once per version."""
    tables = {
        table.pk: table
        for table in RealTable.objects.filter(event_id=event_id, tournament_table__isnull=False)
        .exclude(setup__isnull=True)
        .order_by("created_at", "pk")
    }
    seats: dict[int, list[tuple[int, int]]] = {}
    for table_id, number, player_id in RealSeat.objects.filter(table_id__in=tables, player__isnull=False).values_list(
        "table_id", "number", "player_id"
    ):
        seats.setdefault(table_id, []).append((number, player_id))
    known: dict[int, dict[str, Any]] = {}
    for table_id, table in tables.items():  # in the order opened: a later table's stack replaces an earlier one's
        if table_id not in seats:
            continue
        stacks = _stacks_at(table)
        for number, player_id in seats[table_id]:
            known[player_id] = {
                "stack": stacks[number],
                "table": table.tournament_table,
                "real_table": table.code,
                "active": table.status in IN_PLAY,
            }
    return known


# A table's live stacks by (table, its code, version): every write moves the version, so an entry is never stale;
# the code tells a table from an earlier one with the same id (SQLite reuses a rolled-back or deleted row's id). The
# clock's pages poll each second and would otherwise rebuild every table's game from its steps each time.
_STACKS: dict[tuple[int, str, int], list[int]] = {}
_STACKS_KEPT = 256


def _stacks_at(table: RealTable) -> list[int]:
    key = (table.pk, table.code, table.version)
    stacks = _STACKS.get(key)
    if stacks is None:
        stacks = live_stacks(services.load_game(table))
        if len(_STACKS) >= _STACKS_KEPT:
            _STACKS.clear()
        _STACKS[key] = stacks
    return list(stacks)


def final_seats(table: RealTable) -> list[dict[str, Any]] | None:
    """A finished game's result per seated player: `{"player", "credits", "out_hand"}` (out_hand: the hand they
    went out of credits in, or None); None while the game is not over."""
    game = services.load_game(table)
    if not game.game.over:
        return None
    out = game.game.out_at
    return [
        {
            "player": player_id,
            "credits": game.game.stacks[number],
            "out_hand": out.get(number) if game.game.stacks[number] == 0 else None,
        }
        for number, player_id in table.seats.values_list("number", "player_id")
    ]


# ----- the tournament's chips: re-buys and add-ons booked for a player seated here ------------------------------


def _seat_in_play(*, event_id: int, player_id: int) -> RealSeat | None:
    return (
        RealSeat.objects.filter(
            player_id=player_id,
            table__event_id=event_id,
            table__tournament_table__isnull=False,
            table__status=RealTableStatus.PLAYING,
        )
        .select_related("table")
        .order_by("-table_id")
        .first()
    )


def realcards_place(*, event_id: int, player_id: int) -> dict[str, Any] | None:
    """Where the player sits at one of the event's real-cards tournament tables in play, with their stack as the
    tournament counts it (`live_stacks`) and the re-buy chips already on their way to them (None when none); None
    when they sit at none."""
    seat = _seat_in_play(event_id=event_id, player_id=player_id)
    if seat is None:
        return None
    table = seat.table
    coming = [row for row in owed(table) if row["player"] == player_id]
    return {
        "table": table.pk,
        "code": table.code,
        "tournament_table": table.tournament_table,
        "where": f"real-cards table {table.tournament_table} ({table.code})",
        "seat": seat.number,
        "stack": _stacks_at(table)[seat.number],
        "pending": sum(row["amount"] for row in coming if row["kind"] == "rebuy") or None,
    }


def takes_chips(game: RealCardsGame) -> bool:
    """Whether a table's rules let the tournament's chips join it between hands: a table the tournament ends (end
    rule "never"); a Halcyon table plays its round from the starting stack."""
    return getattr(game.game.options, "end_rule", "") == "never"


def realtable_chips_queue(*, actor: Actor, event_id: int, player_id: int, amount: int, kind: str) -> AuditEntry:
    """A re-buy's or an add-on's chips booked by the tournament (the caller holds its lock and books the ledger
    line in the same transaction) for a player seated at one of its real-cards tables in play: kept as the
    booking (an audit row on the table, its id the key), they join the player's stack at the table's next deal,
    once. Refused (409, nothing written) where the player sits at no such table, or at one whose rules take no
    chips between hands."""
    seat = _seat_in_play(event_id=event_id, player_id=player_id)
    if seat is None:
        raise ConflictError("This player sits at no real-cards table of the tournament being played now.")
    table = services._lock(seat.table)
    if table.status != RealTableStatus.PLAYING:
        raise ConflictError(f"Real-cards table {table.tournament_table} ({table.code}) has ended meanwhile.")
    game = services.load_game(table)
    if not takes_chips(game) or game.game.over:
        raise ConflictError(
            f"Real-cards table {table.tournament_table} ({table.code}) plays its game from the stacks it started "
            "with (its rules take no chips between hands): book the chips once the player sits at another table."
        )
    entry = audit(
        actor=actor,
        action=CHIPS,
        obj=table,
        league=table.event.season.league,
        data={"player": player_id, "seat": seat.number, "name": seat.name, "amount": amount, "kind": kind},
    )
    services._bump(table, "chips")  # every viewer's page shows the chips on their way
    return entry


def chips_on_the_way(*, event_id: int) -> set[int]:
    """The players whose booked re-buy chips are on their way to one of the event's real-cards tables in play."""
    players: set[int] = set()
    for table in RealTable.objects.filter(
        event_id=event_id, tournament_table__isnull=False, status=RealTableStatus.PLAYING
    ):
        players.update(row["player"] for row in owed(table) if row["kind"] == "rebuy")
    return players


@transaction.atomic
def realtables_settle(*, event_id: int) -> list[int]:
    """End the event's real-cards tournament tables that are decided between hands (at most one player holding
    chips, no chips on their way, nobody there who may still re-buy): after the re-buy period closes, a table that
    waited for its busted players' re-buys closes here, logged as by the tournament. Returns the tables ended."""
    ended = []
    for table in RealTable.objects.filter(
        event_id=event_id, tournament_table__isnull=False, status=RealTableStatus.PLAYING
    ).order_by("pk"):
        table = services._lock(table)
        if table.status != RealTableStatus.PLAYING:
            continue
        game = services.load_game(table)
        closing = tournament_hands.steps_after(table, game)
        if not closing:
            continue
        first = len(game.steps)
        for step, _note in closing:
            game.step(step)
        at = timezone.now().isoformat()
        changes = [
            *table.changes,
            *({"did": did, **TOURNAMENT, "at": at, "version": table.version + 1} for did in game.steps[first:]),
        ]
        fields: dict[str, Any] = {"steps": [*table.steps, *game.steps[first:]], "changes": changes}
        if game.game.over:
            fields["status"] = RealTableStatus.FINISHED
        services._bump_game(table, game, "step", **fields)
        if game.game.over:
            landing.land(table, game)
        tournament_hands.tell_after(table, game, was_open=False)
        ended.append(table.pk)
    return ended

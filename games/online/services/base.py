"""The base every write of online play stands on: the topics it announces on, locking the table row, loading and
saving its engine state, saving the row, announcing a change, and the table's seats (their names, their starting
chips, a free seat, the seat of each engine seat). Public: every service module and the tournament moves use it."""

import functools

from config.errors import ConflictError
from config.events import publish
from config.inputs import whole_number_from
from games.engine import Game
from games.online.models import OnlineSeat, OnlineTable


def table_topic(table_id: int) -> str:
    from django.conf import settings

    return f"{getattr(settings, 'ONLINE_EVENT_PREFIX', 'online')}.table.{table_id}"


def lobby_topic() -> str:
    from django.conf import settings

    return f"{getattr(settings, 'ONLINE_EVENT_PREFIX', 'online')}.lobby"


def lock_table(table: OnlineTable | int) -> OnlineTable:
    """Lock the table row only: its event, season and league are read, not locked, so the tables of one event
    do not wait for each other."""
    pk = table.pk if isinstance(table, OnlineTable) else table
    return locked_rows().get(pk=pk)


def locked_rows():
    """The table rows to lock, with their event, season and league. `results` (every finished hand, growing by
    one a hand) is deferred: most actions never read it, and a row saved without touching it is written
    without it; a service that reads it loads it under the same lock, and one that changes it assigns it."""
    return OnlineTable.objects.select_for_update(of=("self",)).select_related("event__season__league").defer("results")


def lock_table_if_any(table_id: int) -> OnlineTable | None:
    """For tasks: a task for a table deleted since it was sent has nothing to do. The seats come along (ordered
    by number), so the task's later looks at them cost no query. Tasks do not read the event, season or league on
    the way (the end of a game reads them itself), so they are not joined.

    One plain statement, the row locked and joined with its seats: every bot decision, timeout and deal of every
    table starts here, and building the same through the ORM (a query and a prefetch) cost about 3 ms of CPU a
    task, as much as all the rest of a bot's decision, and two round trips; this costs under 1 ms and one.
    `results` is left out (deferred), as in `locked_rows`."""
    from django.db import DEFAULT_DB_ALIAS, connections

    connection = connections[DEFAULT_DB_ALIAS]  # this thread's own (the proxy `django.db.connection` is not hashable)

    sql, table_names, seat_names = _task_lock_sql(connection.vendor, connection.features.has_select_for_update)
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    compiler, converters = _task_lock_converters(connection)
    if converters:
        rows = list(compiler.apply_converters(rows, converters))
    split = len(table_names)
    table = OnlineTable.from_db(connection.alias, table_names, rows[0][:split])
    seats = [OnlineSeat.from_db(connection.alias, seat_names, row[split:]) for row in rows if row[split] is not None]
    cached = table.seats.all()  # what `prefetch_related("seats")` leaves on the row: `table.seats.all()` is these
    cached._result_cache, cached._prefetch_done = seats, True
    table._prefetched_objects_cache = {"seats": cached}
    for seat in seats:
        OnlineSeat.table.field.set_cached_value(seat, table)
    return table


@functools.lru_cache(maxsize=16)
def _task_lock_converters(connection) -> tuple:
    """The fields' own conversions from the database (JSON text, SQLite's dates), as the ORM applies them; once per
    connection (each thread has its own)."""
    compiler = OnlineTable.objects.none().query.get_compiler(connection=connection)
    fields = [*_task_lock_fields()[0], *_task_lock_fields()[1]]
    return compiler, compiler.get_converters([f.get_col(f.model._meta.db_table) for f in fields])


@functools.cache
def _task_lock_fields() -> tuple[list, list]:
    """The table's fields but `results`, and the seat's (its primary key first: null when the table has no seat)."""
    return [f for f in OnlineTable._meta.concrete_fields if f.name != "results"], list(OnlineSeat._meta.concrete_fields)


@functools.cache
def _task_lock_sql(vendor: str, for_update: bool) -> tuple[str, list[str], list[str]]:
    """The table row (all but `results`), locked, with its seats by number (none: one row of nulls); and the
    field names of each part. Built once per database vendor."""
    from django.db import connection

    quote = connection.ops.quote_name
    table, seat = OnlineTable._meta, OnlineSeat._meta
    table_fields, seat_fields = _task_lock_fields()
    columns = ", ".join([f"t.{quote(f.column)}" for f in table_fields] + [f"s.{quote(f.column)}" for f in seat_fields])
    seat_fk = quote(seat.get_field("table").column)
    # Only the models' own quoted names go into the text; the table id is always a bound parameter.
    lock = " FOR UPDATE OF t" if for_update else ""
    sql = (
        f"SELECT {columns} FROM {quote(table.db_table)} t LEFT JOIN {quote(seat.db_table)} s "  # noqa: S608
        f"ON s.{seat_fk} = t.{quote(table.pk.column)} WHERE t.{quote(table.pk.column)} = %s "
        f"ORDER BY s.{quote('number')}, s.{quote(seat.pk.column)}{lock}"
    )
    return sql, [f.attname for f in table_fields], [f.attname for f in seat_fields]


def load_game(table: OnlineTable) -> Game:
    return Game.from_json(table.state, history=table.history or None)


def save_game(table: OnlineTable, game: Game) -> None:
    table.state = game.to_json()
    table.history = game.history_json()


def save_table(table: OnlineTable, *, unchanged: tuple[str, ...] = ()) -> None:
    """Save the table row without the fields that did not change: the deferred `results` unless assigned, and
    `unchanged` (the history, which grows by a hand each hand, is rewritten only when a hand ends)."""
    deferred = table.get_deferred_fields()
    fields = [
        f.name
        for f in table._meta.concrete_fields
        if not f.primary_key and f.attname not in deferred and f.name not in unchanged
    ]
    table.save(update_fields=fields)


def announce(table: OnlineTable, what: str) -> None:
    """Tell viewers the table changed: the version only, never a card (each viewer fetches its own view).

    The lobby hears only of what it shows (seats, status), not of every decision in a hand: each lobby
    stream renders the list again for each message it hears."""
    publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": what})
    if what != "changed":
        publish(lobby_topic(), {"table": table.pk, "version": table.version, "status": table.status})


def seat_name(table: OnlineTable, wanted: str) -> str:
    names = set(table.seats.values_list("name", flat=True))
    name, suffix = wanted[:70], 2
    while name in names:
        name, suffix = f"{wanted[:70]} ({suffix})", suffix + 1
    return name


def starting_chips(table: OnlineTable, seat: OnlineSeat) -> int:
    """The chips a seat starts the game with: its own stack at a tournament table, else the buy-in."""
    return seat.stack if seat.stack is not None else table.buy_in


def free_seat_number(table: OnlineTable, number: int | None) -> int:
    """`number` when that seat is free (a user error if taken or out of range), else the first free seat."""
    taken = set(table.seats.filter(left=False).values_list("number", flat=True))
    if number is None:
        free = [n for n in range(table.seat_count) if n not in taken]
        if not free:
            raise ConflictError(f"{table} is full: all {table.seat_count} seats are taken.")
        return free[0]
    number = whole_number_from(number, "The seat number", 0, table.seat_count - 1)
    if number in taken:
        raise ConflictError(f"Seat {number + 1} is taken; choose a free seat.")
    return number


def engine_seats(table: OnlineTable) -> dict[int, OnlineSeat]:
    """{engine seat: seat}; at a cash table a seat someone left may be reused, and the one seated now wins."""
    rows = sorted((s for s in table.seats.all() if s.engine_seat is not None), key=lambda s: not s.left)
    return {s.engine_seat: s for s in rows}

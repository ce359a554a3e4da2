"""Writes of real-cards tables: open, seats, start, steps, undo, finish (docs/tabletop.md).

A table's game is loaded from its snapshot, or rebuilt from its setup and the steps that stand (`load_game`,
`state.py`); a step is verified by the engine, then saved with the change log, the new snapshot and a new version,
under the table's row lock, and the game is kept for that version's readers (`cache.py`); viewers hear of it after
the commit (the table's code and version only: each stream renders its own viewer's page). A refusal raises an
`ApplicationError` saying what is wrong and what is allowed, and writes nothing.
"""

import copy
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from config.events import publish
from config.inputs import Actor, signed_in
from games.engine.errors import EngineError
from games.engine.realcards.due import due
from games.engine.realcards.game import RealCardsGame
from games.services.checks import checked_preset
from games.tabletop import cache, landing, league_seats, tournament_hands
from games.tabletop.automatic import AUTO, automatic_steps, standing_auto
from games.tabletop.models import (
    CODE_ALPHABET,
    CODE_LENGTH,
    GROWING,
    MAX_SEATS,
    MIN_SEATS,
    RealSeat,
    RealTable,
    RealTableStatus,
)
from games.tabletop.names import MAX_NAME, check_joining_name, free_name, seat_name
from games.tabletop.permissions import NotAllowed, check_step, is_host, seat_of
from games.tabletop.refusals import for_people
from games.tabletop.state import load_game, snapshot_of
from league.models import MAX_CREDITS, Event
from league.services import audit, lock_event

DEFAULT_VARIANT = "coruscant_shift"
MAX_STARTING = MAX_CREDITS // MAX_SEATS
# Between-hands steps that bring or take credits: a league game's seats and buy-ins are fixed at its start.
LEAGUE_REFUSED = ("rebuy", "add_on", "join", "leave", "close", "leftovers")


def table_topic(code: str) -> str:
    return f"tabletop.{code}"


def _announce(table: RealTable, what: str) -> None:
    """Tell viewers the table changed: its code and version only, never a card or a seed."""
    publish(table_topic(table.code), {"table": table.code, "version": table.version, "what": what})


def _user_error(exc: EngineError) -> ApplicationError:
    """The engine's refusal for the page and the API, its seats and pots numbered from 1 as the pages show them."""
    return ApplicationError(for_people(str(exc)), code="illegal_step")


def _lock(table: RealTable, *, light: bool = False) -> RealTable:
    """The table's row, locked: a casual table's is the first and only lock of its writes; a league table's comes
    after its league's and event's (the app's lock order), as its result is booked there when the game ends.
    `light`: without the growing JSON fields (read when asked for)."""
    if table.event_id is not None:
        lock_event(table.event_id)
    rows = RealTable.objects.select_for_update(no_key=True, of=("self",)).select_related("event__season__league")
    return (rows.defer(*GROWING) if light else rows).get(pk=table.pk)


def _new_code() -> str:
    for _ in range(20):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not RealTable.objects.filter(code=code).exists():
            return code
    raise ConflictError("No free table code was found; try again.")  # 32^6 codes: practically never


def normal_code(raw: object) -> str:
    """A code as typed (lower case, spaces, dashes) in its stored form."""
    text = str(raw or "").upper().replace(" ", "").replace("-", "")
    return text[: CODE_LENGTH + 4]


def _whole(value: Any, what: str, low: int, high: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(
            f"{what} must be a whole number from {low} to {high:,}; got {value!r}.", extra={"field": field}
        )
    return value


def hand_dealer(game: RealCardsGame) -> int | None:
    hand = game.game.hand
    return hand.dealer if hand is not None else None


# ----- opening and seats ---------------------------------------------------------------------------------


def _checked_table(
    *, host: Any, variant: str, preset: str, options: dict, starting: int, has_dice: Any, **fields: Any
) -> RealTable:
    """A new table's row, once the engine has made a game of its rules (two players at `starting` credits each) and
    `has_dice` is a boolean; a refusal says why and writes nothing. `fields`: the row's others (a league `event`)."""
    if not isinstance(has_dice, bool):
        raise ApplicationError("has_dice is true or false.", extra={"field": "has_dice"})
    try:
        RealCardsGame(
            {
                "variant": variant,
                "preset": preset,
                "options": options,
                "players": [["A", starting], ["B", starting]],
                "dealer": 0,
            }
        )
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise ApplicationError(f"These rules do not make a game: {exc}", extra={"field": "options"}) from None
    return RealTable.objects.create(
        code=_new_code(),
        host=host,
        variant=variant,
        preset=preset,
        options=options,
        starting_credits=starting,
        has_dice=has_dice,
        master=f"{secrets.randbits(128):032x}",
        **fields,
    )


@transaction.atomic
def realtable_open(
    *,
    actor: Actor,
    variant: str = DEFAULT_VARIANT,
    preset: str | None = None,
    options: dict | None = None,
    starting_credits: int | None = None,
    has_dice: bool = True,
    host_plays: bool = True,
) -> RealTable:
    """Open a casual real-cards table, checked by the engine; the host takes seat 1 unless they only run it."""
    if not signed_in(actor):
        raise NotAllowed("Sign in (or sign up) to open a real-cards table.")
    preset = checked_preset(variant, preset)
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise ApplicationError(
            'options is an object of option overrides, like {"ante": 2}.', extra={"field": "options"}
        )
    if starting_credits is None:
        probe = RealCardsGame(
            {"variant": variant, "preset": preset, "options": options, "players": [["A", 1], ["B", 1]], "dealer": 0}
        )
        starting_credits = int(probe.game.options.starting_stack)
    starting_credits = _whole(starting_credits, "The starting credits", 1, MAX_STARTING, "starting_credits")
    table = _checked_table(
        host=actor, variant=variant, preset=preset, options=options, starting=starting_credits, has_dice=has_dice
    )
    if host_plays:
        RealSeat.objects.create(table=table, number=0, name=seat_name(actor.get_username())[:MAX_NAME], user=actor)
    audit(actor=actor, action="real_table.open", obj=table, data={"variant": variant, "preset": preset})
    _announce(table, "opened")
    return table


@transaction.atomic
def realtable_open_league(
    *,
    actor: Actor,
    event: Event,
    variant: str | None = None,
    preset: str | None = None,
    options: dict | None = None,
    has_dice: bool = True,
    host_plays: bool = False,
) -> RealTable:
    """Open a real-cards table at a league event (its organisers only): the league's rules unless given, checked by
    the engine; the starting credits are the event's buy-in; the seats are the league's players. When the game ends
    its result is booked as a league Game of the event (`landing.py`)."""
    league_seats.check_can_open(actor, Event.objects.select_related("season__league").get(pk=event.pk))
    event = lock_event(event.pk)
    league_seats.check_can_open(actor, event)  # again under the lock: the event may have finished meanwhile
    if variant is not None or preset is not None:
        preset = checked_preset(variant or event.season.variant or event.season.league.variant, preset)
    variant, preset, options, starting = league_seats.league_rules(
        event, variant=variant, preset=preset, options=options
    )
    starting = _whole(starting, "The event's buy-in", 1, MAX_STARTING, "starting_credits")
    table = _checked_table(
        host=actor, event=event, variant=variant, preset=preset, options=options, starting=starting, has_dice=has_dice
    )
    if host_plays:
        RealSeat.objects.create(table=table, number=0, **league_seats.joining_player(table, actor))
    audit(
        actor=actor,
        action="real_table.open",
        obj=table,
        league=event.season.league,
        data={"variant": variant, "preset": preset, "event": event.pk, "starting_credits": starting},
    )
    _announce(table, "opened")
    return table


def _check_open(table: RealTable) -> None:
    if table.status != RealTableStatus.OPEN:
        raise ConflictError("The game has started: seats are taken and left only before the start.")


def handover_secret() -> str:
    """The one-time secret of a seat's hand-over link (`handover.py`): 128 random bits."""
    return secrets.token_urlsafe(16)


def takes_newcomers(table: RealTable, game: RealCardsGame) -> bool:
    """A started casual cash game (end rule "never"): the host may seat a newcomer between hands."""
    return table.event_id is None and getattr(game.game.options, "end_rule", "") == "never"


def _check_joinable(table: RealTable) -> None:
    """Joining by the code or the QR: before the start only; a newcomer at a started table is told what to do."""
    if table.status == RealTableStatus.PLAYING:
        if takes_newcomers(table, load_game(table)):
            raise ConflictError(
                "The game is on: new players no longer sit down by the code. Ask the host to add you between "
                "hands; they can then hand you the seat (a link or a QR code for your phone)."
            )
        raise ConflictError(
            "The game is on and its seats were fixed at the start (nobody joins this game mid-way). If the host "
            "seated you, ask them for your seat's hand-over link; otherwise follow the table from its page."
        )
    _check_open(table)


def _next_number(table: RealTable) -> int:
    count = table.seats.count()
    if count >= MAX_SEATS:
        raise ConflictError(f"The table is full: it seats {MAX_SEATS} players at most.")
    return count


def seat_holder(actor: Actor) -> dict[str, Any]:
    """Who holds a seat a phone takes: a signed-in user by their account, anyone else as a guest by a new secret
    (theirs to keep in their session)."""
    is_user = signed_in(actor)
    return {"user": actor if is_user else None, "guest_token": "" if is_user else secrets.token_urlsafe(24)}


@transaction.atomic
def realseat_join(*, actor: Actor, guest: str = "", table: RealTable, name: str = "") -> RealSeat:
    """Take a seat: a signed-in user by their account (name: theirs unless given), a guest by name; the guest's
    secret (`guest_token`) is theirs to keep in their session."""
    table = _lock(table)
    _check_joinable(table)
    mine = seat_of(table, actor, guest)
    if mine is not None:
        raise ConflictError(f"You are already seated here, as {mine.name}.")
    if table.event_id is not None:  # a league table: its seats are the league's players
        seat = RealSeat.objects.create(
            table=table, number=_next_number(table), **league_seats.joining_player(table, actor)
        )
        _bump(table, "seats")
        return seat
    is_user = signed_in(actor)
    name = seat_name(name or actor.get_username()) if is_user else seat_name(name, "Your name")
    seat = RealSeat.objects.create(
        table=table,
        number=_next_number(table),
        name=free_name(table, name),
        **seat_holder(actor),
    )
    _bump(table, "seats")
    return seat


@transaction.atomic
def realseat_add(*, actor: Actor, table: RealTable, name: str = "", player: int | None = None) -> RealSeat:
    """The host seats a player who has no phone (the host taps for them): at a league table one of the league's
    players (`player`, an id), at a casual table anyone by name. A seat nobody holds gets its hand-over link."""
    table = _lock(table)
    if not is_host(actor, table):
        raise NotAllowed("Only the table's host adds seats.")
    _check_open(table)
    if table.event_id is not None:
        fields = league_seats.added_player(table, player)
        handover = "" if fields.get("user_id") else handover_secret()
        seat = RealSeat.objects.create(table=table, number=_next_number(table), handover=handover, **fields)
    else:
        name = free_name(table, seat_name(name))
        seat = RealSeat.objects.create(table=table, number=_next_number(table), name=name, handover=handover_secret())
    _bump(table, "seats")
    return seat


@transaction.atomic
def realseat_remove(*, actor: Actor, guest: str = "", table: RealTable, number: int) -> None:
    """The host removes a seat (or a player leaves theirs) before the start; the seats after it move up."""
    table = _lock(table)
    _check_open(table)
    seats = list(table.seats.order_by("number"))
    target = next((s for s in seats if s.number == number), None)
    if target is None:
        raise ApplicationError(
            f"There is no seat {number + 1 if isinstance(number, int) else number!r}; the seats are 1 to {len(seats)}.",
            extra={"field": "seat"},
        )
    if not is_host(actor, table) and seat_of(table, actor, guest) != target:
        raise NotAllowed("Only the host removes another player's seat.")
    target.delete()
    for seat in seats:
        if seat.number > number:
            RealSeat.objects.filter(pk=seat.pk).update(number=seat.number - 1)
    _bump(table, "seats")


def _bump(table: RealTable, what: str, **fields: Any) -> None:
    table.version += 1
    for key, value in fields.items():
        setattr(table, key, value)
    table.save(update_fields=["version", "updated_at", *fields])
    _announce(table, what)


def _seats_as_the_game(table: RealTable, game: RealCardsGame) -> None:
    """Give every seat of the game its row, after a player joined between hands (or such a join was undone): a
    joiner sits as a seat the host added (the host acts for them, until their phone takes it by its hand-over link);
    a seat the engine gave a newcomer (everyone's seat taken, one left) is theirs from now on; a row whose join was
    undone goes."""
    names = game.game.names
    rows = {seat.number: seat for seat in table.seats.all()}
    for number, name in enumerate(names):
        row = rows.get(number)
        if row is None:
            RealSeat.objects.create(table=table, number=number, name=name, handover=handover_secret())
        elif row.name != name:
            RealSeat.objects.filter(pk=row.pk).update(
                name=name, user=None, player=None, guest_token="", handover=handover_secret()
            )
    RealSeat.objects.filter(table=table, number__gte=len(names)).delete()


def _bump_game(table: RealTable, game: RealCardsGame, what: str, **fields: Any) -> None:
    """`_bump` with the game's snapshot; after the commit (before the announcement) the game is this version's
    readers' (`cache.keep`): nobody changes it from then on."""
    transaction.on_commit(lambda: cache.keep(table, game))
    _bump(table, what, snapshot=snapshot_of(game), **fields)


# ----- the game ------------------------------------------------------------------------------------------


@transaction.atomic
def realtable_start(*, actor: Actor, table: RealTable, dealer: int = 0) -> RealTable:
    """The host starts the game with the seats as they are; `dealer` is the seat the table drew to deal first."""
    table = _lock(table)
    if not is_host(actor, table):
        raise NotAllowed("Only the table's host starts the game.")
    _check_open(table)
    seats = list(table.seats.order_by("number"))
    if len(seats) < MIN_SEATS:
        raise ConflictError(f"A game needs {MIN_SEATS} players at least; {len(seats)} seated.")
    dealer = _whole(dealer, "The first dealer's seat", 0, len(seats) - 1, "dealer")
    setup = {
        "variant": table.variant,
        "preset": table.preset,
        "options": table.options,
        "players": [[seat.name, table.starting_credits] for seat in seats],
        "dealer": dealer,
    }
    try:
        game = RealCardsGame(setup, master=table.master)
    except EngineError as exc:
        raise _user_error(exc) from None
    _bump_game(table, game, "started", setup=setup, status=RealTableStatus.PLAYING)
    audit(actor=actor, action="real_table.start", obj=table, data={"seats": len(seats), "dealer": dealer})
    return table


def _who(actor: Actor, mine: RealSeat | None, host: bool) -> str:
    if host:
        return f"{actor.get_username()} (host)"
    return mine.name if mine is not None else "?"


def _check_playing(table: RealTable) -> None:
    if table.status != RealTableStatus.PLAYING:
        raise ConflictError(
            "The game has not started yet." if table.status == RealTableStatus.OPEN else "The game is over."
        )


def _check_version(table: RealTable, version: int | None) -> None:
    if version is not None and version != table.version:
        raise ConflictError(
            f"The table has moved on (version {table.version}, your screen shows {version}): look again, then tap.",
            extra={"version": table.version},
        )


def realtable_step(
    *, actor: Actor, guest: str = "", table: RealTable, step: dict, version: int | None = None
) -> RealTable:
    """One step of the table, by the seat it is for (or the host); verified by the engine, then saved and logged.

    The engine's work is done first on the row as read, outside the write lock, and kept if the table has not moved
    on by the time the lock is held (a new version is a new state; else it is done again under the lock): the lock,
    on the embedded default SQLite's one writer for the whole site, is held for the write alone. A tournament's
    table asks its tournament for chips and levels before a deal: its work is always done under the lock."""
    if not isinstance(step, dict):
        raise ApplicationError('A step is an object, like {"step": "act", "seat": 0, "verb": "check"}.')
    planned = None
    if table.tournament_table is None:
        row = RealTable.objects.select_related("event__season__league").filter(pk=table.pk).first()
        try:
            planned = (row.version, _planned(row, actor, guest, step, version)) if row is not None else None
        except Exception:  # the same work runs again under the lock and raises what it raises there
            planned = None
    return _step_locked(actor=actor, guest=guest, table=table, step=step, version=version, planned=planned)


@transaction.atomic
def _step_locked(
    *, actor: Actor, guest: str, table: RealTable, step: dict, version: int | None, planned: tuple | None
) -> RealTable:
    table = _lock(table, light=planned is not None)
    if planned is not None and planned[0] == table.version:
        game, fields, saved, was_open = planned[1]  # worked out on this very version: its fields are the row's next
    else:
        if planned is not None:
            table.refresh_from_db(fields=list(GROWING))
        game, fields, saved, was_open = _planned(table, actor, guest, step, version)
    _bump_game(table, game, "step", **fields)
    if any(did.get("step") == "join" for did in saved):
        _seats_as_the_game(table, game)
    if fields.get("status") == RealTableStatus.FINISHED:
        landing.land(table, game)
    tournament_hands.tell_after(table, game, was_open=was_open)
    return table


def _check_seat(game: RealCardsGame, step: dict) -> None:
    """A step's `seat` names a seat of the game, and a hand shown one dealt into the hand; the refusal says it in
    the numbers people see (seats from 1) beside the API's own (from 0), as the engine's words would give the
    API's alone."""
    if "seat" not in step:
        return
    seat, names = step["seat"], game.game.names
    count = len(names)
    if type(seat) is not int or not 0 <= seat < count:
        raise ApplicationError(
            f"seat is a seat's number, 0 to {count - 1} (the seats 1 to {count} as the pages show them); got {seat!r}.",
            extra={"field": "seat"},
        )
    hand = game.game.hand
    if step.get("step") == "reveal" and hand is not None and seat not in hand.seats:
        dealt = ", ".join(f"{names[s]} (seat {s + 1})" for s in hand.seats)
        raise ApplicationError(
            f"{names[seat]} (seat {seat + 1}) was not dealt into hand {hand.number}; its players are {dealt}.",
            extra={"field": "seat"},
        )


def _planned(
    table: RealTable, actor: Actor, guest: str, step: dict, version: int | None
) -> tuple[RealCardsGame, dict[str, Any], list[dict], bool]:
    """The step checked and taken on the table's game as `table` holds it: (the game after it, the row's new
    fields, the steps the engine took, whether a hand was being played before); refusals raise and write nothing."""
    _check_playing(table)
    _check_version(table, version)
    game = load_game(table)
    host = is_host(actor, table)
    mine = seat_of(table, actor, guest)
    now = due(game)
    _check_seat(game, step)
    check_step(host=host, mine=mine, due=now, step=step, dealer=hand_dealer(game))
    if table.event_id is not None and step.get("step") in LEAGUE_REFUSED:
        raise ApplicationError(
            "A league table's players and credits are fixed at the start: re-buys, add-ons and players joining or "
            "leaving are not booked in a league game. Record such a game by hand instead."
        )
    if step.get("step") == "join" and isinstance(step.get("name"), str):
        check_joining_name(game, step["name"])
    if step.get("step") == "dice" and not table.has_dice and step.get("by") != "site":
        raise ApplicationError('This table plays without dice: the site rolls ({"step": "dice", "by": "site"}).')
    first, was_open = len(game.steps), tournament_hands.hand_open(game)
    at, by = timezone.now().isoformat(), _who(actor, mine, host)
    notes: list[dict] = []
    try:
        # A tournament's table: the booked chips and the clock's level first; closed after once decided.
        for before, note in tournament_hands.steps_before(table, game, step):
            game.step(before)
            notes.append(note)
        game.step(copy.deepcopy(step))
        notes.append({"by": by})
        while skipped := automatic_steps(game):  # nothing to choose: the table takes those steps itself
            for skip in skipped:
                game.step(skip)
                notes.append(dict(AUTO))
        for after, note in tournament_hands.steps_after(table, game):
            game.step(after)
            notes.append(note)
    except EngineError as exc:
        raise _user_error(exc) from None
    saved = game.steps[first:]  # as the engine keeps them (a site roll carries its dice)
    changes = [
        *table.changes,
        *({"did": did, **note, "at": at, "version": table.version + 1} for did, note in zip(saved, notes, strict=True)),
    ]
    fields: dict[str, Any] = {"steps": [*table.steps, *saved], "changes": changes}
    if game.game.over:
        fields["status"] = RealTableStatus.FINISHED
    return game, fields, saved, was_open


@transaction.atomic
def realtable_undo(*, actor: Actor, table: RealTable, version: int | None = None) -> dict:
    """The host takes back the last step (a mis-tap, a wrong roll, a wrong reveal); the undo is logged."""
    table = _lock(table)
    if not is_host(actor, table):
        raise NotAllowed("Only the table's host undoes a step.")
    _check_playing(table)
    _check_version(table, version)
    if not table.steps:
        raise ConflictError("There is nothing to undo: no step has been taken yet.")
    # The steps the table took by itself after the last one a person took go back with it (`automatic.py`).
    count = min(len(table.steps), 1 + standing_auto(table.changes))
    kept, undone = table.steps[:-count], table.steps[-count:]
    last = undone[0]
    game = load_game(table, kept)  # from the snapshot unless a step undone is its hand's deal
    by, at = _who(actor, None, True), timezone.now().isoformat()
    changes = [
        *table.changes,
        *({"undid": step, "by": by, "at": at, "version": table.version + 1} for step in reversed(undone)),
    ]
    _bump_game(table, game, "undo", steps=kept, changes=changes)
    if any(step.get("step") == "join" for step in undone):
        _seats_as_the_game(table, game)
    audit(actor=actor, action="real_table.undo", obj=table, data={"step": last})
    return last


@transaction.atomic
def realtable_finish(*, actor: Actor, table: RealTable) -> RealTable:
    """The host ends the game (the seed of the site's rolls is shown from then on)."""
    table = _lock(table)
    if not is_host(actor, table):
        raise NotAllowed("Only the table's host ends the game.")
    if table.status == RealTableStatus.FINISHED:
        raise ConflictError("The game is already over.")
    game = load_game(table) if table.setup is not None else None
    if game is not None:
        landing.check_can_end(table, game)
        tournament_hands.check_can_end(table)
    _bump(table, "finished", status=RealTableStatus.FINISHED)
    audit(actor=actor, action="real_table.finish", obj=table)
    if game is not None:
        landing.land(table, game)
    return table


@transaction.atomic
def realtable_land(*, actor: Actor, table: RealTable) -> RealTable:
    """Book a finished league table's result again after the league refused it (the host, once the reason is put
    right); refused when it is booked already: a table lands once."""
    table = _lock(table)
    if not is_host(actor, table):
        raise NotAllowed("Only the table's host books its result.")
    if table.event_id is None or table.tournament_table is not None:
        raise ConflictError("This table is part of no league event: its result is the table's own.")
    if table.status != RealTableStatus.FINISHED:
        raise ConflictError("The game is not over yet: its result is booked when it ends.")
    if table.game_id is not None:
        raise ConflictError(f"The result is booked already, as game {table.game_id}: a table lands once.")
    landing.land(table, load_game(table))
    _bump(table, "landed")
    if table.game_id is None:
        raise ConflictError((table.outcome or {}).get("landing", "The result was not booked."))
    return table

"""The end of an online game (`finish_game`): the table's own outcome; for a league table also places, final credits,
the hand-by-hand ledger, the replay and the standings of its league game, and a tournament told its table
finished. A casual game (no league game) keeps its outcome on the table and writes nothing in any league. And when a
tournament's table, which the engine never ends itself, is over (`decided`)."""

from typing import Any

from django.db import transaction
from django.db.models import Q

from config.events import publish
from games import hooks as game_hooks
from games.engine import EngineError, Game
from games.models import Game as LeagueGame
from games.models import GameStatus, Seat
from games.online.models import ChangeStatus, OnlineSeat, OnlineTable, SeatChange, TableStatus
from games.online.services.base import announce, save_game, starting_chips
from games.online.services.clock import stop
from games.selectors import event_result_rows, unfinished_tables
from league.models import Event, EventKind, EventStatus, LedgerEntry, LedgerKind
from league.services import audit, event_results_rebuild, standings_schedule


def finish_game(table: OnlineTable, game: Game) -> None:
    """The game is over: results, places, hand-by-hand ledger, replay and standings for the league game."""
    from games.engine.replay import export_replay

    table.status = TableStatus.FINISHED
    table.outcome = {
        "standings": game.standings(),
        "stacks": {name: game.stacks[s] for s, name in enumerate(game.names)},
        "bots": {seat.name: seat.bot_kind for seat in table.seats.all() if seat.is_bot},
    }
    if table.game_id is None:  # a casual game: part of no league, its result is the table's own (`outcome`)
        return
    league_game = LeagueGame.objects.select_for_update().get(pk=table.game_id)
    event = Event.objects.select_related("season__league").get(pk=league_game.event_id)
    seats = {s.name: s for s in table.seats.select_related("player")}
    places = {row["player"]: row for row in game.standings()}
    rows = {s.player_id: s for s in Seat.objects.select_for_update().filter(game=league_game)}
    starting = set(game.starting_names)
    previous = {name: starting_chips(table, seat) if name in starting else 0 for name, seat in seats.items()}
    deltas: dict[str, list[int]] = {name: [] for name in seats}
    history = []
    credits_in = sum(previous.values())
    brought = dict(previous)  # the credits each seat brought: its buy-in and its re-buys
    for result in table.results:
        if "rebuy" in result or "join" in result:  # credits brought to the table between hands
            previous[result.get("rebuy") or result["join"]] += result["amount"]
            brought[result.get("rebuy") or result["join"]] += result["amount"]
            credits_in += result["amount"]
            continue
        if "leave" in result:  # cashed out (booked in the ledger when the player left)
            previous[result["leave"]] = 0
            continue
        stacks = result["stacks"]
        for name in seats:
            deltas[name].append(stacks.get(name, 0) - previous[name])
            previous[name] = stacks.get(name, 0)
        history.append({str(seats[name].player_id): stacks.get(name, 0) for name in seats if seats[name].player_id})
    # What the game left on the table when it ended went to the players (RULES 1.5 "Credits left at the end"),
    # after the last hand's result: booked with that hand. A seat taken over by another player holds none.
    at_tables = {
        name: game.stacks[seat.engine_seat] if game.names[seat.engine_seat] == name else 0
        for name, seat in seats.items()
    }
    for name, at_table in at_tables.items():
        if at_table != previous[name] and history:
            deltas[name][-1] += at_table - previous[name]
            if seats[name].player_id is not None:
                history[-1][str(seats[name].player_id)] = at_table
    entries, bots, finals = [], {}, {}
    for name, seat in seats.items():
        at_table = at_tables[name]
        finals[name] = at_table + (seat.left_with or 0)
        if seat.player_id is None:  # a bot: the house's chips, kept on the game's record only
            bots[name] = {
                "kind": seat.bot_kind,
                "final_credits": finals[name],
                "net": finals[name] - brought[name],
                "biggest_pot": max([0, *deltas[name]]),
                "engine_place": places.get(name, {}).get("place"),
            }
            continue
        row = rows[seat.player_id]
        row.final_credits = finals[name]
        row.biggest_pot = max([0, *deltas[name]])
        for number, delta in enumerate(deltas[name], start=1):
            if delta:
                kind = LedgerKind.HAND_WON if delta > 0 else LedgerKind.HAND_LOST
                entries.append(
                    LedgerEntry(event=event, game=league_game, player=seat.player, kind=kind, amount=delta, hand=number)
                )
        if at_table:
            entries.append(
                LedgerEntry(event=event, game=league_game, player=seat.player, kind=LedgerKind.PAYOUT, amount=-at_table)
            )
    people = {name: seat for name, seat in seats.items() if seat.player_id is not None}
    for name, place in _places_among_people(people, places, finals).items():
        rows[people[name].player_id].place = place
    credits_out = sum(finals.values())  # the bots' chips count here: the engine conserves every seat's credits
    if credits_in != credits_out:  # a bug, never a user error: the engine conserves credits
        raise RuntimeError(f"Online table {table.pk}: {credits_in} credits came in but {credits_out} went out.")
    Seat.objects.bulk_update(list(rows.values()), ["final_credits", "place", "biggest_pot"])
    if table.tournament_table is None:  # tournament chips are not credits (see table_start)
        LedgerEntry.objects.bulk_create(entries)
    try:
        document = export_replay(game)
    except EngineError:
        document = None
    league_game.status = GameStatus.FINISHED
    league_game.replay_document = document
    league_game.replay_result = {
        "hands": [result for result in table.results if "stacks" in result],
        "standings": game.standings(),
        "stacks": {name: game.stacks[s] for s, name in enumerate(game.names)},
        **({"leftovers": {game.names[s]: v for s, v in game.leftovers_paid.items()}} if game.leftovers_paid else {}),
        # Bots are never league players: their chips are the house's and their results are kept here only.
        **({"bots": bots} if bots else {}),
    }
    league_game.hands = history
    league_game.save(update_fields=["status", "replay_document", "replay_result", "hands"])
    # A single game is over with its last table: another of its tables still playing keeps it open (its result lands
    # in the event when it ends, and the event finishes then).
    if (
        event.kind == EventKind.GAME
        and event.status != EventStatus.FINISHED
        and not unfinished_tables(event.pk, except_online=table.pk)
    ):
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    event_results_rebuild(event=event, seats=event_result_rows(event.pk))
    standings_schedule(league_id=event.season.league_id)
    publish("game.result_recorded", {"game": league_game.pk, "event": event.pk, "league": event.season.league.slug})
    if table.tournament_table is not None:  # a tournament listening may record the table's game (Halcyon)
        event_id, table_id, number = event.pk, table.pk, table.tournament_table
        transaction.on_commit(
            lambda: game_hooks.online_table_finished(event_id=event_id, table_id=table_id, tournament_table=number),
            robust=True,
        )


def end_at_break(table: OnlineTable, game: Game, *, actor: Any = None) -> None:
    """End the (locked) game between hands as it stands (`Game.end_game`: places by stack, the engine's ties, what
    is left on the table paid out, seeds revealed) and book it as every finished game is (`finish_game`)."""
    game.end_game()
    stop(table)
    table.ending = False
    table.version += 1
    save_game(table, game)
    finish_game(table, game)
    table.save()
    audit(
        actor=actor,
        action="online_table.end",
        obj=table,
        league=table.event.season.league if table.event_id is not None else None,
        data={"hands": game.hands_played},
    )
    announce(table, "finished")


def _places_among_people(people: dict, places: dict[str, dict], finals: dict[str, int]) -> dict[str, int | None]:
    """Each person's place among the people at the table (bots never take a league place): the engine's order
    with the bots left out, players the engine ties keeping their tie; at a cash table where someone cashed out,
    by all the credits each took away."""
    if any(seat.left_with for seat in people.values()):
        key = {name: -finals[name] for name in people}
    else:
        key = {name: places.get(name, {}).get("place") for name in people}
        if any(value is None for value in key.values()):
            return {name: places.get(name, {}).get("place") for name in people}
    ordered = sorted(key.values())
    return {name: ordered.index(value) + 1 for name, value in key.items()}


def decided(table: OnlineTable, game: Game, seats: dict[int, OnlineSeat]) -> bool:
    """A tournament table whose game the engine never ends itself (players move in and out between hands) is
    over between hands once at most one seated player has chips."""
    seated = {number for number, seat in seats.items() if not seat.left}
    alive = [number for number in game.seats_with_credits() if number in seated]
    if len(alive) > 1 or not game.can_close_table():
        return False
    # Not while a player or a re-buy's chips are on their way here or a player waits to leave for another table
    # (the hand break carries them out first), nor while those out may still re-buy.
    if SeatChange.objects.filter(
        Q(target_id=table.pk, status__in=(ChangeStatus.WAITING, ChangeStatus.ON_THE_WAY))
        | Q(source_id=table.pk, status=ChangeStatus.WAITING)
    ).exists():
        return False
    busted = [seat.player_id for number, seat in seats.items() if number in seated and game.stacks[number] == 0]
    return not (busted and game_hooks.online_rebuys_open(event_id=table.event_id, player_ids=busted))

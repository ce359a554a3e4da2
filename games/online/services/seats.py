"""A player's own seat: take it (between hands at a running cash table, buying in), leave it (cashing out),
re-buy, contribute entropy to the next deck, and come back after being marked away."""

from django.db import transaction

from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from games import hooks as game_hooks
from games.engine import EngineError
from games.models import Seat
from games.online import schedule
from games.online.models import OnlineSeat, OnlineTable, SeatKind, TableStatus
from games.online.permissions import NoSuchTable, NotAllowed, invite_matches, is_host, seat_filter, sit_refusal
from games.online.services.base import announce, free_seat_number, load_game, lock_table, save_game, seat_name
from games.online.services.clock import turn_key
from games.online.services.presence import NOBODY
from games.online.services.turns import changed
from league.models import Event, LedgerEntry, LedgerKind, Player
from league.selectors import user_player_id
from league.services import audit, effective_buy_in_policy, league_data_changed


def _player_of(actor: Actor) -> Player:
    player_id = user_player_id(actor)
    if player_id is None:
        raise ApplicationError("You need a player profile to sit at a table; log in with a player account.")
    return Player.objects.get(pk=player_id)


@transaction.atomic
def seat_take(*, actor: Actor, table: OnlineTable, number: int | None = None, invite: str | None = None) -> OnlineSeat:
    """Sit the actor's player at the table: before the game starts, or between hands of a running cash
    table (casino), where the buy-in is booked in the ledger at once. At a casual game `invite` is its share
    link's token: without the right one (unless the actor is its host or seated) the table answers as missing."""
    table = lock_table(table)
    if table.tournament_table is not None:
        raise ConflictError("The tournament seats the players at its tables: register for it, and the draw seats you.")
    refusal = sit_refusal(actor, table)
    if refusal:
        raise NotAllowed(refusal)
    seated = table.seats.filter(seat_filter(actor), left=False).exists()
    if table.is_casual and not seated and not is_host(actor, table) and not invite_matches(table, invite):
        raise NoSuchTable()
    if table.status == TableStatus.FINISHED:
        raise ConflictError("The game is over; there are no seats to take.")
    if seated:
        raise ConflictError("You already have a seat at this table.")
    if table.event_id is None:
        return _take_casual(table, actor, number)
    player = _player_of(actor)
    if table.status != TableStatus.OPEN and table.options.get("end_rule") != "never":
        raise ConflictError(
            f"The game has started: at this table ({table.preset}) seats are taken before the start; only a cash "
            "table (casino) takes players between hands."
        )
    number = free_seat_number(table, number)
    if table.status != TableStatus.OPEN:
        return _join_running(actor, table, player, number)
    seat = OnlineSeat.objects.create(
        table=table, number=number, kind=SeatKind.PLAYER, player=player, name=seat_name(table, player.display_name)
    )
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    announce(table, "seat_taken")
    return seat


def _take_casual(table: OnlineTable, actor: Actor, number: int | None) -> OnlineSeat:
    """A seat at a casual game, before it starts: the account sits (no league player needed)."""
    if table.status != TableStatus.OPEN:
        raise ConflictError("This game has started: friends join a casual game through its link before it starts.")
    number = free_seat_number(table, number)
    player_id = user_player_id(actor)
    wanted = Player.objects.get(pk=player_id).display_name if player_id else actor.get_username()
    seat = OnlineSeat.objects.create(
        table=table, number=number, kind=SeatKind.PLAYER, user=actor, name=seat_name(table, wanted)
    )
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    announce(table, "seat_taken")
    return seat


def _join_running(actor: Actor, table: OnlineTable, player: Player, number: int) -> OnlineSeat:
    """A player sits down at a running cash table between hands: engine join, buy-in in the ledger."""
    game = load_game(table)
    earlier = table.seats.filter(player=player, left=True).first()
    name = earlier.name if earlier else seat_name(table, player.display_name)
    try:
        game.verify_join(name, table.buy_in)
    except EngineError as exc:
        raise ConflictError(f"You cannot sit down now: {exc}") from exc
    before = turn_key(game)
    engine_seat = game.join(name, table.buy_in)
    if earlier is not None:
        seat = earlier
        seat.number, seat.left, seat.engine_seat, seat.away, seat.timeouts = number, False, engine_seat, False, 0
        seat.save(update_fields=["number", "left", "engine_seat", "away", "timeouts"])
    else:
        seat = OnlineSeat.objects.create(
            table=table, number=number, kind=SeatKind.PLAYER, player=player, name=name, engine_seat=engine_seat
        )
    row = Seat.objects.select_for_update().filter(game_id=table.game_id, player=player).first()
    if row is None:
        last = Seat.objects.filter(game_id=table.game_id).order_by("-number").values_list("number", flat=True).first()
        Seat.objects.create(game_id=table.game_id, player=player, number=(last or 0) + 1, buy_in=table.buy_in)
    else:
        row.buy_in += table.buy_in
        row.save(update_fields=["buy_in"])
    LedgerEntry.objects.create(
        event_id=table.event_id, game_id=table.game_id, player=player, kind=LedgerKind.BUY_IN, amount=table.buy_in
    )
    league_data_changed(league_id=table.event.season.league_id)  # the buy-in on the player and event pages
    table.results = [*table.results, {"join": name, "amount": table.buy_in}]
    audit(actor=actor, action="online_table.join", obj=table, league=table.event.season.league, data={"seat": number})
    changed(table, game, before, what="seat_taken")
    return seat


@transaction.atomic
def seat_leave(*, actor: Actor, table: OnlineTable) -> None:
    """Leave the table: any time before the start; once running only at a cash table (casino), between hands,
    cashing out the stack through the ledger at once."""
    table = lock_table(table)
    seat = table.seats.filter(seat_filter(actor), left=False).first()
    if seat is None:
        raise ApplicationError("You have no seat at this table.")
    if table.event_id is None and table.status != TableStatus.OPEN:
        raise ConflictError(
            "You cannot leave a casual game once it has started: it plays to its end (its host closes a cash "
            "table). Step away instead: the clock acts for you."
        )
    if table.tournament_table is not None:
        # Tournament chips are not credits: a player leaves a tournament's table by moving or going out.
        raise ConflictError(
            "You cannot leave a tournament's table: you move when the organiser balances the tables, or play until "
            "you are out. Step away instead: the clock acts for you."
        )
    if table.status == TableStatus.OPEN:
        seat.delete()
    elif table.status == TableStatus.FINISHED:
        raise ConflictError("The game is over; there is no seat to leave.")
    elif table.options.get("end_rule") != "never":
        raise ConflictError(
            f"You cannot leave a running game at this table ({table.preset}): the game plays until it ends. Only a "
            "cash table (casino) lets players leave between hands. Step away instead: the clock acts for you."
        )
    else:
        game = load_game(table)
        try:
            game.verify_leave(seat.engine_seat)
        except EngineError as exc:
            raise ConflictError(f"You cannot leave now: {exc}") from exc
        before = turn_key(game)
        stack = game.leave(seat.engine_seat)
        seat.left, seat.left_with = True, (seat.left_with or 0) + stack
        seat.save(update_fields=["left", "left_with"])
        if stack:
            LedgerEntry.objects.create(
                event_id=table.event_id,
                game_id=table.game_id,
                player_id=seat.player_id,
                kind=LedgerKind.PAYOUT,
                amount=-stack,
            )
            league_data_changed(league_id=table.event.season.league_id)  # the cash-out on the pages
        table.results = [*table.results, {"leave": seat.name, "amount": stack}]
        changed(table, game, before, what="seat_left")
        return
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    announce(table, "seat_left")


@transaction.atomic
def seat_rebuy(*, actor: Actor, table: OnlineTable) -> OnlineSeat:
    """A player out of credits buys back in, between hands, where the rules and the event's policy allow it;
    the re-buy is booked in the ledger at once. At a tournament's table the tournament takes it (its re-buy
    period and rules, before any table lock: the tournament's lock comes first) and the chips join the stack at
    the next hand break."""
    if table.tournament_table is not None:
        player_id = user_player_id(actor)
        if player_id is None:
            raise ApplicationError("Only a player seated in the game can re-buy.")
        game_hooks.online_tournament_rebuy(actor=actor, event_id=table.event_id, player_id=player_id)
        return table.seats.filter(player_id=player_id, left=False).first()
    table = lock_table(table)
    seat = table.seats.select_related("player").filter(seat_filter(actor), left=False).first()
    if seat is None or seat.engine_seat is None:
        raise ApplicationError("Only a player seated in the game can re-buy.")
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError("Re-buys happen while the game runs, between hands.")
    if table.event_id is None:
        return _rebuy_casual(table, seat)
    event = Event.objects.select_related("season__league").get(pk=table.event_id)
    policy = effective_buy_in_policy(event)
    row = Seat.objects.select_for_update().get(game_id=table.game_id, player_id=seat.player_id)
    if policy is not None and not policy.rebuys_allowed:
        raise ConflictError(f"This event's buy-in policy ({policy}) allows no re-buys.")
    if policy is not None and policy.max_rebuys and row.rebuys >= policy.max_rebuys:
        raise ConflictError(f"This event allows at most {policy.max_rebuys} re-buys; you have had {row.rebuys}.")
    amount = (policy.rebuy_amount if policy and policy.rebuy_amount else 0) or table.buy_in
    game = load_game(table)
    try:
        game.rebuy(seat.engine_seat, amount)
    except EngineError as exc:
        raise ConflictError(f"You cannot re-buy now: {exc}") from exc
    row.rebuys += 1
    row.rebuy_credits += amount
    row.save(update_fields=["rebuys", "rebuy_credits"])
    LedgerEntry.objects.create(
        event=event, game_id=table.game_id, player=seat.player, kind=LedgerKind.REBUY, amount=amount
    )
    league_data_changed(league_id=event.season.league_id)  # the ledger and prize pool on the pages
    table.results = [*table.results, {"rebuy": seat.name, "amount": amount}]
    before = turn_key(game)
    changed(table, game, before)
    return seat


def _rebuy_casual(table: OnlineTable, seat: OnlineSeat) -> OnlineSeat:
    """A re-buy at a casual game: the buy-in again, where the rules allow it; no ledger (no league)."""
    game = load_game(table)
    try:
        game.rebuy(seat.engine_seat, table.buy_in)
    except EngineError as exc:
        raise ConflictError(f"You cannot re-buy now: {exc}") from exc
    table.results = [*table.results, {"rebuy": seat.name, "amount": table.buy_in}]
    before = turn_key(game)
    changed(table, game, before)
    return seat


@transaction.atomic
def seat_entropy(*, actor: Actor, table: OnlineTable, value: str) -> None:
    """A seated player's browser contributes randomness to the next hand's deck (RULES 1.7), between hands.

    The table's version stays as it is: nothing anyone sees changes, and the next hand still starts on time."""
    table = lock_table(table)
    seat = table.seats.filter(seat_filter(actor), left=False).first()
    if seat is None or seat.engine_seat is None:
        raise ApplicationError("Only a player seated in the game contributes to its decks.")
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError("Entropy is contributed while the game runs, between hands.")
    game = load_game(table)
    try:
        game.contribute_entropy(seat.engine_seat, value)
    except EngineError as exc:
        raise ApplicationError(str(exc)) from exc
    save_game(table, game)
    table.save(update_fields=["state", "history", "updated_at"])


@transaction.atomic
def seat_return(*, actor: Actor, table: OnlineTable) -> OnlineSeat:
    """A player marked away comes back: their decisions wait for them again."""
    table = lock_table(table)
    seat = table.seats.filter(seat_filter(actor), left=False).first()
    if seat is None:
        raise ApplicationError("You have no seat at this table.")
    if not seat.away:
        raise ConflictError("You are not marked away.")
    seat.away, seat.timeouts = False, 0
    seat.save(update_fields=["away", "timeouts"])
    if table.status == TableStatus.PAUSED and table.paused_for == NOBODY:
        # The table paused itself because nobody was there: somebody is, so it plays on (a fresh turn).
        table.status, table.paused_for = TableStatus.RUNNING, ""
        game = load_game(table)
        changed(table, game, turn_key(game), fresh_turn=True, what="resumed")
        return seat
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    if table.status == TableStatus.RUNNING and table.state:
        game = load_game(table)
        if not game.waiting_for() and not game.over:
            # Between hands the next hand waits for the version it was scheduled at: schedule it again.
            schedule.deal_later(table)
    announce(table, "returned")
    return seat

"""The control room's actions, shared by its page and the API: plain values in, one service call each.

Each action's refusal is an `ApplicationError` (400/409, nothing written), shown beside the form on the page and
as JSON by the API; the services check who may do what (`league.permissions`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import transaction

from config.errors import ApplicationError, ConflictError, ForbiddenError
from config.inputs import Actor, is_digits, parse_whole_number
from games.engine.replay import FORMATS_IN_WORDS
from league import services as league_services
from league.models import Player, Role
from league.permissions import can_manage_event
from tournaments import services
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus


def int_field(data: Any, name: str, what: str) -> int:
    """A whole number typed in a control-room form field (or sent in the API's JSON), up to twelve digits."""
    return parse_whole_number(data.get(name), what, field=name, signed=True, max_digits=12)


def table_field(data: Any) -> int:
    """The tournament table an action names, by its number (the service checks that it is one)."""
    return int_field(data, "table", "The table")


def player_field(data: Any, tournament: Tournament, name: str = "player") -> Player:
    player_id = int_field(data, name, "Choose a player: the player")
    player = Player.objects.filter(pk=player_id, memberships__league=tournament.event.season.league).first()
    if player is None:
        raise ApplicationError("Choose a player of this league.", extra={"field": name})
    return player


def structure_field(data: Any, name: str = "structure_json") -> Any:
    """The levels as the editor (or the JSON fallback) posts them: a JSON list, parsed here, checked by the service."""
    try:
        return json.loads(data.get(name) or "")
    except ValueError as exc:
        raise ApplicationError(
            f"The structure is not valid JSON ({exc}); give a list of levels such as "
            '[{"small_blind": 5, "big_blind": 10, "ante": 0, "length": 15, "unit": "minutes"}].',
            extra={"field": name},
        ) from exc


def _entered_results(data: Any) -> Any:
    """A Halcyon table's results entered by hand: the API sends `results` (a list); the page one credits field and
    one out-hand field per seated player (`credits_<id>`, `out_hand_<id>`; an empty out hand is none)."""
    given = data.get("results")
    if given is not None:
        return given
    results = []
    for key in data:
        if key.startswith("credits_") and is_digits(key[len("credits_") :]):
            player = parse_whole_number(key[len("credits_") :], "A player id")
            out = str(data.get(f"out_hand_{player}") or "").strip()
            results.append(
                {
                    "player": player,
                    "credits": int_field(data, key, "The credits"),
                    "out_hand": int_field(data, f"out_hand_{player}", "The out hand") if out else None,
                }
            )
    return results


def _halcyon_message(outcome: dict) -> str:
    if outcome["final"]:
        return "The final table's game is recorded: the places are set; complete the tournament."
    if outcome["advancing"]:
        return f"Round {outcome['round']} is complete: {len(outcome['advancing'])} players go to the final table."
    return f"Table {outcome['table']}'s game is recorded."


# One handler per action: (actor, tournament, action, data) -> what to tell the organiser.


def _add_guest(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    name = data.get("name", "")
    league = tournament.event.season.league
    with transaction.atomic():
        league_services.refuse_namesake(
            actor=actor,
            display_name=name,
            league=league,
            confirm_duplicate=str(data.get("confirm_duplicate", "")).lower() in ("1", "true", "on"),
        )
        player = league_services.player_create(actor=actor, display_name=name)
        league_services.membership_add(actor=actor, league=league, player=player, role=Role.PLAYER)
        services.tournament_register(actor=actor, tournament=tournament, player=player)
    return f"{player} is registered."


def _register(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    registration = services.tournament_register(
        actor=actor, tournament=tournament, player=player_field(data, tournament)
    )
    return f"{registration.player} is {'on the waiting list' if registration.status == 'waiting' else 'in'}."


def _unregister(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    player = player_field(data, tournament)
    services.tournament_unregister(actor=actor, tournament=tournament, player=player)
    return f"{player} is unregistered; the buy-in is refunded."


def _rebuy(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    player = player_field(data, tournament)
    # A re-buy at a physical table: the chips the player has there now, as the organiser counted them.
    given = str(data.get("stack") if data.get("stack") is not None else "").strip()
    stack = int_field(data, "stack", "The chip count") if action == "rebuy" and given else None
    services.tournament_rebuy(actor=actor, tournament=tournament, player=player, kind=action, stack=stack)
    return f"{action.replace('rebuy', 're-buy').replace('addon', 'add-on').capitalize()} booked for {player}."


def _publish_seed(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    return f"Seed hash published: {services.tournament_publish_seed(actor=actor, tournament=tournament)}."


def _draw(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    services.tournament_draw(actor=actor, tournament=tournament)
    return "Seats drawn; the seed is revealed."


def _clock_start(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    services.tournament_clock_start(actor=actor, tournament=tournament)
    return "The clock is running."


def _pause(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    services.tournament_clock_pause(actor=actor, tournament=tournament, resume=action == "resume")
    return "Clock resumed." if action == "resume" else "Clock paused."


def _level(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    services.tournament_clock_move(actor=actor, tournament=tournament, levels=1 if action == "level_up" else -1)
    return "Level moved."


def _eliminate(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    player = player_field(data, tournament)
    eliminated_by = player_field(data, tournament, "eliminated_by") if data.get("eliminated_by") else None
    registration = services.tournament_eliminate(
        actor=actor, tournament=tournament, player=player, eliminated_by=eliminated_by
    )
    return f"{player} is out in place {registration.place}."


def _undo(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    registration = services.tournament_eliminate_undo(actor=actor, tournament=tournament)
    return f"{registration.player} is back in."


def _balance(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    moves = services.tournament_balance(actor=actor, tournament=tournament)
    return f"{len(moves)} move{'s' if len(moves) != 1 else ''} made." if moves else "The tables are balanced."


def _move_online(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    outcome = services.tournament_online_moves(actor=actor, tournament=tournament)
    made = ", ".join(f"{m['name']} to table {m['to_table']}" for m in outcome["made"])
    waiting = " ".join(f"{m['name']}: {m['reason']}" for m in outcome["waiting"])
    if not made:
        return f"Waiting for a hand to end: {waiting}"
    return f"Moved online: {made}." + (f" Waiting for a hand to end: {waiting}" if waiting else "")


def _cancel_online_move(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    change = services.tournament_online_move_cancel(
        actor=actor, tournament=tournament, move_id=int_field(data, "move", "The waiting move")
    )
    return f"The move of {change.player} is cancelled; it is listed to make again."


def _custom_shares(data: Any) -> list[int]:
    given = data.get("shares", "")
    parts = given if isinstance(given, list) else str(given).replace(";", ",").split(",")
    parts = [str(part).strip() for part in parts if str(part).strip()]
    if not parts or not all(is_digits(part, max_digits=6) for part in parts):
        raise ApplicationError(
            "Give the custom shares in basis points, 1st first, separated by commas (e.g. 6000, 4000).",
            extra={"field": "shares"},
        )
    return [parse_whole_number(part, "A share", field="shares") for part in parts]


def _payouts(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    template = data.get("template", "")
    shares = _custom_shares(data) if template == "custom" else None
    services.tournament_payouts_set(actor=actor, tournament=tournament, template=template, shares=shares)
    return "Payout table saved."


def _deal(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    stacks = {}
    given = data.get("stacks")
    # The API sends {"<player id>": chips}; the page one field per player.
    flat = {f"stack_{key}": value for key, value in given.items()} if isinstance(given, dict) else data
    for registration in Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED):
        stacks[registration.player_id] = int_field(
            flat, f"stack_{registration.player_id}", f"The chip count of player {registration.player_id}"
        )
    deal = services.tournament_deal(actor=actor, tournament=tournament, method=data.get("method", ""), stacks=stacks)
    return f"Deal recorded ({deal['method']}); complete the tournament to book it."


def _complete(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    services.tournament_complete(actor=actor, tournament=tournament)
    return "The tournament is complete: payouts booked, points to the standings."


def _halcyon_table(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    replay = data.get("replay")
    if not isinstance(replay, dict):
        try:
            replay = json.loads(replay or "")
        except ValueError as exc:
            raise ApplicationError(
                f"The table's game must be a {FORMATS_IN_WORDS} JSON document ({exc}).", extra={"field": "replay"}
            ) from exc
    if not isinstance(replay, dict):
        raise ApplicationError(
            f"The table's game must be a JSON object ({FORMATS_IN_WORDS}).", extra={"field": "replay"}
        )
    outcome = services.tournament_halcyon_table(
        actor=actor, tournament=tournament, table_number=table_field(data), replay=replay
    )
    return _halcyon_message(outcome)


def _halcyon_enter(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    outcome = services.tournament_halcyon_table_entered(
        actor=actor, tournament=tournament, table_number=table_field(data), results=_entered_results(data)
    )
    return _halcyon_message(outcome)


def _halcyon_online_record(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    outcome = services.tournament_halcyon_online_record(
        actor=actor, tournament=tournament, table_number=table_field(data)
    )
    return _halcyon_message(outcome)


def _open_online(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    table_number = table_field(data)
    if tournament.format == Format.HALCYON:
        table = services.tournament_halcyon_online_open(actor=actor, tournament=tournament, table_number=table_number)
        return (
            f"{table.name} is open online with its players seated (Halcyon: every player deals once): start it "
            f"from its page (/tables/{table.pk}/); its game is recorded here when it ends."
        )
    table = services.tournament_online_table_open(actor=actor, tournament=tournament, table_number=table_number)
    return f"{table.name} is open online with its players seated: start it from its page (/tables/{table.pk}/)."


def _has_dice(data: Any) -> bool:
    """Whether the table has its own dice: the API's `has_dice` (true or false, default true); the page's form
    sends `no_dice` when the site should roll for the table."""
    given = data.get("has_dice")
    if isinstance(given, bool):
        return given
    if given is not None and not isinstance(given, str):
        raise ApplicationError("has_dice is true or false.", extra={"field": "has_dice"})
    if given in ("false", "0", "off"):
        return False
    return not data.get("no_dice")


def _open_real_cards(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    table = services.tournament_realcards_open(
        actor=actor, tournament=tournament, table_number=table_field(data), has_dice=_has_dice(data)
    )
    how = (
        "Halcyon: every player deals once; its result is recorded here when the game ends"
        if tournament.format == Format.HALCYON
        else "each hand plays the clock's level; players out of chips there are eliminated here"
    )
    return (
        f"Table {table.tournament_table} is playing on real cards (code {table.code}): run it at "
        f"/tabletop/{table.code}/ ({how})."
    )


def _call_off(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    refunded = services.tournament_call_off(actor=actor, tournament=tournament)
    total = sum(refunded.values())
    return (
        f"The tournament is called off: {len(refunded)} player{'s' if len(refunded) != 1 else ''} refunded "
        f"({total:,} credits, in the ledger), the registrations ended and the event finished (it does not count "
        "for the standings)."
    )


def _structure(actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    services.tournament_structure_set(actor=actor, tournament=tournament, structure=structure_field(data))
    return "The structure is saved."


HANDLERS: dict[str, Callable[[Actor, Tournament, str, Any], str]] = {
    "add_guest": _add_guest,
    "register": _register,
    "unregister": _unregister,
    "rebuy": _rebuy,
    "addon": _rebuy,
    "reentry": _rebuy,
    "publish_seed": _publish_seed,
    "draw": _draw,
    "clock_start": _clock_start,
    "pause": _pause,
    "resume": _pause,
    "level_up": _level,
    "level_down": _level,
    "eliminate": _eliminate,
    "undo": _undo,
    "balance": _balance,
    "move_online": _move_online,
    "cancel_online_move": _cancel_online_move,
    "payouts": _payouts,
    "deal": _deal,
    "complete": _complete,
    "halcyon_table": _halcyon_table,
    "halcyon_enter": _halcyon_enter,
    "halcyon_online_record": _halcyon_online_record,
    "open_online": _open_online,
    "open_real_cards": _open_real_cards,
    "structure": _structure,
    "call_off": _call_off,
}
ACTIONS = tuple(HANDLERS)


def run_action(*, actor: Actor, tournament: Tournament, action: str, data: Any) -> str:
    """Run one control-room action through its service; returns what to tell the organiser.

    Who may is asked first, before any input is read: a non-organiser hears 403 whatever they sent, never a
    400 about the input (which would tell them about the field, its players and their ids)."""
    if not can_manage_event(actor, tournament.event):
        raise ForbiddenError(
            f"Only the organisers of {tournament.event.season.league} (or a site admin) may run this tournament."
        )
    handler = HANDLERS.get(action)
    if handler is None:
        raise ApplicationError(f"Unknown action {action!r}.", extra={"field": "action"})
    if tournament.status == TournamentStatus.CALLED_OFF:
        raise ConflictError("This tournament is called off: its buy-ins are refunded and nothing more can be done.")
    return handler(actor, tournament, action, data)

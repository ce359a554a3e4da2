"""Reads of a tournament, the same for its pages and its API: the clock, the field, the tables, the payouts.

Only public facts: names, seats, places, chips brought in. The draw seed appears only after the draw.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils import timezone

from games.engine.options import resolve_options
from games.engine.variant import get_variant, variant_names
from league import selectors as league_selectors
from league import services as league_services
from league.models import LedgerEntry, LedgerKind
from tournaments import clock, halcyon, payouts, seating, structures
from tournaments.halcyon import HALCYON_VARIANT, OPENED, OPENED_REAL
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus

# Derived state, read by pages, the API and the services alike (services import these; never the reverse).


def clock_pauses(tournament: Tournament) -> list[clock.Pause]:
    return [
        clock.Pause(datetime.fromisoformat(begin), datetime.fromisoformat(end) if end else None)
        for begin, end in tournament.clock_pauses
    ]


def tournament_clock(tournament: Tournament, *, now: datetime | None = None) -> clock.ClockState | None:
    """The clock as every screen shows it (None before the clock starts)."""
    if tournament.clock_started_at is None:
        return None
    return clock.clock_state(
        levels=structures.structure_from_json(tournament.structure),
        started_at=tournament.clock_started_at,
        pauses=clock_pauses(tournament),
        now=now or timezone.now(),
        start_level=tournament.clock_start_level,
    )


def registration_open(tournament: Tournament, now: datetime) -> bool:
    if tournament.status == TournamentStatus.REGISTERING:
        return True
    if tournament.status != TournamentStatus.RUNNING or not tournament.late_registration_level:
        return False
    state = tournament_clock(tournament, now=now)
    return state is None or state.level_index + 1 <= tournament.late_registration_level


def rebuys_open(tournament: Tournament, now: datetime) -> bool:
    """Whether a re-buy tournament's re-buy period is open (it ends with late registration)."""
    return (
        tournament.format == Format.REBUY
        and tournament.status == TournamentStatus.RUNNING
        and registration_open(tournament, now)
    )


def may_rebuy_again(registration: Registration, policy: Any) -> bool:
    """The event's buy-in policy lets this player re-buy (once more)."""
    if policy is None or not policy.rebuys_allowed or not policy.rebuy_amount:
        return False
    return not policy.max_rebuys or registration.rebuys < policy.max_rebuys


def rebuy_offer(*, event_id: int, player_id: int, stack: int = 0) -> dict[str, Any] | None:
    """The re-buy a player with `stack` chips in front of them may make now (`{"amount"}`), or None: out of chips,
    or at or below the tournament's re-buy threshold (counting what they put in the hand being played, as
    `tournament_rebuy` does). What `games.hooks.online_rebuy_offer` answers, and the pages offer."""
    from games.online.selectors import rebuy_place
    from games.tabletop.tournament import realcards_place

    tournament = Tournament.objects.filter(event_id=event_id).select_related("event__season__league").first()
    if tournament is None or stack > tournament.rebuy_at_or_below or not rebuys_open(tournament, timezone.now()):
        return None
    if stack > 0:
        place = rebuy_place(event_id=event_id, player_id=player_id) or realcards_place(
            event_id=event_id, player_id=player_id
        )
        if place is None or place["stack"] > tournament.rebuy_at_or_below:
            return None
    registration = Registration.objects.filter(
        tournament=tournament, player_id=player_id, status=RegistrationStatus.REGISTERED
    ).first()
    policy = league_services.effective_buy_in_policy(tournament.event)
    if registration is None or not may_rebuy_again(registration, policy):
        return None
    return {"amount": policy.rebuy_amount}


def prize_pool(tournament: Tournament) -> int:
    """Every buy-in, re-buy and add-on booked at the event (refunds included)."""
    kinds = (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON)
    return sum(
        LedgerEntry.objects.filter(event_id=tournament.event_id, kind__in=kinds).values_list("amount", flat=True)
    )


def entry_count(tournament: Tournament) -> int:
    """Entries paid (buy-ins and re-entries) of the field, for how many places the template pays."""
    return (
        Registration.objects.filter(tournament=tournament)
        .exclude(status=RegistrationStatus.WAITING)
        .aggregate(total=Sum("entries"))["total"]
        or 0
    )


def payout_table(tournament: Tournament) -> list[int]:
    """Credits for 1st, 2nd, ... from the prize pool and the tournament's template; [] before anyone entered."""
    entries = entry_count(tournament)
    if entries < 1:
        return []
    pool = max(0, prize_pool(tournament))
    shares = tournament.payout_shares if tournament.payout_template == "custom" else None
    return payouts.payouts(pool=pool, entries=entries, template=tournament.payout_template, shares=shares)


def booked_prizes(tournament: Tournament) -> list[dict[str, Any]]:
    """The prizes booked at Complete, best place first: who got what (shared places each with their share; a deal's
    amounts). Empty before the tournament is complete: until then only the projected payout table exists."""
    if tournament.completed_at is None:
        return []
    rows = (
        Registration.objects.filter(tournament=tournament, place__isnull=False, prize__gt=0)
        .order_by("place", "player__display_name", "pk")
        .values_list("place", "player_id", "player__display_name", "prize")
    )
    return [{"place": place, "player": player, "name": name, "prize": prize} for place, player, name, prize in rows]


def payouts_shown(tournament: Tournament) -> dict[str, Any]:
    """What every page shows as the payouts: once booked, the booked prizes with who got them (`payouts` their
    amounts in place order); before, the projected table from the pool and the template, labelled as projected."""
    prizes = booked_prizes(tournament)
    if tournament.completed_at is not None:
        return {
            "payouts": [row["prize"] for row in prizes],
            "payouts_booked": True,
            "payouts_label": "Booked prizes",
            "prizes": prizes,
        }
    return {
        "payouts": payout_table(tournament),
        "payouts_booked": False,
        "payouts_label": "Projected payouts",
        "prizes": [],
    }


def revealed_seed(tournament: Tournament) -> str | None:
    """The draw seed, only once the seats are drawn."""
    return tournament.draw_seed if tournament.drawn_at is not None else None


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """Tournaments of the events the user may see (members-only leagues stay hidden from outsiders)."""
    return Tournament.objects.filter(event__in=league_selectors.event_list(user=user)).select_related(
        "event__season__league"
    )


def level_label(level: dict[str, Any] | None) -> str:
    if level is None:
        return ""
    if level["is_break"]:
        return f"Break · {level['length']} {'min' if level['unit'] == 'minutes' else 's'}"
    blinds = f"Blinds {level['small_blind']}/{level['big_blind']}" if level["big_blind"] else ""
    ante = f"ante {level['ante']}" if level["ante"] else ""
    return " · ".join(part for part in (blinds, ante) if part) or "no forced bets"


def halcyon_forced_bets() -> str:
    """What a Halcyon table pays, from its preset (every player deals once): the clock shows this, not levels."""
    options = resolve_options(HALCYON_VARIANT, "halcyon")
    return f"ante {options['ante']} · pay {options['stay_cost']} to stay (Halcyon)"


def known_stacks(event_id: int) -> dict[int, dict[str, Any]]:
    """Each player's stack as the tournament knows it, by player id: from the tables played online
    (`games.online.selectors.known_stacks`) and on real cards (`games.tabletop.tournament.known_stacks`), each row
    with `stack`, `table` and `active`. Where a player has rows of both, the table they play at now wins, else
    their real-cards table's (a physical table follows the online ones in a night: they are opened last)."""
    from games.online.selectors import known_stacks as online_stacks
    from games.tabletop.tournament import known_stacks as real_stacks

    online, real = online_stacks(event_id=event_id), real_stacks(event_id=event_id)
    merged = {**online, **real}
    for player_id, row in online.items():
        if row["active"] and not real.get(player_id, {}).get("active"):
            merged[player_id] = row
    return merged


def player_stacks(tournament: Tournament) -> dict[int, int]:
    """The stack of each player as the tournament knows it, by player id: at the online or real-cards table they
    play at now, else the stack they carried away from their last such table (one that finished or was closed:
    the stack the next online or real-cards table opens with). Stacks are public; players only ever at physical
    tables played without the site are not known. A player on 0 chips at a table no longer in play is not known
    (still in, they have chips from elsewhere: a re-entry at a physical table)."""
    return {
        player_id: row["stack"]
        for player_id, row in known_stacks(tournament.event_id).items()
        if row["active"] or row["stack"] > 0
    }


def level_now(event_id: int, *, now: datetime | None = None) -> dict[str, int] | None:
    """The forced bets a tournament's table plays its next hand at (`games.hooks.tournament_level_now`): the
    clock's level in force, during a break the level after it, the first level before the clock starts (as an
    online table opened then); None after the tournament, and at a Halcyon tournament (its tables play their
    preset's forced bets)."""
    tournament = Tournament.objects.filter(event_id=event_id).first()
    if tournament is None or tournament.format == Format.HALCYON:
        return None
    if tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        return None
    state = tournament_clock(tournament, now=now or timezone.now())
    level = playing_level(structures.structure_from_json(tournament.structure), state.level_index if state else 0)
    return {"ante": level.ante, "small_blind": level.small_blind, "big_blind": level.big_blind}


def playing_level(levels: list[structures.Level], index: int) -> structures.Level:
    """The level a table plays at `index`: during a break, the level after it (the last one at the end)."""
    after = [level for level in levels[index:] if not level.is_break]
    before = [level for level in levels[:index] if not level.is_break]
    return after[0] if after else before[-1]


def chip_counts(stacks: dict[int, int], still_in: dict[int, str], *, finished: bool = False) -> dict[str, Any]:
    """The average stack from the known stacks of the players still in, how many are unknown (physical
    tables), and the chip leader among the known. `stacks` may hold players who are out: only those still in
    count, and any stack at all says that tables were played on the site."""
    known = {player_id: stacks[player_id] for player_id in still_in if player_id in stacks}
    unknown = len(still_in) - len(known)
    leader = max(known.items(), key=lambda item: (item[1], -item[0])) if known else None
    if not still_in:
        note = ""
    elif not known:
        if finished:
            note = "the tournament is complete"
        elif stacks:
            note = "no stack is known: the players left are at physical tables played without the site"
        else:
            note = "no stack is known yet: no table is played online or on real cards"
    elif unknown:
        note = f"from {len(known)} known stacks; {unknown} at physical tables not counted"
    else:
        note = "from the one stack left" if len(known) == 1 else f"from all {len(known)} stacks"
    return {
        "average_stack": sum(known.values()) // len(known) if known else None,
        "stacks_known": len(known),
        "stacks_unknown": unknown,
        "average_note": note,
        "chip_leader": {"player": leader[0], "name": still_in[leader[0]], "stack": leader[1]} if leader else None,
    }


def clock_summary(
    tournament: Tournament, *, now: datetime | None = None, stacks: dict[int, int] | None = None
) -> dict[str, Any]:
    """The clock as every screen shows it, with the field's figures (players left, average stack, chip leader,
    pool). `stacks` (from `player_stacks`) saves reading them again."""
    now = now or timezone.now()
    finished = tournament.status == TournamentStatus.FINISHED
    # A finished tournament's clock stops where it was when the tournament was completed.
    state = tournament_clock(tournament, now=min(now, tournament.completed_at or now) if finished else now)
    levels = structures.structure_to_json(structures.structure_from_json(tournament.structure))
    index = state.level_index if state else None
    field = Registration.objects.filter(tournament=tournament).exclude(status=RegistrationStatus.WAITING)
    still_in = dict(field.filter(status=RegistrationStatus.REGISTERED).values_list("player_id", "player__display_name"))
    players_left = len(still_in)
    chips = chip_counts(player_stacks(tournament) if stacks is None else stacks, still_in, finished=finished)
    pool = max(0, prize_pool(tournament))
    level = levels[index] if state else None
    next_level = levels[index + 1] if state and index + 1 < len(levels) else (levels[0] if not state else None)
    label, next_label = level_label(level), level_label(next_level)
    if tournament.format == Format.HALCYON:
        # Halcyon tables play their preset's forced bets for the whole game; the levels never reach them.
        label = next_label = halcyon_forced_bets()
    if finished:
        next_level, next_label = None, ""
    if tournament.status == TournamentStatus.CALLED_OFF:
        label, next_level, next_label = "Called off: the tournament was not played", None, ""
    return {
        "tournament": tournament.pk,
        "name": tournament.event.name,
        "status": tournament.status,
        "started": state is not None,
        "level_number": index + 1 if state else None,
        "level": level,
        "level_label": label,
        "next_level": next_level,
        "next_level_label": next_label,
        "finished": finished,
        "seconds_left": state.seconds_left if state and not finished else None,
        "next_break_in": state.next_break_in if state and not finished else None,
        "paused": bool(state and state.paused and not finished),
        "epoch": tournament.clock_epoch,
        "players_left": players_left,
        "entries": field.count(),
        **chips,
        "prize_pool": pool,
        **payouts_shown(tournament),
        "server_time": now,
    }


def rounding_rule() -> str:
    return payouts.ROUNDING_RULE


def field_rows(tournament: Tournament) -> list[Registration]:
    return list(Registration.objects.filter(tournament=tournament).select_related("player", "eliminated_by"))


def field_statuses(tournament: Tournament, registrations: list[Registration]) -> dict[int, str]:
    """Each registration's status as the pages say it, by id: "Winner" (placed first; or, before Complete, the
    last one in after eliminations once nobody can register, re-buy or re-enter; Halcyon's final table places),
    "Seated" (a seat drawn), else the stored status."""
    still_in = [r for r in registrations if r.status == RegistrationStatus.REGISTERED]
    last_in = (
        still_in[0].pk
        if len(still_in) == 1
        and tournament.format != Format.HALCYON
        and any(r.status == RegistrationStatus.ELIMINATED for r in registrations)
        and not registration_open(tournament, timezone.now())
        else None
    )
    shown = {}
    for registration in registrations:
        if registration.status == RegistrationStatus.REGISTERED and (
            registration.place == 1 or registration.pk == last_in
        ):
            shown[registration.pk] = "Winner"
        elif registration.status == RegistrationStatus.REGISTERED and registration.table_number is not None:
            shown[registration.pk] = "Seated"
        else:
            shown[registration.pk] = registration.get_status_display()
    return shown


def tables(registrations: list[Registration]) -> list[dict[str, Any]]:
    """The tables with their seated players in seat order (only players still in have a seat)."""
    by_table: dict[int, list[Registration]] = {}
    for registration in registrations:
        if registration.table_number is not None and registration.status == RegistrationStatus.REGISTERED:
            by_table.setdefault(registration.table_number, []).append(registration)
    return [
        {"number": number, "seats": sorted(seats, key=lambda item: item.seat_number)}
        for number, seats in sorted(by_table.items())
    ]


def drawn_tables(registrations: list[Registration]) -> list[dict[str, Any]]:
    """The tables as the draw made them, every player drawn in seat order whether still in or out (late registrants
    at their first seat): what a finished tournament shows, its seats being cleared. Empty before the draw, and for
    a tournament drawn before the drawn seats were kept (2026-11-28)."""
    by_table: dict[int, list[Registration]] = {}
    for registration in registrations:
        if registration.drawn_table is not None:
            by_table.setdefault(registration.drawn_table, []).append(registration)
    return [
        {"number": number, "seats": sorted(seats, key=lambda item: (item.drawn_seat or 0, item.pk))}
        for number, seats in sorted(by_table.items())
    ]


def moves_to_make(tournament: Tournament, registrations: list[Registration]) -> list[seating.Move]:
    """The moves balancing would make now (nothing written): what the control room shows after eliminations."""
    if tournament.drawn_at is None:
        return []
    seated: dict[int, seating.Table] = {}
    for registration in registrations:
        if registration.table_number is not None and registration.status == RegistrationStatus.REGISTERED:
            seated.setdefault(
                registration.table_number,
                seating.Table(registration.table_number, {}, tournament.seats_per_table),
            ).seats[registration.seat_number] = registration.player_id
    return seating.balance(list(seated.values()))


def public_seed(tournament: Tournament) -> dict[str, str | None]:
    return {"hash": tournament.draw_seed_hash or None, "seed": revealed_seed(tournament)}


def online_tables(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """The online table playing each tournament table now (open, running or paused), by table number."""
    from games.online.models import OnlineTable, TableStatus

    rows = OnlineTable.objects.filter(
        event_id=tournament.event_id,
        tournament_table__isnull=False,
        status__in=(TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED),
    ).values("pk", "tournament_table", "status")
    return {row["tournament_table"]: {"id": row["pk"], "status": row["status"]} for row in rows}


def realcards_tables(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """The real-cards table playing each tournament table now (open or playing), by table number."""
    from games.tabletop.tournament import tables_in_play

    return tables_in_play(event_id=tournament.event_id)


def online_moves(tournament: Tournament, registrations: list[Registration]) -> dict[str, list[dict[str, Any]]]:
    """Balancing moves between online tables: `to_make` (a player seated by the tournament at a table played
    online while still sitting at another online table), `waiting` (asked for, waiting for a hand to end:
    `status` "waiting" for the player's table, cancellable, or "on_the_way" to the new one) and `done` (made or
    dropped, newest first)."""
    from games.online.models import ChangeKind, ChangeStatus, SeatChange
    from games.online.selectors import seated_online
    from league.models import AuditEntry

    names = {registration.player_id: registration.player.display_name for registration in registrations}
    waiting = [
        {
            "id": change["pk"],
            "player": change["player_id"],
            "name": names.get(change["player_id"]) or change["player__display_name"],
            "from_table": change["source__tournament_table"],
            "to_table": change["target__tournament_table"],
            "status": change["status"],
        }
        for change in SeatChange.objects.filter(
            event_id=tournament.event_id,
            kind=ChangeKind.MOVE,
            status__in=(ChangeStatus.WAITING, ChangeStatus.ON_THE_WAY),
        )
        .order_by("pk")
        .values(
            "pk",
            "player_id",
            "player__display_name",
            "source__tournament_table",
            "target__tournament_table",
            "status",
        )
    ]
    under_way = {change["player"] for change in waiting}
    online = online_tables(tournament)
    sitting = seated_online(event_id=tournament.event_id)
    to_make = []
    for registration in registrations:
        where = sitting.get(registration.player_id)
        if registration.status != RegistrationStatus.REGISTERED or where is None:
            continue
        if registration.player_id in under_way:
            continue
        if registration.table_number != where["table"] and registration.table_number in online:
            to_make.append(
                {
                    "player": registration.player_id,
                    "name": registration.player.display_name,
                    "from_table": where["table"],
                    "to_table": registration.table_number,
                    "source": where["online_table"],
                    "target": online[registration.table_number]["id"],
                }
            )
    done = [
        {
            **entry.data,
            "name": names.get(entry.data.get("player"), ""),
            "dropped": entry.data.get("reason") if entry.action.endswith("_dropped") else None,
        }
        for entry in AuditEntry.objects.filter(
            action__in=("online_table.tournament_move", "online_table.tournament_move_dropped"),
            data__event=tournament.event_id,
        ).order_by("-pk")[:20]
    ]
    return {"to_make": to_make, "waiting": waiting, "done": done}


def my_rebuy(tournament: Tournament, mine: Registration | None) -> dict[str, Any] | None:
    """For a player still in and out of chips at an online or real-cards table (or at or below the tournament's
    re-buy threshold): their `stack`, the re-buy open to them (`offer`, None when none is) and the chips of a
    re-buy on their way (`on_the_way`); None otherwise."""
    if mine is None or mine.status != RegistrationStatus.REGISTERED:
        return None
    from games.online.selectors import rebuy_place
    from games.tabletop.tournament import realcards_place

    place = rebuy_place(event_id=tournament.event_id, player_id=mine.player_id)
    real = None if place is not None else realcards_place(event_id=tournament.event_id, player_id=mine.player_id)
    place = place or real
    if place is None or place["stack"] > tournament.rebuy_at_or_below:
        return None
    return {
        "stack": place["stack"],
        "threshold": tournament.rebuy_at_or_below,
        "table": place["tournament_table"],
        "online_table": place["table"] if real is None else None,
        "real_table": real["code"] if real is not None else None,
        "on_the_way": place["pending"],
        "offer": rebuy_offer(event_id=tournament.event_id, player_id=mine.player_id, stack=place["stack"]),
    }


def halcyon_rounds(tournament: Tournament, registrations: list[Registration]) -> list[dict[str, Any]]:
    """A Halcyon tournament's rounds as its pages and API show them: each table of a round with its online table
    (a live link) when played online, and, once recorded, where its game came from and each player's credits,
    place at the table and whether they advance. Empty for other formats and before the draw. Three queries."""
    from games.online.models import OnlineTable
    from league.models import AuditEntry

    if tournament.format != Format.HALCYON or tournament.drawn_at is None:
        return []
    names = {r.player_id: r.player.display_name for r in registrations}
    opened: dict[tuple[int, int], int] = {}
    real: dict[tuple[int, int], str] = {}
    sources: dict[tuple[int, int], str] = {}
    for action, data in (
        AuditEntry.objects.filter(
            object_type=Tournament._meta.label,
            object_id=str(tournament.pk),
            action__in=(OPENED, OPENED_REAL, "tournament_halcyon_table"),
        )
        .order_by("pk")
        .values_list("action", "data")
    ):
        if action == OPENED:
            opened[(data["round"], data["table"])] = data["online_table"]
        elif action == OPENED_REAL:
            real[(data["round"], data["table"])] = data["code"]
        else:
            sources[(data["round"], data["table"])] = data.get("source") or "replay"
    statuses = dict(OnlineTable.objects.filter(pk__in=opened.values()).values_list("pk", "status"))
    played = list(tournament.rounds) or [{}]
    rounds = []
    for number, recorded in enumerate(played, start=1):
        tables = {int(table) for table in recorded}
        if number == len(played) and tournament.status == TournamentStatus.RUNNING:
            tables |= {
                r.table_number for r in registrations if r.status == RegistrationStatus.REGISTERED and r.table_number
            }
        final = len(tables) == 1
        rows = []
        for table in sorted(tables):
            seats = [halcyon.SeatResult(*row) for row in recorded.get(str(table), [])]
            places = halcyon.table_places(seats) if seats else {}
            going_on = set() if final or not seats else set(halcyon.advancing(seats, tournament.advance_per_table))
            online = opened.get((number, table))
            rows.append(
                {
                    "table": table,
                    "recorded": bool(seats),
                    "source": sources.get((number, table)) if seats else None,
                    "online": {"id": online, "status": statuses.get(online, "")} if online else None,
                    "real_cards": real.get((number, table)),  # the code of its real-cards table, if played so
                    "results": sorted(
                        (
                            {
                                "player": seat.player_id,
                                "name": names.get(seat.player_id, ""),
                                "credits": seat.credits,
                                "out_hand": seat.out_hand,
                                "place": places[seat.player_id],
                                "advances": seat.player_id in going_on,
                            }
                            for seat in seats
                        ),
                        key=lambda row: (row["place"], row["name"]),
                    ),
                }
            )
        rounds.append({"round": number, "final": final, "tables": rows})
    return rounds


def _variant_label(name: str) -> str:
    return "Classic Sabacc" if name == "classic" else name.replace("_", " ").title()


def structure_rules(event: Any) -> dict[str, Any]:
    """What a level does at this event's variant, for the organiser's structure form: the variant, whether it
    takes blinds, which variants do and which do not, and (for a variant without blinds) an ante-only example
    structure payable in the event's chips. A variant without blinds (Corellian Spike, Classic Sabacc) refuses a
    level with blinds (`structures.validate_structure`)."""
    variant = get_variant(event.season.variant or event.season.league.variant)
    names = variant_names()
    example = ""
    if not variant.has_blinds:
        chip_set = league_services.effective_chip_set(event)
        chip = min(chip_set.denominations.values_list("value", flat=True), default=1) if chip_set else 1
        levels = [{"small_blind": 0, "big_blind": 0, "ante": chip * step, "length": 20} for step in (1, 2, 3, 5, 8, 10)]
        example = json.dumps(levels).replace("}, {", "},\n {")
    return {
        "variant": _variant_label(variant.name),
        "has_blinds": variant.has_blinds,
        "with_blinds": [_variant_label(n) for n in names if get_variant(n).has_blinds],
        "without_blinds": [_variant_label(n) for n in names if not get_variant(n).has_blinds],
        "example": example,
    }

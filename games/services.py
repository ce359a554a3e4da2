"""Writes around games: recording a result played at a physical table, and correcting one.

Everything is checked before anything is written; a refusal names what is wrong and what
is allowed, and leaves the database as it was.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError
from config.events import publish
from config.inputs import MAX_JSON_DEPTH, has_nul, json_depth
from games.models import Game, GameSource, GameStatus, ResultCorrection, Seat, Table
from league.models import (
    MAX_COUNT,
    MAX_CREDITS,
    Event,
    EventKind,
    EventStatus,
    LedgerEntry,
    LedgerKind,
    Membership,
    Player,
)
from league.services import (
    audit,
    credit_limits_check,
    effective_buy_in_policy,
    event_results_rebuild,
    lock_event,
    resolve_game_rules,
    standings_rules_check,
    standings_schedule,
)
from league.services.common import check_text

MIN_SEATS, MAX_SEATS = 2, 8


@dataclass
class SeatInput:
    player: Player
    number: int
    buy_in: int
    rebuys: int = 0
    rebuy_credits: int = 0
    addon_credits: int = 0
    final_credits: int | None = None
    place: int | None = None
    knockouts: int = 0
    biggest_pot: int = 0
    hand_deltas: list[int] = field(default_factory=list)

    @property
    def credits_in(self) -> int:
        return self.buy_in + self.rebuy_credits + self.addon_credits


def _int(
    value: Any, what: str, *, minimum: int = 0, maximum: int = MAX_CREDITS, allow_none: bool = False
) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ApplicationError(
            f"{what} must be a whole number of at least {minimum} and at most {maximum:,}; got {value!r}."
        )
    return value


def _places_from_credits(seats: list[SeatInput]) -> None:
    """Rank by final credits; equal credits share the better place."""
    ordered = sorted(seats, key=lambda s: -s.final_credits)
    for index, seat in enumerate(ordered, start=1):
        previous = ordered[index - 2] if index > 1 else None
        seat.place = previous.place if previous and previous.final_credits == seat.final_credits else index


def check_places(seats: list[SeatInput]) -> None:
    """Places run 1..n with ties sharing a place (1, 2, 2, 4); more credits never rank worse,
    and equal credits above zero share a place (players out of credits rank by when they went out)."""
    places = sorted(s.place for s in seats)
    expected, index = [], 0
    while index < len(places):
        tied = places.count(places[index])
        expected.extend([index + 1] * tied)
        index += tied
    if places != expected:
        raise ApplicationError(
            f"Places {places} are not a valid finishing order: places run from 1 to {len(seats)} and players "
            f"sharing a place skip the places after it (e.g. 1, 2, 2, 4); expected a set like {expected}.",
            extra={"field": "places"},
        )
    for a in seats:
        for b in seats:
            if a.final_credits > b.final_credits and a.place >= b.place:
                raise ApplicationError(
                    f"{a.player} finished with {a.final_credits} credits but is placed {a.place}, not ahead of "
                    f"{b.player} ({b.final_credits} credits, place {b.place}): more credits must rank better.",
                    extra={"field": "places"},
                )
            if a.final_credits == b.final_credits > 0 and a.place != b.place:
                raise ApplicationError(
                    f"{a.player} and {b.player} both finished with {a.final_credits} credits, so they share a "
                    f"place; got {a.place} and {b.place}.",
                    extra={"field": "places"},
                )


def _parse_seats(event: Event, seats: list[dict[str, Any]], *, actor: Any) -> list[SeatInput]:
    if not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
        count = len(seats) if isinstance(seats, list) else 0
        raise ApplicationError(
            f"A game seats {MIN_SEATS} to {MAX_SEATS} players; got {count}.", extra={"field": "seats"}
        )
    if not all(isinstance(seat, dict) for seat in seats):
        raise ApplicationError("Each seat is an object with a player id and its result.", extra={"field": "seats"})
    player_ids = [s.get("player") for s in seats]
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in player_ids):
        raise ApplicationError("Each seat names its player by id (a whole number).", extra={"field": "seats"})
    if len(set(player_ids)) != len(player_ids):
        duplicates = sorted({str(p) for p in player_ids if player_ids.count(p) > 1})
        raise ApplicationError(
            f"Each player may sit only once in a game; listed more than once: {', '.join(duplicates)}.",
            extra={"field": "seats"},
        )
    league = event.season.league
    players = Player.objects.in_bulk([p for p in player_ids if isinstance(p, int)])
    members = set(Membership.objects.filter(league=league, player_id__in=players).values_list("player_id", flat=True))
    missing = [str(p) for p in player_ids if p not in players]
    if missing:
        raise ApplicationError(
            f"Unknown players: {', '.join(missing)}; give existing player ids.", extra={"field": "seats"}
        )
    outsiders = [p for p in player_ids if p not in members]
    if outsiders:
        from league.selectors import player_addable_list

        # Name only players the user may know of; one of a members-only league closed to them is an id.
        known = set(player_addable_list(user=actor).filter(pk__in=outsiders).values_list("pk", flat=True))
        outsiders = [players[p].display_name if p in known else f"player {p}" for p in outsiders]
        raise ApplicationError(
            f"Not members of {league}: {', '.join(outsiders)}. Only league members can be seated; add them first.",
            extra={"field": "seats"},
        )
    policy = effective_buy_in_policy(event)
    default_buy_in = policy.buy_in if policy else 0
    parsed = []
    for number, raw in enumerate(seats, start=1):
        player = players[raw["player"]]
        rebuys = _int(raw.get("rebuys", 0), f"{player}'s re-buys", maximum=MAX_COUNT)
        addon = _int(raw.get("addon_credits", 0), f"{player}'s add-on")
        if rebuys and policy is not None and not policy.rebuys_allowed:
            raise ApplicationError(
                f"{player} has {rebuys} re-buys but this event's buy-in policy ({policy}) allows none.",
                extra={"field": "rebuys"},
            )
        if rebuys and policy is not None and policy.max_rebuys and rebuys > policy.max_rebuys:
            raise ApplicationError(
                f"{player} has {rebuys} re-buys; this event allows at most {policy.max_rebuys}.",
                extra={"field": "rebuys"},
            )
        if addon and policy is not None and not policy.addon_allowed:
            raise ApplicationError(
                f"{player} has an add-on but this event's buy-in policy ({policy}) allows none.",
                extra={"field": "addon"},
            )
        default_rebuy = rebuys * (policy.rebuy_amount if policy else 0)
        parsed.append(
            SeatInput(
                player=player,
                number=number,
                buy_in=_int(raw.get("buy_in", default_buy_in), f"{player}'s buy-in"),
                rebuys=rebuys,
                rebuy_credits=_int(raw.get("rebuy_credits", default_rebuy), f"{player}'s re-buy credits"),
                addon_credits=addon,
                final_credits=_int(raw.get("final_credits"), f"{player}'s final credits", allow_none=True),
                place=_int(raw.get("place"), f"{player}'s place", minimum=1, maximum=MAX_SEATS, allow_none=True),
                knockouts=_int(raw.get("knockouts", 0), f"{player}'s knockouts", maximum=MAX_COUNT),
            )
        )
    return parsed


def _apply_hands(seats: list[SeatInput], hands: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Check hand-by-hand results ({player id: change}); return stacks after each hand."""
    if not isinstance(hands, list) or not hands:
        raise ApplicationError("Hands must be a non-empty list of {player id: credits won or lost}.")
    by_id = {str(s.player.pk): s for s in seats}
    stacks = {key: s.credits_in for key, s in by_id.items()}
    history = []
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict) or set(map(str, hand)) - by_id.keys():
            raise ApplicationError(
                f"Hand {number} names players who are not seated; use the ids of the seated players "
                f"({', '.join(by_id)}).",
                extra={"field": "hands"},
            )
        changes = {str(k): _int(v, f"Hand {number}'s change", minimum=-MAX_CREDITS) for k, v in hand.items()}
        if sum(changes.values()) != 0:
            raise ApplicationError(
                f"Hand {number} does not balance: the changes add up to {sum(changes.values())}, but what "
                "winners gain the others must lose (total 0).",
                extra={"field": "hands"},
            )
        for key, change in changes.items():
            stacks[key] += change
            if stacks[key] < 0:
                raise ApplicationError(
                    f"After hand {number} {by_id[key].player} would hold {stacks[key]} credits; a stack cannot go "
                    "below 0.",
                    extra={"field": "hands"},
                )
            by_id[key].hand_deltas.append(change)
            by_id[key].biggest_pot = max(by_id[key].biggest_pot, change)
        history.append(dict(stacks))
    for key, seat in by_id.items():
        if seat.final_credits is None:
            seat.final_credits = stacks[key]
        elif seat.final_credits != stacks[key]:
            raise ApplicationError(
                f"{seat.player}'s hands add up to {stacks[key]} credits "
                f"but the final credits say {seat.final_credits}.",
                extra={"field": "hands"},
            )
    return [{key: stacks_after[key] for key in by_id} for stacks_after in history]


def _apply_replay(seats: list[SeatInput], document: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """Play the replay with the engine; final credits, places and hand stacks come from it."""
    from games.engine import EngineError
    from games.engine.replay import play_replay

    if not isinstance(document, dict):
        raise ApplicationError("The replay must be a sabacc-replay/1 JSON object.", extra={"field": "replay"})
    if has_nul(document) or json_depth(document) > MAX_JSON_DEPTH:
        raise ApplicationError(
            f"The replay holds a NUL character or nests deeper than {MAX_JSON_DEPTH} levels; a sabacc-replay/1 "
            "document has neither.",
            extra={"field": "replay"},
        )
    try:
        result = play_replay(document)
    except EngineError as exc:
        raise ApplicationError(f"The replay was refused by the rules engine: {exc}", extra={"field": "replay"}) from exc
    if not result.get("complete", False):
        raise ApplicationError("The replay stops part-way through a hand; record a replay of whole hands only.")
    names = [s.player.display_name for s in seats]
    shared = sorted({name for name in names if names.count(name) > 1})
    if shared:
        raise ApplicationError(
            f"A replay names players by display name, and seated players share the display name "
            f"{', '.join(shared)}; rename one of them first so each replay seat matches one player.",
            extra={"field": "replay"},
        )
    by_name = {s.player.display_name: s for s in seats}
    replay_names = [seat.get("player") for seat in document.get("seats", [])]
    if sorted(replay_names) != sorted(by_name):
        raise ApplicationError(
            f"The replay seats {', '.join(map(str, replay_names))} but the result lists {', '.join(by_name)}; "
            "the replay's player names must be the seated players' display names.",
            extra={"field": "replay"},
        )
    for seat in document["seats"]:
        entry = by_name[seat["player"]]
        if entry.rebuy_credits or entry.addon_credits:
            raise ApplicationError("A replay cannot show re-buys or add-ons; enter this game without the replay.")
        if "stack" not in seat:
            raise ApplicationError(
                f'{entry.player}\'s seat in the replay gives no "stack"; give the {entry.buy_in} credits they '
                "bought in for.",
                extra={"field": "replay"},
            )
        if seat.get("stack") != entry.buy_in:
            raise ApplicationError(
                f"{entry.player} starts the replay with {seat.get('stack')} credits but bought in for {entry.buy_in}; "
                "they must be equal.",
                extra={"field": "replay"},
            )
    stacks, places = result["stacks"], {row["player"]: row["place"] for row in result["standings"]}
    for name, entry in by_name.items():
        if entry.final_credits is not None and entry.final_credits != stacks[name]:
            raise ApplicationError(
                f"{entry.player} ends the replay with {stacks[name]} credits, not the {entry.final_credits} entered.",
                extra={"field": "final_credits"},
            )
        if entry.place is not None and entry.place != places[name]:
            raise ApplicationError(
                f"{entry.player} finishes the replay in place {places[name]}, not the {entry.place} entered.",
                extra={"field": "places"},
            )
        entry.final_credits, entry.place = stacks[name], places[name]
    history = []
    previous = {name: entry.buy_in for name, entry in by_name.items()}
    for hand in result["hands"]:
        for pot in hand.get("pots", []):
            for name, paid in pot.get("paid", {}).items():
                by_name[name].biggest_pot = max(by_name[name].biggest_pot, paid)
        for name, entry in by_name.items():
            entry.hand_deltas.append(hand["stacks"][name] - previous[name])
        previous = dict(hand["stacks"])
        history.append({str(entry.player.pk): hand["stacks"][name] for name, entry in by_name.items()})
    return result, history


def _credits_from_finishing_order(seats: list[SeatInput]) -> None:
    """A finishing order alone describes a game played until one player held every credit:
    the winner ends with all the credits that came in, everyone else with none."""
    if any(s.final_credits is not None for s in seats) or all(s.place is None for s in seats):
        return
    unplaced = [s.player.display_name for s in seats if s.place is None]
    if unplaced:
        raise ApplicationError(
            f"A finishing order needs every player's place; missing for {', '.join(unplaced)}. "
            "Otherwise give every player's final credits.",
            extra={"field": "places"},
        )
    winners = [s for s in seats if s.place == 1]
    if len(winners) != 1:
        raise ApplicationError(
            f"A finishing order alone needs exactly one player in place 1 (the one who ended with every credit); "
            f"got {len(winners)}. For a shared first place give every player's final credits.",
            extra={"field": "places"},
        )
    total = sum(s.credits_in for s in seats)
    for seat in seats:
        seat.final_credits = total if seat is winners[0] else 0


def _check_game(seats: list[SeatInput]) -> None:
    _credits_from_finishing_order(seats)
    missing = [s.player.display_name for s in seats if s.final_credits is None]
    if missing:
        raise ApplicationError(
            f"Final credits are missing for {', '.join(missing)}; give every player's final credits, a finishing "
            "order (every player's place, for a game played until one player held every credit), hand-by-hand "
            "results or a replay.",
            extra={"field": "final_credits"},
        )
    credits_in = sum(s.credits_in for s in seats)
    credits_out = sum(s.final_credits for s in seats)
    if max(credits_in, credits_out) > MAX_CREDITS:
        raise ApplicationError(
            f"A game holds at most {MAX_CREDITS:,} credits in all; this one brings in {credits_in:,} and pays out "
            f"{credits_out:,}.",
            extra={"field": "final_credits", "credits_in": credits_in, "credits_out": credits_out},
        )
    if credits_in != credits_out:
        detail = "; ".join(f"{s.player}: in {s.credits_in}, out {s.final_credits}" for s in seats)
        raise ApplicationError(
            f"Credits do not balance: {credits_in} came in (buy-ins, re-buys, add-ons) but {credits_out} went out. "
            f"They must be equal. ({detail})",
            extra={"field": "final_credits", "credits_in": credits_in, "credits_out": credits_out},
        )
    if any(s.place is None for s in seats):
        if any(s.place is not None for s in seats):
            raise ApplicationError("Give a place for every player or for none (places then follow final credits).")
        _places_from_credits(seats)
    check_places(seats)


def _seats_create(game: Game, parsed: list[SeatInput]) -> None:
    """One Seat row per player of a recorded (or corrected) result."""
    Seat.objects.bulk_create(
        Seat(
            game=game,
            player=s.player,
            number=s.number,
            buy_in=s.buy_in,
            rebuys=s.rebuys,
            rebuy_credits=s.rebuy_credits,
            addon_credits=s.addon_credits,
            final_credits=s.final_credits,
            place=s.place,
            knockouts=s.knockouts,
            biggest_pot=s.biggest_pot,
        )
        for s in parsed
    )


def _write_ledger(game: Game, seats: list[SeatInput], *, actor: Any, sign: int = 1, correction=None) -> None:
    entries = []

    def add(seat: SeatInput, kind: str, amount: int, hand: int | None = None) -> None:
        if amount:
            entries.append(
                LedgerEntry(
                    event_id=game.event_id,
                    game=game,
                    player=seat.player,
                    kind=kind,
                    amount=sign * amount,
                    hand=hand,
                    author=actor if getattr(actor, "is_authenticated", False) else None,
                    correction=correction,
                    reason="correction" if correction else "",
                )
            )

    for seat in seats:
        add(seat, LedgerKind.BUY_IN, seat.buy_in)
        add(seat, LedgerKind.REBUY, seat.rebuy_credits)
        add(seat, LedgerKind.ADDON, seat.addon_credits)
        if seat.hand_deltas:
            for number, delta in enumerate(seat.hand_deltas, start=1):
                add(seat, LedgerKind.HAND_WON if delta > 0 else LedgerKind.HAND_LOST, delta, hand=number)
        else:
            delta = seat.final_credits - seat.credits_in
            add(seat, LedgerKind.HAND_WON if delta > 0 else LedgerKind.HAND_LOST, delta)
        add(seat, LedgerKind.PAYOUT, -seat.final_credits)
    LedgerEntry.objects.bulk_create(entries)


def _seat_summary(seat: Seat | SeatInput) -> dict[str, Any]:
    return {
        "player": seat.player.pk,
        "buy_in": seat.buy_in,
        "rebuys": seat.rebuys,
        "rebuy_credits": seat.rebuy_credits,
        "addon_credits": seat.addon_credits,
        "final_credits": seat.final_credits,
        "place": seat.place,
        "knockouts": seat.knockouts,
    }


def _after_change(game: Game, event: Event, action: str) -> None:
    event_results_rebuild(event=event)
    standings_schedule(league_id=event.season.league_id)
    publish(action, {"game": game.pk, "event": event.pk, "league": event.season.league.slug})


@dataclass
class PreparedResult:
    """A manual result checked and worked out, not written: what `result_record` stores."""

    seats: list[SeatInput]
    variant: str
    preset: str
    options: dict[str, Any]
    history: list[dict[str, int]] | None
    replay_result: dict[str, Any] | None

    @property
    def credits_in(self) -> int:
        return sum(s.credits_in for s in self.seats)

    def summary(self) -> dict[str, Any]:
        """Plain values for a preview: each seat's result, the credits in and out, and the rules."""
        return {
            "seats": [_seat_summary(s) for s in self.seats],
            "credits_in": self.credits_in,
            "credits_out": sum(s.final_credits for s in self.seats),
            "variant": self.variant,
            "preset": self.preset,
            "options": self.options,
            "hands": self.history,
        }


def _prepare_result(
    *,
    actor: Any,
    event: Event,
    seats: list[dict[str, Any]],
    hands: list[dict[str, Any]] | None,
    replay: dict[str, Any] | None,
    variant: str | None,
    preset: str | None,
    option_overrides: dict[str, Any] | None,
    table: Table | None,
) -> PreparedResult:
    """Every check of a manual result, in order, before anything is written."""
    if hands is not None and replay is not None:
        raise ApplicationError("Give hand-by-hand results or a replay, not both.")
    if table is not None and table.event_id != event.pk:
        raise ApplicationError(
            "That table belongs to another event; pick one of this event's tables.", extra={"field": "table"}
        )
    season, league = event.season, event.season.league
    # A result the standings could not score (settings saved before they were checked) is refused now.
    standings_rules_check(league, season)
    parsed = _parse_seats(event, seats, actor=actor)
    history = None
    replay_result = None
    if replay is not None:
        replay_result, history = _apply_replay(parsed, replay)
        variant, preset = replay.get("variant"), replay.get("preset")
        option_overrides = replay.get("options") or {}
    elif hands is not None:
        history = _apply_hands(parsed, hands)
    _check_game(parsed)
    variant = variant or season.variant or league.variant
    preset = preset or season.preset or league.preset
    if option_overrides is None:
        option_overrides = {**league.option_overrides, **season.option_overrides}
    options = resolve_game_rules(variant=variant, preset=preset, overrides=option_overrides)
    prepared = PreparedResult(parsed, variant, preset, options, history, replay_result)
    credit_limits_check(event=event, adding=prepared.credits_in)
    return prepared


def result_check(
    *,
    actor: Any,
    event: Event,
    seats: list[dict[str, Any]],
    hands: list[dict[str, Any]] | None = None,
    replay: dict[str, Any] | None = None,
    variant: str | None = None,
    preset: str | None = None,
    option_overrides: dict[str, Any] | None = None,
    table: Table | None = None,
    round: int = 1,
    played_at: datetime | None = None,
) -> dict[str, Any]:
    """Check a result as `result_record` would, writing nothing: a preview before saving.

    Takes the same arguments; raises the same `ApplicationError`s; returns `PreparedResult.summary()`
    (seats with their places and final credits, credits in and out, the rules, hand stacks).
    """
    _int(round, "The round", minimum=1, maximum=MAX_COUNT)
    event = Event.objects.select_related("season__league").get(pk=event.pk)
    return _prepare_result(
        actor=actor,
        event=event,
        seats=seats,
        hands=hands,
        replay=replay,
        variant=variant,
        preset=preset,
        option_overrides=option_overrides,
        table=table,
    ).summary()


@retry_on_conflict
@transaction.atomic
def result_record(
    *,
    actor: Any,
    event: Event,
    seats: list[dict[str, Any]],
    hands: list[dict[str, Any]] | None = None,
    replay: dict[str, Any] | None = None,
    variant: str | None = None,
    preset: str | None = None,
    option_overrides: dict[str, Any] | None = None,
    table: Table | None = None,
    round: int = 1,
    played_at: datetime | None = None,
) -> Game:
    """Record a game played at a physical table: seats with buy-ins, re-buys and final credits or places,
    optionally hand by hand or as a replay the engine checks. Nothing is saved if anything is wrong."""
    round = _int(round, "The round", minimum=1, maximum=MAX_COUNT)
    event = lock_event(event.pk)  # league, then event: the app's lock order
    prepared = _prepare_result(
        actor=actor,
        event=event,
        seats=seats,
        hands=hands,
        replay=replay,
        variant=variant,
        preset=preset,
        option_overrides=option_overrides,
        table=table,
    )
    parsed, league = prepared.seats, event.season.league
    game = Game.objects.create(
        event=event,
        table=table,
        round=round,
        status=GameStatus.FINISHED,
        source=GameSource.MANUAL,
        variant=prepared.variant,
        preset=prepared.preset,
        options=prepared.options,
        replay_document=replay,
        replay_result=prepared.replay_result,
        hands=prepared.history,
        played_at=played_at or timezone.now(),
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    _seats_create(game, parsed)
    _write_ledger(game, parsed, actor=actor)
    # A single game is over once its result is in; a tournament is under way once a table has finished.
    status = EventStatus.FINISHED if event.kind == EventKind.GAME else EventStatus.RUNNING
    if event.status != EventStatus.FINISHED and event.status != status:
        Event.objects.filter(pk=event.pk).update(status=status)
        event.status = status
    audit(
        actor=actor,
        action="result.record",
        obj=game,
        league=league,
        data={"seats": [_seat_summary(s) for s in parsed], "replay": replay is not None, "hands": hands is not None},
    )
    _after_change(game, event, "game.result_recorded")
    return game


@retry_on_conflict
@transaction.atomic
def result_correct(*, actor: Any, game: Game, reason: str, seats: list[dict[str, Any]]) -> ResultCorrection:
    """Replace a recorded result: the old ledger lines are reversed by new ones, never edited,
    and the before/after is kept with the author and reason."""
    if isinstance(reason, str) and not reason.strip():
        raise ApplicationError(
            "A correction needs a reason, e.g. 'Han's final count was 400, not 450'.", extra={"field": "reason"}
        )
    reason = check_text(reason, "A correction's reason", field="reason", max_length=255)
    # The app's lock order: league, event, then the game and its seats.
    event = lock_event(Game.objects.values_list("event_id", flat=True).get(pk=game.pk))
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    game.event = event
    if game.status != GameStatus.FINISHED:
        raise ApplicationError("Only a finished game's result can be corrected.")
    if game.replay_document is not None:
        raise ApplicationError(
            "This result comes from a replay the engine checked; it cannot be overridden by hand. Record the "
            "game again from a corrected replay instead."
        )
    old_seats = list(Seat.objects.select_for_update(of=("self",)).filter(game=game).select_related("player"))
    standings_rules_check(event.season.league, event.season)
    parsed = _parse_seats(event, seats, actor=actor)
    _check_game(parsed)
    added = sum(s.credits_in for s in parsed) - sum(s.credits_in for s in old_seats)
    credit_limits_check(event=event, adding=max(added, 0))
    before = [_seat_summary(s) for s in old_seats]
    after = [_seat_summary(s) for s in parsed]
    if sorted(before, key=lambda s: s["player"]) == sorted(after, key=lambda s: s["player"]):
        raise ApplicationError("The correction changes nothing; send the result as it should be.")
    correction = ResultCorrection.objects.create(
        game=game,
        author=actor if getattr(actor, "is_authenticated", False) else None,
        reason=reason,
        before=before,
        after=after,
    )
    # Reverse what the ledger holds for this game per player and kind, then book the new result.
    reversal: dict[tuple[int, str], int] = {}
    for player_id, kind, amount in LedgerEntry.objects.filter(game=game).values_list("player_id", "kind", "amount"):
        reversal[(player_id, kind)] = reversal.get((player_id, kind), 0) + amount
    author = actor if getattr(actor, "is_authenticated", False) else None
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            event=event,
            game=game,
            player_id=player_id,
            kind=kind,
            amount=-amount,
            author=author,
            correction=correction,
            reason=f"reversed by correction {correction.pk}",
            reversal=True,
        )
        for (player_id, kind), amount in reversal.items()
        if amount
    )
    _write_ledger(game, parsed, actor=actor, correction=correction)
    Seat.objects.filter(game=game).delete()
    _seats_create(game, parsed)
    Game.objects.filter(pk=game.pk).update(hands=None)
    audit(
        actor=actor,
        action="result.correct",
        obj=game,
        league=event.season.league,
        data={"reason": reason, "before": before, "after": after, "correction": correction.pk},
    )
    _after_change(game, event, "game.result_corrected")
    return correction


@retry_on_conflict
@transaction.atomic
def table_create(*, actor: Any, event: Event, name: str, number: int) -> Table:
    name = check_text(name, "A table's name", field="name", max_length=80)
    number = _int(number, "A table's number", minimum=1, maximum=MAX_COUNT)
    event = lock_event(event.pk)
    if Table.objects.filter(event=event, number=number).exists():
        raise ApplicationError(
            f"Table {number} exists already in {event}; choose another number.", extra={"field": "number"}
        )
    table = Table.objects.create(event=event, name=name, number=number)
    audit(actor=actor, action="table.create", obj=table, league=event.season.league)
    return table

from datetime import timedelta

import pytest

from config.errors import ApplicationError, ConflictError, ForbiddenError
from league.models import AuditEntry, EventKind, LedgerEntry, LedgerKind
from tests.factories import EventFactory, UserFactory
from tournaments import seating, services
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus

from .conftest import START, STRUCTURE, drawn, reentry_tournament


def state(model):
    """Everything a refused call must leave as it was."""
    return (
        list(Tournament.objects.values()),
        list(Registration.objects.values()),
        LedgerEntry.objects.count(),
        AuditEntry.objects.count(),
    )


def register(night, tournament, players):
    return [services.tournament_register(actor=night.organiser, tournament=tournament, player=p) for p in players]


def test_create_validates_the_structure_against_the_chip_set_and_writes_nothing_when_refused(night):
    before = state(None)
    bad = [{"small_blind": 5, "big_blind": 12, "length": 10}]
    with pytest.raises(ApplicationError, match="big blind of 12 cannot be paid"):
        services.tournament_create(actor=night.organiser, event=night.event, structure=bad)
    assert state(None) == before


def test_create_is_for_organisers_and_tournament_events_only(night):
    with pytest.raises(ForbiddenError, match="Only the organisers"):
        services.tournament_create(actor=night.member, event=night.event, structure=STRUCTURE)
    game = EventFactory(season=night.event.season, kind=EventKind.GAME)
    with pytest.raises(ApplicationError, match="is a single game"):
        services.tournament_create(actor=night.organiser, event=game, structure=STRUCTURE)
    services.tournament_create(actor=night.organiser, event=night.event, structure=STRUCTURE)
    with pytest.raises(ConflictError, match="already has a tournament"):
        services.tournament_create(actor=night.organiser, event=night.event, structure=STRUCTURE)


def test_registration_books_the_buy_in_and_the_cap_puts_later_players_on_the_waiting_list(night, tournament):
    tournament.cap = 2
    tournament.save()
    first, second, third = register(night, tournament, night.players[1:4])
    assert [r.status for r in (first, second, third)] == ["registered", "registered", "waiting"]
    buy_ins = LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.BUY_IN)
    assert sorted(buy_ins.values_list("player_id", "amount")) == sorted((p.pk, 450) for p in night.players[1:3])
    promoted = services.tournament_unregister(actor=night.organiser, tournament=tournament, player=night.players[1])
    assert promoted.player == night.players[3] and promoted.status == RegistrationStatus.REGISTERED
    assert services.prize_pool(tournament) == 900  # refund of the first, buy-in of the promoted


def test_a_member_registers_themselves_but_not_someone_else(night, tournament):
    own = services.tournament_register(actor=night.member, tournament=tournament, player=night.players[0])
    assert own.status == RegistrationStatus.REGISTERED
    before = state(None)
    with pytest.raises(ForbiddenError, match="register themselves"):
        services.tournament_register(actor=night.member, tournament=tournament, player=night.players[1])
    with pytest.raises(ConflictError, match="already registered"):
        services.tournament_register(actor=night.member, tournament=tournament, player=night.players[0])
    assert state(None) == before


def test_the_seed_hash_is_published_before_the_draw_and_the_draw_is_reproducible(night, tournament):
    register(night, tournament, night.players[:10])
    with pytest.raises(ConflictError, match="Publish the draw seed's hash first"):
        services.tournament_draw(actor=night.organiser, tournament=tournament)
    published = services.tournament_publish_seed(actor=night.organiser, tournament=tournament)
    tournament.refresh_from_db()
    assert services.revealed_seed(tournament) is None
    draw = services.tournament_draw(actor=night.organiser, tournament=tournament)
    tournament.refresh_from_db()
    seed = services.revealed_seed(tournament)
    assert seating.seed_hash(seed) == published
    ids = [p.pk for p in night.players[:10]]
    assert draw == seating.draw_seats(ids, seed=seed, seats_per_table=4)
    seats = set(Registration.objects.filter(tournament=tournament).values_list("table_number", "seat_number"))
    assert seats == set(draw.values())
    with pytest.raises(ConflictError, match="already drawn"):
        services.tournament_draw(actor=night.organiser, tournament=tournament)


def started(night, tournament, count=10):
    return drawn(night, tournament, count, now=START)


def test_the_clock_pauses_and_resumes_as_recorded_intervals(night, tournament):
    tournament = started(night, tournament)
    assert tournament.status == TournamentStatus.RUNNING
    services.tournament_clock_pause(actor=night.organiser, tournament=tournament, now=START + timedelta(minutes=5))
    with pytest.raises(ConflictError, match="already paused"):
        services.tournament_clock_pause(actor=night.organiser, tournament=tournament, now=START + timedelta(minutes=6))
    tournament = services.tournament_clock_pause(
        actor=night.organiser, tournament=tournament, resume=True, now=START + timedelta(minutes=15)
    )
    clock = services.tournament_clock(tournament, now=START + timedelta(minutes=19))
    assert (clock.level_index, clock.seconds_left) == (0, 60)  # 9 of 10 minutes played


def test_late_registration_closes_after_the_set_level(night, tournament):
    tournament.late_registration_level = 1
    tournament.save()
    tournament = started(night, tournament, count=8)
    late = services.tournament_register(
        actor=night.organiser, tournament=tournament, player=night.players[8], now=START + timedelta(minutes=9)
    )
    assert late.status == RegistrationStatus.REGISTERED
    # Tables of 4 and 4 after the draw: the late player opens a third table, then balancing evens them out.
    assert (late.table_number, late.seat_number) == (3, 1)
    services.tournament_balance(actor=night.organiser, tournament=tournament)
    counts = [Registration.objects.filter(tournament=tournament, table_number=n).count() for n in (1, 2, 3)]
    assert counts == [3, 3, 3]
    with pytest.raises(ConflictError, match="Registration is closed"):
        services.tournament_register(
            actor=night.organiser, tournament=tournament, player=night.players[9], now=START + timedelta(minutes=11)
        )


def test_elimination_sets_the_place_and_counts_the_knockout(night, tournament):
    tournament = started(night, tournament, count=5)
    out = services.tournament_eliminate(
        actor=night.organiser, tournament=tournament, player=night.players[0], eliminated_by=night.players[1]
    )
    assert (out.place, out.status, out.eliminated_by, out.table_number) == (5, "eliminated", night.players[1], None)
    with pytest.raises(ConflictError, match="already out"):
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=night.players[0])
    with pytest.raises(ApplicationError, match="another player still in"):
        services.tournament_eliminate(
            actor=night.organiser, tournament=tournament, player=night.players[2], eliminated_by=night.players[0]
        )


def test_balancing_after_eliminations_moves_players_within_one_and_breaks_a_table(night, tournament):
    tournament = started(night, tournament, count=10)  # tables of 4, 3, 3
    table_one = list(Registration.objects.filter(tournament=tournament, table_number=1))
    for registration in table_one[:2]:
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=registration.player)
    moves = services.tournament_balance(actor=night.organiser, tournament=tournament)
    field = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED)
    sizes = {}
    for table in field.values_list("table_number", flat=True):
        sizes[table] = sizes.get(table, 0) + 1
    assert sum(sizes.values()) == 8 and max(sizes.values()) - min(sizes.values()) <= 1
    assert len(sizes) == 2  # 8 players fit in two tables of 4: one table broke
    assert len(moves) == len({m.player_id for m in moves})
    assert len(set(field.values_list("table_number", "seat_number"))) == 8


def test_rebuys_follow_the_buy_in_policy_and_reentry_needs_an_eliminated_player(night):
    policy = night.league.buy_in_policy
    policy.rebuys_allowed, policy.max_rebuys, policy.rebuy_amount = True, 1, 300
    policy.addon_allowed, policy.addon_amount = True, 200
    policy.save()
    tournament = services.tournament_create(
        actor=night.organiser, event=night.event, structure=STRUCTURE, format=Format.REBUY, seats_per_table=4
    )
    register(night, tournament, night.players[:4])
    player = night.players[0]
    services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy", stack=0)
    with pytest.raises(ConflictError, match="1 re-buys allowed"):
        services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy", stack=0)
    services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="addon")
    with pytest.raises(ApplicationError, match="Only a re-entry tournament"):
        services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="reentry")
    assert services.prize_pool(tournament) == 4 * 450 + 300 + 200
    kinds = LedgerEntry.objects.filter(event=night.event, player=player).values_list("kind", flat=True)
    assert sorted(kinds) == ["addon", "buy_in", "rebuy"]


def test_strangers_cannot_run_the_clock(night, tournament):
    stranger = UserFactory(username="stranger")
    before = state(None)
    with pytest.raises(ForbiddenError):
        services.tournament_publish_seed(actor=stranger, tournament=tournament)
    assert state(None) == before


def test_moving_the_clock_forward_or_back_starts_that_level_afresh(night, tournament):
    tournament = started(night, tournament)
    moved_at = START + timedelta(minutes=4)
    tournament = services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=1, now=moved_at)
    clock = services.tournament_clock(tournament, now=moved_at + timedelta(minutes=1))
    assert (clock.level_index, clock.seconds_left) == (1, 540)
    tournament = services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=-1, now=moved_at)
    assert services.tournament_clock(tournament, now=moved_at).level_index == 0
    before = state(None)
    with pytest.raises(ApplicationError, match="levels 1 to 4; level 0 does not exist"):
        services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=-1, now=moved_at)
    assert state(None) == before


def test_a_reentry_books_a_new_buy_in_and_seats_the_player_again(night):
    tournament = reentry_tournament(night)
    tournament = started(night, tournament, count=6)
    player = night.players[0]
    with pytest.raises(ConflictError, match="still in"):
        services.tournament_rebuy(
            actor=night.organiser, tournament=tournament, player=player, kind="reentry", now=START
        )
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=player)
    back = services.tournament_rebuy(
        actor=night.organiser, tournament=tournament, player=player, kind="reentry", now=START + timedelta(minutes=5)
    )
    assert (back.status, back.entries, back.place) == ("registered", 2, None)
    seats = Registration.objects.filter(tournament=tournament, status="registered").values_list(
        "table_number", "seat_number"
    )
    assert back.table_number is not None and len(set(seats)) == 6
    assert services.prize_pool(tournament) == 7 * 450

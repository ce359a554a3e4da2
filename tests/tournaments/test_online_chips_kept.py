"""No chip leaves a Corellian Spike or Classic tournament played online: the Sabacc pot and carry-over of a
table go with its last player holding chips (a table broken by balancing) or to the players holding chips when
its game ends, and a new level reaches the tables as their hand-pot ante."""

import pytest

from games.engine import Game
from games.online import services as online_tournament
from games.online.models import ChangeStatus, OnlineTable, SeatChange, TableStatus
from games.online.services import seat_move
from tournaments import services
from tournaments.structures import Level, structure_to_json

from .conftest import drawn, finish_hand, next_hand

STACK = 200
ANTES = structure_to_json([Level(ante=5, length=10), Level(ante=10, length=10), Level(ante=50, length=10)])


def _chips(event) -> int:
    """Every chip of the tournament between hands: the stacks at its online tables, their pots left between
    hands (carry-over, Sabacc pot) and the chips on their way to a table."""
    total = 0
    for table in OnlineTable.objects.filter(event=event, tournament_table__isnull=False):
        game = Game.from_json(table.state)
        assert not game.in_hand
        total += sum(game.stacks) + game.carry + sum(game.pools.values())
    moving = SeatChange.objects.filter(event=event, status=ChangeStatus.ON_THE_WAY)
    return total + sum(change.stack or 0 for change in moving)


def _play(table, users, hands: int, *, calm: bool = False) -> None:
    for _ in range(hands):
        table.refresh_from_db()
        if table.status != TableStatus.RUNNING or not next_hand(table):
            return
        finish_hand(table, users, calm=calm)


@pytest.mark.parametrize(("variant", "preset"), [("corellian_spike", "galaxy_series"), ("classic", "classic")])
def test_a_tournament_keeps_every_chip_from_start_to_finish(night, users, online_tables, fixed_deals, variant, preset):
    night.league.variant, night.league.preset, night.league.option_overrides = variant, preset, {}
    night.league.save()
    tournament = services.tournament_create(
        actor=night.organiser, event=night.event, structure=ANTES, starting_stack=STACK, seats_per_table=4
    )
    drawn(night, tournament, players=7)  # tables of four and three
    # The organiser lets a table seat eight, so that table 2 can break into table 1 with everyone still in.
    type(tournament).objects.filter(pk=tournament.pk).update(seats_per_table=8)
    tournament.refresh_from_db()
    tables = online_tables(tournament, 1, 2)
    for table in tables.values():
        finish_hand(table, users, calm=True)
    total = 7 * STACK
    assert _chips(night.event) == total

    # Table 2 plays on until chips sit in its Sabacc pot (or carry-over), then breaks into table 1. A Spike Sabacc
    # pot is often won, and stays when a hand is won by folds or a Nulrhek: how many hands that takes depends on the
    # deals, which `fixed_deals` makes the same every run (with random ones, 40 hands were not always enough).
    source, target = tables[2], tables[1]
    for _ in range(40):
        source.refresh_from_db()
        game = Game.from_json(source.state)
        if game.carry + sum(game.pools.values()) and len(game.seats_with_credits()) > 1:
            break
        _play(source, users, 1, calm=True)
    source.refresh_from_db()
    game = Game.from_json(source.state)
    left = game.carry + sum(game.pools.values())
    assert left > 0 and source.status == TableStatus.RUNNING, (source.status, game.stacks, game.results[-3:])
    assert _chips(night.event) == total
    movers = [seat for seat in source.seats.filter(left=False) if game.stacks[seat.engine_seat] > 0]
    last = movers[-1]
    last_stack = game.stacks[last.engine_seat]
    for seat in movers:
        outcome = seat_move(actor=night.organiser, source_id=source.pk, target_id=target.pk, player_id=seat.player_id)
        assert outcome == "made"
        assert _chips(night.event) == total
    source.refresh_from_db()
    target.refresh_from_db()
    assert source.status == TableStatus.FINISHED  # broken: nobody with chips is left there
    after = Game.from_json(source.state)
    assert after.carry + sum(after.pools.values()) == 0
    target_game = Game.from_json(target.state)
    arrived = target.seats.get(player_id=last.player_id, left=False)
    assert target_game.stacks[arrived.engine_seat] == last_stack + left  # the last one took the pots along

    # A new level reaches the tables at their next hand as the hand-pot ante.
    online_tournament.level_changed(event_id=night.event.pk, small_blind=0, big_blind=0, ante=10, level=2)
    for table in (tables[1],):
        assert next_hand(table)
        table.refresh_from_db()
        game = Game.from_json(table.state)
        assert game.levels.ante == 10
        assert all(
            v == min(10, v + game.stacks[s] + game.hand.sabacc_antes.get(s, 0)) for s, v in game.hand.forced.items()
        )
        assert max(game.hand.forced.values()) == 10
        finish_hand(table, users)
    assert _chips(night.event) == total

    # The last level makes short work of the rest.
    online_tournament.level_changed(event_id=night.event.pk, small_blind=0, big_blind=0, ante=50, level=3)
    # Table 1 plays to the end: its last player holding chips holds every chip of the tournament.
    for _ in range(400):
        target.refresh_from_db()
        if target.status != TableStatus.RUNNING:
            break
        _play(target, users, 1)
        target.refresh_from_db()
        if target.status == TableStatus.RUNNING:
            assert _chips(night.event) == total
    target.refresh_from_db()
    assert target.status == TableStatus.FINISHED
    final = Game.from_json(target.state)
    assert final.carry + sum(final.pools.values()) == 0
    assert sorted(final.stacks)[-1] == total and sum(final.stacks) == total
    assert _chips(night.event) == total
    result = target.game.replay_result
    assert "unpaid" not in result and max(result["stacks"].values()) == total


@pytest.mark.parametrize(
    ("variant", "preset", "title"),
    [("corellian_spike", "galaxy_series", "Corellian Spike"), ("classic", "classic", "Classic")],
)
def test_a_structure_with_blinds_is_refused_for_a_variant_without_them(night, variant, preset, title):
    from config.errors import ApplicationError
    from tournaments.models import Tournament

    night.league.variant, night.league.preset, night.league.option_overrides = variant, preset, {}
    night.league.save()
    blinds = structure_to_json([Level(small_blind=5, big_blind=10, length=10)])
    with pytest.raises(ApplicationError, match=rf"Level 1: {title} has no blinds; a level sets the hand-pot ante"):
        services.tournament_create(actor=night.organiser, event=night.event, structure=blinds)
    no_ante = structure_to_json([Level(ante=5, length=10), Level(length=5, is_break=True), Level(length=10)])
    with pytest.raises(ApplicationError, match=r"Level 3: .* give an ante of at least 1 \(got 0/0, ante 0\)"):
        services.tournament_create(actor=night.organiser, event=night.event, structure=no_ante)
    assert not Tournament.objects.filter(event=night.event).exists()
    services.tournament_create(actor=night.organiser, event=night.event, structure=ANTES)

"""Services of real-cards tables: who may act, refusals write nothing, undo and corrections conserve credits and
are logged, impossible reveals are refused (issue 25)."""

import pytest
from django.contrib.auth.models import AnonymousUser

from config.errors import ApplicationError, ConflictError
from games.tabletop import services
from games.tabletop.models import RealTable, RealTableStatus
from games.tabletop.permissions import NotAllowed
from tests.factories import UserFactory
from tests.tabletop.helpers import current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _snapshot(table: RealTable) -> tuple:
    table.refresh_from_db()
    return (table.version, list(table.steps), list(table.changes), table.status)


def _total(table: RealTable) -> int:
    table.refresh_from_db()
    return services.load_game(table).game.total_credits()


def test_open_checks_the_rules_and_seats_the_host():
    host = UserFactory()
    table = services.realtable_open(actor=host, variant="corellian_spike", preset="cantina_spike")
    assert len(table.code) == 6 and not set(table.code) & set("01OI")
    assert table.status == RealTableStatus.OPEN
    assert [s.name for s in table.seats.all()] == [host.username]
    assert table.starting_credits > 0  # the rules' own
    with pytest.raises(ApplicationError, match="Coruscant Shift has the presets: halcyon, cantina"):
        services.realtable_open(actor=host, variant="coruscant_shift", preset="nope")
    with pytest.raises(ApplicationError, match="starting credits"):
        services.realtable_open(actor=host, starting_credits=0)
    with pytest.raises(NotAllowed):
        services.realtable_open(actor=AnonymousUser())
    assert RealTable.objects.count() == 1


def test_guests_join_by_name_and_the_host_adds_a_seat():
    host = UserFactory()
    table = services.realtable_open(actor=host, starting_credits=50)
    guest = services.realseat_join(actor=AnonymousUser(), table=table, name="  Cy  ")
    assert guest.name == "Cy" and len(guest.guest_token) > 20 and guest.user is None
    with pytest.raises(ConflictError, match="already seated"):
        services.realseat_join(actor=AnonymousUser(), guest=guest.guest_token, table=table, name="Cy again")
    with pytest.raises(ApplicationError, match="Your name is missing"):
        services.realseat_join(actor=AnonymousUser(), table=table, name=" ")
    with pytest.raises(NotAllowed):
        services.realseat_add(actor=UserFactory(), table=table, name="Dee")
    services.realseat_add(actor=host, table=table, name="Dee")
    assert [s.name for s in table.seats.order_by("number")] == [host.username, "Cy", "Dee"]
    services.realseat_remove(actor=host, table=table, number=1)
    assert [(s.number, s.name) for s in table.seats.order_by("number")] == [(0, host.username), (1, "Dee")]


def test_only_the_acting_player_or_the_host_may_act():
    table, host, ann, bob = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    now = current_due(table)
    assert now["due"] == "act" and set(now["seats"]) == {0, 1, 2}  # Coruscant: everyone selects at once
    before = _snapshot(table)
    # Ann may not act for Bob's seat, a stranger for nobody's.
    with pytest.raises(NotAllowed, match="seat 3"):
        services.realtable_step(actor=ann, table=table, step={"step": "act", "seat": 2, "verb": "select", "count": 2})
    with pytest.raises(NotAllowed, match="join it first"):
        services.realtable_step(
            actor=UserFactory(), table=table, step={"step": "act", "seat": 1, "verb": "select", "count": 2}
        )
    with pytest.raises(NotAllowed):
        services.realtable_step(actor=ann, table=table, step={"step": "deal"})  # not the dealer
    assert _snapshot(table) == before
    # Each for their own seat: Ann signed in, Bob by his guest secret; the host for seat 0.
    services.realtable_step(actor=ann, table=table, step={"step": "act", "seat": 1, "verb": "select", "count": 2})
    services.realtable_step(
        actor=AnonymousUser(), guest=bob, table=table, step={"step": "act", "seat": 2, "verb": "select", "count": 3}
    )
    services.realtable_step(actor=host, table=table, step={"step": "act", "seat": 0, "verb": "select", "count": 1})
    table.refresh_from_db()
    assert [c["by"] for c in table.changes[-3:]] == ["ann", "Bob", "hostess (host)"]
    assert table.version == before[0] + 3


def test_a_refused_step_writes_nothing_and_says_what_is_allowed():
    table, host, _, _ = started_table()
    before = _snapshot(table)
    with pytest.raises(ApplicationError, match="steps are"):
        services.realtable_step(actor=host, table=table, step={"step": "shuffle"})
    with pytest.raises(ApplicationError, match="No roll is due"):
        services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    with pytest.raises(ConflictError, match="moved on"):
        services.realtable_step(actor=host, table=table, step={"step": "deal"}, version=before[0] - 1)
    with pytest.raises(ApplicationError, match="A step is an object"):
        services.realtable_step(actor=host, table=table, step=["deal"])
    assert _snapshot(table) == before


def test_a_table_without_dice_is_rolled_for_by_the_site():
    table, host, _, _ = started_table(has_dice=False)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    before = _snapshot(table)
    with pytest.raises(ApplicationError, match="without dice"):
        services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 3, "suit": "circle"}})
    assert _snapshot(table) == before
    services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    table.refresh_from_db()
    assert table.steps[-1]["by"] == "site" and "dice" in table.steps[-1]  # the roll is kept with the step


def test_undo_is_the_hosts_keeps_credits_and_is_logged():
    table, host, ann, _ = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 5, "suit": "circle"}})
    for seat in (0, 1, 2):
        services.realtable_step(
            actor=host, table=table, step={"step": "act", "seat": seat, "verb": "select", "count": 2}
        )
    now = current_due(table)
    seat = now["seats"][0]
    choices = now["choices"][seat]
    services.realtable_step(
        actor=host, table=table, step={"step": "act", "seat": seat, "verb": "bet", "amount": choices["min_bet"] + 4}
    )
    assert _total(table) == 300
    with pytest.raises(NotAllowed, match="host"):
        services.realtable_undo(actor=ann, table=table)
    steps_before = list(table.steps)
    undone = services.realtable_undo(actor=host, table=table)
    assert undone["verb"] == "bet"
    table.refresh_from_db()
    assert table.steps == steps_before[:-1]
    assert table.changes[-1]["undid"]["verb"] == "bet" and table.changes[-1]["by"] == "hostess (host)"
    assert _total(table) == 300
    assert current_due(table)["seats"] == [seat]  # the mis-tapped bet is to be made again
    services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, "verb": "check"})
    assert _total(table) == 300
    assert len(table.changes) == len(table.steps) + 2  # every step and the undo (and the bet it took back)


def test_impossible_reveals_are_refused_and_change_nothing():
    table, host, _, _ = started_table()
    play_to_reveal(table, host)
    now = current_due(table)
    assert now["due"] == "reveal" and {row["seat"] for row in now["seats"]} == {0, 1, 2}
    before = _snapshot(table)
    with pytest.raises(ApplicationError, match=r"Unknown card .\+11c.: a card is a value"):
        services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 0, "cards": ["+11c", "+1c"]})
    with pytest.raises(ApplicationError, match="already shown"):
        services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 0, "cards": ["+1c", "+1c"]})
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 0, "cards": ["+1c", "+2c"]})
    middle = _snapshot(table)
    assert middle[0] == before[0] + 1
    with pytest.raises(ApplicationError, match="already shown"):
        services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 1, "cards": ["+2c", "+3c"]})
    assert _snapshot(table) == middle


def test_a_reveal_is_corrected_and_the_pots_paid_again_with_credits_kept():
    table, host, ann, _ = started_table()
    play_to_reveal(table, host)
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 0, "cards": ["+1c", "+2c"]})
    services.realtable_step(actor=ann, table=table, step={"step": "reveal", "seat": 1, "cards": ["+5s", "-5s"]})
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 2, "cards": ["+9t", "+8t"]})
    assert current_due(table)["due"] == "deal"
    table.refresh_from_db()
    game = services.load_game(table)
    stacks_first = game.stacks
    assert _total(table) == 300
    # Ann's hand was mis-tapped: the host corrects it before the next deal; the pots are paid again.
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 1, "cards": ["+9c", "+8c"]})
    table.refresh_from_db()
    assert services.load_game(table).stacks != stacks_first
    assert _total(table) == 300
    assert [c["did"]["seat"] for c in table.changes if c.get("did", {}).get("step") == "reveal"] == [0, 1, 2, 1]


def test_named_winners_instead_of_cards():
    table, host, _, _ = started_table()
    play_to_reveal(table, host)
    now = current_due(table)
    pot = now["or_name_winners"][0]
    services.realtable_step(actor=host, table=table, step={"step": "winners", "pot": pot["pot"], "seats": [2]})
    table.refresh_from_db()
    game = services.load_game(table)
    assert game.stacks[2] > game.stacks[0] and _total(table) == 300


def test_finish_reveals_the_end_and_stops_steps():
    table, host, ann, _ = started_table()
    with pytest.raises(NotAllowed):
        services.realtable_finish(actor=ann, table=table)
    services.realtable_finish(actor=host, table=table)
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED
    with pytest.raises(ConflictError, match="over"):
        services.realtable_step(actor=host, table=table, step={"step": "deal"})

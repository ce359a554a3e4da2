"""A re-buy tournament's threshold (`rebuy_at_or_below`): a player may re-buy while their stack is at or below it
(0, the default: only when out of chips), the same rule at online tables (the table knows the stack) and at
physical ones (the organiser gives the chip count); refusals say why and write nothing."""

import json

import pytest
from django.core.exceptions import ValidationError

from config.errors import ApplicationError, ConflictError
from games.online.models import ChangeKind, ChangeStatus, SeatChange
from league.models import LedgerEntry, LedgerKind
from tournaments import services
from tournaments.models import Registration, Tournament

from .conftest import rebuy_tournament, signed_in, snapshot

pytestmark = pytest.mark.django_db


def _rebuy_tournament(night, threshold: int) -> Tournament:
    return rebuy_tournament(night, players=night.players[1:3], max_rebuys=3, rebuy_at_or_below=threshold)


def test_the_threshold_is_set_at_creation_within_the_starting_stack_for_rebuy_tournaments_only(night):
    organiser = signed_in(night.organiser)
    url = f"/manage/events/{night.event.pk}/tournament/"
    page = organiser.get(url).content.decode()
    assert 'name="rebuy_at_or_below"' in page and "re-buy allowed at or below this many chips" in page
    form = {
        "format": "freezeout",
        "structure": "regular",
        "starting_stack": "450",
        "seats_per_table": "6",
        "late_registration_level": "2",
        "advance_per_table": "1",
        "payout_template": "top_3",
        "rebuy_at_or_below": "100",
    }
    for changes, status, message in (
        ({}, 400, "Only a re-buy tournament takes re-buys"),
        ({"format": "rebuy", "rebuy_at_or_below": "451"}, 400, "at most the starting stack (450 chips); got 451"),
        ({"format": "rebuy", "rebuy_at_or_below": "lots"}, 400, "The re-buy threshold must be a whole number"),
    ):
        refused = organiser.post(url, {**form, **changes})
        assert refused.status_code == status and message in refused.content.decode(), refused.content
        assert not Tournament.objects.exists()
    response = organiser.post(url, {**form, "format": "rebuy"})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.rebuy_at_or_below == 100
    assert "re-buy at or below 100 chips" in organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    detail = organiser.get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["rebuy_at_or_below"] == 100
    # The admin's form checks the same limits.
    tournament.rebuy_at_or_below = 451
    with pytest.raises(ValidationError, match="at most the starting stack"):
        tournament.full_clean()


def test_a_rebuy_at_a_physical_table_needs_the_chip_count_at_or_below_the_threshold(night):
    tournament = _rebuy_tournament(night, 200)
    player = night.players[1]
    registration = Registration.objects.get(tournament=tournament, player=player)
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    assert 'name="stack"' in organiser.get(url).content.decode()
    before = snapshot()
    with pytest.raises(ApplicationError, match=f"Give {player}'s chip count at table {registration.table_number}"):
        services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy")
    refused = organiser.post(url, {"action": "rebuy", "player": str(player.pk), "stack": "201", "section": "x"})
    assert refused.status_code == 409
    assert "still has 201 chips at table" in refused.content.decode()
    assert "a re-buy is allowed at or below 200 chips" in refused.content.decode()
    api = signed_in(night.organiser)
    refused = api.post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "rebuy", "player": player.pk, "stack": 450}),
        content_type="application/json",
    )
    assert refused.status_code == 409 and "still has 450 chips" in refused.json()["detail"]
    assert snapshot() == before  # refused: nothing written

    made = api.post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "rebuy", "player": player.pk, "stack": 200}),
        content_type="application/json",
    )
    assert made.status_code == 200, made.content
    assert organiser.post(url, {"action": "rebuy", "player": str(player.pk), "stack": "0"}).status_code == 302
    registration.refresh_from_db()
    assert registration.rebuys == 2
    assert LedgerEntry.objects.filter(player=player, kind=LedgerKind.REBUY).count() == 2


def test_the_default_threshold_refuses_a_physical_rebuy_for_a_player_with_chips(night):
    tournament = _rebuy_tournament(night, 0)
    player = night.players[1]
    with pytest.raises(ConflictError, match=r"still has 1 chips at table .*: a re-buy is for a player out of chips"):
        services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy", stack=1)
    services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy", stack=0)
    assert Registration.objects.get(tournament=tournament, player=player).rebuys == 1
    # With the default threshold no count is needed: booking the re-buy says the player is out, as before.
    services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy")
    assert Registration.objects.get(tournament=tournament, player=player).rebuys == 2


def test_above_the_default_threshold_a_physical_rebuy_without_a_count_is_refused(night):
    tournament = _rebuy_tournament(night, 200)
    player = night.players[1]
    before = LedgerEntry.objects.count()
    with pytest.raises(ApplicationError, match=r"Give .*'s chip count at table"):
        services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=player, kind="rebuy")
    assert LedgerEntry.objects.count() == before


def test_at_an_online_table_a_player_at_or_below_the_threshold_rebuys_and_one_above_is_refused(
    night, users, online_tables
):
    tournament = _rebuy_tournament(night, 450)
    table = online_tables(tournament, 1)[1]
    player = night.players[1]
    client = signed_in(users[player.pk])
    # 450 chips (the starting stack, counting what the hand took) is at or below 450: the re-buy is offered.
    state = client.get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["rebuy"] is True and state["tournament_rebuy"]["offer"] == {"amount": 300}
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "this tournament allows a re-buy at or below 450" in page and 'data-action="rebuy"' in page

    # Above the threshold: no offer, and the re-buy is refused, saying why, writing nothing.
    Tournament.objects.filter(pk=tournament.pk).update(rebuy_at_or_below=449)
    state = client.get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["rebuy"] is False and state["tournament_rebuy"] is None
    before = snapshot()
    refused = client.post(
        f"/api/tournaments/{tournament.pk}/entry/", json.dumps({"action": "rebuy"}), content_type="application/json"
    )
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        f"{player} still has 450 chips at online table 1: a re-buy is allowed at or below 449 chips."
    )
    assert snapshot() == before and not SeatChange.objects.exists()

    Tournament.objects.filter(pk=tournament.pk).update(rebuy_at_or_below=450)
    made = client.post(f"/api/tables/{table.pk}/rebuy/")
    assert made.status_code == 200, made.content
    change = SeatChange.objects.get(kind=ChangeKind.REBUY, player_id=player.pk)
    assert (change.status, change.stack) == (ChangeStatus.ON_THE_WAY, 300)
    state = client.get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["rebuy"] is False and state["tournament_rebuy"]["on_the_way"] == 300

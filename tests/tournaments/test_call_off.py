"""Calling off a tournament that never started: every buy-in (and add-on) refunded through the ledger once, the
registrations ended, the tournament "Called off" and its event finished without counting; refused once the
seats are drawn, with nothing written; the page and the API alike, for organisers only."""

import json

import pytest
from django.db.models import Sum

from config.errors import ConflictError
from league.models import AuditEntry, EventStatus, LedgerEntry, LedgerKind
from tournaments import services
from tournaments.models import Registration, Tournament, TournamentStatus

from .conftest import drawn, signed_in, snapshot


def _field(night, tournament):
    """Three registered (one with an add-on), one who withdrew (refunded already), one on the waiting list."""
    policy = night.league.buy_in_policy
    policy.addon_allowed, policy.addon_amount = True, 200
    policy.save()
    Tournament.objects.filter(pk=tournament.pk).update(cap=3)
    tournament.refresh_from_db()
    for player in night.players[:4]:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=night.players[1], kind="addon")
    services.tournament_unregister(actor=night.organiser, tournament=tournament, player=night.players[2])
    services.tournament_register(actor=night.organiser, tournament=tournament, player=night.players[4])
    return tournament


def _net(event, player, kind=None):
    entries = LedgerEntry.objects.filter(event=event, player=player)
    entries = entries.filter(kind=kind) if kind else entries.filter(kind__in=(LedgerKind.BUY_IN, LedgerKind.ADDON))
    return entries.aggregate(total=Sum("amount"))["total"] or 0


def test_the_control_room_calls_off_an_unstarted_tournament_refunding_every_buy_in_once(night, tournament):
    tournament = _field(night, tournament)
    assert Registration.objects.filter(tournament=tournament).count() == 4  # three in (the cap), one waiting
    paid = {p.pk: _net(night.event, p) for p in night.players[:5]}
    assert paid[night.players[1].pk] == 650 and paid[night.players[2].pk] == 0 and paid[night.players[4].pk] == 0
    lines = LedgerEntry.objects.count()
    organiser = signed_in(night.organiser)
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="call-off"' in page

    response = organiser.post(f"/manage/tournaments/{tournament.pk}/", {"action": "call_off", "section": "call-off"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    night.event.refresh_from_db()
    assert tournament.status == TournamentStatus.CALLED_OFF
    assert night.event.status == EventStatus.FINISHED and not night.event.counts_for_standings
    assert not Registration.objects.filter(tournament=tournament).exists()
    # Every credit back: each player's buy-ins and add-ons net to nothing, by kind; one refund line per kind paid.
    for player in night.players[:5]:
        assert _net(night.event, player, LedgerKind.BUY_IN) == 0 and _net(night.event, player, LedgerKind.ADDON) == 0
    refunds = LedgerEntry.objects.filter(event=night.event, reason="tournament called off")
    assert LedgerEntry.objects.count() == lines + refunds.count() == lines + 4  # three buy-ins and one add-on
    assert sum(refunds.values_list("amount", flat=True)) == -sum(paid.values())
    audit = AuditEntry.objects.get(action="tournament_call_off")
    assert audit.data["refunded"] == {str(p): amount for p, amount in paid.items() if amount}

    after = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "data-called-off" in after and 'data-action="call-off"' not in after and 'data-action="draw"' not in after
    assert "Called off" in organiser.get(f"/tournaments/{tournament.pk}/").content.decode()
    ledger = organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert "Finished" in ledger

    # Asked again (a double submit): refused, nothing refunded twice.
    before = snapshot()
    again = organiser.post(f"/manage/tournaments/{tournament.pk}/", {"action": "call_off"})
    assert again.status_code == 409 and "is called off" in again.content.decode()
    assert snapshot() == before
    # Nothing else can be done to it: registering (page and API) and the control room's actions are refused.
    player = signed_in(night.member)
    assert player.post(f"/tournaments/{tournament.pk}/entry/", {"action": "register"}).status_code == 409
    for action in ("publish_seed", "register"):
        fields = {"action": action, "player": night.players[0].pk}
        refused = organiser.post(f"/manage/tournaments/{tournament.pk}/", fields)
        assert refused.status_code == 409 and "called off" in refused.content.decode()
    assert snapshot() == before


def test_the_api_calls_off_with_the_same_permission_check(night, tournament):
    tournament = _field(night, tournament)
    url = f"/api/tournaments/{tournament.pk}/actions/"
    body = json.dumps({"action": "call_off"})
    before = snapshot()
    refused = signed_in(night.member).post(url, body, content_type="application/json")
    assert refused.status_code == 403 and snapshot() == before
    done = signed_in(night.organiser).post(url, body, content_type="application/json")
    assert done.status_code == 200, done.content
    assert "called off" in done.json()["detail"] and "refunded" in done.json()["detail"]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CALLED_OFF
    data = signed_in(night.organiser).get(f"/api/tournaments/{tournament.pk}/").json()
    assert data["status"] == "called_off" and data["seats"] == [] and data["clock"]["entries"] == 0
    total = LedgerEntry.objects.filter(event=night.event).aggregate(total=Sum("amount"))["total"]
    assert total == 0  # the event's ledger sums to nothing: every buy-in is back


def test_once_the_seats_are_drawn_calling_off_is_refused_with_nothing_written(night, tournament):
    drawn(night, tournament, players=4, clock=False)
    url, body = f"/api/tournaments/{tournament.pk}/actions/", json.dumps({"action": "call_off"})
    organiser = signed_in(night.organiser)
    assert 'data-action="call-off"' not in organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    before = snapshot()
    page = organiser.post(f"/manage/tournaments/{tournament.pk}/", {"action": "call_off"})
    assert page.status_code == 409 and "The seats are drawn" in page.content.decode()
    assert snapshot() == before
    api = organiser.post(url, body, content_type="application/json")
    assert api.status_code == 409 and "only before the draw" in api.json()["detail"]
    assert snapshot() == before
    services.tournament_clock_start(actor=night.organiser, tournament=tournament)
    started = snapshot()
    api = organiser.post(url, body, content_type="application/json")
    assert api.status_code == 409 and "has started" in api.json()["detail"]
    assert snapshot() == started


def test_the_service_refuses_a_second_call_off_and_books_nothing(night, tournament):
    services.tournament_register(actor=night.organiser, tournament=tournament, player=night.players[0])
    assert services.tournament_call_off(actor=night.organiser, tournament=tournament) == {night.players[0].pk: 450}
    lines = LedgerEntry.objects.count()
    with pytest.raises(ConflictError, match="already called off"):
        services.tournament_call_off(actor=night.organiser, tournament=tournament)
    assert LedgerEntry.objects.count() == lines

"""Bad input to the league API: a 4xx that says what is wrong and what is allowed, and nothing changes.

Numbers past what a database integer column holds are refused before they reach it (on PostgreSQL
they would otherwise be a 500); ids from another league are refused without naming what is hidden.
"""

import pytest

from config.errors import ApplicationError, ConflictError
from league.models import AuditEntry, League, LedgerEntry, Membership, Role, Visibility
from league.services import league_update, ledger_adjust, membership_remove, membership_update
from league.standings.formulas import CustomPoints, PlaceResult
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, client_as
from tests.league.conftest import client_for

HUGE = 2**40


def test_an_adjustment_too_large_for_the_database_is_a_400_and_books_nothing(world):
    client = client_for(world.users["organiser"])
    response = client.post(
        f"/api/events/{world.event.pk}/adjustments/",
        {"player": world.players[0].pk, "amount": HUGE, "reason": "recount"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["extra"]["field"] == "amount"
    with pytest.raises(ApplicationError, match="from -1,000,000,000 to 1,000,000,000"):
        ledger_adjust(
            actor=world.users["organiser"], event=world.event, player=world.players[0], amount=HUGE, reason="r"
        )
    assert not LedgerEntry.objects.exists()


def test_an_adjustment_for_a_player_of_another_league_is_refused(world):
    stranger = MembershipFactory(league=world.other_league, player=PlayerFactory(display_name="Greedo")).player
    response = client_for(world.users["organiser"]).post(
        f"/api/events/{world.event.pk}/adjustments/",
        {"player": stranger.pk, "amount": 50, "reason": "recount"},
        format="json",
    )
    assert response.status_code == 400
    assert "not a member of" in response.json()["detail"] and "Greedo" in response.json()["detail"]
    assert not LedgerEntry.objects.exists()


def test_an_adjustment_refusal_does_not_name_a_player_of_a_hidden_league(world):
    hidden = LeagueFactory(visibility=Visibility.MEMBERS)
    secret = MembershipFactory(league=hidden, player=PlayerFactory(display_name="Secret Agent")).player
    response = client_for(world.users["organiser"]).post(
        f"/api/events/{world.event.pk}/adjustments/",
        {"player": secret.pk, "amount": 50, "reason": "recount"},
        format="json",
    )
    assert response.status_code == 400 and "Secret Agent" not in response.content.decode()
    assert not LedgerEntry.objects.exists()


def test_seating_a_player_of_a_hidden_league_does_not_name_them(world):
    hidden = LeagueFactory(visibility=Visibility.MEMBERS)
    secret = MembershipFactory(league=hidden, player=PlayerFactory(display_name="Secret Agent")).player
    response = client_for(world.users["organiser"]).post(
        "/api/games/",
        {
            "event": world.event.pk,
            "seats": [{"player": secret.pk, "final_credits": 900}, {"player": world.players[0].pk, "final_credits": 0}],
        },
        format="json",
    )
    # As unknown as a missing player (tests/league/test_existence_probes.py compares the two answers).
    assert response.status_code == 400 and "Unknown players" in response.json()["detail"]
    assert "Secret Agent" not in response.content.decode()


@pytest.mark.parametrize("field", ["best_n", "min_players"])
def test_league_counts_too_large_for_the_database_are_a_400(world, field):
    response = client_for(world.users["organiser"]).patch(
        f"/api/leagues/{world.league.slug}/", {field: HUGE}, format="json"
    )
    assert response.status_code == 400 and response.json()["extra"]["field"] == field
    with pytest.raises(ApplicationError, match=rf"\({field}\) must be a whole number from 1 to 1,000,000"):
        league_update(actor=world.users["organiser"], league=world.league, **{field: HUGE})
    world.league.refresh_from_db()
    assert world.league.best_n is None and world.league.min_players == 2


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN"])
def test_a_fixed_points_table_with_a_number_that_is_not_finite_is_a_400(world, number):
    client = client_for(world.users["organiser"])
    body = '{"points_formula": "fixed", "points_parameters": {"table": [25, ' + number + "]}}"
    response = client.patch(f"/api/leagues/{world.league.slug}/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    world.league.refresh_from_db()
    assert world.league.points_formula == "linear"


@pytest.mark.parametrize("expression", ["(9**3999999) % 7", "players**999999 % 7", "9**9**9"])
def test_a_slow_custom_formula_is_refused_quickly(world, expression):
    """Refused by the exponent bound before anything huge is computed (the reason names it), not by a timer."""
    response = client_for(world.users["organiser"]).patch(
        f"/api/leagues/{world.league.slug}/",
        {"points_formula": "custom", "points_parameters": {"expression": expression}},
        format="json",
    )
    detail = response.json()["detail"]
    assert response.status_code == 400 and "cannot be used" in detail
    assert f"exponents above {CustomPoints.max_exponent} are not allowed" in detail
    world.league.refresh_from_db()
    assert world.league.points_formula == "linear"


@pytest.mark.parametrize("expression", ["1 / (players - 3)", "prize_pool / buy_in", "10 / knockouts", "players << 2"])
def test_a_custom_formula_that_fails_for_some_results_is_refused_when_saved(world, expression):
    response = client_for(world.users["organiser"]).patch(
        f"/api/leagues/{world.league.slug}/",
        {"points_formula": "custom", "points_parameters": {"expression": expression}},
        format="json",
    )
    assert response.status_code == 400 and "cannot be used" in response.json()["detail"]


def test_a_custom_formula_failing_past_the_samples_scores_zero_instead_of_stopping_standings():
    result = PlaceResult(players=100, place=1)
    assert CustomPoints().points(result, {"expression": "1 / (players - 100)"}) == 0.0


def test_the_player_filter_does_not_reveal_members_of_a_hidden_league(private_world):
    w = private_world
    han = w.players[0]
    MembershipFactory(league=w.other_league, player=han)  # Han is visible through a public league
    for role in ("outsider", "other_organiser", "anonymous"):
        data = client_for(w.users[role]).get(f"/api/players/?memberships__league__slug={w.league.slug}").json()
        assert data["count"] == 0, (role, data)
    data = client_for(w.users["member"]).get(f"/api/players/?memberships__league__slug={w.league.slug}").json()
    assert han.pk in {row["id"] for row in data["results"]}


def test_an_organiser_cannot_add_a_player_known_only_to_a_hidden_league(world):
    hidden = LeagueFactory(visibility=Visibility.MEMBERS)
    secret = MembershipFactory(league=hidden, player=PlayerFactory(display_name="Secret Agent")).player
    before = Membership.objects.count()
    response = client_for(world.users["organiser"]).post(
        "/api/memberships/", {"league": world.league.slug, "player": secret.pk}, format="json"
    )
    assert response.status_code == 400 and response.json()["extra"]["field"] == "player"
    assert "Secret Agent" not in response.content.decode()
    assert Membership.objects.count() == before


def test_the_last_organiser_cannot_step_down_to_player(world):
    organiser = Membership.objects.get(league=world.league, role=Role.ORGANISER)
    response = client_for(world.users["organiser"]).patch(
        f"/api/memberships/{organiser.pk}/", {"role": "player"}, format="json"
    )
    assert response.status_code == 409 and "at least one organiser" in response.json()["detail"]
    organiser.refresh_from_db()
    assert organiser.role == Role.ORGANISER
    assert not AuditEntry.objects.filter(action="membership.update").exists()


def test_an_organiser_steps_down_once_another_is_named(world):
    organiser = Membership.objects.get(league=world.league, role=Role.ORGANISER)
    member = Membership.objects.get(league=world.league, player__user=world.users["member"])
    membership_update(actor=world.users["organiser"], membership=member, role=Role.ORGANISER)
    membership_update(actor=world.users["organiser"], membership=organiser, role=Role.PLAYER)
    with pytest.raises(ConflictError, match="at least one organiser"):
        membership_remove(actor=world.users["organiser"], membership=member)
    assert League.objects.get(pk=world.league.pk).memberships.filter(role=Role.ORGANISER).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_organisers_stepping_down_at_once_leave_one_organiser(world):
    from django.db import connection

    from tests.games.test_concurrent_corrections import run_together

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite runs one writer at a time anyway")
    first = Membership.objects.get(league=world.league, role=Role.ORGANISER)
    second = Membership.objects.get(league=world.league, player__user=world.users["member"])
    membership_update(actor=world.users["organiser"], membership=second, role=Role.ORGANISER)
    outcomes = run_together(
        lambda: membership_update(actor=world.users["organiser"], membership=first, role=Role.PLAYER),
        lambda: membership_update(actor=world.users["member"], membership=second, role=Role.PLAYER),
    )
    assert sum(isinstance(o, ConflictError) for o in outcomes) == 1, outcomes
    assert Membership.objects.filter(league=world.league, role=Role.ORGANISER).count() == 1


def test_claiming_a_player_of_a_hidden_league_without_its_code_is_not_found(world):
    hidden = LeagueFactory(visibility=Visibility.MEMBERS)
    guest = MembershipFactory(league=hidden, player=PlayerFactory(display_name="Secret Agent")).player
    newcomer = world.users["outsider"]
    newcomer.player.delete()
    client = client_for(newcomer)
    wrong = client.post(f"/api/players/{guest.pk}/claim/", {"claim_code": "guess"}, format="json")
    missing = client.post("/api/players/999999/claim/", {"claim_code": "guess"}, format="json")
    assert wrong.status_code == missing.status_code == 404
    assert wrong.json() == missing.json()
    right = client.post(f"/api/players/{guest.pk}/claim/", {"claim_code": guest.claim_code}, format="json")
    assert right.status_code == 200 and right.json()["display_name"] == "Secret Agent"


def test_a_guest_cannot_be_made_an_organiser_by_the_api_or_the_page(world):
    """A guest has no account to sign in with: organising is refused, clearly, and nothing is written."""
    guest = Membership.objects.filter(league=world.league, player__user__isnull=True).first()
    guest = guest or MembershipFactory(league=world.league, player=PlayerFactory(display_name="Chewie"))
    response = client_for(world.users["organiser"]).patch(
        f"/api/memberships/{guest.pk}/", {"role": "organiser"}, format="json"
    )
    assert response.status_code == 400 and "no account to sign in with" in response.content.decode()
    page = client_as(world.users["organiser"]).get(f"/manage/leagues/{world.league.slug}/members/").content.decode()
    assert guest.player.display_name in page and f'id="role-{guest.pk}"' not in page  # no role to give a guest
    guest.refresh_from_db()
    assert guest.role == Role.PLAYER and not AuditEntry.objects.filter(action="membership.update").exists()

"""Organiser pages of leagues, seasons and members: each form saves through the API's service, and a
refusal is shown beside its field with nothing written."""

import datetime

import pytest
from django.test import override_settings
from django.utils import timezone

from league import services
from league.models import AuditEntry, League, Membership, Player, Role, Season
from tests.factories import PlayerFactory, UserFactory
from tests.manage.conftest import league_edit_data, league_form_data, page_client

pytestmark = pytest.mark.django_db


def test_an_organiser_creates_a_league_with_rules_points_and_ordered_tie_breakers(world, organiser_client):
    data = league_form_data(
        preset="cantina",
        opt_ante="3",
        opt_tie_rule="draw",
        opt_rebuys="yes",
        points_formula="fixed",
        points_table="10, 6, 3",
        tie_order=["wins", "points", "net_credits", "average_place", "events_played", "biggest_pot"],
        tie_breakers=["points", "wins", "net_credits"],
        best_n="5",
        min_players="3",
        visibility="members",
    )
    response = organiser_client.post("/manage/leagues/new/", data)
    league = League.objects.get(name="Outer Rim League")
    assert response.status_code == 302 and response.url == f"/manage/leagues/{league.slug}/"
    assert (league.preset, league.option_overrides) == ("cantina", {"ante": 3, "tie_rule": "draw", "rebuys": True})
    assert (league.points_formula, league.points_parameters) == ("fixed", {"table": [10, 6, 3]})
    assert league.tie_breakers == ["wins", "points", "net_credits"]
    assert (league.best_n, league.min_players, league.visibility) == (5, 3, "members")
    organiser_player = world.users["organiser"].player
    assert Membership.objects.get(league=league, player=organiser_player).role == Role.ORGANISER


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"opt_small_blind": "50"}, "opt_small_blind", "may not exceed"),  # beside the option the engine names
        ({"preset": "nonsense"}, "preset", "Unknown preset"),
        ({"points_formula": "fixed", "points_table": "25, -3"}, "points_table", "fixed points table"),
        ({"points_formula": "custom", "points_expression": "place / 0"}, "points_expression", "cannot be used"),
        ({"points_formula": "bogus"}, "points_formula", "Unknown points formula"),
        ({"tie_breakers": ["points", "luck"]}, "tie_breakers", "Unknown tie-breaker luck"),
        ({"min_players": "0"}, "min_players", "Minimum players (min_players) must be a whole number from 1"),
        ({"best_n": "0"}, "best_n", "Best N events count (best_n) must be a whole number from 1"),
    ],
)
def test_a_refused_league_shows_the_services_message_beside_the_field_and_saves_nothing(
    world, organiser_client, overrides, field, message
):
    before = (League.objects.count(), AuditEntry.objects.count())
    response = organiser_client.post("/manage/leagues/new/", league_form_data(**overrides))
    assert response.status_code == 400
    form = response.context["form"]
    assert any(message in error for error in form.errors[field]), form.errors
    assert message in response.content.decode()
    # Said at the top too, linked to the field: the form is long on a phone.
    summary = response.content.decode().split('id="error-summary"')[1].split("</div>")[0]
    assert message in summary and f'href="#{form[field].id_for_label}"' in summary
    assert (League.objects.count(), AuditEntry.objects.count()) == before


def test_a_taken_address_gives_the_new_league_the_next_free_one_and_says_so(world, organiser_client):
    """Issue 21, finding 6: a clash is never refused (a refusal would tell a hidden league from a free address)."""
    response = organiser_client.post("/manage/leagues/new/", league_form_data(slug=world.league.slug), follow=True)
    assert response.status_code == 200
    created = League.objects.get(slug=f"{world.league.slug}-2")
    assert created.name == "Outer Rim League"
    assert f"was taken, so it is &#x27;{created.slug}&#x27;" in response.content.decode()


def test_tie_breaker_arrows_work_without_javascript_and_save_nothing(world, organiser_client):
    data = league_form_data(move="wins:up", name="Not saved")
    response = organiser_client.post("/manage/leagues/new/", data)
    assert response.status_code == 200
    rows = response.context["form"].tie_rows()
    assert [row["key"] for row in rows][:3] == ["wins", "points", "net_credits"]
    assert [row["key"] for row in rows if row["used"]] == ["wins", "points"]
    assert not League.objects.filter(name="Not saved").exists()
    # The first button of the form saves, so Enter in a text field never moves a tie-breaker.
    html = response.content.decode()
    assert html.index('type="submit" class="visually-hidden"') < html.index('name="move"')


def test_editing_a_league_audits_only_what_changed(world, organiser_client):
    league = world.league
    response = organiser_client.get(f"/manage/leagues/{league.slug}/edit/")
    assert response.status_code == 200
    data = league_edit_data(league, min_players="4")
    response = organiser_client.post(f"/manage/leagues/{league.slug}/edit/", data)
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.min_players == 4
    entry = AuditEntry.objects.filter(action="league.update").latest("id")
    assert set(entry.data["after"]) == {"min_players"}


def test_the_rules_preview_shows_the_engines_options_and_its_refusals(world, organiser_client):
    response = organiser_client.get("/manage/preview/rules/", {"variant": "coruscant_shift", "preset": "cantina"})
    rows = {row["name"]: row for row in response.context["options"]}
    assert rows["Ante"]["value"] == "2" and rows["Escalation"]["value"] == "cantina"
    response = organiser_client.get(
        "/manage/preview/rules/", {"variant": "coruscant_shift", "preset": "better", "opt_min_bet": "20"}
    )
    rows = {row["name"]: row for row in response.context["options"]}
    assert rows["Big blind"]["value"] == "20" and rows["Big blind"]["changed"]
    response = organiser_client.get(
        "/manage/preview/rules/", {"variant": "coruscant_shift", "preset": "better", "opt_max_bet": "1"}
    )
    assert "max_bet" in response.context["error"]


def test_the_points_preview_gives_points_per_place_for_the_field_size(world, organiser_client):
    response = organiser_client.get("/manage/preview/points/", {"points_formula": "linear", "players": "4"})
    assert response.context["rows"] == [(1, 4.0), (2, 3.0), (3, 2.0), (4, 1.0)]
    response = organiser_client.get(
        "/manage/preview/points/", {"points_formula": "fixed", "points_table": "10, 5", "players": "3"}
    )
    assert response.context["rows"] == [(1, 10.0), (2, 5.0), (3, 0.0)]
    response = organiser_client.get(
        "/manage/preview/points/", {"points_formula": "custom", "points_expression": "place + nope", "players": "3"}
    )
    assert "cannot be used" in response.context["error"]
    response = organiser_client.get("/manage/preview/points/", {"points_formula": "linear", "players": "500"})
    assert "1 to 64 players" in response.context["error"]


@override_settings(LEAGUE_CREATORS="staff")
def test_with_staff_only_league_creation_a_signed_in_player_is_refused_and_not_offered(world):
    client = page_client(world.users["member"])
    assert client.get("/manage/leagues/new/").status_code == 403
    assert 'data-action="create-league"' not in client.get("/manage/").content.decode()
    assert client.post("/manage/leagues/new/", league_form_data()).status_code == 403
    assert not League.objects.filter(name="Outer Rim League").exists()
    admin = page_client(world.users["admin"])
    assert admin.post("/manage/leagues/new/", league_form_data()).status_code == 302


def test_seasons_are_created_and_edited_and_bad_dates_are_refused(world, organiser_client):
    url = f"/manage/leagues/{world.league.slug}/seasons/"
    response = organiser_client.post(url, {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2026-11-01"})
    assert response.status_code == 400
    assert "cannot end before it starts" in response.content.decode()
    assert not Season.objects.filter(name="Winter").exists()
    response = organiser_client.post(
        url, {"name": "Winter", "starts_on": "2026-12-01", "preset": "halcyon", "points_formula": "log"}
    )
    assert response.status_code == 302
    season = Season.objects.get(name="Winter")
    assert (season.preset, season.points_formula, season.starts_on) == ("halcyon", "log", datetime.date(2026, 12, 1))
    response = organiser_client.post(
        f"/manage/seasons/{season.pk}/edit/",
        {"name": "Winter 26", "starts_on": "2026-12-01", "ends_on": "2027-02-28", "preset": "halcyon"},
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.ends_on, season.points_formula) == ("Winter 26", datetime.date(2027, 2, 28), "")


def test_a_new_leagues_first_season_points_to_its_first_event(world, organiser_client):
    """A newcomer organiser created a season and found no way on from the seasons page: until a season has an
    event, the page names the next step and links the event form; after, a plain "New event" link stays."""
    organiser_client.post("/manage/leagues/new/", league_form_data())
    league = League.objects.get(name="Outer Rim League")
    url = f"/manage/leagues/{league.slug}/seasons/"
    assert 'id="next-step"' not in organiser_client.get(url).content.decode()  # no season yet: create one first
    created = organiser_client.post(url, {"name": "Winter", "starts_on": "2026-12-01"}, follow=True)
    page = created.content.decode()
    event_form = f'href="/manage/leagues/{league.slug}/events/new/"'
    assert 'id="next-step"' in page and f"Next: <a {event_form}>add the first event</a>" in page
    season = Season.objects.get(league=league, name="Winter")
    services.event_create(actor=world.users["organiser"], season=season, name="Night one", starts_at=timezone.now())
    page = organiser_client.get(url).content.decode()
    assert 'id="next-step"' not in page and f"<a {event_form}>New event</a>" in page


def test_guests_are_added_with_a_claim_code_shown_to_share(world, organiser_client):
    url = f"/manage/leagues/{world.league.slug}/members/"
    response = organiser_client.post(url + "guest/", {"display_name": "Maz"})
    assert response.status_code == 302
    guest = Player.objects.get(display_name="Maz")
    assert guest.user is None and Membership.objects.filter(league=world.league, player=guest).exists()
    page = organiser_client.get(url).content.decode()
    assert guest.claim_code in page
    assert f'href="/claim/{guest.claim_code}/"' in page  # the accounts' claim page, the code filled in
    response = organiser_client.post(url + "guest/", {"display_name": "   "})
    assert response.status_code == 400
    assert "display name" in " ".join(response.context["guest_form"].errors["display_name"])
    assert Player.objects.filter(display_name="Maz").count() == 1


def test_registered_users_are_added_by_username_and_unknown_names_are_refused(world, organiser_client):
    url = f"/manage/leagues/{world.league.slug}/members/user/"
    newcomer = UserFactory(username="rey")
    response = organiser_client.post(url, {"username": "rey", "role": "player"})
    assert response.status_code == 302
    assert Membership.objects.get(league=world.league, player__user=newcomer).role == Role.PLAYER
    response = organiser_client.post(url, {"username": "rey", "role": "player"})
    assert response.status_code == 400 and "already a member" in response.content.decode()
    response = organiser_client.post(url, {"username": "nobody-here", "role": "player"})
    assert response.status_code == 400 and "No registered user is named" in response.content.decode()


def test_roles_change_and_the_last_organiser_cannot_step_down(world, organiser_client):
    member = Membership.objects.get(league=world.league, player__user=world.users["member"])
    response = organiser_client.post(f"/manage/members/{member.pk}/role/", {"role": "organiser"})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.role == Role.ORGANISER
    organiser = Membership.objects.get(league=world.league, player__user=world.users["organiser"])
    organiser_client.post(f"/manage/members/{member.pk}/role/", {"role": "player"})
    response = organiser_client.post(f"/manage/members/{organiser.pk}/remove/")
    assert response.status_code == 400
    assert "keeps at least one organiser" in response.content.decode()
    assert Membership.objects.filter(pk=organiser.pk).exists()


def test_a_member_is_removed(world, organiser_client):
    guest = Membership.objects.get(league=world.league, player=world.players[0])
    assert organiser_client.post(f"/manage/members/{guest.pk}/remove/").status_code == 302
    assert not Membership.objects.filter(pk=guest.pk).exists()


def test_a_members_only_league_is_missing_for_outsiders_and_forbidden_to_its_players(private_world):
    slug = private_world.league.slug
    outsider = page_client(private_world.users["other_organiser"])
    assert outsider.get(f"/manage/leagues/{slug}/").status_code == 404
    member = page_client(private_world.users["member"])
    assert member.get(f"/manage/leagues/{slug}/").status_code == 403
    anonymous = page_client(None)
    response = anonymous.get(f"/manage/leagues/{slug}/")
    assert response.status_code == 302 and "login" in response.url


def test_a_guest_of_a_closed_league_stays_unknown_when_added_by_username(private_world):
    """As the API: a user whose only league is members-only and closed to you is 'no such user'."""
    hidden = UserFactory(username="hidden")
    Membership.objects.create(league=private_world.league, player=PlayerFactory(user=hidden), role=Role.PLAYER)
    client = page_client(private_world.users["other_organiser"])
    url = f"/manage/leagues/{private_world.other_league.slug}/members/user/"
    response = client.post(url, {"username": "hidden", "role": "player"})
    assert response.status_code == 400 and "No registered user is named" in response.content.decode()


def test_a_guests_claim_code_shows_on_their_player_page_only_to_who_may_manage_them(world):
    guest = world.players[0]
    organiser = page_client(world.users["organiser"]).get(f"/players/{guest.pk}/").content.decode()
    assert guest.claim_code in organiser and f"/claim/{guest.claim_code}/" in organiser
    member = page_client(world.users["member"]).get(f"/players/{guest.pk}/").content.decode()
    assert guest.claim_code not in member


def test_the_previews_are_for_signed_in_users(world):
    anonymous = page_client(None)
    for url in ("/manage/preview/rules/", "/manage/preview/points/"):
        response = anonymous.get(url, {"points_formula": "linear", "variant": "coruscant_shift", "preset": "better"})
        assert response.status_code == 302 and "login" in response.url

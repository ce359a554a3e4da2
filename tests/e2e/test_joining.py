"""Issue 23: a new account joins a league by its invite link; another asks to join a league, an organiser approves
in a second browser, and the player sees they are a member."""

import pytest

from league.models import JoinMode, Membership, Role, Visibility, join_key_of
from tests.e2e.conftest import session_cookie
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_earlier_guesses():
    """Wrong codes other tests sent from this address (kept in Redis for ten minutes) would count here."""
    from django.core.cache import cache

    cache.clear()


def sign_up(page, username: str) -> None:
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", "millennium-falcon-12")
    page.fill("input[name=password2]", "millennium-falcon-12")
    page.get_by_role("button", name="Sign Up").click()


def test_a_new_account_joins_by_the_invite_link(live_server, page):
    league = LeagueFactory(
        name="Cloud City Club",
        visibility=Visibility.MEMBERS,
        join_mode=JoinMode.CODE,
        join_code="c1oud-city-c0de",
        join_key=join_key_of("c1oud-city-c0de"),
    )
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/join/{league.slug}/{league.join_code}/")
    assert "Join Cloud City Club" in page.locator("h1").inner_text()
    page.get_by_role("link", name="Sign up and join").click()
    page.wait_for_url("**/accounts/signup/**")
    sign_up(page, "lobot")
    page.wait_for_url(f"**/join/{league.slug}/{league.join_code}/")
    assert "You are a member of Cloud City Club" in page.locator(".messages").inner_text()
    assert Membership.objects.filter(league=league, player__user__username="lobot", role=Role.PLAYER).exists()
    page.goto(f"{live_server.url}/leagues/{league.slug}/")
    assert page.locator("h1").inner_text() == "Cloud City Club"
    # A wrong code shows nothing of the league.
    wrong = page.goto(f"{live_server.url}/join/{league.slug}/not-the-code/")
    assert wrong.status == 404 and "Cloud City" not in page.content()
    assert errors == []


def test_a_new_account_asks_to_join_and_an_organiser_approves(live_server, browser, page):
    league = LeagueFactory(name="Jedha Regulars", join_mode=JoinMode.REQUEST)
    organiser = UserFactory(username="chirrut")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser, display_name="Chirrut"), role=Role.ORGANISER)

    page.goto(f"{live_server.url}/accounts/signup/")
    sign_up(page, "baze")
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/leagues/{league.slug}/")
    page.get_by_role("button", name="Ask to join").click()
    page.wait_for_url(f"**/leagues/{league.slug}/")
    assert "Your request to join Jedha Regulars is sent" in page.locator(".messages").inner_text()

    context = browser.new_context()
    context.add_cookies([session_cookie(organiser, live_server.url)])
    organiser_page = context.new_page()
    organiser_page.set_default_timeout(15_000)
    organiser_page.goto(f"{live_server.url}/manage/leagues/{league.slug}/joining/")
    request_row = organiser_page.locator(".join-request", has_text="baze")
    request_row.get_by_role("button", name="Approve").click()
    organiser_page.wait_for_url(f"**/manage/leagues/{league.slug}/joining/")
    assert "baze is now a member" in organiser_page.locator(".messages").inner_text()
    context.close()

    page.goto(f"{live_server.url}/leagues/{league.slug}/")
    if not page.locator(".messages").count():  # with Redis the notice is read after the page, shown on the next
        page.goto(f"{live_server.url}/leagues/{league.slug}/")
    assert "You are now a member of Jedha Regulars" in page.locator(".messages").inner_text()
    assert page.get_by_role("button", name="Ask to join").count() == 0
    assert Membership.objects.filter(league=league, player__user__username="baze").exists()

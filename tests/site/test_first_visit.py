"""First-visit words: the home page names the three variants; a brand-new user is welcomed, a returning one
welcomed back; the header shows "Organiser" to organisers and admins and "Start a league" to whoever the
league-creation setting (LEAGUE_CREATORS) lets start one, and nothing to the others."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from league.models import Role
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def home(user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get("/").content.decode()


def site_nav(page: str) -> str:
    return re.search(r'<nav class="site-nav".*?</nav>', page, re.S).group(0)


def test_the_home_page_speaks_of_all_three_variants():
    page = home()
    for variant in ("Coruscant Shift", "Corellian Spike", "Classic Sabacc"):
        assert variant in page


def test_a_brand_new_user_is_welcomed_and_a_returning_player_welcomed_back():
    newcomer = UserFactory(username="newcomer")
    page = home(newcomer)
    assert "<h1>Welcome, newcomer</h1>" in page and "Welcome back" not in page
    regular = UserFactory(username="regular", date_joined=timezone.now() - timedelta(days=30))
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=regular, display_name="Rey"))
    assert "<h1>Welcome back, Rey</h1>" in home(regular)


def test_an_account_made_through_an_invite_link_is_welcomed_not_welcomed_back():
    """Sign-up through an invite link makes a player and joins the league at once: still a first visit."""
    invited = UserFactory(username="invited")
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=invited, display_name="Ahsoka"))
    page = home(invited)
    assert "<h1>Welcome, Ahsoka</h1>" in page and "Welcome back" not in page
    # Signed in again a day later: welcomed back.
    invited.date_joined = timezone.now() - timedelta(days=1)
    invited.save()
    assert "<h1>Welcome back, Ahsoka</h1>" in home(invited)


def test_organisers_see_the_organiser_link(settings):
    settings.LEAGUE_CREATORS = "staff"
    organiser = UserFactory()
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    nav = site_nav(home(organiser))
    assert ">Organiser</a>" in nav and "Start a league" not in nav
    admin = UserFactory(is_staff=True, is_superuser=True)
    assert ">Organiser</a>" in site_nav(home(admin))


@pytest.mark.parametrize(("creators", "shown"), [("anyone", True), ("staff", False)])
def test_a_player_sees_start_a_league_only_when_the_setting_lets_them(settings, creators, shown):
    settings.LEAGUE_CREATORS = creators
    player = UserFactory()
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=player), role=Role.PLAYER)
    nav = site_nav(home(player))
    assert ">Organiser</a>" not in nav
    assert ('href="/manage/leagues/new/">Start a league</a>' in nav) is shown
    assert ">Organiser</a>" not in site_nav(home())  # nobody signed in: neither
    assert "Start a league" not in site_nav(home())


def user_nav(page: str) -> str:
    return re.search(r'<nav class="user-nav".*?</nav>', page, re.S).group(0)


def test_my_games_is_in_the_header_for_whoever_is_signed_in():
    assert "My games" not in user_nav(home())
    for user in (UserFactory(username="fresh"), PlayerFactory(user=UserFactory()).user):
        assert '<a href="/tables/mine/">My games</a>' in user_nav(home(user))


def test_new_people_are_pointed_to_the_rules_and_returning_players_are_not():
    for page in (home(), home(UserFactory(username="first-timer"))):
        assert re.search(r'id="new-here">[^<]*<a href="/rules/">Learn the rules</a>', page)
    regular = UserFactory(username="regular")
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=regular, display_name="Rey"))
    assert 'id="new-here"' not in home(regular)


def test_a_player_in_no_league_is_shown_where_to_go_on_their_own_page_only():
    user = UserFactory(username="loner")
    player = PlayerFactory(user=user, display_name="Loner")
    client = Client()
    client.force_login(user)
    mine = client.get(f"/players/{player.pk}/").content.decode()
    assert "Player in no league yet." in mine
    assert '<a href="/leagues/">Find a league to join</a>' in mine and 'href="/tables/#play-now"' in mine
    # Someone else never reads "in no league yet": a league they cannot see may hold the player.
    other = Client()
    other.force_login(UserFactory())
    theirs = other.get(f"/players/{player.pk}/")
    assert "in no league yet" not in theirs.content.decode() and "Find a league" not in theirs.content.decode()


def test_an_account_without_a_player_is_told_play_now_needs_none_and_what_a_player_is_for():
    """A newcomer read "Your account has no player yet" beside Play now as a step they had to take first: the
    notice says casual games need no player, and what one is for (a league's standings, results, chip history)."""
    page = home(UserFactory(username="rookie"))
    notice = re.search(r'<p class="message" id="no-player">(.*?)</p>', page, re.S).group(1)
    assert "You need none for Play now" in notice and "standings, results and chip history" in notice
    assert 'href="/accounts/profile/"' in notice
    client = Client()
    client.force_login(UserFactory(username="rookie-two"))
    profile = client.get("/accounts/profile/").content.decode()
    assert "A player is you in a league" in profile and "casual games need none" in profile
    player = PlayerFactory(user=UserFactory(username="settled"), display_name="Settled")
    assert 'id="no-player"' not in home(player.user)

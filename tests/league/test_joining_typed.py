"""Issue 23 audit: a code typed in a box ("Join with a code", on the leagues list and a code league's page) joins
through the same service and guard as the link; a wrong code is a clear 400 that writes nothing. A pending request
shows as pending on the league page (no second button); a declined one says so and may ask again."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.models import JoinMode, JoinRequest, League, Membership, Visibility
from league.services import joining
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    yield
    cache.clear()


def league_with(world, mode, visibility=Visibility.PUBLIC):
    League.objects.filter(pk=world.league.pk).update(visibility=visibility)
    world.league.refresh_from_db()
    return joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode=mode)


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("form", ["code", "link", "code_on_page"])
def test_a_typed_code_or_pasted_link_joins(world, form):
    league = league_with(world, JoinMode.CODE, Visibility.MEMBERS)
    user = UserFactory(username="typist")
    data = {"code": f"  {league.join_code} "}
    if form == "link":
        data = {"code": "https://example.com" + reverse("join-code", args=[league.slug, league.join_code])}
    elif form == "code_on_page":
        data["league"] = league.slug
    response = signed_in(user).post(reverse("join-typed"), data)
    assert response.status_code == 302 and response["Location"] == reverse("league-detail", args=[league.slug])
    assert Membership.objects.filter(league=league, player__user=user).count() == 1


def test_a_new_code_is_easy_to_read_out(world):
    code = league_with(world, JoinMode.CODE).join_code
    assert len(code) == 19 and code.count("-") == 3
    assert set(code.replace("-", "")) <= set(joining.CODE_ALPHABET) and not set("ILOU") & set(code)


@pytest.mark.parametrize(
    "typed",
    [
        lambda code: code.lower(),  # any case
        lambda code: code.replace("-", " "),  # spaces for dashes, as read out
        lambda code: code.replace("-", "").replace("0", "o").replace("1", "l"),  # letters for look-alike digits
    ],
    ids=["lower-case", "spaces", "look-alikes"],
)
def test_a_code_read_out_and_typed_loosely_still_joins(world, typed):
    league = league_with(world, JoinMode.CODE, Visibility.MEMBERS)
    joining.join_code_rotate(actor=world.users["organiser"], league=league)  # a code with a 0 and a 1 in it
    league.set_join_code("K7QM-30TR-91WC-ZP2D")
    league.save(update_fields=["join_code", "join_key"])
    user = UserFactory(username="reader")
    response = signed_in(user).post(reverse("join-typed"), {"code": typed(league.join_code)})
    assert response.status_code == 302, response.content.decode()[:500]
    assert Membership.objects.filter(league=league, player__user=user).count() == 1


def test_a_code_made_before_codes_were_easy_still_joins_in_any_case(world):
    """Codes made earlier mix cases (`token_urlsafe`): they are compared by the same key, in the box and the link."""
    league = league_with(world, JoinMode.CODE, Visibility.MEMBERS)
    league.set_join_code("PN5E0-x6QqMzhCHW")
    league.save(update_fields=["join_code", "join_key"])
    typist, clicker = UserFactory(username="typist"), UserFactory(username="clicker")
    assert signed_in(typist).post(reverse("join-typed"), {"code": "pn5e0x6qqmzhchw"}).status_code == 302
    assert signed_in(clicker).post(reverse("join-code", args=[league.slug, "PN5E0-X6QQMZHCHW"])).status_code == 302
    assert Membership.objects.filter(league=league, player__user__in=[typist, clicker]).count() == 2


@pytest.mark.parametrize("case", ["wrong", "revoked", "blank"])
def test_a_wrong_or_revoked_code_is_a_clear_400_that_writes_nothing(world, case):
    league = league_with(world, JoinMode.CODE)
    code = league.join_code
    if case == "wrong":
        code = code[:-1] + ("A" if code[-1] != "A" else "B")
    elif case == "revoked":
        joining.join_code_revoke(actor=world.users["organiser"], league=league)
    else:
        code = ""
    members = Membership.objects.count()
    response = signed_in(UserFactory()).post(reverse("join-typed"), {"code": code})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Join with a code" in text
    if case == "blank":
        assert "Type the invite code" in text
    else:
        assert "does not open any league" in text and "organiser" in text and league.name not in text
    assert Membership.objects.count() == members


def test_wrong_typed_codes_count_as_guesses(world, monkeypatch):
    monkeypatch.setattr(joining, "GUESS_LIMIT", 2)
    league = league_with(world, JoinMode.CODE)
    user = UserFactory()
    client = signed_in(user)
    for _ in range(2):
        assert client.post(reverse("join-typed"), {"code": "nope"}).status_code == 400
    right = client.post(reverse("join-typed"), {"code": league.join_code})
    assert right.status_code == 429 and "Too many wrong codes" in right.content.decode()
    assert not Membership.objects.filter(league=league, player__user=user).exists()


def test_the_code_box_shows_where_a_signed_in_outsider_looks(world):
    league = league_with(world, JoinMode.CODE)
    client = signed_in(UserFactory())
    page = client.get(reverse("league-detail", args=[league.slug])).content.decode()
    assert 'data-action="join-with-code"' in page and f'name="league" value="{league.slug}"' in page
    listing = client.get(reverse("league-list")).content.decode()
    assert 'data-action="join-with-code"' in listing
    anonymous = Client().get(reverse("league-list")).content.decode()
    assert 'data-action="join-with-code"' not in anonymous
    assert Client().post(reverse("join-typed"), {"code": league.join_code}).status_code == 302  # to sign in


def test_a_pending_request_shows_pending_and_a_declined_one_may_ask_again(world):
    league = league_with(world, JoinMode.REQUEST)
    user = UserFactory(username="asker")
    client = signed_in(user)
    url = reverse("league-detail", args=[league.slug])
    assert 'data-action="ask-to-join"' in client.get(url).content.decode()
    client.post(reverse("league-ask", args=[league.slug]))
    for _ in range(2):  # the second view is served from the page cache: still this viewer's own state
        page = client.get(url).content.decode()
        assert "Request pending" in page and 'data-action="ask-to-join"' not in page
    other = signed_in(UserFactory()).get(url).content.decode()
    assert "Request pending" not in other and 'data-action="ask-to-join"' in other
    request = JoinRequest.objects.get(league=league, user=user)
    joining.join_request_decline(actor=world.users["organiser"], request=request)
    page = client.get(url).content.decode()
    assert "declined your last request" in page and "Ask again" in page
    client.post(reverse("league-ask", args=[league.slug]))
    assert JoinRequest.objects.get(pk=request.pk).status == "pending"
    assert "Request pending" in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("key", "words"),
    [("sqrt", "square root of the field"), ("linear", "one point for each player"), ("fixed", "fixed points for each")],
)
def test_league_pages_show_the_points_formula_in_words(world, key, words):
    League.objects.filter(pk=world.league.pk).update(points_formula=key, points_parameters={})
    client = signed_in(world.users["organiser"])
    page = client.get(reverse("league-detail", args=[world.league.slug])).content.decode()
    points = page.split('id="points">', 1)[1].split("</dd>", 1)[0]
    assert words in points.lower() and key not in points.split("(")[0].lower().replace(words, "")
    listing = client.get(reverse("league-list")).content.decode()
    assert words in listing.lower() and f">{key}<" not in listing


def test_the_api_joins_by_the_code_alone_and_refuses_a_wrong_one_alike(world):
    from tests.league.conftest import client_for

    league = league_with(world, JoinMode.CODE, Visibility.MEMBERS)
    user = UserFactory(username="api-typist")
    wrong = client_for(user).post("/api/join/", {"join_code": "nope"}, format="json")
    assert wrong.status_code == 404 and wrong.json()["detail"] == joining.WRONG_CODE  # the page's words
    assert not Membership.objects.filter(league=league, player__user=user).exists()
    joined = client_for(user).post("/api/join/", {"join_code": league.join_code}, format="json")
    assert joined.status_code == 200 and Membership.objects.filter(league=league, player__user=user).exists()


def test_an_invite_link_after_too_many_wrong_guesses_answers_a_page_of_the_site(world, monkeypatch):
    """The 429 of a link is the site's error page (title, language, a way home), not a bare line of text."""
    monkeypatch.setattr(joining, "GUESS_LIMIT", 1)
    league = league_with(world, JoinMode.CODE)
    client = signed_in(UserFactory())
    assert client.get(reverse("join-code", args=[league.slug, "wrong-code"])).status_code == 404
    answer = client.get(reverse("join-code", args=[league.slug, league.join_code]))
    text = answer.content.decode()
    assert answer.status_code == 429 and answer["Content-Type"].startswith("text/html")
    assert "<title>Too many wrong codes" in text and '<html lang="' in text and "wait ten minutes" in text


def test_the_organisers_joining_page_shows_the_code_to_tell_as_well_as_the_link(world):
    league = league_with(world, JoinMode.CODE)
    page = signed_in(world.users["organiser"]).get(reverse("manage-join", args=[league.slug])).content.decode()
    assert f'<code id="join-code-text" class="join-code-big">{league.join_code}</code>' in page
    assert reverse("join-code", args=[league.slug, league.join_code]) in page  # the whole link still there
    assert f'href="{reverse("join-typed")}"' in page  # where to type it


def test_an_old_link_says_what_to_do_and_answers_as_a_missing_league_does(world):
    league = league_with(world, JoinMode.CODE)
    old = league.join_code
    joining.join_code_rotate(actor=world.users["organiser"], league=league)
    client = signed_in(UserFactory())
    stale = client.get(reverse("join-code", args=[league.slug, old]))
    missing = client.get(reverse("join-code", args=["no-such-league", old]))
    assert stale.status_code == missing.status_code == 404
    text = stale.content.decode()
    assert "Ask the organiser who shared it for the current link" in text and league.name not in text
    page = text.split('<section class="error-page">')[1].split("</section>")[0]
    assert page == missing.content.decode().split('<section class="error-page">')[1].split("</section>")[0]

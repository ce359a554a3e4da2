"""Handing a seat nobody holds to a phone (issue 25): the host's one-time link takes the seat once, for a signed-in
user or a guest by the seat's name; a wrong, used or replaced link is refused and writes nothing; a league seat is
its league player's alone; pages and API agree; the claim is logged and the secret shown to the host only."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from config.errors import ApplicationError, ConflictError
from games.tabletop import handover, services
from games.tabletop.models import RealSeat, RealTable, RealTableStatus
from games.tabletop.permissions import NotAllowed, seat_of
from games.tabletop.views import SESSION_KEY
from league.models import Role
from tests.factories import MembershipFactory, PlayerFactory, UserFactory, client_as
from tests.tabletop.helpers import current_due, started_table
from tests.tabletop.league_helpers import league_world

pytestmark = pytest.mark.django_db


def _written(table: RealTable) -> tuple:
    """Everything a claim writes: the table's version and log, and each seat's holders and link."""
    table.refresh_from_db()
    seats = tuple(table.seats.order_by("number").values_list("number", "user_id", "guest_token", "handover"))
    return table.version, list(table.changes), seats


def _open_with_cy(host=None):
    host = host or UserFactory(username="hostess")
    table = services.realtable_open(actor=host, preset="casino", starting_credits=100)
    cy = services.realseat_add(actor=host, table=table, name="Cy")
    return table, host, cy


def _claim_path(table: RealTable, secret: str) -> str:
    return reverse("tabletop-claim", kwargs={"code": table.code, "secret": secret})


def test_a_seat_the_host_adds_has_a_link_a_guest_takes_once():
    table, host, cy = _open_with_cy()
    assert cy.handover and len(cy.handover) >= 20 and cy.user_id is None and not cy.guest_token
    before = _written(table)
    seat = handover.realseat_claim(actor=AnonymousUser(), table=table, secret=cy.handover)
    assert seat.pk == cy.pk and seat.name == "Cy" and seat.guest_token and seat.handover == ""
    table.refresh_from_db()
    assert table.version == before[0] + 1
    assert table.changes[-1]["claimed"] == {"seat": 1, "name": "Cy"} and "guest" in table.changes[-1]["by"]
    assert seat_of(table, AnonymousUser(), seat.guest_token).pk == cy.pk
    # The link worked once: used again (by anyone) it is refused and writes nothing.
    after = _written(table)
    for actor in (AnonymousUser(), UserFactory(), host):
        with pytest.raises(ApplicationError, match="does not work"):
            handover.realseat_claim(actor=actor, table=table, secret=cy.handover)
    assert _written(table) == after


@pytest.mark.parametrize("secret", ["", "nope", "x" * 65, None, 12])
def test_a_wrong_secret_is_refused_and_writes_nothing(secret):
    table, _, _ = _open_with_cy()
    before = _written(table)
    with pytest.raises(ApplicationError, match="does not work"):
        handover.realseat_claim(actor=UserFactory(), table=table, secret=secret)
    assert _written(table) == before


def test_a_signed_in_user_takes_the_seat_by_their_account_once_per_phone():
    table, host, cy = _open_with_cy()
    dora = services.realseat_add(actor=host, table=table, name="Dora")
    user = UserFactory(username="cyrus")
    seat = handover.realseat_claim(actor=user, table=table, secret=cy.handover)
    assert seat.user_id == user.pk and not seat.guest_token and seat.name == "Cy"
    table.refresh_from_db()
    assert table.changes[-1]["by"] == "cyrus"
    before = _written(table)
    with pytest.raises(ConflictError, match="already sit at this table, as Cy"):
        handover.realseat_claim(actor=user, table=table, secret=dora.handover)
    with pytest.raises(ConflictError, match="already sit at this table, as hostess"):
        handover.realseat_claim(actor=host, table=table, secret=dora.handover)
    assert _written(table) == before


def test_a_new_link_replaces_the_old_only_the_host_makes_one_and_never_for_a_held_seat():
    table, host, cy = _open_with_cy()
    old = cy.handover
    before = _written(table)
    for actor in (AnonymousUser(), UserFactory()):
        with pytest.raises(NotAllowed, match="host"):
            handover.realseat_handover(actor=actor, table=table, number=1)
    for number in (0, 5, -1, True, "1"):
        with pytest.raises(ApplicationError):
            handover.realseat_handover(actor=host, table=table, number=number)
    assert _written(table) == before  # seat 0 is the host's own: held, never handed over
    new = handover.realseat_handover(actor=host, table=table, number=1).handover
    assert new and new != old
    with pytest.raises(ApplicationError, match="does not work"):
        handover.realseat_claim(actor=AnonymousUser(), table=table, secret=old)
    assert handover.realseat_claim(actor=AnonymousUser(), table=table, secret=new).name == "Cy"


def test_a_player_joining_a_cash_table_mid_game_takes_their_seat_and_acts_from_their_phone():
    table, host, _ann, _ = started_table(preset="casino")
    newcomer = Client()
    page = newcomer.get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "The game is on" in page and "Ask the host to add you between hands" in page
    answer = newcomer.post(reverse("tabletop-do", args=[table.code, "join"]), {"name": "Cy"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 409 and "Ask the host to add you between hands" in answer.content.decode()
    assert table.seats.count() == 3
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "Cy", "stack": 80})
    cy = RealSeat.objects.get(table=table, name="Cy")
    assert cy.number == 3 and cy.handover
    # The newcomer opens the link: the page takes nothing; its button does.
    page = newcomer.get(_claim_path(table, cy.handover)).content.decode()
    assert "Take Cy's seat" in page
    cy.refresh_from_db()
    assert cy.handover and not cy.guest_token
    answer = newcomer.post(_claim_path(table, cy.handover))
    assert answer.status_code == 302 and answer.url == reverse("tabletop-table", args=[table.code])
    cy.refresh_from_db()
    assert cy.guest_token and newcomer.session[SESSION_KEY][table.code] == cy.guest_token
    page = newcomer.get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert 'data-you="3"' in page and "The game is on" not in page
    # The next hand: Cy acts for their own seat from their phone (the guest's secret), nobody else's.
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    for _ in range(10):
        now = current_due(table)
        assert now["due"] == "act"
        seat = now["seats"][0]
        if seat == 3:
            break
        services.realtable_step(
            actor=host, table=table, step={"step": "act", "seat": seat, "verb": "select", "count": 2}
        )
    with pytest.raises(NotAllowed):
        services.realtable_step(
            actor=AnonymousUser(),
            guest=cy.guest_token,
            table=table,
            step={"step": "act", "seat": 1, "verb": "select", "count": 2},
        )
    services.realtable_step(
        actor=AnonymousUser(),
        guest=cy.guest_token,
        table=table,
        step={"step": "act", "seat": 3, "verb": "select", "count": 2},
    )
    table.refresh_from_db()
    assert table.changes[-1]["by"] == "Cy" and table.changes[-1]["did"]["seat"] == 3
    log = client_as(host).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert "took Cy&#x27;s seat from its hand-over link" in log


def test_the_secret_is_shown_to_the_host_only():
    table, host, ann, _ = started_table(preset="casino")
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "Cy", "stack": 80})
    secret = RealSeat.objects.get(table=table, name="Cy").handover
    host_page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert _claim_path(table, secret) in host_page and "Hand Cy's seat to a phone" in host_page
    assert secret in client_as(host).get(f"/api/tabletop/{table.code}/").content.decode()
    for viewer in (client_as(ann), client_as(UserFactory()), Client()):
        for path in (
            reverse("tabletop-table", args=[table.code]),
            reverse("tabletop-fragment", args=[table.code]),
            reverse("tabletop-screen", args=[table.code]),
            f"/api/tabletop/{table.code}/",
        ):
            assert secret not in viewer.get(path).content.decode(), path


def test_the_hosts_page_draws_each_links_qr_code_once():
    """A QR code costs milliseconds; the host's page is drawn again at every step, with a code for each seat nobody
    holds: the same link's code is drawn once and reused."""
    from games.tabletop import views

    table, host, _ = _open_with_cy()
    views._qr.cache_clear()
    fragment = reverse("tabletop-fragment", args=[table.code])
    first = client_as(host).get(fragment).content.decode()
    made = views._qr.cache_info().misses
    assert made >= 1
    again = client_as(host).get(fragment).content.decode()
    assert views._qr.cache_info().misses == made
    codes = re.findall(r"<svg.*?</svg>", first, re.S)
    assert codes and codes == re.findall(r"<svg.*?</svg>", again, re.S)  # the same codes, drawn once
    services.realseat_add(actor=host, table=table, name="Dora")  # a new seat, a new link: one more code
    client_as(host).get(fragment)
    assert views._qr.cache_info().misses == made + 1


def test_a_league_seat_is_taken_only_by_its_league_player_signed_in():
    world = league_world()
    table = services.realtable_open_league(actor=world.organiser, event=world.event)
    services.realseat_join(actor=world.ann, table=table)
    held = services.realseat_add(actor=world.organiser, table=table, player=world.bob_player.pk)
    assert held.user_id == world.bob.pk and not held.handover  # Bob has an account: his seat is his already
    cy_player = PlayerFactory(display_name="Cy")  # a member with no account yet
    MembershipFactory(league=world.league, player=cy_player, role=Role.PLAYER)
    cy = services.realseat_add(actor=world.organiser, table=table, player=cy_player.pk)
    assert cy.handover and cy.user_id is None
    before = _written(table)
    with pytest.raises(NotAllowed, match="sign in as Cy"):
        handover.realseat_claim(actor=AnonymousUser(), table=table, secret=cy.handover)
    for other in (world.outsider, UserFactory(username="stranger"), world.organiser):
        with pytest.raises(NotAllowed, match="only Cy, signed in"):
            handover.realseat_claim(actor=other, table=table, secret=cy.handover)
    with pytest.raises(ConflictError, match="already sit"):
        handover.realseat_claim(actor=world.ann, table=table, secret=cy.handover)
    assert _written(table) == before
    page = Client().get(_claim_path(table, cy.handover)).content.decode()
    assert "This is a league table" in page and "sign in" in page
    cy_user = UserFactory(username="cyrus")
    cy_player.user = cy_user
    cy_player.save(update_fields=["user"])
    seat = handover.realseat_claim(actor=cy_user, table=table, secret=cy.handover)
    assert seat.user_id == cy_user.pk and seat.player_id == cy_player.pk and seat.handover == ""
    # A newcomer at the started league table is told the seats are fixed, not shown a bare error.
    services.realtable_start(actor=world.organiser, table=table, dealer=0)
    answer = client_as(world.outsider).post(reverse("tabletop-do", args=[table.code, "join"]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 409 and "seats were fixed at the start" in answer.content.decode()
    assert (
        "seats were fixed at the start"
        in client_as(world.outsider).get(reverse("tabletop-table", args=[table.code])).content.decode()
    )


def test_a_newcomer_at_a_started_game_that_takes_nobody_mid_way_is_told_so():
    table, _, _, _ = started_table(preset="cantina")  # not a cash game: no "join" between hands
    newcomer = Client()
    page = newcomer.get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "The game is on" in page and "seats were fixed at the start" in page and "between hands" not in page
    before = _written(table)
    answer = newcomer.post(reverse("tabletop-do", args=[table.code, "join"]), {"name": "Cy"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 409 and "nobody joins this game mid-way" in answer.content.decode()
    assert _written(table) == before


def test_pages_refuse_as_the_service_does_and_write_nothing():
    table, host, cy = _open_with_cy()
    before = _written(table)
    answer = client_as(UserFactory()).post(reverse("tabletop-do", args=[table.code, "handover"]), {"seat": "1"})
    assert answer.status_code == 302  # a plain form: back to the table with the reason as a message
    answer = Client().post(_claim_path(table, "wrong"))
    assert answer.status_code == 400 and "does not work" in answer.content.decode()
    assert "does not work" in Client().get(_claim_path(table, "wrong")).content.decode()
    assert _written(table) == before
    answer = client_as(host).post(
        reverse("tabletop-do", args=[table.code, "handover"]), {"seat": "1"}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert RealSeat.objects.get(pk=cy.pk).handover not in ("", cy.handover)


def test_api_handover_and_claim_agree_with_the_pages():
    table, host, cy = _open_with_cy()
    api = client_as(host)
    answer = api.post(f"/api/tabletop/{table.code}/handover/", {"seat": 1}, content_type="application/json")
    assert answer.status_code == 200
    secret = RealSeat.objects.get(pk=cy.pk).handover
    assert answer.json()["handover_url"].endswith(_claim_path(table, secret))
    stranger = client_as(UserFactory())
    before = _written(table)
    refused = stranger.post(f"/api/tabletop/{table.code}/handover/", {"seat": 1}, content_type="application/json")
    assert refused.status_code == 403
    assert (
        stranger.post(f"/api/tabletop/{table.code}/handover/", {"seat": 0}, content_type="application/json").status_code
        == 403
    )
    assert (
        api.post(f"/api/tabletop/{table.code}/handover/", {"seat": 0}, content_type="application/json").status_code
        == 409
    )
    wrong = Client().post(
        f"/api/tabletop/{table.code}/claim/", {"secret": cy.handover}, content_type="application/json"
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "handover_used"  # the replaced link
    assert _written(table) == before
    phone = Client()
    answer = phone.post(f"/api/tabletop/{table.code}/claim/", {"secret": secret}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["you"] == 1 and answer.json()["guest_token"]
    assert "handover" not in str(answer.json()["seats"])
    token = answer.json()["guest_token"]
    state = Client().get(f"/api/tabletop/{table.code}/", HTTP_X_TABLETOP_GUEST=token).json()
    assert state["you"] == 1
    again = Client().post(f"/api/tabletop/{table.code}/claim/", {"secret": secret}, content_type="application/json")
    assert again.status_code == 400
    # The host sees the seat held now: no link for it.
    assert "handover" not in str(api.get(f"/api/tabletop/{table.code}/").json()["seats"])
    assert RealTable.objects.get(pk=table.pk).status == RealTableStatus.OPEN

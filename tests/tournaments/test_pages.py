"""The tournament pages and the API behind them: the organiser runs a night from the control room, refusals
are shown beside the form with nothing written, the player sees their seat, the seed stays hidden until the
draw, and the pages and the API agree on who may do what."""

import html
import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from league.models import AuditEntry, BuyInPolicy, ChipSet, EventStatus, LedgerEntry, LedgerKind, Player, Visibility
from tournaments.models import Registration, RegistrationStatus, Tournament

from .conftest import colour_up_control_room, query_counts, signed_in


def do(client, tournament, action, **fields):
    return client.post(f"/manage/tournaments/{tournament.pk}/", {"action": action, **fields})


def snapshot():
    return (
        list(Tournament.objects.values()),
        list(Registration.objects.values()),
        LedgerEntry.objects.count(),
        AuditEntry.objects.count(),
    )


def test_an_organiser_runs_a_tournament_from_the_control_room_to_the_payouts(night, tournament):
    organiser = signed_in(night.organiser)
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/")
    assert page.status_code == 200 and "control room" in page.content.decode()
    for player in night.players[:4]:
        assert do(organiser, tournament, "register", player=player.pk).status_code == 302
    assert do(organiser, tournament, "add_guest", name="Lando").status_code == 302
    guest = Player.objects.get(display_name="Lando")
    assert Registration.objects.get(player=guest).status == RegistrationStatus.REGISTERED
    assert do(organiser, tournament, "publish_seed").status_code == 302
    tournament.refresh_from_db()
    public = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert tournament.draw_seed_hash in public and tournament.draw_seed not in public
    assert do(organiser, tournament, "draw").status_code == 302
    assert tournament.draw_seed in Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert do(organiser, tournament, "clock_start").status_code == 302
    field = [*night.players[:4], guest]
    for out in field[:0:-1]:
        assert do(organiser, tournament, "eliminate", player=out.pk, eliminated_by=field[0].pk).status_code == 302
    assert do(organiser, tournament, "undo").status_code == 302
    assert do(organiser, tournament, "eliminate", player=field[1].pk).status_code == 302
    assert do(organiser, tournament, "payouts", template="custom", shares="7000, 3000").status_code == 302
    assert do(organiser, tournament, "complete").status_code == 302
    tournament.refresh_from_db()
    assert tournament.event.status == EventStatus.FINISHED
    payouts = LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT)
    assert sorted(payouts.values_list("amount", flat=True)) == [-1575, -675]  # 70/30 of 2,250
    detail = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "1,575" in detail and "rounded down" in detail


@pytest.mark.parametrize(
    ("action", "fields", "status", "message"),
    [
        ("draw", {}, 409, "Publish the draw seed"),
        ("eliminate", {"player": "x"}, 400, "must be a whole number"),
        ("payouts", {"template": "custom", "shares": "6000, 3000"}, 400, "add up to 10000"),
        ("payouts", {"template": "half"}, 400, "Unknown payout template"),
        ("add_guest", {"name": ""}, 400, "name"),
        ("fly", {}, 400, "Unknown action"),
        ("level_up", {}, 409, "has not started"),
    ],
)
def test_a_refused_action_is_shown_beside_its_form_and_writes_nothing(
    night, tournament, action, fields, status, message
):
    organiser = signed_in(night.organiser)
    before = snapshot()
    response = do(organiser, tournament, action, **fields)
    assert response.status_code == status
    assert message in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert snapshot() == before


def test_a_player_registers_from_the_tournament_page_and_sees_their_seat_and_table(night, tournament):
    member = signed_in(night.member)
    assert member.post(f"/tournaments/{tournament.pk}/entry/", {"action": "register"}).status_code == 302
    organiser = signed_in(night.organiser)
    for player in night.players[1:4]:
        do(organiser, tournament, "register", player=player.pk)
    do(organiser, tournament, "publish_seed")
    do(organiser, tournament, "draw")
    mine = Registration.objects.get(player=night.players[0])
    page = member.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"table {mine.table_number}, seat {mine.seat_number}" in page
    cards = Client().get(f"/tournaments/{tournament.pk}/seat-cards/").content.decode()
    assert cards.count('class="seat-card"') == 4
    assert Client().get(f"/tournaments/{tournament.pk}/clock/").status_code == 200


def test_pages_and_api_agree_that_only_organisers_run_the_tournament(night, tournament):
    before = snapshot()
    assert (
        signed_in(night.member).post(f"/manage/tournaments/{tournament.pk}/", {"action": "publish_seed"}).status_code
        == 403
    )
    api = APIClient()
    api.force_authenticate(night.member)
    response = api.post(f"/api/tournaments/{tournament.pk}/actions/", {"action": "publish_seed"}, format="json")
    assert response.status_code == 403 and "organisers" in response.json()["detail"]
    assert Client().get(f"/manage/tournaments/{tournament.pk}/").status_code == 302  # to the sign-in page
    assert snapshot() == before
    organiser = APIClient()
    organiser.force_authenticate(night.organiser)
    ok = organiser.post(f"/api/tournaments/{tournament.pk}/actions/", {"action": "publish_seed"}, format="json")
    assert ok.status_code == 200 and "Seed hash published" in ok.json()["detail"]


def test_the_api_refuses_bad_input_with_400_and_says_what_is_allowed(night, tournament):
    api = APIClient()
    api.force_authenticate(night.organiser)
    url = f"/api/tournaments/{tournament.pk}/actions/"
    before = snapshot()
    assert api.post(url, {"action": "teleport"}, format="json").status_code == 400
    response = api.post(url, {"action": "eliminate"}, format="json")
    assert response.status_code == 400 and "needs a player" in response.json()["detail"]
    assert api.post(url, {"action": "register", "player": 10**30}, format="json").status_code == 400
    assert snapshot() == before


def test_a_members_only_leagues_tournament_pages_are_hidden_from_outsiders(night, tournament):
    night.league.visibility = Visibility.MEMBERS
    night.league.save()
    for path in ("", "clock/", "seat-cards/"):
        assert Client().get(f"/tournaments/{tournament.pk}/{path}").status_code == 404
    assert signed_in(night.member).get(f"/tournaments/{tournament.pk}/").status_code == 200
    assert APIClient().get(f"/api/tournaments/{tournament.pk}/").status_code == 404


def test_the_api_detail_and_entry_match_the_page(night, tournament):
    api = APIClient()
    api.force_authenticate(night.member)
    body = api.post(f"/api/tournaments/{tournament.pk}/entry/", {"action": "register"}, format="json").json()
    assert body["clock"]["players_left"] == 1 and body["clock"]["prize_pool"] == 450
    assert body["seed"] is None
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/tournaments/{id}/", "/api/tournaments/{id}/entry/", "/api/tournaments/{id}/actions/"):
        assert path in schema["paths"]


def test_the_control_room_lists_the_moves_to_make_by_name_after_an_elimination(night, tournament):
    organiser = signed_in(night.organiser)
    for player in night.players[:9]:
        do(organiser, tournament, "register", player=player.pk)
    do(organiser, tournament, "publish_seed")
    do(organiser, tournament, "draw")  # 9 players, 4 seats a table: 3, 3, 3
    do(organiser, tournament, "clock_start")
    table_one = Registration.objects.filter(tournament=tournament, table_number=1).select_related("player")
    for registration in list(table_one)[:2]:
        do(organiser, tournament, "eliminate", player=registration.player_id)
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "Moves to make" in page
    mover = Registration.objects.get(tournament=tournament, table_number=1, status=RegistrationStatus.REGISTERED)
    assert f"{mover.player.display_name}: table 1 seat {mover.seat_number}" in page
    assert do(organiser, tournament, "balance").status_code == 302
    assert "no move to make" in organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()


def test_the_tournament_pages_read_a_fixed_number_of_queries_however_many_players(night, tournament):
    organiser = signed_in(night.organiser)
    paths = [
        f"/tournaments/{tournament.pk}/",
        f"/manage/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/seat-cards/",
        f"/api/tournaments/{tournament.pk}/",
    ]
    for player in night.players[:4]:
        do(organiser, tournament, "register", player=player.pk)
    do(organiser, tournament, "publish_seed")
    do(organiser, tournament, "draw")
    few = query_counts(organiser, paths)
    tournament.refresh_from_db()
    for player in night.players[4:12]:
        do(organiser, tournament, "register", player=player.pk)  # late: seated at once after the draw
    assert query_counts(organiser, paths) == few


def test_the_control_room_prompts_the_colour_up_when_a_chip_is_no_longer_needed(night):
    page = colour_up_control_room(night)
    # With the standard chips (5, 50, 100, ...), from level 2 no forced bet needs the 5-credit chips.
    assert "Chip race and colour-up" in page
    assert "From level 2 no forced bet needs the 5-credit chips" in page


def test_the_clock_stream_sends_the_clock_and_never_the_seed(night, tournament, settings):
    from tournaments import services

    settings.ONLINE_STREAM_SECONDS = 0.3
    for player in night.players[:4]:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    services.tournament_publish_seed(actor=night.organiser, tournament=tournament)
    tournament.refresh_from_db()
    body = b"".join(Client().get(f"/tournaments/{tournament.pk}/clock/events/").streaming_content).decode()
    assert body.startswith("retry: 1000") and "event: state" in body
    assert '"players_left":4' in body and '"prize_pool":1800' in body
    assert tournament.draw_seed not in body  # published as a hash only, and not on the clock's stream at all


@pytest.mark.parametrize(
    ("variant", "preset", "label"),
    [("corellian_spike", "galaxy_series", "Corellian Spike"), ("classic", "classic", "Classic Sabacc")],
)
def test_the_structure_form_explains_ante_only_levels_and_its_example_is_accepted(night, variant, preset, label):
    night.league.variant, night.league.preset, night.league.option_overrides = variant, preset, {}
    night.league.save()
    organiser = signed_in(night.organiser)
    url = f"/manage/events/{night.event.pk}/tournament/"
    page = organiser.get(url).content.decode()
    assert f"This event plays <strong>{label}</strong>, which has <strong>no blinds</strong>" in page
    assert "Blinds are for Coruscant Shift; Classic Sabacc and Corellian Spike take an ante only." in page
    assert '<option value="custom" selected>' in page  # the presets are blinds: an ante-only example instead
    form = {
        "format": "freezeout",
        "structure": "regular",
        "starting_stack": "450",
        "seats_per_table": "6",
        "late_registration_level": "0",
        "advance_per_table": "1",
        "payout_template": "top_3",
    }
    refused = organiser.post(url, form)
    assert refused.status_code == 400 and f"{label.split()[0]}" in refused.content.decode()
    assert "has no blinds" in refused.content.decode() and not Tournament.objects.exists()
    # The example the form fills in is ante-only and payable in the event's chips: it is accepted as it stands.
    example = page.split('name="structure_json"')[1].split(">", 1)[1].split("</textarea>")[0]
    response = organiser.post(url, {**form, "structure": "custom", "structure_json": html.unescape(example)})
    assert response.status_code == 302, response.content.decode()[:2000]
    levels = Tournament.objects.get().structure
    assert all(level["small_blind"] == level["big_blind"] == 0 < level["ante"] for level in levels)


def test_the_structure_form_says_coruscant_shift_levels_are_blinds(night):
    page = signed_in(night.organiser).get(f"/manage/events/{night.event.pk}/tournament/").content.decode()
    assert "This event plays <strong>Coruscant Shift</strong>: each level sets the <strong>small and big blind" in page
    assert '<option value="regular" selected>' in page


def test_the_create_form_starts_the_stack_at_the_buy_in_the_league_set_for_the_event(night):
    """The stack is the buy-in: an organiser who set a 350-credit buy-in policy finds 350 there, not 450."""
    url = f"/manage/events/{night.event.pk}/tournament/"
    stack = 'name="starting_stack" inputmode="numeric" value="{}"'
    assert stack.format(450) in signed_in(night.organiser).get(url).content.decode()
    night.league.buy_in_policy = BuyInPolicy.objects.create(name="Home stake", buy_in=350)
    night.league.save(update_fields=["buy_in_policy"])
    page = signed_in(night.organiser).get(url).content.decode()
    assert stack.format(350) in page


def test_the_create_form_starts_from_levels_the_events_chips_can_pay(night):
    """The regular structure opens at 5/10; a league whose chips are 10 and 50 was offered it and then refused it
    ("the small blind of 5 cannot be paid"). It now starts from levels suggested in its chips, and they are taken."""
    chips = ChipSet.objects.create(name="Tens and fifties", slug="tens-fifties")
    chips.denominations.create(name="Blue", value=10)
    chips.denominations.create(name="Red", value=50)
    night.league.chip_set = chips
    night.league.save(update_fields=["chip_set"])
    organiser = signed_in(night.organiser)
    url = f"/manage/events/{night.event.pk}/tournament/"
    page = organiser.get(url)
    levels = json.loads(html.unescape(page.context["initial_levels"]))
    assert levels[0]["small_blind"] == 10 and all(level.get("small_blind", 10) % 10 == 0 for level in levels)
    form = {**page.context["values"], "structure": "custom", "structure_json": json.dumps(levels)}
    assert organiser.post(url, form).status_code == 302
    assert Tournament.objects.get().structure[0]["small_blind"] == 10


def test_the_control_room_offers_no_elimination_once_one_player_is_left(night, tournament):
    """With one player in, eliminating them is refused ("the last player in is the winner"): the form gives way
    to a note that names them and points to Complete."""
    organiser = signed_in(night.organiser)
    field = night.players[:3]
    for player in field:
        assert do(organiser, tournament, "register", player=player.pk).status_code == 302
    for action in ("publish_seed", "draw", "clock_start"):
        assert do(organiser, tournament, action).status_code == 302
    url = f"/manage/tournaments/{tournament.pk}/"
    assert do(organiser, tournament, "eliminate", player=field[2].pk).status_code == 302
    page = organiser.get(url).content.decode()
    assert 'data-action="eliminate"' in page and "data-last-player-in" not in page
    assert do(organiser, tournament, "eliminate", player=field[1].pk).status_code == 302
    page = organiser.get(url).content.decode()
    assert 'data-action="eliminate"' not in page
    assert f"{field[0].display_name} is the last player in: nobody is left to eliminate." in page
    assert "Undo the last elimination" in page and 'value="complete"' in page

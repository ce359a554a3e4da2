"""Organiser pages of events and games: tables, start and finish, manual result entry with the same
checks as the API, the replay's dry run, corrections and a game's audit trail."""

import copy
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from games.models import Game, ResultCorrection, Table
from games.services import result_record
from league.models import AuditEntry, Event, EventKind, EventStatus, LedgerEntry, LedgerKind, Membership, Standing
from tests.factories import PlayerFactory
from tests.games.test_bad_input import counts
from tests.games.test_result_record import REPLAY, replay_players, replayed_game
from tests.manage.conftest import real_table_row, seat_data

pytestmark = pytest.mark.django_db


def result_data(seats, *, mode="credits", **extra):
    return {"mode": mode, "round": "1", "table": "", **seat_data(seats), **extra}


def test_an_event_is_created_in_a_season_and_starts_planned(world, organiser_client):
    url = f"/manage/leagues/{world.league.slug}/events/new/"
    assert organiser_client.get(url).status_code == 200
    response = organiser_client.post(
        url,
        {
            "name": "Kessel Run Cup",
            "kind": "tournament",
            "season": str(world.season.pk),
            "starts_at": "2026-12-05T19:30",
            "counts_for_standings": "on",
        },
    )
    event = Event.objects.get(name="Kessel Run Cup")
    assert response.status_code == 302 and response.url == f"/manage/events/{event.pk}/"
    assert (event.kind, event.status, event.season) == (EventKind.TOURNAMENT, EventStatus.PLANNED, world.season)


def test_a_league_without_seasons_sends_the_organiser_to_create_one(world, organiser_client):
    response = organiser_client.get(f"/manage/leagues/{world.other_league.slug}/events/new/")
    assert response.status_code == 403  # not theirs
    world.season.delete()
    response = organiser_client.get(f"/manage/leagues/{world.league.slug}/events/new/")
    assert response.status_code == 302 and response.url.endswith("/seasons/")


def test_tables_are_added_and_a_taken_number_is_refused_beside_it(world, organiser_client):
    # The form says a table is optional: a result entered by hand needs none (a newcomer read it as a first step).
    page = organiser_client.get(f"/manage/events/{world.event.pk}/").content.decode()
    assert "Optional: a named table" in page and "a result can be entered without one" in page
    url = f"/manage/events/{world.event.pk}/tables/"
    assert organiser_client.post(url, {"name": "Table one", "number": "1"}).status_code == 302
    response = organiser_client.post(url, {"name": "Again", "number": "1"})
    assert response.status_code == 400
    assert "exists already" in " ".join(response.context["table_form"].errors["number"])
    assert list(Table.objects.filter(event=world.event).values_list("name", flat=True)) == ["Table one"]


def test_finishing_an_event_puts_its_results_into_the_standings(
    world, organiser_client, django_capture_on_commit_callbacks
):
    event = world.event
    Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING, kind=EventKind.TOURNAMENT)
    han, lando = world.players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(
            f"/manage/events/{event.pk}/results/new/",
            result_data(
                [
                    {"player": han.pk, "buy_in": 450, "final_credits": 700},
                    {"player": lando.pk, "buy_in": 450, "final_credits": 200},
                ]
            ),
        )
    assert response.status_code == 302
    assert not Standing.objects.filter(league=world.league, player=han).exists()  # running events do not count
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(f"/manage/events/{event.pk}/status/", {"status": "finished"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    top = Standing.objects.filter(league=world.league, scope="all").order_by("rank").first()
    assert (top.player_id, top.rank) == (han.pk, 1)
    page = organiser_client.get(f"/manage/leagues/{world.league.slug}/").content.decode()
    assert "Han" in page.split('id="standings"')[1]


def test_an_unknown_status_is_refused_with_the_services_message(world, organiser_client):
    response = organiser_client.post(f"/manage/events/{world.event.pk}/status/", {"status": "paused"})
    assert response.status_code == 400
    assert "status must be one of" in response.content.decode()


def test_a_balanced_result_is_recorded_and_shown_on_the_game_page(world, organiser_client):
    han, lando, leia = world.players[:3]
    response = organiser_client.post(
        f"/manage/events/{world.event.pk}/results/new/",
        result_data(
            [
                {"player": han.pk, "buy_in": 450, "final_credits": 900},
                {"player": lando.pk, "buy_in": 450, "final_credits": 450},
                {"player": leia.pk, "buy_in": 450, "final_credits": 0},
            ]
        ),
    )
    game = Game.objects.get(event=world.event)
    assert response.status_code == 302 and response.url == f"/manage/games/{game.pk}/"
    places = dict(game.seats.values_list("player__display_name", "place"))
    assert places == {"Han": 1, "Lando": 2, "Leia": 3}
    page = organiser_client.get(response.url).content.decode()
    assert "Recorded" in page and "organiser-a" in page


def test_an_unbalanced_result_is_refused_beside_the_seats_and_nothing_is_saved(world, organiser_client):
    han, lando = world.players[:2]
    before = counts()
    response = organiser_client.post(
        f"/manage/events/{world.event.pk}/results/new/",
        result_data(
            [
                {"player": han.pk, "buy_in": 450, "final_credits": 600},
                {"player": lando.pk, "buy_in": 450, "final_credits": 200},
            ]
        ),
    )
    assert response.status_code == 400
    assert "Credits do not balance: 900 came in" in " ".join(response.context["form"].errors["seats"])
    assert counts() == before


def test_a_non_member_is_refused_by_the_service(world, organiser_client):
    stranger = PlayerFactory(display_name="Stranger")
    response = organiser_client.post(
        f"/manage/events/{world.event.pk}/results/new/",
        result_data(
            [
                {"player": world.players[0].pk, "buy_in": 450, "final_credits": 900},
                {"player": stranger.pk, "buy_in": 450, "final_credits": 0},
            ]
        ),
    )
    # Only members are offered; a forged id is refused by the form's choices before the service.
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_a_finishing_order_gives_the_winner_every_credit(world, organiser_client):
    han, lando, leia = world.players[:3]
    response = organiser_client.post(
        f"/manage/events/{world.event.pk}/results/new/",
        result_data(
            [
                {"player": han.pk, "buy_in": 450, "place": 2, "final_credits": 999},
                {"player": lando.pk, "buy_in": 450, "place": 1},
                {"player": leia.pk, "buy_in": 450, "place": 3},
            ],
            mode="order",
        ),
    )
    assert response.status_code == 302
    game = Game.objects.get(event=world.event)
    # In finishing-order mode the final credits column is not sent, whatever it holds.
    assert dict(game.seats.values_list("player__display_name", "final_credits")) == {
        "Han": 0,
        "Lando": 1350,
        "Leia": 0,
    }


def replay_file(document) -> SimpleUploadedFile:
    return SimpleUploadedFile("game.json", json.dumps(document).encode(), content_type="application/json")


def test_the_replay_check_shows_the_engines_verdict_and_saves_nothing(world, organiser_client):
    bob, jane = replay_players(world)
    seats = [{"player": bob.pk, "buy_in": 100}, {"player": jane.pk, "buy_in": 100}]
    before = counts()
    response = organiser_client.post(
        f"/manage/events/{world.event.pk}/results/check/",
        {**result_data(seats, mode="replay"), "replay": replay_file(REPLAY)},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "The engine accepts this replay" in html
    assert [(s.player.display_name, s.final_credits, s.place) for s in response.context["seats"]] == [
        ("Jane", 106, 1),
        ("Bob", 94, 2),
    ]
    assert counts() == before
    # The verdict never echoes the replay: no deck order and no seed.
    assert "-5c" not in html and '"seed"' not in html

    broken = copy.deepcopy(REPLAY)
    broken["hands"][0]["actions"][2] = {"player": "Bob", "do": "check"}
    response = organiser_client.post(
        f"/manage/events/{world.event.pk}/results/check/",
        {**result_data(seats, mode="replay"), "replay": replay_file(broken)},
    )
    assert "refused by the rules engine" in response.content.decode()
    assert counts() == before


def test_a_replay_is_saved_and_an_unreadable_file_is_refused_beside_the_input(world, organiser_client):
    bob, jane = replay_players(world)
    seats = [{"player": bob.pk, "buy_in": 100}, {"player": jane.pk, "buy_in": 100}]
    url = f"/manage/events/{world.event.pk}/results/new/"
    not_json = SimpleUploadedFile("game.json", b"{not json", content_type="application/json")
    response = organiser_client.post(url, {**result_data(seats, mode="replay"), "replay": not_json})
    assert response.status_code == 400
    assert "not JSON" in " ".join(response.context["form"].errors["replay"])
    response = organiser_client.post(url, {**result_data(seats, mode="replay"), "replay": replay_file(REPLAY)})
    assert response.status_code == 302
    game = Game.objects.get(event=world.event)
    assert game.replay_document is not None
    page = organiser_client.get(response.url).content.decode()
    assert "-5c" not in page and "Jane" in page


def recorded_game(world):
    han, lando = world.players[:2]
    return result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[
            {"player": han.pk, "buy_in": 450, "final_credits": 600},
            {"player": lando.pk, "buy_in": 450, "final_credits": 300},
        ],
    )


def correction_data(game, finals, reason="Han miscounted"):
    seats = [
        {"player": seat.player_id, "buy_in": seat.buy_in, "rebuys": 0, "final_credits": finals[seat.player_id]}
        for seat in game.seats.order_by("number")
    ]
    return {"reason": reason, "mode": "credits", **seat_data(seats, total=len(seats))}


def test_a_correction_needs_a_reason_and_then_shows_in_the_audit_trail(world, organiser_client):
    game = recorded_game(world)
    han, lando = world.players[:2]
    url = f"/manage/games/{game.pk}/correct/"
    page = organiser_client.get(url)
    assert page.status_code == 200 and 'value="600"' in page.content.decode()
    response = organiser_client.post(url, correction_data(game, {han.pk: 500, lando.pk: 400}, reason=""))
    assert response.status_code == 400 and "reason" in response.context["form"].errors
    assert not ResultCorrection.objects.exists()
    response = organiser_client.post(url, correction_data(game, {han.pk: 500, lando.pk: 500}))
    assert response.status_code == 400
    assert "do not balance" in " ".join(response.context["form"].errors["seats"])
    response = organiser_client.post(url, correction_data(game, {han.pk: 350, lando.pk: 550}))
    assert response.status_code == 302
    correction = ResultCorrection.objects.get(game=game)
    assert correction.reason == "Han miscounted"
    assert dict(game.seats.values_list("player_id", "place")) == {han.pk: 2, lando.pk: 1}
    trail = organiser_client.get(f"/manage/games/{game.pk}/").content.decode()
    assert "Corrected" in trail and "Han miscounted" in trail and "Lando: 550 credits, place 1" in trail


def test_a_replayed_game_cannot_be_corrected_by_hand(world, organiser_client):
    game, bob, jane = replayed_game(world)
    finals = {bob.pk: 100, jane.pk: 100}
    response = organiser_client.post(f"/manage/games/{game.pk}/correct/", correction_data(game, finals))
    assert response.status_code == 400
    assert "cannot be overridden by hand" in response.content.decode()


def test_a_stranger_cannot_open_another_leagues_entry_pages(world):
    from tests.manage.conftest import page_client

    game = recorded_game(world)
    other = page_client(world.users["other_organiser"])
    for url in (
        f"/manage/events/{world.event.pk}/",
        f"/manage/events/{world.event.pk}/results/new/",
        f"/manage/games/{game.pk}/",
        f"/manage/games/{game.pk}/correct/",
    ):
        assert other.get(url).status_code == 403, url
    assert Membership.objects.filter(league=world.league).count() == 10


def test_the_same_result_form_sent_twice_records_one_game(world, organiser_client):
    han, lando = world.players[:2]
    url = f"/manage/events/{world.event.pk}/results/new/"
    token = organiser_client.get(url).context["form"]["submission"].value()
    assert token
    unbalanced = result_data(
        [
            {"player": han.pk, "buy_in": 450, "final_credits": 600},
            {"player": lando.pk, "buy_in": 450, "final_credits": 0},
        ],
        submission=token,
    )
    assert organiser_client.post(url, unbalanced).status_code == 400
    # Put right and sent again with the same form: saved once; the repeat lands on the same game.
    balanced = {**unbalanced, "seat-1-final_credits": "300"}
    first = organiser_client.post(url, balanced)
    again = organiser_client.post(url, balanced)
    game = Game.objects.get(event=world.event)
    assert first.status_code == again.status_code == 302
    assert first.url == again.url == f"/manage/games/{game.pk}/"
    assert Game.objects.filter(event=world.event).count() == 1
    # A new form (a new value) records a second game.
    assert organiser_client.post(url, {**balanced, "submission": uuid.uuid4().hex}).status_code == 302
    assert Game.objects.filter(event=world.event).count() == 2


def test_the_same_correction_sent_twice_is_booked_once(world, organiser_client):
    game = recorded_game(world)
    han, lando = world.players[:2]
    data = {**correction_data(game, {han.pk: 350, lando.pk: 550}), "submission": uuid.uuid4().hex}
    url = f"/manage/games/{game.pk}/correct/"
    assert organiser_client.post(url, data).status_code == 302
    assert organiser_client.post(url, data).status_code == 302
    assert ResultCorrection.objects.filter(game=game).count() == 1


def test_credits_are_adjusted_with_a_reason_and_listed_on_the_event(world, organiser_client):
    han = world.players[0]
    url = f"/manage/events/{world.event.pk}/adjustments/"
    response = organiser_client.post(url, {"player": str(han.pk), "amount": "0", "reason": "nothing"})
    assert response.status_code == 400
    assert "non-zero whole number" in " ".join(response.context["adjustment_form"].errors["amount"])
    response = organiser_client.post(url, {"player": str(han.pk), "amount": "-50", "reason": ""})
    assert response.status_code == 400 and not LedgerEntry.objects.filter(kind=LedgerKind.ADJUSTMENT).exists()
    response = organiser_client.post(url, {"player": str(han.pk), "amount": "-50", "reason": "chips miscounted"})
    assert response.status_code == 302
    entry = LedgerEntry.objects.get(kind=LedgerKind.ADJUSTMENT)
    assert (entry.player, entry.amount, entry.reason, entry.author) == (
        han,
        -50,
        "chips miscounted",
        world.users["organiser"],
    )
    page = organiser_client.get(f"/manage/events/{world.event.pk}/").content.decode()
    assert "chips miscounted" in page and "-50" in page


def test_an_event_is_edited_and_only_changes_are_audited(world, organiser_client):
    event = world.event
    url = f"/manage/events/{event.pk}/edit/"
    page = organiser_client.get(url)
    assert page.status_code == 200
    assert page.context["form"]["name"].value() == event.name  # the form opens with the event as saved
    data = {
        "name": "Renamed night",
        "kind": event.kind,
        "starts_at": timezone.localtime(event.starts_at).strftime("%Y-%m-%dT%H:%M"),
        "counts_for_standings": "",
    }
    response = organiser_client.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.counts_for_standings) == ("Renamed night", False)
    entry = AuditEntry.objects.filter(action="event.update").latest("id")
    assert set(entry.data["after"]) <= {"name", "counts_for_standings", "starts_at"}
    assert {"name", "counts_for_standings"} <= set(entry.data["after"])


def test_an_event_page_leads_to_an_online_table_with_the_event_chosen(world, organiser_client):
    """docs/organising.md: "open a table from the event". The link opens the tables page's form on this event."""
    Event.objects.filter(pk=world.event.pk).update(status=EventStatus.RUNNING)
    page = organiser_client.get(f"/manage/events/{world.event.pk}/").content.decode()
    link = f"/tables/?event={world.event.pk}#open-table"
    assert 'data-action="open-online-table"' in page and link in page
    lobby = organiser_client.get(link.split("#")[0]).content.decode()
    assert f'<option value="{world.event.pk}" selected' in lobby and 'id="open-table"' in lobby
    from games.online.services import table_open

    table = table_open(actor=world.users["organiser"], event=world.event, name="Back room", seats=4)
    page = organiser_client.get(f"/manage/events/{world.event.pk}/").content.decode()
    assert f'<a href="/tables/{table.pk}/">Online table “Back room”</a>' in page
    Event.objects.filter(pk=world.event.pk).update(status=EventStatus.FINISHED)
    assert (
        'data-action="open-online-table"'
        not in organiser_client.get(f"/manage/events/{world.event.pk}/").content.decode()
    )


def _section(page: str, section: str) -> str:
    return page.split(f'<section id="{section}">', 1)[1].split("</section>", 1)[0]


def test_the_organiser_page_lists_every_table_of_the_event_as_its_public_page_does(world, organiser_client):
    """One source for both pages (`games.pages.event_tables`): online and real-cards tables are tables too, so the
    organiser page never says "No tables yet." beside them, and lists each with its kind, status and link."""
    from games.online.services import table_open
    from games.pages import event_tables
    from games.services import table_create

    Event.objects.filter(pk=world.event.pk).update(status=EventStatus.RUNNING)
    world.event.refresh_from_db()
    url = f"/manage/events/{world.event.pk}/"
    assert "No tables yet." in _section(organiser_client.get(url).content.decode(), "tables")
    organiser = world.users["organiser"]
    online = table_open(actor=organiser, event=world.event, name="Back room", seats=4)
    real = real_table_row(host=organiser, event=world.event, code="RCT001")
    tables = _section(organiser_client.get(url).content.decode(), "tables")
    assert "No tables yet." not in tables  # no results table, but two tables of the event
    assert f'<a href="/tables/{online.pk}/">Online table “Back room”</a>' in tables
    assert f'<a href="/tabletop/{real.code}/">Real-cards table {real.code}</a>' in tables
    table_create(actor=organiser, event=world.event, name="Table one", number=1)
    a, b = world.players[0], world.players[1]
    game = result_record(
        actor=organiser,
        event=world.event,
        seats=[{"player": a.pk, "final_credits": 900}, {"player": b.pk, "final_credits": 0}],
        table=Table.objects.get(event=world.event),
    )
    page = organiser_client.get(url).content.decode()
    tables = _section(page, "tables")
    rows = event_tables(event=world.event)["tables"]
    assert [row["kind"] for row in rows] == ["table", "online", "real_cards"]
    items = tables.split("<li")[1:]
    assert len(items) == len(rows)
    for item, row in zip(items, rows, strict=True):
        assert f'data-table-kind="{row["kind"]}"' in item and row["kind_label"] in item
        assert f"<span data-table-status>{row['status']}</span>" in item
        assert (row["url"] or "") in item and row["name"][:1].upper() + row["name"][1:] in item
    assert items[0].startswith(' data-table-kind="table">1. Table one') and f"/manage/games/{game.pk}/" in items[0]
    # The public page lists the same tables, by the same links.
    public = organiser_client.get(f"/events/{world.event.pk}/").content.decode()
    for row in rows[1:]:
        assert f'<a href="{row["url"]}">' in public and f'<a href="{row["url"]}">' in tables
    # The form numbers the next results table after the results tables, not after every table.
    assert 'name="number" value="2"' in page

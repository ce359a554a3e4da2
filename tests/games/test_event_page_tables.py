"""The event page's "Tables and games" lists every table of the event (results tables, online and real-cards tables,
its tournament's tables) with its kind, status and link, the games played at each, and the games entered by hand at
no table; the API's event detail lists the same site tables."""

import pytest
from django.test import Client, TestCase

from games.online import schedule
from games.online import services as online
from games.services import result_record
from games.tabletop import services as tabletop
from league.models import EventStatus
from tests.factories import EventFactory
from tests.league.conftest import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db, monkeypatch):
    monkeypatch.setattr(schedule, "later", lambda name, args, countdown: None)  # no bot or clock task runs here
    return build_world()


def _tables(client: Client, event) -> str:
    page = client.get(f"/events/{event.pk}/")
    assert page.status_code == 200
    return page.content.decode().split('<section id="tables">', 1)[1].split("</section>", 1)[0]


def _panels(section: str) -> dict[str, str]:
    """Each table's panel by its kind and heading text (tags stripped)."""
    import re

    panels = {}
    for part in section.split('<div class="panel"')[1:]:
        kind = part.split('data-table-kind="', 1)[1].split('"', 1)[0]
        heading = " ".join(re.sub(r"<[^>]+>", " ", part.split("<h3>", 1)[1].split("</h3>", 1)[0]).split())
        panels[f"{kind}: {heading}"] = part
    return panels


def test_an_events_online_and_real_cards_tables_show_with_kind_status_and_link(world):
    organiser = world.users["organiser"]
    event = EventFactory(season=world.season, name="Practice night", status=EventStatus.RUNNING)
    lobby = online.table_open(actor=organiser, event=event, name="Practice table", seats=2)
    cards = tabletop.realtable_open_league(actor=organiser, event=event)

    section = _tables(Client(), event)

    assert "No tables" not in section
    panels = _panels(section)
    assert set(panels) == {
        "online: Online table “Practice table” Open",
        f"real_cards: Real-cards table {cards.code} Open",
    }
    online_panel = panels["online: Online table “Practice table” Open"]
    assert f'href="/tables/{lobby.pk}/"' in online_panel and "Online table</p>" in online_panel
    assert "No game at this table yet" in online_panel
    assert f'href="/tabletop/{cards.code}/"' in panels[f"real_cards: Real-cards table {cards.code} Open"]


def test_a_game_at_an_online_table_shows_under_it_and_one_entered_by_hand_says_so(world):
    organiser, member = world.users["organiser"], world.users["member"]
    event = EventFactory(season=world.season, name="Mixed night", status=EventStatus.RUNNING)
    table = online.table_open(actor=organiser, event=event, name="Cantina", seats=2)
    online.seat_take(actor=organiser, table=table)
    online.seat_take(actor=member, table=table)
    online.table_start(actor=organiser, table=table)
    table.refresh_from_db()
    han, lando = world.players[:2]
    with TestCase.captureOnCommitCallbacks(execute=True):
        by_hand = result_record(
            actor=organiser,
            event=event,
            seats=[
                {"player": han.pk, "buy_in": 100, "final_credits": 150},
                {"player": lando.pk, "buy_in": 100, "final_credits": 50},
            ],
        )

    panels = _panels(_tables(Client(), event))

    assert set(panels) == {"online: Online table “Cantina” Running", "by-hand: Entered by hand, at no table"}
    assert f'href="/games/{table.game_id}/"' in panels["online: Online table “Cantina” Running"]
    hand_panel = panels["by-hand: Entered by hand, at no table"]
    assert f'href="/games/{by_hand.pk}/"' in hand_panel and f'href="/games/{table.game_id}/"' not in hand_panel


def test_a_tournaments_tables_show_and_link_its_pages(world, friday_freezeout):
    from tournaments import services as tournaments

    organiser, tournament = world.users["organiser"], friday_freezeout
    event = tournament.event
    for player in world.players[:4]:
        tournaments.tournament_register(actor=organiser, tournament=tournament, player=player)
    tournaments.tournament_publish_seed(actor=organiser, tournament=tournament)
    tournaments.tournament_draw(actor=organiser, tournament=tournament)
    seated = tournament.registrations.filter(table_number=1).order_by("seat_number")
    played = online.table_open_seated(
        actor=organiser,
        event=event,
        name="Tournament table 1",
        players=[registration.player for registration in seated],
        stack=450,
        option_overrides={},
        tournament_table=1,
        seat_count=2,
    )

    section = _tables(Client(), event)

    assert f'href="/tournaments/{tournament.pk}/#tables"' in section
    panels = _panels(section)
    # Table 1 is played online (its row is the online table's, naming the tournament's table); table 2 at the venue.
    assert [key.split(":")[0] for key in panels] == ["online", "tournament"]
    online_panel = next(panel for key, panel in panels.items() if key.startswith("online"))
    assert f'href="/tables/{played.pk}/"' in online_panel and "playing the tournament\u2019s table 1" in online_panel
    assert "tournament: Table 2 Playing, 2 seated" in panels
    assert f'href="/tournaments/{tournament.pk}/#tables"' in panels["tournament: Table 2 Playing, 2 seated"]


def test_the_apis_event_detail_lists_the_same_site_tables_as_the_page(world):
    organiser = world.users["organiser"]
    event = EventFactory(season=world.season, name="Practice night", status=EventStatus.RUNNING)
    lobby = online.table_open(actor=organiser, event=event, name="Practice table", seats=2)
    cards = tabletop.realtable_open_league(actor=organiser, event=event)

    detail = Client().get(f"/api/events/{event.pk}/").json()

    assert detail["site_tables"] == [
        {
            "kind": "online",
            "name": "online table “Practice table”",
            "status": "open",
            "url": f"/tables/{lobby.pk}/",
            "tournament_table": None,
            "game": None,
        },
        {
            "kind": "real_cards",
            "name": f"real-cards table {cards.code}",
            "status": "open",
            "url": f"/tabletop/{cards.code}/",
            "tournament_table": None,
            "game": None,
        },
    ]
    section = _tables(Client(), event)
    assert all(f'href="{row["url"]}"' in section for row in detail["site_tables"])


def _open_site_tables(world, count: int) -> list:
    """`count` more running events, each with an online table and a real-cards table."""
    organiser = world.users["organiser"]
    events = []
    for index in range(count):
        event = EventFactory(season=world.season, name=f"Night {index}", status=EventStatus.RUNNING)
        online.table_open(actor=organiser, event=event, name=f"Table {index}", seats=2)
        tabletop.realtable_open_league(actor=organiser, event=event)
        events.append(event)
    return events


def test_the_apis_event_list_gives_each_events_site_tables_in_a_fixed_number_of_queries(
    world, django_assert_num_queries
):
    _open_site_tables(world, 1)
    # count, the page, its results tables, then its online and its real-cards tables: one query each for the page.
    with django_assert_num_queries(5):
        few = Client().get("/api/events/").json()
    _open_site_tables(world, 3)
    with django_assert_num_queries(5):
        many = Client().get("/api/events/").json()
    assert many["count"] == few["count"] + 3
    listed = {row["id"]: row["site_tables"] for row in many["results"]}
    assert sum(len(tables) for tables in listed.values()) == 8  # two for each of the four nights, none elsewhere
    for event_id, tables in listed.items():  # each event's rows are its own, as its detail gives them
        assert tables == Client().get(f"/api/events/{event_id}/").json()["site_tables"]

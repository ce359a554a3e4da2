"""The league, player and event pages are served from the page cache (`league.page_cache`) until the league's
data changes: every write service that changes what a page shows moves the league's data version, and the next
request shows the change. Each test first loads the page (filling the cache), writes, and loads it again."""

import datetime
import re
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client, TestCase
from django.utils import timezone

from config.errors import ApplicationError
from games.models import Game
from games.services import result_correct, result_record
from league import services
from league.models import EventStatus, League, Visibility
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory
from tests.league.conftest import eager_tasks  # noqa: F401 (autouse: the standings task runs in-process, as with a worker)

pytestmark = pytest.mark.django_db


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _committed(write):
    """Run a write service as a request would: its after-commit work (version bump, standings) runs too."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return write()


def _version(league) -> int:
    return League.objects.values_list("data_version", flat=True).get(pk=league.pk)


def _standings_row(html: str, name: str) -> str:
    """The standings row of one player (from the stored table, not the provisional one)."""
    table = html.split('id="standings-table"', 1)[1].split("</table>", 1)[0]
    return next(row for row in table.split("<tr") if f">{name}</a>" in row)


def test_a_page_served_twice_reads_the_cache_not_the_database(site_world, django_assert_num_queries, settings):
    settings.PAGE_STAMP_MAX_AGE = 0  # no league read remembered (see test_whole_page_cache.py)
    url = f"/leagues/{site_world.base.league.slug}/"
    first = _get(Client(), url)
    with django_assert_num_queries(1):  # the league (who may see it, and its data version) only
        again = _get(Client(), url)
    strip = re.compile(r'"X-CSRFToken": "[^"]+"')
    assert strip.sub("", again) == strip.sub("", first)


def test_a_new_result_shows_on_the_league_event_and_player_pages(site_world):
    world = site_world.base
    han, rey = world.players[0], world.players[4]
    league_url, player_url = f"/leagues/{world.league.slug}/", f"/players/{rey.pk}/"
    event = EventFactory(season=world.season, name="Friday night", status=EventStatus.FINISHED)
    event_url = f"/events/{event.pk}/"
    before = {url: _get(Client(), url) for url in (league_url, player_url, event_url)}
    assert ">Rey</a>" not in before[league_url]
    assert "No finished games yet" in before[event_url]
    assert "No results yet" in before[player_url]

    _committed(
        lambda: result_record(
            actor=world.users["organiser"],
            event=event,
            seats=[
                {"player": rey.pk, "buy_in": 450, "final_credits": 700},
                {"player": han.pk, "buy_in": 450, "final_credits": 200},
            ],
        )
    )

    league_page, player_page, event_page = (_get(Client(), url) for url in (league_url, player_url, event_url))
    assert "Friday night" in league_page and ">Rey</a>" in _standings_row(league_page, "Rey")
    assert ">Rey</a>" in event_page and "700" in event_page
    assert "Friday night" in player_page and "No results yet" not in player_page


def test_a_correction_shows_on_the_event_and_league_pages(site_world):
    world = site_world.base
    han, lando = world.players[:2]
    game = site_world.finished_game
    event_url, league_url = f"/events/{game.event_id}/", f"/leagues/{world.league.slug}/?season={world.season.pk}"
    assert ">334<" not in _get(Client(), event_url)  # a cell's text: a player id such as 6334 must not match
    before = _standings_row(_get(Client(), league_url), "Lando")

    _committed(
        lambda: result_correct(
            actor=world.users["organiser"],
            game=Game.objects.get(pk=game.pk),
            reason="Miscounted chips",
            seats=[
                {"player": han.pk, "buy_in": 450, "final_credits": 116},
                {"player": lando.pk, "buy_in": 450, "final_credits": 784},
            ],
        )
    )

    assert ">334<" in _get(Client(), event_url)  # Lando's net credits after the correction: 784 - 450
    assert _standings_row(_get(Client(), league_url), "Lando") != before


def test_a_ledger_adjustment_shows_on_the_event_and_player_pages(site_world):
    world = site_world.base
    han = world.players[0]
    event = site_world.finished_game.event
    event_url, player_url = f"/events/{event.pk}/", f"/players/{han.pk}/"
    before_event, before_player = _get(Client(), event_url), _get(Client(), player_url)
    assert "Adjustment" not in before_player

    _committed(
        lambda: services.ledger_adjust(
            actor=world.users["organiser"], event=event, player=han, amount=-55, reason="Late penalty"
        )
    )

    assert _get(Client(), event_url) != before_event
    assert "Adjustment" in _get(Client(), player_url)


def test_a_new_member_shows_on_their_player_page(site_world):
    world = site_world.base
    other = LeagueFactory(name="Outer Rim Open", visibility=Visibility.PUBLIC)
    han = world.players[0]
    url = f"/players/{han.pk}/"
    assert "Outer Rim Open" not in _get(Client(), url)

    _committed(lambda: services.membership_add(actor=world.users["admin"], league=other, player=han))

    assert "Outer Rim Open" in _get(Client(), url)


def test_a_claimed_player_sees_their_row_highlighted(site_world):
    world = site_world.base
    han = world.players[0]
    user = world.users["outsider"]
    user.player.delete()  # the outsider has a player of their own; let them take Han instead
    client = Client()
    client.force_login(user)
    url = f"/leagues/{world.league.slug}/?season={world.season.pk}"
    assert "aria-current" not in _standings_row(_get(client, url), "Han")

    _committed(lambda: services.player_claim(user=user, player=han, claim_code=han.claim_code))

    assert 'class="me" aria-current="true"' in _standings_row(_get(client, url), "Han")


def test_a_finished_event_shows_as_finished_and_counts_in_the_standings(site_world):
    world = site_world.base
    running = site_world.running_event
    event_url, league_url = f"/events/{running.pk}/", f"/leagues/{world.league.slug}/?season={world.season.pk}"
    assert "provisional" in _get(Client(), event_url)
    before = _get(Client(), league_url)
    assert 'id="provisional"' in before

    _committed(lambda: services.event_update(actor=world.users["organiser"], event=running, status="finished"))

    event_page, league_page = _get(Client(), event_url), _get(Client(), league_url)
    assert "provisional" not in event_page and "Finished" in event_page
    assert 'id="provisional"' not in league_page and ">Leia</a>" in _standings_row(league_page, "Leia")


def test_league_and_season_edits_show_in_the_rules(site_world):
    world = site_world.base
    url = f"/leagues/{world.league.slug}/?season={world.season.pk}"
    assert "Cantina" not in _get(Client(), url)

    _committed(lambda: services.league_update(actor=world.users["organiser"], league=world.league, preset="cantina"))
    assert "Cantina Coruscant Shift" in _get(Client(), url)

    _committed(
        lambda: services.season_update(
            actor=world.users["organiser"], season=world.season, option_overrides={"starting_stack": 777}
        )
    )
    assert "777 credits each" in _get(Client(), url)


def test_a_renamed_player_shows_under_the_new_name_on_the_event_page(site_world):
    world = site_world.base
    han = world.players[0]
    url = f"/events/{site_world.finished_game.event_id}/"
    assert ">Han</a>" in _get(Client(), url)

    _committed(lambda: services.player_update(actor=world.users["admin"], player=han, display_name="Han Solo"))

    page = _get(Client(), url)
    assert ">Han Solo</a>" in page and ">Han</a>" not in page


def test_a_new_season_and_event_show_on_the_league_page(site_world):
    world = site_world.base
    url = f"/leagues/{world.league.slug}/"
    assert "Season of the Sylop" not in _get(Client(), url)

    season = _committed(
        lambda: services.season_create(
            actor=world.users["organiser"],
            league=world.league,
            name="Season of the Sylop",
            starts_on=datetime.date.today() + datetime.timedelta(days=1),
        )
    )
    assert "Season of the Sylop" in _get(Client(), url)

    _committed(
        lambda: services.event_create(
            actor=world.users["organiser"], season=season, name="Opening night", starts_at=timezone.now()
        )
    )
    assert "Opening night" in _get(Client(), f"{url}?season={season.pk}")


def test_every_write_moves_the_version_and_a_refused_one_moves_nothing(site_world):
    world = site_world.base
    league = world.league
    before = _version(league)
    organiser = world.users["organiser"]
    guest = PlayerFactory(created_by=organiser)  # a guest joins a league by those who answer for it
    _committed(lambda: services.membership_add(actor=organiser, league=league, player=guest))
    assert _version(league) > before

    before = _version(league)
    with pytest.raises(ApplicationError):
        _committed(lambda: services.league_update(actor=world.users["organiser"], league=league, preset="nonsense"))
    assert _version(league) == before


def test_saving_a_stale_copy_of_a_league_never_takes_its_version_back(site_world):
    world = site_world.base
    stale = League.objects.get(pk=world.league.pk)
    _committed(
        lambda: services.season_create(
            actor=world.users["organiser"], league=world.league, name="S2", starts_on=datetime.date(2030, 1, 1)
        )
    )
    moved = _version(world.league)
    stale.description = "Edited in another window"
    stale.save()
    assert _version(world.league) == moved
    assert League.objects.get(pk=world.league.pk).description == "Edited in another window"


def test_a_league_made_anew_with_a_used_id_never_meets_the_old_pages(db, settings):
    """A test database or a re-created site can give a new league an old id and version: the key also holds
    the league's creation time."""
    settings.PAGE_STAMP_MAX_AGE = 0  # made anew without a service: as a new process, nothing remembered
    old = LeagueFactory(slug="phoenix", name="Old league")
    season = SeasonFactory(league=old)
    night = EventFactory(season=season, name="Old night")
    url = "/leagues/phoenix/"
    assert "Old night" in _get(Client(), url)
    pk, version = old.pk, _version(old)
    with transaction.atomic():
        night.delete()
        season.delete()
        old.delete()
        league = LeagueFactory(pk=pk, slug="phoenix", name="Reborn league")
        League.objects.filter(pk=pk).update(data_version=version)
        SeasonFactory(league=league)
    page = _get(Client(), url)
    assert "Reborn league" in page and "Old night" not in page


def test_a_cache_that_fails_still_serves_the_page(site_world):
    url = f"/leagues/{site_world.base.league.slug}/"
    with mock.patch("league.page_cache.cache.get", side_effect=ConnectionError("cache down")):
        assert "Han" in _get(Client(), url)


def test_a_site_admin_editing_an_event_in_the_admin_changes_the_league_page(site_world):
    world = site_world.base
    event = world.event
    url = f"/leagues/{world.league.slug}/?season={world.season.pk}"
    assert f">{event.name}</a>" in _get(Client(), url)
    admin = Client()
    admin.force_login(world.users["admin"])
    starts = timezone.localtime(event.starts_at)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = admin.post(
            f"/admin/league/event/{event.pk}/change/",
            {
                "season": event.season_id,
                "name": "Renamed in the admin",
                "kind": event.kind,
                "status": event.status,
                "starts_at_0": starts.strftime("%Y-%m-%d"),
                "starts_at_1": starts.strftime("%H:%M:%S"),
                "chip_set": "",
                "buy_in_policy": "",
                "counts_for_standings": "on",
            },
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert ">Renamed in the admin</a>" in _get(Client(), url)


def test_a_ledger_reason_shows_to_the_league_organisers_and_admins_only_cached_or_not(site_world):
    """As the API: who wrote a ledger line and why is for the league's organisers and site admins."""
    world = site_world.base
    han = world.players[0]
    _committed(
        lambda: services.ledger_adjust(
            actor=world.users["organiser"],
            event=site_world.finished_game.event,
            player=han,
            amount=-5,
            reason="Slow play",
        )
    )
    url = f"/players/{han.pk}/"
    clients = {}
    for role in ("anonymous", "member", "organiser", "admin", "other_organiser"):
        clients[role] = Client()
        if role != "anonymous":
            clients[role].force_login(world.users[role])
    for _ in range(2):  # rendered, then from the cache
        shown = {role: "Slow play" in _get(client, url) for role, client in clients.items()}
        assert shown == {
            "anonymous": False,
            "member": False,
            "organiser": True,
            "admin": True,
            "other_organiser": False,
        }


def test_the_player_pages_read_decides_as_the_selectors_with_the_viewers_roles_known_or_not(db):
    """`page_stamps.player_for_viewer` reads the viewer's roles with the player when they are not known yet,
    and takes them as given when they are (a copy of the viewer held in Redis): the same answer either way,
    and the one `selectors.player_list` and `selectors.league_list` give."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser

    from league import page_stamps, selectors
    from league.models import Player
    from tests.league.conftest import build_world

    world = build_world(Visibility.MEMBERS)
    PlayerFactory(display_name="Nowhere", created_by=world.users["member"])
    viewers = [AnonymousUser(), *(user for user in world.users.values() if user is not None)]
    for viewer in viewers:
        for player in Player.objects.all():
            unknown = get_user_model().objects.get(pk=viewer.pk) if viewer.pk else AnonymousUser()
            known = get_user_model().objects.get(pk=viewer.pk) if viewer.pk else AnonymousUser()
            selectors.load_viewer(known)
            first = page_stamps.player_for_viewer(user=unknown, pk=player.pk)
            assert page_stamps.player_for_viewer(user=known, pk=player.pk) == first
            assert first.visible == selectors.player_list(user=viewer).filter(pk=player.pk).exists()
            assert [pk for pk, _ in first.leagues] == sorted(
                selectors.league_list(user=viewer).values_list("pk", flat=True)
            )
            if viewer.pk:
                assert unknown._league_roles_cache == known._league_roles_cache
                assert unknown._player_id_cache == known._player_id_cache
    assert any(
        not page_stamps.player_for_viewer(user=v, pk=p.pk).visible for v in viewers for p in Player.objects.all()
    )


def _table_status(html: str, name: str) -> str:
    """The status badge of one table in the event page's "Tables and games"."""
    tables = html.split('<section id="tables">', 1)[1].split("</section>", 1)[0]
    panel = next(part for part in tables.split('<div class="panel"')[1:] if name in part)
    return panel.split("data-table-status>", 1)[1].split("<", 1)[0]


def test_an_online_tables_every_status_shows_on_the_event_page_at_once(site_world, monkeypatch):
    """The event page lists its online tables from the cache until the league's data version moves: opening a
    table, starting, pausing and resuming it each move it (`games.table_status`), wherever they run."""
    from games.online import schedule
    from games.online import services as online

    monkeypatch.setattr(schedule, "later", lambda name, args, countdown: None)  # no bot or clock task runs here
    world = site_world.base
    organiser, member = world.users["organiser"], world.users["member"]
    event = EventFactory(season=world.season, name="Cash night", status=EventStatus.RUNNING)
    url = f"/events/{event.pk}/"
    assert "No tables or games yet" in _get(Client(), url)

    table = _committed(lambda: online.table_open(actor=organiser, event=event, name="Cantina", seats=2))
    assert _table_status(_get(Client(), url), "Cantina") == "Open"
    _committed(lambda: online.seat_take(actor=organiser, table=table))
    _committed(lambda: online.seat_take(actor=member, table=table))
    for write, shown in (
        (online.table_start, "Running"),
        (online.table_pause, "Paused"),
        (online.table_resume, "Running"),
    ):
        before = _version(world.league)
        _committed(lambda write=write: write(actor=organiser, table=table))
        assert _version(world.league) > before, write.__name__
        assert _table_status(_get(Client(), url), "Cantina") == shown, write.__name__


def test_a_real_cards_tables_open_and_finish_show_on_the_event_page_at_once(site_world):
    from games.tabletop import services as tabletop

    world = site_world.base
    organiser = world.users["organiser"]
    event = EventFactory(season=world.season, name="Cards night", status=EventStatus.RUNNING)
    url = f"/events/{event.pk}/"
    assert "No tables or games yet" in _get(Client(), url)

    table = _committed(lambda: tabletop.realtable_open_league(actor=organiser, event=event))
    assert _table_status(_get(Client(), url), table.code) == "Open"
    before = _version(world.league)
    _committed(lambda: tabletop.realtable_finish(actor=organiser, table=table))  # nobody played: nothing booked
    assert _version(world.league) > before
    assert _table_status(_get(Client(), url), table.code) == "Finished"


def test_an_online_tables_saves_that_keep_its_status_move_no_version(site_world):
    """A hand's actions save the table many times a minute: only a change of status moves the league's version."""
    from games.online.models import OnlineTable

    world = site_world.base
    event = EventFactory(season=world.season, name="Quiet night", status=EventStatus.RUNNING)
    table = _committed(lambda: OnlineTable.objects.create(event=event, name="Quiet", buy_in=100))
    before = _version(world.league)
    table = OnlineTable.objects.get(pk=table.pk)
    table.version += 1
    _committed(lambda: table.save(update_fields=["version", "updated_at"]))
    _committed(lambda: OnlineTable.objects.only("pk", "version").get(pk=table.pk).save(update_fields=["version"]))
    assert _version(world.league) == before
    table.status = "paused"
    _committed(lambda: table.save(update_fields=["status"]))
    assert _version(world.league) == before + 1

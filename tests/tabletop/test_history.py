"""The hand history of a real-cards table (issue 25): stepped through hand by hand on a page (steps, dice, hands
shown, pots and why), downloaded as `sabacc-realcards/1` and re-run by `manage.py replay --verify`; linked from
the league game's page; casual tables alike; no seed before the end; "My games" lists every real-cards table."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.tabletop import services
from tests.factories import UserFactory, client_as
from tests.tabletop.helpers import play_to_reveal, started_table
from tests.tabletop.league_helpers import league_world, play_hand_named, play_to_the_end, seated_league_table

pytestmark = pytest.mark.django_db


def test_a_finished_league_table_is_stepped_through_and_linked_from_its_league_game():
    world = league_world()
    table = seated_league_table(world)
    play_to_the_end(table, world.organiser, winner=0)
    table.refresh_from_db()
    viewer = client_as(world.bob)
    first = viewer.get(reverse("tabletop-history", args=[table.code]) + "?hand=1")
    assert first.status_code == 200
    html = first.content.decode()
    assert "Hand 1" in html and "Dice:" in html and "rolled 0 circle" in html.replace("+0", "0")
    assert "The pots and why" in html and "the table named Ann" in html
    assert 'rel="next"' in html and "?hand=2" in html and 'rel="prev"' not in html
    last = viewer.get(reverse("tabletop-history", args=[table.code])).content.decode()  # the last hand by default
    assert 'aria-current="page">2<' in last and 'rel="prev"' in last and 'rel="next"' not in last
    assert "Stacks after the hand" in last and "<td>Ann</td><td>8</td>" in last.replace("\n", "")
    # The league game's page links the table's history and its download.
    game_page = viewer.get(reverse("game-detail", args=[table.game_id])).content.decode()
    assert reverse("tabletop-history", args=[table.code]) in game_page
    assert reverse("tabletop-history-download", args=[table.code]) in game_page


def test_the_download_is_a_realcards_document_that_replay_verify_re_runs(tmp_path):
    world = league_world()
    table = seated_league_table(world, has_dice=False)  # the site rolls: the seed is checked by --verify
    play_to_the_end(table, world.organiser, winner=1)
    answer = client_as(world.ann).get(reverse("tabletop-history-download", args=[table.code]))
    assert answer.status_code == 200 and "attachment" in answer["Content-Disposition"]
    document = json.loads(answer.content)
    assert document["format"] == "sabacc-realcards/1" and document["result"]["over"] is True
    assert document["result"]["stacks"] == {"Ann": 0, "Bob": 8}
    path = tmp_path / "table.json"
    path.write_text(answer.content.decode())
    out = StringIO()
    call_command("replay", str(path), "--verify", stdout=out)
    rolls = sum(1 for step in document["steps"] if step.get("by") == "site")
    assert rolls == 2 and out.getvalue().strip() == f"verified: {rolls} site rolls"
    result = StringIO()
    call_command("replay", str(path), stdout=result)
    assert json.loads(result.getvalue())["stacks"] == {"Ann": 0, "Bob": 8}
    # A document whose listed result was changed is refused.
    document["result"]["stacks"] = {"Ann": 8, "Bob": 0}
    path.write_text(json.dumps(document))
    with pytest.raises(SystemExit):
        call_command("replay", str(path), "--verify", stdout=StringIO(), stderr=StringIO())


def test_casual_tables_have_the_same_history_and_no_seed_before_the_end():
    table, host, ann, _bob = started_table(has_dice=False)
    client = client_as(ann)
    assert client.get(reverse("tabletop-history", args=[table.code])).status_code == 200
    play_to_reveal(table, host)  # hand 1 waits for its reveal: being played
    page = client.get(reverse("tabletop-history", args=[table.code])).content.decode()
    assert "Hand 1" in page and "being played" in page and "the site rolled" in page
    download = client.get(reverse("tabletop-history-download", args=[table.code]))
    table.refresh_from_db()
    assert "seed" not in json.loads(download.content)
    assert table.master not in page and table.master not in download.content.decode()


def test_an_open_table_has_no_hands_to_show_or_download():
    host = UserFactory()
    table = services.realtable_open(actor=host, starting_credits=20)
    page = client_as(host).get(reverse("tabletop-history", args=[table.code]))
    assert page.status_code == 200 and "has not started" in page.content.decode()
    assert client_as(host).get(reverse("tabletop-history-download", args=[table.code])).status_code == 409
    assert client_as(host).get(reverse("tabletop-history", args=["ZZZZZZ"])).status_code == 404


def test_my_games_lists_casual_and_league_real_cards_tables_with_status_and_links():
    world = league_world()
    league_table = seated_league_table(world)
    playing = seated_league_table(world)  # opened before the first ends (a finished event takes no new table)
    play_to_the_end(league_table, world.organiser)
    league_table.refresh_from_db()
    casual = services.realtable_open(actor=world.ann, starting_credits=30)
    play_hand_named(playing, world.organiser)
    page = client_as(world.ann).get(reverse("online-my-games")).content.decode()
    section = page.split('id="real-cards-tables"')[1]
    for code in (league_table.code, casual.code, playing.code):
        assert reverse("tabletop-table", args=[code]) in section
    assert "Finished" in section and "Playing" in section and "Open: taking seats" in section
    assert reverse("game-detail", args=[league_table.game_id]) in section
    assert reverse("tabletop-history", args=[league_table.code]) in section
    assert "casual" in section and world.league.name in section and "1st" in section
    # Someone at none of them sees none of them.
    other = client_as(world.outsider).get(reverse("online-my-games")).content.decode()
    assert league_table.code not in other and casual.code not in other
    assert "No real-cards tables yet" in other


def test_the_event_manage_page_offers_a_real_cards_table_to_its_organisers():
    world = league_world()
    table = services.realtable_open_league(actor=world.organiser, event=world.event)
    page = client_as(world.organiser).get(reverse("manage-event", args=[world.event.pk])).content.decode()
    assert 'data-action="open-real-table"' in page and reverse("tabletop-league-open", args=[world.event.pk]) in page
    assert reverse("tabletop-table", args=[table.code]) in page
    assert 'value="coruscant_shift:cantina" selected' in page  # the league's rules are chosen

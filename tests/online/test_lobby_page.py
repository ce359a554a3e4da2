"""The lobby's form for opening a table: rules offered by variant under the names the pages use, each event
saying its variant (the page keeps only that variant's rules choosable); chips shown only where they say more
than the stack; Classic cards marked with their suit."""

import re

import pytest
from django.test import Client

from games.online.views import _chips_text

pytestmark = pytest.mark.django_db


def _lobby(world):
    world.event.status = "planned"  # a finished event takes no new tables
    world.event.save()
    client = Client()
    client.force_login(world.users["organiser"])
    response = client.get("/tables/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_are_offered_by_variant_under_readable_names(world):
    page = _lobby(world)
    rules = page.split('name="preset"', 1)[1].split("</select>", 1)[0]
    groups = re.findall(r'<optgroup label="([^"]+)" data-variant="([a-z_]+)">(.*?)</optgroup>', rules)
    by_variant = {variant: (label, re.findall(r'value="([a-z_]+)">([^<]+)<', body)) for label, variant, body in groups}
    assert set(by_variant) == {"coruscant_shift", "corellian_spike", "classic"}
    assert by_variant["coruscant_shift"][1][2] == ("better", "Better Coruscant Shift")
    assert ("galaxy_series", "Corellian Spike (Galaxy Series)") in by_variant["corellian_spike"][1]
    assert ("universe", "Classic (Universe)") in by_variant["classic"][1]
    assert "Galaxy_series" not in page and "Cantina_spike" not in page


def test_each_event_says_its_variant_for_the_rules_choice(world):
    world.season.variant, world.season.preset = "classic", "classic"
    world.season.save()
    page = _lobby(world)
    events = page.split('name="event"', 1)[1].split("</select>", 1)[0]
    assert f'value="{world.event.pk}" data-variant="classic"' in events
    world.season.variant, world.season.preset = "", ""
    world.season.save()
    assert f'value="{world.event.pk}" data-variant="{world.league.variant}"' in _lobby(world)


def test_chips_are_listed_only_where_they_say_more_than_the_stack():
    assert _chips_text({"gold": 2, "silver": 4, "bronze": 10}, 450) == "2 gold, 4 silver, 10 bronze"
    assert _chips_text({"chip": 264}, 264) == ""
    assert _chips_text({}, 0) == ""


def test_classic_cards_say_their_suit_and_face_cards_their_name():
    from games.words import card

    assert card("+12f", "classic") == {
        "code": "+12f",
        "sylop": False,
        "value": "+12",
        "suit": "classic-f",
        "mark": "Flasks",
        "label": "12 Flasks (Commander)",
    }
    assert card("-2", "classic")["label"] == "Queen of Air and Darkness (\u22122)"
    assert card("0", "classic")["mark"] == "face" and card("0", "classic")["label"] == "The Idiot"
    assert "mark" not in card("+3c")  # Coruscant Shift draws the suit's shape

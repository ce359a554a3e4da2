"""Renderings of a table are shared per version (issue 26): viewers whose state is the same share one rendering,
and a seat's rendering (with that player's own cards) never reaches another seat or a spectator."""

import json
import re

import pytest
from django.test import Client

from games.online import renders, services
from games.online.models import OnlineTable
from games.online.selectors import table_state
from tests.online.helpers import organiser_selects_none
from tests.online.test_stream import next_state, open_stream


@pytest.fixture(autouse=True)
def fresh_renders():
    renders.forget()


def fragment(client: Client, table: OnlineTable) -> dict:
    response = client.get(f"/tables/{table.pk}/fragment/")
    assert response.status_code == 200
    return json.loads(response.content)


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def hand_codes(html: str) -> list[str]:
    """The card codes of the 'Your hand' section."""
    mine = html.split('aria-label="Your cards"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'data-code="([^"]+)"', mine.split("Your hand", 1)[1])


def test_two_browsers_of_one_seat_share_one_rendering_and_spectators_share_another(world, humans, heads_up):
    made = renders.made
    first, second = fragment(client_of(humans[0]), heads_up), fragment(client_of(humans[0]), heads_up)
    assert renders.made == made + 1  # the second browser of the same player rendered nothing
    # Each gets its own idempotency key and CSRF token filled in; the rest is the same bytes.
    keys = [re.search(r'name="key" value="([0-9a-f]+)"', f["html"]).group(1) for f in (first, second)]
    assert keys[0] != keys[1]
    strip = re.compile(r'(name="key" value=|name="csrfmiddlewaretoken" value=)"[^"]*"|data-clock>[^<]*<')
    assert strip.sub("", first["html"]) == strip.sub("", second["html"])
    spectators = [fragment(client_of(), heads_up) for _ in range(3)]
    assert renders.made == made + 2  # one more for every anonymous spectator together
    assert len({strip.sub("", s["html"]) for s in spectators}) == 1
    for shown in (first, second, *spectators):
        assert renders.CSRF not in shown["html"] and renders.KEY not in shown["html"]
        assert renders.CLOCK not in shown["html"] and "s</span>" in shown["html"]  # the clock is filled in


def test_two_seats_at_the_same_version_never_share_a_rendering(world, humans, heads_up):
    """Same table, same version, two players: each rendering holds its own player's cards and not the other's."""
    organiser, member = world.users["organiser"], humans[0]
    made = renders.made
    theirs = {who: fragment(client_of(who), heads_up) for who in (organiser, member)}
    assert renders.made == made + 2
    assert theirs[organiser]["version"] == theirs[member]["version"] == heads_up.version
    cards = {who: table_state(heads_up, user=who)["view"]["cards"] for who in (organiser, member)}
    for who, other in ((organiser, member), (member, organiser)):
        html = theirs[who]["html"]
        assert hand_codes(html) == cards[who]
        for code in set(cards[other]) - set(cards[who]):
            assert f'data-code="{code}"' not in html
    spectator = fragment(client_of(), heads_up)["html"]
    assert 'aria-label="Your cards"' not in spectator
    for code in cards[organiser] + cards[member]:
        assert f'data-code="{code}"' not in spectator
    # Asked again (from the kept renderings now), each still gets their own.
    assert hand_codes(fragment(client_of(member), heads_up)["html"]) == cards[member]
    assert hand_codes(fragment(client_of(organiser), heads_up)["html"]) == cards[organiser]
    assert renders.made == made + 3  # the spectator's


def test_a_site_admin_watching_gets_the_organiser_controls_in_a_rendering_of_their_own(world, humans, heads_up):
    """An admin watching (not seated) sees Pause and Close; a member watching does not: two renderings."""
    made = renders.made
    watcher = fragment(client_of(humans[1]), heads_up)["html"]
    admin = fragment(client_of(world.users["admin"]), heads_up)["html"]
    assert renders.made == made + 2
    assert "Pause" not in watcher and "Close the table" not in watcher
    assert "Pause" in admin and 'aria-label="Your cards"' not in admin


def test_a_change_without_a_new_version_is_not_served_from_an_old_rendering(world, humans, heads_up):
    """A tournament's next level is saved without a new version (`games.online.services.breaks`); the row's
    `updated_at` moves, and with it the rendering's key."""
    before = fragment(client_of(humans[0]), heads_up)["html"]
    assert "next-level" not in before
    table = OnlineTable.objects.get(pk=heads_up.pk)
    table.pending_levels = {"level": 2, "ante": 5, "small_blind": 10, "big_blind": 20}
    table.save(update_fields=["pending_levels", "updated_at"])
    after = fragment(client_of(humans[0]), heads_up)
    assert after["version"] == heads_up.version and "next (level 2)" in after["html"]


def test_streams_of_one_seat_render_once_per_version(settings, world, humans, transactional_db, open_table, scheduled):
    settings.REDIS_URL = ""  # the database poll: sharing is the same whichever way a stream hears of changes
    table = open_table(seats=2)
    services.seat_take(actor=world.users["organiser"], table=table)
    services.seat_take(actor=humans[0], table=table)
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    opened = [open_stream(client_of(humans[0]), f"/tables/{table.pk}/events/") for _ in range(3)]
    try:
        firsts = [next_state(chunks) for _, chunks in opened]
        assert {int(event_id) for event_id, _ in firsts} == {table.version}
        made = renders.made
        organiser_selects_none(world, table)
        seconds = [next_state(chunks) for _, chunks in opened]
        assert {state["version"] for _, state in seconds} == {table.version + 1}
        assert renders.made == made + 1  # three streams of one seat: one rendering
        cards = table_state(OnlineTable.objects.get(pk=table.pk), user=humans[0])["view"]["cards"]
        assert all(hand_codes(state["html"]) == cards for _, state in seconds)
    finally:
        for response, _ in opened:
            response._iterator.close()

"""Pages and API of real-cards tables agree on who may do what; pages read in words; hidden information (the
master seed of the site's rolls) is in no response before the end."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from games.tabletop.models import RealTable
from games.tabletop.present import SOURCE_WORDS
from games.words import codes_in
from tests.factories import UserFactory, client_as
from tests.tabletop.helpers import act_to_reveal, current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _do(client: Client, table: RealTable, what: str, data: dict, htmx: bool = True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("tabletop-do", args=[table.code, what]), data, **headers)


def test_open_and_join_through_the_pages_with_a_guest_by_name():
    host = UserFactory(username="hostess")
    client = client_as(host)
    answer = client.post(reverse("tabletop-open"), {"game": "coruscant_shift:cantina", "starting_credits": "80"})
    table = RealTable.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("tabletop-table", args=[table.code])
    assert table.starting_credits == 80 and table.host == host
    # A guest types the code (lower case, spaces) and joins by name; the session keeps their seat.
    guest = Client()
    found = guest.get(reverse("tabletop-home"), {"code": f" {table.code[:3].lower()} {table.code[3:]}"})
    assert found.url == reverse("tabletop-table", args=[table.code])
    page = guest.get(found.url)
    assert page.status_code == 200 and "<svg" in page.content.decode()  # the QR code, inline
    joined = _do(guest, table, "join", {"name": "Bob"})
    assert joined.status_code == 200 and "Bob" in joined.content.decode()
    assert "(you)" in joined.content.decode()
    refused = _do(guest, table, "join", {"name": "Bob again"})
    assert refused.status_code == 409 and "already seated here, as Bob" in refused.content.decode()
    # Only the host starts.
    assert _do(guest, table, "start", {"dealer": "0"}).status_code == 403
    assert _do(client, table, "start", {"dealer": "0"}).status_code == 200
    table.refresh_from_db()
    assert table.status == "playing"


def test_pages_and_api_refuse_the_same_steps_and_allow_the_same():
    table, host, ann, bob = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 5, "suit": "square"}})
    stranger = client_as(UserFactory(username="stranger"))
    ann_client = client_as(ann)
    table.refresh_from_db()
    version = table.version
    # Ann for Bob's seat, on the page and by the API: both 403, nothing written.
    page = _do(ann_client, table, "step", {"step": "act", "seat": "2", "verb": "select", "count": "2"})
    api = ann_client.post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "act", "seat": 2, "verb": "select", "count": 2}},
        content_type="application/json",
    )
    assert page.status_code == api.status_code == 403
    assert "not for your seat 2" in page.content.decode() and "not for your seat 2" in api.json()["detail"]
    assert (
        stranger.post(
            f"/api/tabletop/{table.code}/step/", {"step": {"step": "deal"}}, content_type="application/json"
        ).status_code
        == 403
    )
    assert _do(stranger, table, "undo", {}).status_code == 403
    assert ann_client.post(f"/api/tabletop/{table.code}/undo/", {}, content_type="application/json").status_code == 403
    table.refresh_from_db()
    assert table.version == version
    # Ann for her own seat by the page, Bob (a guest) by the API with his secret.
    assert (
        _do(ann_client, table, "step", {"step": "act", "seat": "1", "verb": "select", "count": "2"}).status_code == 200
    )
    answer = Client().post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "act", "seat": 2, "verb": "select", "count": 2}},
        content_type="application/json",
        HTTP_X_TABLETOP_GUEST=bob,
    )
    assert answer.status_code == 200 and answer.json()["you"] == 2
    # A wrong or odd guest secret is nobody's seat (403), never an error of the server.
    for wrong in (bob[:-1], "é" * 8):
        refused = Client().post(
            f"/api/tabletop/{table.code}/step/",
            {"step": {"step": "act", "seat": 0, "verb": "select", "count": 2}},
            content_type="application/json",
            HTTP_X_TABLETOP_GUEST=wrong,
        )
        assert refused.status_code == 403
    table.refresh_from_db()
    assert table.version == version + 2


def test_api_open_join_state_and_undo():
    host = UserFactory(username="hostess")
    api = client_as(host)
    opened = api.post(
        "/api/tabletop/", {"variant": "corellian_spike", "has_dice": False}, content_type="application/json"
    )
    assert opened.status_code == 201, opened.content
    code = opened.json()["code"]
    bad = api.post("/api/tabletop/", {"variant": "poker"}, content_type="application/json")
    assert bad.status_code == 400 and "poker" in bad.json()["detail"]
    joined = Client().post(f"/api/tabletop/{code}/join/", {"name": "Cy"}, content_type="application/json")
    assert joined.status_code == 200 and joined.json()["you"] == 1 and joined.json()["guest_token"]
    table = RealTable.objects.get(code=code)
    services.realtable_start(actor=host, table=table)
    stepped = api.post(f"/api/tabletop/{code}/step/", {"step": {"step": "deal"}}, content_type="application/json")
    assert stepped.status_code == 200 and stepped.json()["prompt"]["due"] == "act"
    undone = api.post(
        f"/api/tabletop/{code}/undo/", {"version": stepped.json()["version"]}, content_type="application/json"
    )
    assert undone.status_code == 200 and undone.json()["prompt"]["due"] == "deal"
    assert "undid" in RealTable.objects.get(code=code).changes[-1]
    stale = api.post(f"/api/tabletop/{code}/undo/", {"version": 0}, content_type="application/json")
    assert stale.status_code == 409
    assert Client().get(f"/api/tabletop/{code}/").status_code == 200
    assert Client().get("/api/tabletop/ZZZZZZ/").status_code == 404
    schema = api.get("/api/schema/").content.decode()
    assert "/api/tabletop/{code}/step/" in schema


def test_the_master_seed_is_in_no_response_before_the_end():
    table, host, ann, bob = started_table(has_dice=False)
    play_to_reveal(table, host)
    seed = table.master
    clients = [client_as(host), client_as(ann), Client()]
    for client in clients:
        for url in (
            reverse("tabletop-table", args=[table.code]),
            reverse("tabletop-fragment", args=[table.code]),
            f"/api/tabletop/{table.code}/",
        ):
            body = client.get(url).content.decode()
            assert seed not in body, url
    assert seed not in Client().get(f"/api/tabletop/{table.code}/", HTTP_X_TABLETOP_GUEST=bob).content.decode()
    assert (
        seed
        not in _do(clients[0], table, "step", {"step": "reveal", "seat": "0", "cards": ["+1c", "+2c"]}).content.decode()
    )
    services.realtable_finish(actor=host, table=table)
    assert seed in Client().get(f"/api/tabletop/{table.code}/").json()["seed"]


@pytest.mark.parametrize(
    ("variant", "preset"),
    [("coruscant_shift", "cantina"), ("corellian_spike", "cantina_spike"), ("classic", "classic")],
)
def test_every_variant_renders_while_its_roll_is_due(variant, preset):
    """A variant's public fields read the dice: the page shows the table while the roll is still to be entered."""
    table, host, ann, _ = started_table(variant=variant, preset=preset)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    assert act_to_reveal(table, host, bets=("check", "call", "stand"))["due"] == "dice"
    for client in (client_as(host), client_as(ann)):
        page = client.get(reverse("tabletop-table", args=[table.code]))
        assert page.status_code == 200 and "Pot" in page.content.decode()
    assert "Roll for us" in client_as(host).get(reverse("tabletop-fragment", args=[table.code])).content.decode()


def test_the_table_page_reads_in_words_at_phone_width():
    table, host, _, _ = started_table()
    play_to_reveal(table, host)
    html = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", html, flags=re.S))
    assert codes_in(text) == []  # cards, phases and rules in words (a card's picture shows its value and shape)
    assert "Show hostess" in text and "tap them" in text  # the reveal on the deck's picture
    assert 'name="viewport"' in html
    assert current_due(table)["due"] == "reveal"
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 0, "cards": ["+1c", "+2c"]})
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 1, "cards": ["-5s", "+9t"]})
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 2, "cards": ["0", "-10t"]})
    html = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", html, flags=re.S))
    assert "Why the pots went where they did" in text and "+1 circle" in text
    assert codes_in(text) == [], codes_in(text)
    # The host corrects a hand shown, from the page, before the next deal: the pots are paid again.
    assert "Correct ann's hand" in html
    fixed = _do(client_as(host), table, "step", {"step": "reveal", "seat": "1", "cards": ["+4s", "+1s"]})
    assert fixed.status_code == 200
    table.refresh_from_db()
    assert table.changes[-1]["did"] == {"step": "reveal", "seat": 1, "cards": ["+4s", "+1s"]}
    assert services.load_game(table).game.total_credits() == 300


@pytest.mark.django_db(transaction=True)  # the stream reads on its own, outside the test's transaction
def test_the_live_stream_sends_each_viewer_their_table_and_no_seed():
    table, host, ann, _ = started_table(has_dice=False)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    table.refresh_from_db()
    for user, mine in ((host, "Your turn"), (ann, "Your turn")):
        answer = client_as(user).get(reverse("tabletop-events", args=[table.code]))
        assert answer["Content-Type"] == "text/event-stream"
        chunks = iter(answer.streaming_content)
        assert next(chunks).startswith(b"retry:")
        message = next(chunks).decode()
        answer._iterator.close()
        assert message.startswith(f"id: {table.version}\n") and mine in message
        assert table.master not in message
    # A browser that has the current version gets nothing until the table changes (it catches up by version).
    answer = client_as(ann).get(reverse("tabletop-events", args=[table.code]), HTTP_LAST_EVENT_ID=str(table.version))
    chunks = iter(answer.streaming_content)
    next(chunks)
    services.realtable_step(actor=ann, table=table, step={"step": "act", "seat": 1, "verb": "select", "count": 2})
    table.refresh_from_db()
    assert next(chunks).decode().startswith(f"id: {table.version}\n")
    answer._iterator.close()


def test_corellian_spike_card_actions_show_their_costs_and_work_from_the_page():
    table, host, ann, _ = started_table(variant="corellian_spike", preset="galaxy_series")
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    now = current_due(table)
    seat = now["seats"][0]
    user = {0: host, 1: ann}.get(seat, host)
    html = client_as(user).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    for source, price in now["choices"][seat]["trade_from"].items():
        where = SOURCE_WORDS[source]
        worded = f" (costs {price} credit{'' if price == 1 else 's'})" if price else ""
        assert f"Trade {where}{worded}" in html
    stack = services.load_game(table).stacks[seat]
    source, price = max(now["choices"][seat]["trade_from"].items(), key=lambda item: item[1])
    assert price > 0  # a paid card action: its cost leaves the stack
    answer = _do(client_as(user), table, "step", {"step": "act", "seat": str(seat), "verb": "trade", "source": source})
    assert answer.status_code == 200, answer.content.decode()[:300]
    table.refresh_from_db()
    assert services.load_game(table).stacks[seat] == stack - price
    assert services.load_game(table).game.total_credits() == 300


def test_the_host_acts_for_a_seat_whose_phone_is_gone():
    table, host, ann, _ = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 5, "suit": "circle"}})
    host_html = client_as(host).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    ann_html = client_as(ann).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert "Act for ann" in host_html and "Act for Bob" in host_html and "Your turn" in host_html
    assert "Act for" not in ann_html and "For Bob" not in ann_html and "Your turn" in ann_html
    assert (
        _do(client_as(host), table, "step", {"step": "act", "seat": "2", "verb": "select", "count": "1"}).status_code
        == 200
    )
    table.refresh_from_db()
    assert table.changes[-1]["by"] == "hostess (host)" and table.changes[-1]["did"]["seat"] == 2

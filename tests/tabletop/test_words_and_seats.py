"""Real-cards pages say what a choice does (a selection, never "keep"), number seats and pots from 1 for people
(the API's ids stay from 0), and ask before ending the game in the page itself (no browser dialog)."""

import re

import pytest
from django.urls import reverse

from games.tabletop import services
from games.tabletop.models import RealTable
from tests.factories import client_as
from tests.tabletop.helpers import current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", html, flags=re.S))
    )


def _deal_and_roll(table: RealTable, host) -> None:
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})


def test_a_selection_is_named_by_what_it_does_in_each_phase():
    table, host, ann, _ = started_table()
    _deal_and_roll(table, host)
    ann_client = client_as(ann)
    page = ann_client.get(reverse("tabletop-table", args=[table.code])).content.decode()
    text = _text(page)
    assert "How many of your 5 cards go into your selection? The others are swapped in the shift (0 to 5)" in text
    assert 'data-verb="select">Put them in my selection</button>' in page
    assert ">Keep<" not in page and "they keep" not in text
    mine = next(
        s for s in client_as(ann).get(f"/api/tabletop/{table.code}/").json()["prompt"]["seats"] if s["seat"] == 1
    )
    assert [b["label"] for b in mine["buttons"]] == ["Put them in my selection"]
    # Every seat selects two cards, everyone checks: the improve phase asks about the new cards.
    for _ in range(10):
        now = current_due(table)
        if now.get("phase") == "improve":
            break
        seat = now["seats"][0]
        verbs = now["choices"][seat]["verbs"]
        step = {"step": "act", "seat": seat, "verb": "select", "count": 2} if "select" in verbs else None
        step = step or {"step": "act", "seat": seat, "verb": "check"}
        services.realtable_step(actor=host, table=table, step=step)
    assert current_due(table)["phase"] == "improve"
    text = _text(ann_client.get(reverse("tabletop-table", args=[table.code])).content.decode())
    assert "How many of the 3 new cards do you add to your selection? The others are thrown away (0 to 3)" in text
    assert "Add them to my selection" in text
    # The log and the hand history say what was done, in the same words.
    assert "ann: put 2 cards in their selection" in text
    history = _text(ann_client.get(reverse("tabletop-history", args=[table.code])).content.decode())
    assert "ann: put 2 cards in their selection" in history and "keep" not in history.lower()


def test_a_seat_that_does_not_exist_is_refused_in_the_numbers_people_see_and_the_api_s():
    table, host, _, _ = started_table()
    _deal_and_roll(table, host)
    version = RealTable.objects.get(pk=table.pk).version
    api = client_as(host).post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "act", "seat": 3, "verb": "select", "count": 2}},
        content_type="application/json",
    )
    assert api.status_code == 400
    assert api.json()["detail"] == ("seat is a seat's number, 0 to 2 (the seats 1 to 3 as the pages show them); got 3.")
    page = client_as(host).post(
        reverse("tabletop-do", args=[table.code, "step"]),
        {"step": "act", "seat": "7", "verb": "select", "count": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert page.status_code == 400 and "the seats 1 to 3 as the pages show them" in page.content.decode()
    assert RealTable.objects.get(pk=table.pk).version == version


def test_pots_are_numbered_from_1_on_the_board_in_the_prompt_and_in_the_log():
    """A casino cash game: Cy joins with 30 credits, everyone goes all in: a main pot and a side pot; the table names
    the winners pot by pot, and every page calls them pot 1 and pot 2 (the API's `pot` stays the index)."""
    table, host, _, _ = started_table(preset="casino")
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "Cy", "stack": 30})
    play_to_reveal(table, host, bets=("allin", "call", "check"))
    assert current_due(table)["due"] == "reveal"
    host_client = client_as(host)
    board = _text(host_client.get(reverse("tabletop-table", args=[table.code])).content.decode())
    assert re.search(r"Pot 1 \(main\): \d+ Pot 2 \(side\): \d+", board), board
    assert "Side pot" not in board
    services.realtable_step(actor=host, table=table, step={"step": "winners", "pot": 0, "seats": [3]})
    answer = host_client.get(f"/api/tabletop/{table.code}/").json()
    assert answer["prompt"]["due"] == "winners"
    assert answer["prompt"]["says"] == "name the winners of pot 2"
    assert [pot["pot"] for pot in answer["prompt"]["pots"]] == [1]  # the API's id of that pot
    text = _text(host_client.get(reverse("tabletop-table", args=[table.code])).content.decode())
    assert "Now: Name the winners of pot 2" in text and "Pot 2 (" in text
    assert "named Cy for pot 1" in text


def test_ending_the_game_asks_in_the_page_and_works_without_javascript():
    table, host, _, _ = started_table(preset="casino")
    host_client = client_as(host)
    page = host_client.get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "hx-confirm" not in page and "confirm(" not in page
    step = re.search(r'<details class="tt-confirm" data-keep="finish">(.*?)</details>', page, flags=re.S)
    assert step and "Yes, end the game for everyone" in step.group(1) and "cannot be undone" in step.group(1)
    closing = re.search(r'<details class="tt-confirm" data-keep="close">(.*?)</details>', page, flags=re.S)
    assert closing and "Yes, close the table" in closing.group(1)
    # The confirming button is a plain form: without JavaScript it posts and comes back to the table.
    answer = host_client.post(reverse("tabletop-do", args=[table.code, "finish"]))
    assert answer.status_code == 302 and answer.url == reverse("tabletop-table", args=[table.code])
    assert RealTable.objects.get(pk=table.pk).status == "finished"


def test_the_host_is_told_how_to_act_for_a_seat_only_while_a_seat_is_awaited():
    table, host, _, _ = started_table()
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert current_due(table)["due"] == "deal"
    assert "data-act-for-hint" not in page  # nobody is awaited before the deal: no "Act for …" to open
    _deal_and_roll(table, host)
    assert current_due(table)["due"] == "act"
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "data-act-for-hint" in page and "<summary>Act for " in page

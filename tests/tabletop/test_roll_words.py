"""The roll's words say what the table does: a table with its own dice is asked to roll them (or let the site roll);
a table without dice ("No dice: the site rolls for us") is told the site rolls them when the roller taps "Roll for
us", with no dice to enter. The page, the big screen and the API say the same, in each variant."""

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from tests.factories import client_as
from tests.tabletop.helpers import act_to_reveal, current_due, started_table

pytestmark = pytest.mark.django_db

VARIANTS = [
    ("coruscant_shift", "cantina", "the gold and silver dice (the target number and the target suit)"),
    ("corellian_spike", "cantina_spike", "the two spike dice"),
    ("classic", "classic", "the two dice (a pair sets off a Sabacc Shift)"),
]


def _to_the_roll(table, host) -> dict:
    """The host deals and plays every turn passively (stand, check or call) until the dice are due."""
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    now = act_to_reveal(table, host, bets=("check", "call", "stand"))
    assert now["due"] == "dice", now
    return now


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def _prompt(page: str) -> str:
    box = re.search(r'<section class="tt-box tt-prompt">(.*?)</section>', page, re.DOTALL).group(1)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box)))


@pytest.mark.parametrize(("variant", "preset", "dice"), VARIANTS)
def test_a_table_without_dice_is_told_the_site_rolls_at_a_tap(variant, preset, dice):
    table, host, ann, _ = started_table(has_dice=False, variant=variant, preset=preset)
    now = _to_the_roll(table, host)
    roller = services.load_game(table).game.names[now["roller"]]
    said = f'no dice at this table: {roller} taps "Roll for us" and the site rolls {dice}'
    for user in (host, ann):  # the roller or the host sees the button; everyone reads the same words
        assert client_as(user).get(f"/api/tabletop/{table.code}/").json()["prompt"]["says"] == said
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert f"Now: {_capfirst(said)}" in _prompt(page)
    assert re.search(r'<button type="submit" class="big primary">Roll for us</button>', page)
    assert "let the site roll" not in page and "Enter the roll" not in page  # nothing to enter: no dice
    screen = html_lib.unescape(Client().get(reverse("tabletop-screen", args=[table.code])).content.decode())
    assert f"Now: {_capfirst(said)}" in screen
    services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    assert current_due(table)["due"] != "dice"  # the tap rolled them


@pytest.mark.parametrize(("variant", "preset", "dice"), VARIANTS)
def test_a_table_with_dice_is_asked_to_roll_them_or_let_the_site_roll(variant, preset, dice):
    table, host, ann, _ = started_table(has_dice=True, variant=variant, preset=preset)
    now = _to_the_roll(table, host)
    roller = services.load_game(table).game.names[now["roller"]]
    said = f"{roller}: roll {dice} (or let the site roll)"
    assert client_as(ann).get(f"/api/tabletop/{table.code}/").json()["prompt"]["says"] == said
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert f"Now: {_capfirst(said)}" in _prompt(page)
    assert ">Enter the roll</button>" in page and ">Roll for us</button>" in page
    assert "no dice at this table" not in page.lower()

"""The admin pages of the league and games models open for a site admin."""

import json

import pytest
from django.contrib import admin
from django.test import Client, TestCase
from django.urls import reverse

from games.services import result_record


@pytest.mark.parametrize("app_label", ["league", "games"])
def test_every_admin_page_opens(world, app_label):
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[
                {"player": world.players[0].pk, "final_credits": 900},
                {"player": world.players[1].pk, "final_credits": 0},
            ],
        )
    client = Client()
    client.force_login(world.users["admin"])
    models = [m for m in admin.site._registry if m._meta.app_label == app_label]
    assert models
    for model in models:
        opts = model._meta
        assert client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")).status_code == 200, model
        first = model.objects.first()
        if first is not None:
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[first.pk])
            assert client.get(url).status_code == 200, model
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "replay_document" not in page


def chip_set_form(name: str, slug: str, starting: dict, chips: list[tuple[str, int]]) -> dict:
    """The admin's add form of a chip set with its denominations inline (name, value; colour the name's)."""
    data = {
        "name": name,
        "slug": slug,
        "description": "",
        "starting_chips": json.dumps(starting),
        "denominations-TOTAL_FORMS": str(len(chips)),
        "denominations-INITIAL_FORMS": "0",
        "denominations-MIN_NUM_FORMS": "0",
        "denominations-MAX_NUM_FORMS": "1000",
    }
    for n, (chip, value) in enumerate(chips):
        data |= {
            f"denominations-{n}-name": chip,
            f"denominations-{n}-colour": chip.lower(),
            f"denominations-{n}-value": str(value),
        }
    return data


def test_a_chip_set_is_added_with_its_denominations_inline(world):
    client = Client()
    client.force_login(world.users["admin"])
    response = client.post(
        reverse("admin:league_chipset_add"),
        chip_set_form("Casino plaques", "casino-plaques", {}, [("Red", 25), ("Black", 100)]),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    from league.models import ChipSet

    assert list(ChipSet.objects.get(slug="casino-plaques").denominations.values_list("value", flat=True)) == [100, 25]


def test_the_admin_refuses_starting_chips_of_a_chip_the_set_no_longer_has(world):
    """As the API refuses it: a starting stack of Red chips in a set whose Red is renamed is refused, nothing saved."""
    from league.models import ChipSet

    client = Client()
    client.force_login(world.users["admin"])
    data = chip_set_form("Club chips", "club-chips", {"Red": 10}, [("Red", 10), ("Blue", 1)])
    assert client.post(reverse("admin:league_chipset_add"), data).status_code == 302
    chip_set = ChipSet.objects.get(slug="club-chips")
    red, blue = chip_set.denominations.order_by("-value")
    change = {
        **data,
        "denominations-INITIAL_FORMS": "2",
        "denominations-0-id": str(red.pk),
        "denominations-0-chip_set": str(chip_set.pk),
        "denominations-0-name": "Crimson",
        "denominations-1-id": str(blue.pk),
        "denominations-1-chip_set": str(chip_set.pk),
    }
    response = client.post(reverse("admin:league_chipset_change", args=[chip_set.pk]), change)
    assert response.status_code == 200 and "Starting chips name unknown denominations: Red" in response.content.decode()
    assert sorted(chip_set.denominations.values_list("name", flat=True)) == ["Blue", "Red"]


@pytest.mark.parametrize(
    "starting, said",
    [
        ([1, 2], "Starting chips are an object of chip name to how many"),
        ("Red", "Starting chips are an object of chip name to how many"),
        ({"Red": -3}, "the count of Red is a whole number from 0"),
        ({"Red": 2.5}, "the count of Red is a whole number from 0"),
    ],
)
def test_the_admin_refuses_starting_chips_of_the_wrong_shape_with_a_message(world, starting, said):
    """Starting chips typed as a list, a string or a count that is not a whole number >= 0: the form says what is
    wrong and what is allowed (it was a 500 for a list), and nothing is saved."""
    from league.models import ChipSet

    client = Client()
    client.force_login(world.users["admin"])
    data = chip_set_form("Odd chips", "odd-chips", {}, [("Red", 10)]) | {"starting_chips": json.dumps(starting)}
    response = client.post(reverse("admin:league_chipset_add"), data)
    assert response.status_code == 200 and said in response.content.decode()
    assert not ChipSet.objects.filter(slug="odd-chips").exists()


def test_the_buy_in_policy_form_speaks_of_buy_ins_re_buys_and_add_ons(world):
    client = Client()
    client.force_login(world.users["admin"])
    page = client.get(reverse("admin:league_buyinpolicy_add")).content.decode()
    for label in ("Buy-in:", "Re-buys allowed", "Most re-buys:", "Re-buy amount:", "Add-on allowed", "Add-on amount:"):
        assert label in page, label
    assert "Add buy-in policy" in page

"""A buy-in policy that contradicts itself (re-buys off with a cap, add-ons off with an amount, amounts out of
range) is refused with every wrong field named, by the service, the API and the admin's page, and nothing is
written."""

import pytest
from django.test import Client

from config.errors import ApplicationError
from league import services
from league.models import MAX_COUNT, MAX_CREDITS, AuditEntry, BuyInPolicy
from tests.league.conftest import client_for

VALID = {"buy_in": 450, "rebuys_allowed": False, "max_rebuys": 0, "rebuy_amount": 0, "addon_allowed": False}

# (what is wrong, the fields given, the field refused, words the message must hold)
CONTRADICTIONS = [
    ("rebuys off with a cap", {"max_rebuys": 3}, "max_rebuys", ["not allowed", "leave it 0"]),
    ("rebuys off with an amount", {"rebuy_amount": 300}, "rebuy_amount", ["not allowed", "allow re-buys"]),
    ("rebuys on with no amount", {"rebuys_allowed": True}, "rebuy_amount", ["is 0", "at least 1"]),
    ("add-ons off with an amount", {"addon_amount": 200}, "addon_amount", ["not allowed", "allow add-ons"]),
    ("add-ons on with no amount", {"addon_allowed": True}, "addon_amount", ["is 0", "at least 1"]),
    ("a buy-in of 0", {"buy_in": 0}, "buy_in", ["from 1 to"]),
    ("a negative buy-in", {"buy_in": -450}, "buy_in", ["from 1 to"]),
    ("too big a buy-in", {"buy_in": MAX_CREDITS + 1}, "buy_in", [f"{MAX_CREDITS:,}"]),
    ("a negative cap", {"rebuys_allowed": True, "rebuy_amount": 300, "max_rebuys": -1}, "max_rebuys", ["from 0"]),
    ("too big a cap", {"rebuys_allowed": True, "rebuy_amount": 300, "max_rebuys": MAX_COUNT + 1}, "max_rebuys", []),
    ("a negative re-buy", {"rebuys_allowed": True, "rebuy_amount": -300}, "rebuy_amount", ["from 0"]),
    ("a negative add-on", {"addon_allowed": True, "addon_amount": -5}, "addon_amount", ["from 0"]),
    ("a cap that is not a number", {"rebuys_allowed": True, "rebuy_amount": 9, "max_rebuys": "3"}, "max_rebuys", []),
    ("re-buys neither on nor off", {"rebuys_allowed": "yes"}, "rebuys_allowed", ["true or false"]),
]


def refused_fields(exc: ApplicationError) -> dict:
    return exc.extra.get("fields") or {exc.extra["field"]: [exc.message]}


@pytest.mark.parametrize(("wrong", "given", "field", "words"), CONTRADICTIONS, ids=[c[0] for c in CONTRADICTIONS])
def test_the_service_refuses_each_contradiction_at_its_field_and_writes_nothing(world, wrong, given, field, words):
    before = BuyInPolicy.objects.count(), AuditEntry.objects.count()
    with pytest.raises(ApplicationError) as refused:
        services.buy_in_policy_create(actor=world.users["admin"], name="House", **{**VALID, **given})
    assert list(refused_fields(refused.value)) == [field]
    assert refused.value.status_code == 400
    for word in [field, *words]:
        assert word in refused.value.message
    assert (BuyInPolicy.objects.count(), AuditEntry.objects.count()) == before


def test_every_wrong_field_is_named_at_once(world):
    fields = {"buy_in": 0, "rebuys_allowed": False, "max_rebuys": 3, "rebuy_amount": 300, "addon_amount": 5}
    with pytest.raises(ApplicationError) as refused:
        services.buy_in_policy_create(actor=world.users["admin"], name="  ", **fields)
    errors = refused.value.extra["fields"]
    assert set(errors) == {"name", "buy_in", "max_rebuys", "rebuy_amount", "addon_amount"}
    assert refused.value.extra["field"] == "name"
    assert all(message in refused.value.message for messages in errors.values() for message in messages)
    assert not BuyInPolicy.objects.filter(buy_in=0).exists()


def test_a_consistent_policy_is_created(world):
    policy = services.buy_in_policy_create(
        actor=world.users["admin"],
        name="Re-buy night",
        buy_in=500,
        rebuys_allowed=True,
        max_rebuys=3,
        rebuy_amount=300,
        addon_allowed=True,
        addon_amount=200,
    )
    assert (policy.max_rebuys, policy.rebuy_amount, policy.addon_amount) == (3, 300, 200)
    # Left out, the amounts take the model's defaults (a buy-in of 450, nothing else).
    assert services.buy_in_policy_create(actor=world.users["admin"], name="Plain").buy_in == 450


def test_the_api_answers_400_naming_every_contradicting_field(world):
    api = client_for(world.users["admin"])
    before = BuyInPolicy.objects.count()
    body = {"name": "House", "buy_in": 450, "rebuys_allowed": False, "max_rebuys": 3, "addon_amount": 100}
    response = api.post("/api/buy-in-policies/", body, format="json")
    assert response.status_code == 400
    answer = response.json()
    assert answer["extra"]["field"] == "max_rebuys"
    assert set(answer["extra"]["fields"]) == {"max_rebuys", "addon_amount"}
    assert "Re-buys are not allowed" in answer["detail"] and "Add-ons are not allowed" in answer["detail"]
    for field, value in (("buy_in", 0), ("rebuys_allowed", True)):
        response = api.post("/api/buy-in-policies/", {"name": "House", field: value}, format="json")
        assert response.status_code == 400
        assert response.json()["extra"]["field"] in {"buy_in", "rebuy_amount"}
    response = api.post("/api/buy-in-policies/", {"name": "House", "max_rebuys": -1}, format="json")
    assert response.status_code == 400 and response.json()["extra"]["field"] == "max_rebuys"
    assert BuyInPolicy.objects.count() == before


def test_the_admins_page_shows_each_refusal_at_its_field_and_saves_nothing(world):
    client = Client()
    client.force_login(world.users["admin"])
    before = BuyInPolicy.objects.count()
    form = {"name": "House", "buy_in": "450", "max_rebuys": "3", "rebuy_amount": "0", "addon_amount": "100"}
    response = client.post("/admin/league/buyinpolicy/add/", form)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"max_rebuys", "addon_amount"}
    assert "Re-buys are not allowed" in errors["max_rebuys"][0]
    assert "Add-ons are not allowed" in errors["addon_amount"][0]
    assert BuyInPolicy.objects.count() == before
    # An existing policy edited into a contradiction is refused the same way.
    policy = world.league.buy_in_policy
    response = client.post(f"/admin/league/buyinpolicy/{policy.pk}/change/", {**form, "name": policy.name})
    assert response.status_code == 200
    policy.refresh_from_db()
    assert policy.max_rebuys == 0

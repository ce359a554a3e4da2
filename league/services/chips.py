"""Chip sets and buy-in policies: site-wide, created by site admins."""

from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from league.models import MAX_COUNT, MAX_CREDITS, BuyInPolicy, ChipSet, Denomination
from league.services.common import Refusals, audit, check_text, refuse_unknown_fields

BUY_IN_POLICY_FIELDS = {"buy_in", "rebuys_allowed", "max_rebuys", "rebuy_amount", "addon_allowed", "addon_amount"}


def starting_chips_check(starting_chips: Any) -> None:
    """A chip set's starting chips are an object of chip name to a whole count from 0 to MAX_COUNT (the API's
    serializer checks the same): the service runs it, and the model's `clean()` (the admin's form)."""
    example = '{"Bronze": 10, "Silver": 4}'
    if not isinstance(starting_chips, dict):
        raise ApplicationError(
            f"Starting chips are an object of chip name to how many, like {example}; got {starting_chips!r}.",
            extra={"field": "starting_chips"},
        )
    for name, count in starting_chips.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
            raise ApplicationError(
                f"Starting chips: the count of {name} is a whole number from 0 to {MAX_COUNT:,}; got {count!r}.",
                extra={"field": "starting_chips"},
            )


@retry_on_conflict
@transaction.atomic
def chip_set_create(
    *,
    actor: Actor,
    name: str,
    slug: str,
    denominations: list[dict[str, Any]],
    description: str = "",
    starting_chips: dict | None = None,
) -> ChipSet:
    name = check_text(name, "A chip set's name", field="name", max_length=80)
    slug = check_text(slug, "A chip set's slug", field="slug", max_length=80)
    description = check_text(
        description, "A chip set's description", field="description", max_length=5000, required=False
    )
    if ChipSet.objects.filter(slug=slug).exists() or ChipSet.objects.filter(name=name).exists():
        raise ConflictError(f"A chip set named {name!r} or with slug {slug!r} exists already.", extra={"field": "slug"})
    if not denominations:
        raise ApplicationError(
            "A chip set needs at least one denomination (name, colour, credit value).", extra={"field": "denominations"}
        )
    for d in denominations:
        d["name"] = check_text(d.get("name"), "A denomination's name", field="denominations", max_length=40)
        d["colour"] = check_text(
            d.get("colour", ""), "A denomination's colour", field="denominations", max_length=40, required=False
        )
        value = d.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CREDITS:
            raise ApplicationError(
                f"A denomination's value is a whole number of credits from 1 to {MAX_CREDITS:,}; got {value!r}.",
                extra={"field": "denominations"},
            )
    values = [d["value"] for d in denominations]
    names = [d["name"] for d in denominations]
    if len(set(values)) != len(values) or len(set(names)) != len(names):
        raise ApplicationError(
            "Each denomination needs its own name and its own credit value of at least 1.",
            extra={"field": "denominations"},
        )
    starting_chips_check(starting_chips or {})
    unknown = set(starting_chips or {}) - set(names)
    if unknown:
        raise ApplicationError(
            f"Starting chips name unknown denominations: {', '.join(sorted(unknown))}; use {', '.join(names)}.",
            extra={"field": "starting_chips"},
        )
    chip_set = ChipSet.objects.create(
        name=name, slug=slug, description=description, starting_chips=starting_chips or {}
    )
    Denomination.objects.bulk_create(
        Denomination(chip_set=chip_set, name=d["name"], colour=d.get("colour", ""), value=d["value"])
        for d in denominations
    )
    audit(actor=actor, action="chip_set.create", obj=chip_set, data={"denominations": denominations})
    return chip_set


def buy_in_policy_check(fields: dict[str, Any]) -> None:
    """Every rule of a buy-in policy, every wrong field at once, writing nothing: the service runs it, and the
    model's `clean()` (the admin's form). Amounts are whole credits; a buy-in of at least 1; re-buys (their amount
    and cap) and add-ons (their amount) only when allowed, and an amount of at least 1 when they are."""
    refusals = Refusals()
    for key in ("rebuys_allowed", "addon_allowed"):
        if not isinstance(fields.get(key, False), bool):
            with refusals.check():
                raise ApplicationError(f"{key} is true or false; got {fields[key]!r}.", extra={"field": key})
    numbers = {}
    for key, label, minimum, maximum in (
        ("buy_in", "The buy-in", 1, MAX_CREDITS),
        ("rebuy_amount", "The re-buy amount", 0, MAX_CREDITS),
        ("max_rebuys", "The most re-buys", 0, MAX_COUNT),
        ("addon_amount", "The add-on amount", 0, MAX_CREDITS),
    ):
        value = fields.get(key, BuyInPolicy._meta.get_field(key).default)
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
            with refusals.check():
                raise ApplicationError(
                    f"{label} ({key}) is a whole number from {minimum} to {maximum:,}; got {value!r}.",
                    extra={"field": key},
                )
        else:
            numbers[key] = value
    # Each kind of extra buy: a switch that allows it, its amount (at least 1 when allowed) and the numbers that
    # only apply when it is allowed (0 otherwise).
    for switch, kind, noun, article, unused in (
        (
            "rebuys_allowed",
            "Re-buys",
            "re-buy",
            "a",
            (("rebuy_amount", "a re-buy amount"), ("max_rebuys", "a cap on re-buys")),
        ),
        ("addon_allowed", "Add-ons", "add-on", "an", (("addon_amount", "an add-on amount"),)),
    ):
        allowed, amount = fields.get(switch) is True, unused[0][0]
        if allowed and numbers.get(amount) == 0:
            with refusals.check():
                raise ApplicationError(
                    f"{kind} are allowed but the {noun} amount ({amount}) is 0; give the credits {article} {noun} buys "
                    "(at least 1).",
                    extra={"field": amount},
                )
        for key, what in unused:
            if not allowed and numbers.get(key):
                with refusals.check():
                    raise ApplicationError(
                        f"{kind} are not allowed, so {what} ({key}) of {numbers[key]} would never apply: leave it 0, "
                        f"or allow {kind.lower()} ({switch}).",
                        extra={"field": key},
                    )
    refusals.raise_any()


@retry_on_conflict
@transaction.atomic
def buy_in_policy_create(*, actor: Actor, name: str, **fields: Any) -> BuyInPolicy:
    refuse_unknown_fields(fields, BUY_IN_POLICY_FIELDS, "buy-in policy")
    refusals = Refusals()
    with refusals.check():
        name = check_text(name, "A buy-in policy's name", field="name", max_length=80)
    with refusals.check():
        buy_in_policy_check(fields)
    refusals.raise_any()
    if BuyInPolicy.objects.filter(name=name).exists():
        raise ConflictError(f"A buy-in policy named {name!r} exists already.", extra={"field": "name"})
    policy = BuyInPolicy.objects.create(name=name, **fields)
    audit(actor=actor, action="buy_in_policy.create", obj=policy, data={"name": name, **fields})
    return policy

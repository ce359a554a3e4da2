"""Chip sets and buy-in policies: site-wide, created by site admins."""

from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from league.models import MAX_CREDITS, BuyInPolicy, ChipSet, Denomination
from league.services.common import audit, check_text

BUY_IN_POLICY_FIELDS = {"buy_in", "rebuys_allowed", "max_rebuys", "rebuy_amount", "addon_allowed", "addon_amount"}


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


@retry_on_conflict
@transaction.atomic
def buy_in_policy_create(*, actor: Actor, name: str, **fields: Any) -> BuyInPolicy:
    from league.services.common import refuse_unknown_fields

    refuse_unknown_fields(fields, BUY_IN_POLICY_FIELDS, "buy-in policy")
    name = check_text(name, "A buy-in policy's name", field="name", max_length=80)
    if BuyInPolicy.objects.filter(name=name).exists():
        raise ConflictError(f"A buy-in policy named {name!r} exists already.", extra={"field": "name"})
    for key in ("buy_in", "max_rebuys", "rebuy_amount", "addon_amount"):
        value = fields.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CREDITS:
            raise ApplicationError(
                f"{key} is a whole number from 0 to {MAX_CREDITS:,}; got {value!r}.", extra={"field": key}
            )
    if fields.get("rebuys_allowed") and not fields.get("rebuy_amount"):
        raise ApplicationError(
            "Re-buys are allowed but the re-buy amount is 0; give the credits a re-buy buys.",
            extra={"field": "rebuy_amount"},
        )
    if fields.get("addon_allowed") and not fields.get("addon_amount"):
        raise ApplicationError(
            "Add-ons are allowed but the add-on amount is 0; give the credits an add-on buys.",
            extra={"field": "addon_amount"},
        )
    policy = BuyInPolicy.objects.create(name=name, **fields)
    audit(actor=actor, action="buy_in_policy.create", obj=policy, data={"name": name, **fields})
    return policy

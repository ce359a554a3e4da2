"""Showing a stack of credits as physical chips."""

from collections.abc import Sequence
from typing import Any, Protocol


class DenominationLike(Protocol):
    name: str
    colour: str
    value: int


def stack_as_chips(denominations: Sequence[DenominationLike], credits: int) -> dict[str, Any]:
    """The fewest chips worth `credits`, largest first; what no chip can make is left in `remainder`.

    Large stacks are cut down with the biggest chip first; the last stretch (under twice the
    biggest chip) is solved exactly, so sets where plain greedy is not optimal still come out right.
    """
    chips = sorted((d for d in denominations if d.value > 0), key=lambda d: -d.value)
    if credits < 0:
        raise ValueError("a stack cannot be negative")
    counts = {d.value: 0 for d in chips}
    rest = credits
    if chips:
        largest = chips[0].value
        if rest > 2 * largest:
            bulk = (rest - 2 * largest) // largest
            counts[largest] += bulk
            rest -= bulk * largest
        # Exact change for the rest: fewest chips for the largest amount we can make.
        best: list[int | None] = [0] + [None] * rest
        last: list[int] = [0] * (rest + 1)
        for amount in range(1, rest + 1):
            for d in chips:
                if d.value <= amount and best[amount - d.value] is not None:
                    candidate = best[amount - d.value] + 1
                    if best[amount] is None or candidate < best[amount]:
                        best[amount], last[amount] = candidate, d.value
        made = max(a for a in range(rest + 1) if best[a] is not None)
        amount = made
        while amount:
            counts[last[amount]] += 1
            amount -= last[amount]
        rest -= made
    rows = [
        {"name": d.name, "colour": d.colour, "value": d.value, "count": counts[d.value]}
        for d in chips
        if counts[d.value]
    ]
    return {"credits": credits, "chips": rows, "chip_count": sum(r["count"] for r in rows), "remainder": rest}


DEFAULT_SET = [
    ("Bronze", "bronze", 5),
    ("Silver", "silver", 50),
    ("Gold", "gold", 100),
    ("Crystal", "crystal blue", 200),
    ("Doodad", "red", 500),
    ("Beskar ingot", "steel grey", 1000),
]


def default_sets_create(ChipSet, Denomination, BuyInPolicy) -> None:
    """The default chip set (RULES 1.6), simple chips and the usual stakes; idempotent.

    Takes the model classes so the data migration can pass its historical models.
    """
    standard, _ = ChipSet.objects.get_or_create(
        slug="standard",
        defaults={
            "name": "Standard chips",
            "description": "Bronze, silver, gold, crystal, doodad and beskar ingot; a starting stake is 450 credits.",
            "starting_chips": {"Bronze": 10, "Silver": 4, "Gold": 2},
        },
    )
    for name, colour, value in DEFAULT_SET:
        Denomination.objects.get_or_create(chip_set=standard, name=name, defaults={"colour": colour, "value": value})
    simple, _ = ChipSet.objects.get_or_create(
        slug="simple",
        defaults={
            "name": "Simple chips",
            "description": "Every chip is worth one credit.",
            "starting_chips": {"Chip": 100},
        },
    )
    Denomination.objects.get_or_create(chip_set=simple, name="Chip", defaults={"colour": "white", "value": 1})
    BuyInPolicy.objects.get_or_create(name="Standard stake", defaults={"buy_in": 450})
    BuyInPolicy.objects.get_or_create(
        name="Standard stake with re-buys",
        defaults={"buy_in": 450, "rebuys_allowed": True, "max_rebuys": 2, "rebuy_amount": 450},
    )
    BuyInPolicy.objects.get_or_create(name="Cantina stake", defaults={"buy_in": 100})

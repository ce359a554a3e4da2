"""The default chip set (bronze to beskar ingot, starting stake 450) and a simple one-credit set."""

from django.db import migrations

DEFAULT_SET = [
    ("Bronze", "bronze", 5),
    ("Silver", "silver", 50),
    ("Gold", "gold", 100),
    ("Crystal", "crystal blue", 200),
    ("Doodad", "red", 500),
    ("Beskar ingot", "steel grey", 1000),
]


def create(apps, schema_editor):
    ChipSet = apps.get_model("league", "ChipSet")
    Denomination = apps.get_model("league", "Denomination")
    BuyInPolicy = apps.get_model("league", "BuyInPolicy")
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


def remove(apps, schema_editor):
    apps.get_model("league", "ChipSet").objects.filter(slug__in=["standard", "simple"]).delete()


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]

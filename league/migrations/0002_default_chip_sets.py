"""The default chip set (bronze to beskar ingot, starting stake 450) and a simple one-credit set."""

from django.db import migrations

from league.chips import default_sets_create

def create(apps, schema_editor):
    default_sets_create(
        apps.get_model("league", "ChipSet"), apps.get_model("league", "Denomination"), apps.get_model("league", "BuyInPolicy")
    )


def remove(apps, schema_editor):
    apps.get_model("league", "ChipSet").objects.filter(slug__in=["standard", "simple"]).delete()


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]

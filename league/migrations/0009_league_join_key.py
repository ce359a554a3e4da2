from django.db import migrations, models


def fill_join_keys(apps, schema_editor):
    """Every league's invite code gets the key it is now compared by (`league.models.join_key_of`)."""
    from league.models import join_key_of

    League = apps.get_model("league", "League")
    for league in League.objects.exclude(join_code="").only("pk", "join_code"):
        League.objects.filter(pk=league.pk).update(join_key=join_key_of(league.join_code))


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0008_event_result_player_standing_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="join_key",
            field=models.CharField(blank=True, db_index=True, default="", editable=False, max_length=64),
        ),
        migrations.RunPython(fill_join_keys, migrations.RunPython.noop),
    ]

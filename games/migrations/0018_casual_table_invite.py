"""A casual game's invite token (`OnlineTable.invite`): the key of its share link. Casual games opened before get
one each, so their hosts' links keep working once the token is required (the old bare link no longer joins)."""

import secrets

from django.db import migrations, models


def give_tokens(apps, schema_editor):
    OnlineTable = apps.get_model("games", "OnlineTable")
    casual = OnlineTable.objects.filter(event__isnull=True, tournament_table__isnull=True, invite="")
    for table in casual.only("pk").iterator():
        OnlineTable.objects.filter(pk=table.pk).update(invite=secrets.token_urlsafe(16))


class Migration(migrations.Migration):
    dependencies = [("games", "0017_online_table_ending")]

    operations = [
        migrations.AddField(
            model_name="onlinetable",
            name="invite",
            field=models.CharField(
                blank=True, editable=False, help_text="A casual game's invite token.", max_length=64
            ),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
    ]

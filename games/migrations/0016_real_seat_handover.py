from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_real_table_snapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="realseat",
            name="handover",
            field=models.CharField(blank=True, max_length=64),
        ),
    ]

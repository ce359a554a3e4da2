"""Demo data for `make run`: a demo organiser, and whatever the league models hold.

Idempotent: running it again changes nothing that is already there.
"""

from typing import TextIO

from django.contrib.auth import get_user_model
from django.db import transaction

DEMO_ORGANISER = "organiser"
DEMO_PASSWORD = "sabacc-demo"  # a demo login printed by `make run`, not a secret


@transaction.atomic
def load_demo_data(out: TextIO) -> None:
    user_model = get_user_model()
    organiser, created = user_model.objects.get_or_create(
        username=DEMO_ORGANISER, defaults={"is_staff": True, "email": "organiser@example.org"}
    )
    if created:
        organiser.set_password(DEMO_PASSWORD)
        organiser.save()
    out.write(f"Demo organiser login: {DEMO_ORGANISER} / {DEMO_PASSWORD}\n")

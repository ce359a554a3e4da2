"""A real-cards table (a printed deck and real dice; the site keeps the chips) and its seats.

The game is kept as the engine's setup and the steps that stand (`games.engine.realcards`), the source of truth,
and a `snapshot` of the engine's state before the current hand's deal, where the next request starts (a missing or
stale one is rebuilt from the steps: `games.tabletop.state`). `master` is the private seed of the site's rolls: it
never leaves the server before the game ends (the engine's `revealed_seed()` gives it then).
"""

from django.conf import settings
from django.db import models

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
CODE_LENGTH = 6
MIN_SEATS, MAX_SEATS = 2, 8
# The fields that grow all evening (JSON decoded on every read): left out of the reads that need none of them.
GROWING = ("steps", "changes", "snapshot")


def hands_dealt(steps: list) -> int:
    """How many hands these steps deal (an undone deal is no longer among the steps that stand)."""
    return sum(1 for step in steps if isinstance(step, dict) and step.get("step") == "deal")


class RealTableStatus(models.TextChoices):
    OPEN = "open", "Open: taking seats"
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"


class RealTable(models.Model):
    code = models.CharField(max_length=CODE_LENGTH, unique=True, help_text="The short join code.")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="real_tables")
    variant = models.CharField(max_length=40)
    preset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True, help_text="Option overrides, checked by the engine.")
    starting_credits = models.PositiveIntegerField()
    has_dice = models.BooleanField(default=True, help_text="False: the site rolls for the table.")
    status = models.CharField(max_length=16, choices=RealTableStatus.choices, default=RealTableStatus.OPEN)
    setup = models.JSONField(null=True, blank=True, help_text="The engine's setup, fixed at the start.")
    steps = models.JSONField(default=list, blank=True, help_text="The steps that stand, in order.")
    changes = models.JSONField(
        default=list, blank=True, help_text="Every step and undo: {did|undid, by, at, version}, in order."
    )
    master = models.CharField(max_length=64, help_text="The private seed of the site's rolls: never served early.")
    snapshot = models.JSONField(
        null=True,
        blank=True,
        help_text="The engine's state before the current hand's deal (games.engine.realcards.snapshot), for the "
        "steps it was saved with: where the next request starts. Server-side only, never served.",
    )
    # None: a casual table (part of no league). A league event's table lands as that event's league Game (`game`)
    # when it finishes; a tournament's physical table (`event` the tournament's event, `tournament_table` its
    # number) records its table's result in the tournament instead.
    event = models.ForeignKey(
        "league.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="real_tables"
    )
    tournament_table = models.PositiveSmallIntegerField(null=True, blank=True)
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="real_table"
    )
    # How the game ended, as the table saw it ({"standings", "stacks"}): a casual table's only result.
    outcome = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"Real-cards table {self.code}"

    @property
    def hands_dealt(self) -> int:
        """How many hands the steps that stand have dealt: none means nothing to download or replay."""
        return hands_dealt(self.steps or [])

    @property
    def is_casual(self) -> bool:
        """Part of no league or tournament: nothing it does is written to a league."""
        return self.event_id is None


class RealSeat(models.Model):
    table = models.ForeignKey(RealTable, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="real_seats"
    )
    # A league or tournament table's seats are league players (a casual table's are not).
    player = models.ForeignKey(
        "league.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="real_seats"
    )
    # A guest's secret, kept in their session: it identifies their phone (never shown to anyone else).
    guest_token = models.CharField(max_length=64, blank=True)
    # The one-time secret of this seat's hand-over link (a seat nobody holds, taken over by a phone): random and
    # unguessable, shown to the host only, cleared when the seat is taken (docs/tabletop.md, "Handing a seat over").
    handover = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("table", "number")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="real_seat_number_unique"),
            models.UniqueConstraint(
                fields=("table", "user"), condition=models.Q(user__isnull=False), name="real_seat_user_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.table.code}"

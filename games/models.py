"""Tables, games, seats and result corrections around the engine.

A game keeps the rules it was played under (the resolved option dict), its seats with
their result, and, when known, the replay of its hands. The replay document holds the
deck order, so it is stored for audits but never served.
"""

from django.conf import settings
from django.db import models

from league.models import EventStatus


class Table(models.Model):
    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, related_name="tables")
    name = models.CharField(max_length=80)
    number = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"],
                name="table_unique_number",
                violation_error_message="This event has a table with this number already; choose another number.",
            )
        ]

    def __str__(self) -> str:
        return self.name


# A game is planned, running or finished as its event is: one set of choices for both.
GameStatus = EventStatus


class GameSource(models.TextChoices):
    ONLINE = "online", "Played online"
    MANUAL = "manual", "Entered by hand"


class Game(models.Model):
    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, related_name="games")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="games")
    round = models.PositiveIntegerField(default=1, help_text="Tournament round: later rounds rank higher.")
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.PLANNED)
    source = models.CharField(max_length=16, choices=GameSource.choices, default=GameSource.MANUAL)
    variant = models.CharField(max_length=40)
    preset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, help_text="The full option set the game was played under.")
    replay_document = models.JSONField(null=True, blank=True)
    replay_result = models.JSONField(null=True, blank=True)
    hands = models.JSONField(
        null=True, blank=True, help_text="Per-hand stacks [{player id: stack}] when hands are known."
    )
    played_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-played_at", "id"]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.event_id})"


class Seat(models.Model):
    """A player's seat in a game, and their result once the game is over."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveIntegerField()
    buy_in = models.PositiveBigIntegerField(default=0)
    rebuys = models.PositiveIntegerField(default=0)
    rebuy_credits = models.PositiveBigIntegerField(default=0)
    addon_credits = models.PositiveBigIntegerField(default=0)
    final_credits = models.PositiveBigIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    knockouts = models.PositiveIntegerField(default=0)
    biggest_pot = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"],
                name="seat_unique_player",
                violation_error_message="A player sits only once in a game.",
            ),
            models.UniqueConstraint(
                fields=["game", "number"],
                name="seat_unique_number",
                violation_error_message="Each seat of a game has its own number.",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} of game {self.game_id}"

    @property
    def credits_in(self) -> int:
        return self.buy_in + self.rebuy_credits + self.addon_credits


class ResultCorrection(models.Model):
    """The audit trail of a corrected result: who, when, why, and the result before and after."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="corrections")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=255)
    before = models.JSONField()
    after = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Correction of game {self.game_id}: {self.reason}"


from games.online.models import *  # noqa: E402, F403 (online tables: games/online/models.py)
from games.tabletop.models import *  # noqa: E402, F403 (real-cards tables: games/tabletop/models.py)

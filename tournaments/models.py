"""A tournament: one league event run as a whole night, with registration, a structure, a clock and seats."""

from django.core.exceptions import ValidationError
from django.db import models

from league.models import Event, Player


class Format(models.TextChoices):
    HALCYON = "halcyon", "Halcyon (every player deals once; winners advance)"
    FREEZEOUT = "freezeout", "Freezeout"
    REBUY = "rebuy", "Re-buy"
    REENTRY = "reentry", "Re-entry"


class TournamentStatus(models.TextChoices):
    REGISTERING = "registering", "Registering"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    # Called off before it started (no draw, no clock): every buy-in refunded, nobody registered, the event over.
    CALLED_OFF = "called_off", "Called off"


class Tournament(models.Model):
    """The tournament side of a league event (one per event).

    The clock is stored as facts only: when it started, from which level, and the pauses; the level in force
    is computed from them (`tournaments.clock`). The draw seed stays secret until the draw; its SHA-256 is
    published first.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="tournament")
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.FREEZEOUT)
    status = models.CharField(max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING)
    structure = models.JSONField(default=list, help_text="Levels: small_blind, big_blind, ante, length, unit.")
    starting_stack = models.PositiveBigIntegerField(default=450, help_text="Credits a buy-in or re-entry brings.")
    seats_per_table = models.PositiveSmallIntegerField(default=8)
    cap = models.PositiveIntegerField(null=True, blank=True, help_text="Most players; later ones wait.")
    late_registration_level = models.PositiveIntegerField(
        default=0, help_text="Players may still register while this level (counted from 1) is in force; 0: none."
    )
    advance_per_table = models.PositiveSmallIntegerField(default=1, help_text="Halcyon: how many advance per table.")
    rebuy_at_or_below = models.PositiveBigIntegerField(
        default=0,
        help_text="Re-buy tournaments: a player may re-buy while their stack is at or below this many chips "
        "(0: only when out of chips; at most the starting stack).",
    )
    payout_template = models.CharField(max_length=32, default="top_3")
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_start_level = models.PositiveIntegerField(default=0, help_text="Index of the level the clock counts from.")
    clock_pauses = models.JSONField(default=list, blank=True, help_text="[[started, ended or null], ...] ISO times.")
    draw_seed = models.CharField(max_length=64, blank=True)
    draw_seed_hash = models.CharField(max_length=64, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    # The clock's announcements: each move of the clock starts a new epoch; within one, the last level announced.
    clock_epoch = models.PositiveIntegerField(default=0)
    level_announced = models.IntegerField(default=-1, help_text="Index of the last level announced (-1: none).")
    payout_shares = models.JSONField(null=True, blank=True, help_text="A custom payout table in basis points.")
    deal = models.JSONField(null=True, blank=True, help_text="A deal at the final table: method, stacks, amounts.")
    completed_at = models.DateTimeField(null=True, blank=True)
    rounds = models.JSONField(
        default=list, blank=True, help_text="Halcyon: per round, per table number, [[player, credits, out hand], ...]."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Tournament of {self.event}"

    def clean(self) -> None:
        """The admin's form: the same limits on the re-buy threshold as `tournament_create`."""
        message = rebuy_threshold_error(self.rebuy_at_or_below, format=self.format, starting_stack=self.starting_stack)
        if message:
            raise ValidationError({"rebuy_at_or_below": message})


def rebuy_threshold_error(value: int, *, format: str, starting_stack: int) -> str | None:
    """What is wrong with a re-buy threshold (the stack at or below which a player may re-buy), or None."""
    if value and format != Format.REBUY:
        return "Only a re-buy tournament takes re-buys: leave the re-buy threshold at 0."
    if value > starting_stack:
        return (
            f"The re-buy threshold must be at most the starting stack ({starting_stack:,} chips); got {value:,}. "
            "0 allows a re-buy only when out of chips."
        )
    return None


class RegistrationStatus(models.TextChoices):
    REGISTERED = "registered", "Registered"
    WAITING = "waiting", "Waiting list"
    ELIMINATED = "eliminated", "Eliminated"


class Registration(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_registrations")
    status = models.CharField(max_length=16, choices=RegistrationStatus.choices, default=RegistrationStatus.REGISTERED)
    entries = models.PositiveIntegerField(default=0, help_text="Buy-ins and re-entries paid.")
    rebuys = models.PositiveIntegerField(default=0)
    addons = models.PositiveIntegerField(default=0)
    # Where the player sits now: cleared when they go out (the seat may be given to another) and at the end.
    table_number = models.PositiveIntegerField(null=True, blank=True)
    seat_number = models.PositiveIntegerField(null=True, blank=True)
    # Where the draw put them (a late registrant: where they were first seated), kept for good: a finished
    # tournament still shows who was drawn to which table.
    drawn_table = models.PositiveIntegerField(
        null=True, blank=True, help_text="The table the draw gave (late: the first seat); kept after they go out."
    )
    drawn_seat = models.PositiveIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    eliminated_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    prize = models.PositiveBigIntegerField(default=0, help_text="Credits won, booked when the tournament completes.")
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="registration_unique_player",
                violation_error_message="This player is already registered for the tournament.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "table_number", "seat_number"],
                name="registration_unique_seat",
                violation_error_message="Two players cannot share a seat.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in tournament {self.tournament_id} ({self.status})"


class ClockEventKind(models.TextChoices):
    LEVEL = "level", "Level starts"
    BREAK_START = "break_start", "Break starts"
    BREAK_END = "break_end", "Break ends"
    WARNING = "warning", "One minute left"


class ClockEvent(models.Model):
    """An announcement of the clock, written once per (tournament, epoch, level, kind): the idempotency key.

    `due_at` is when the structure said it should happen, `recorded_at` when the clock task applied it: the
    difference is the level lag the benchmark reports.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="clock_events")
    epoch = models.PositiveIntegerField()
    level_index = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=ClockEventKind.choices)
    due_at = models.DateTimeField()
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["recorded_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "epoch", "level_index", "kind"],
                name="clock_event_once",
                violation_error_message="This clock announcement is already recorded.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} of level {self.level_index + 1} (tournament {self.tournament_id})"

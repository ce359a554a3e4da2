"""Online tables: a table of a league event played in the browser, its seats and its action log.

The engine's live state is saved on the table (`state`, with `history` for the export) and
`version` counts every change. The saved state holds the master seed, so it never leaves the
server: viewers only ever get the engine's view for them.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

MIN_SEATS, MAX_SEATS = 2, 8
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 600


def new_invite() -> str:
    """A casual game's invite token: unguessable (128 bits from `secrets`), safe in a link."""
    return secrets.token_urlsafe(16)


class TableStatus(models.TextChoices):
    OPEN = "open", "Open: taking seats"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    FINISHED = "finished", "Finished"


class Due(models.TextChoices):
    """The work a running table waits for next (`OnlineTable.due`), due at `OnlineTable.due_at`."""

    BOT = "bot", "A bot's decision (or the turn clock)"
    CLOCK = "clock", "The turn clock"
    DEAL = "deal", "The next hand"


class OnlineTable(models.Model):
    # None: a casual game ("play now"), part of no league: its host (`created_by`) runs it, its results stay here.
    event = models.ForeignKey(
        "league.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="online_tables"
    )
    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=40)
    preset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, help_text="The full option set, resolved by the engine.")
    seat_count = models.PositiveSmallIntegerField(default=6)
    buy_in = models.PositiveIntegerField()
    turn_seconds = models.PositiveIntegerField(default=30)
    status = models.CharField(max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN)
    state = models.TextField(blank=True, help_text="The engine's saved game (holds the master seed: never served).")
    history = models.TextField(blank=True, help_text="The engine's finished hands, for the replay export.")
    results = models.JSONField(default=list, blank=True, help_text="Each finished hand as the table saw it.")
    version = models.PositiveIntegerField(default=0)
    # A tournament's level announced while the game runs: {"level", "ante", "small_blind", "big_blind"}; the
    # next hand starts with it (`Game.set_levels`) and clears it.
    pending_levels = models.JSONField(null=True, blank=True, help_text="The next level, applied at the next hand.")
    # The number of the tournament table this online table plays (opened from the control room), or None.
    # Its chips are tournament chips: the tournament books buy-ins and prizes, so the table books no ledger line.
    tournament_table = models.PositiveSmallIntegerField(null=True, blank=True)
    # The version at which the awaited decision (hand, phase, actor) last changed: actions made
    # against any version since then are still current, so select and improve take any order.
    turn_version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    # What is due next and when (games.online.schedule): the task sent for it is a hint; the sweep
    # (`online.sweep`) sends it again once it is overdue, at most every `SWEEP_RESEND_SECONDS` (`resent_at`).
    due = models.CharField(max_length=8, choices=Due.choices, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    resent_at = models.DateTimeField(null=True, blank=True)
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="online_table"
    )
    # A casual game: the bots that fill its empty seats when its host starts it.
    bot_kind = models.CharField(max_length=16, blank=True)
    # How the game ended, as the table saw it: {"standings", "stacks", "bots"}; a casual game's only result.
    outcome = models.JSONField(null=True, blank=True)
    ending = models.BooleanField(
        default=False, help_text="Its runner ended the game: it ends at the next hand break, booked as it stands."
    )
    paused_for = models.CharField(
        max_length=8, blank=True, help_text="Why the table paused itself ('nobody': every person away); empty else."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A casual game's invite token: the key its share link carries (`?invite=`). Friends join only with it; the
    # host and whoever is seated see the link, nobody else (empty at league and tournament tables).
    invite = models.CharField(max_length=64, blank=True, editable=False, help_text="A casual game's invite token.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [models.Index(fields=["status"]), models.Index(fields=["status", "due_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=MIN_SEATS) & Q(seat_count__lte=MAX_SEATS), name="online_table_seat_count"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_casual(self) -> bool:
        """A "play now" game of no league: no league game, ledger, standings or chip history."""
        return self.event_id is None and self.tournament_table is None


class SeatKind(models.TextChoices):
    PLAYER = "player", "Player"
    BOT = "bot", "Bot"


class OnlineSeat(models.Model):
    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=SeatKind.choices, default=SeatKind.PLAYER)
    # A person's seat plays as their league player; a bot's seat has none (bots are never league players: its
    # `bot_kind` and `name` say who it is, and its results stay on the table's record, never in a league).
    player = models.ForeignKey(
        "league.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="online_seats"
    )
    bot_kind = models.CharField(max_length=16, blank=True)
    # A person's seat at a casual game: the account (no league player needed); at a league table, None.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="casual_seats"
    )
    name = models.CharField(max_length=80, help_text="The name the engine knows the seat by (unique at the table).")
    engine_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    away = models.BooleanField(default=False)
    timeouts = models.PositiveIntegerField(default=0, help_text="Timeouts in a row; two mark the player away.")
    left = models.BooleanField(default=False)
    left_with = models.PositiveIntegerField(
        null=True, blank=True, help_text="Credits cashed out on leaving a running cash table (all leaves, summed)."
    )
    # A tournament table's seat brings the stack the player holds in the tournament (games.online.services.moves);
    # None: the seat starts with the table's buy-in.
    stack = models.PositiveIntegerField(
        null=True, blank=True, help_text="Chips the seat starts with, if not the buy-in."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            # A seat left at a running cash table is free for someone else (the row stays for the log).
            models.UniqueConstraint(
                fields=["table", "number"], condition=Q(left=False), name="online_seat_unique_number"
            ),
            models.UniqueConstraint(fields=["table", "player"], name="online_seat_unique_player"),
            models.UniqueConstraint(fields=["table", "name"], name="online_seat_unique_name"),
            models.CheckConstraint(
                condition=Q(kind="player") | Q(player__isnull=True), name="online_seat_bot_has_no_player"
            ),
            models.UniqueConstraint(fields=["table", "user"], name="online_seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return self.kind == SeatKind.BOT


class ActionSource(models.TextChoices):
    PLAYER = "player", "Player"
    BOT = "bot", "Bot"
    TIMEOUT = "timeout", "Turn clock"
    AWAY = "away", "Sitting out"


class OnlineAction(models.Model):
    """One applied decision; `key` makes a resubmission return the first answer instead of acting twice.

    No cards are kept here: the engine state holds them, and this log is shown at the table. `request` is a
    digest of the decision as asked, so that a key sent again with another decision is refused, not dropped.
    """

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="actions")
    seat = models.ForeignKey(OnlineSeat, on_delete=models.CASCADE, related_name="actions")
    key = models.CharField(max_length=80)
    source = models.CharField(max_length=8, choices=ActionSource.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verb = models.CharField(max_length=8)
    amount = models.PositiveIntegerField(null=True, blank=True)
    hand = models.PositiveIntegerField()
    phase = models.CharField(max_length=16)
    version = models.PositiveIntegerField(help_text="The table's version after this action.")
    response = models.JSONField(default=dict)
    request = models.CharField(
        max_length=64, blank=True, default="", help_text="SHA-256 of the decision as the player sent it."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="online_action_unique_key")]
        indexes = [models.Index(fields=["table", "hand"])]

    def __str__(self) -> str:
        return f"{self.verb} by seat {self.seat_id} at table {self.table_id}"


class ChangeKind(models.TextChoices):
    MOVE = "move", "Move between tables"
    REBUY = "rebuy", "Re-buy"
    ADDON = "addon", "Add-on"


class ChangeStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for the hand to end"
    ON_THE_WAY = "on_the_way", "Joins at the next hand break"
    MADE = "made", "Made"
    CANCELLED = "cancelled", "Cancelled"
    DROPPED = "dropped", "Dropped"


class SeatChange(models.Model):
    """A tournament's change to a seat that waits for a hand break (`games.online.services.moves`): a balancing move
    between two running tables (waiting for the source's hand to end, then on the way to the target) or a
    re-buy's chips (booked by the tournament, on the way to the player's stack). Made once, under the tables'
    locks, at the next hand break (`services.next_hand`)."""

    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, related_name="seat_changes")
    kind = models.CharField(max_length=8, choices=ChangeKind.choices)
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="seat_changes")
    source = models.ForeignKey(OnlineTable, null=True, blank=True, on_delete=models.CASCADE, related_name="departures")
    target = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="arrivals")
    status = models.CharField(max_length=12, choices=ChangeStatus.choices, default=ChangeStatus.WAITING)
    stack = models.PositiveBigIntegerField(null=True, blank=True, help_text="The chips on the way to the target.")
    note = models.CharField(max_length=300, blank=True, help_text="Why it was dropped or cancelled.")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # One open change per player and event: a double submit cannot queue a second move or re-buy.
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(status__in=["waiting", "on_the_way"]),
                name="seat_change_one_open_per_player",
            )
        ]
        indexes = [models.Index(fields=["target", "status"]), models.Index(fields=["source", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} of player {self.player_id} to table {self.target_id} ({self.status})"


__all__ = [
    "ActionSource",
    "ChangeKind",
    "ChangeStatus",
    "Due",
    "OnlineAction",
    "OnlineSeat",
    "OnlineTable",
    "SeatChange",
    "SeatKind",
    "TableStatus",
]

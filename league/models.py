"""Players, leagues, seasons, chip sets, buy-ins, events, the credit ledger and stored standings.

Rows are written only by `league.services` (and `games.services`); reads go through
`league.selectors`. The ledger is append-only: a correction is a new entry.
"""

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import Q

from config.errors import field_messages

# Credit columns are 64-bit (up to 9.2e18); counts are 32-bit (up to 2,147,483,647). Input is bounded
# well below, so no sum overflows: a game's credits (so every stack, pot and ledger line) by
# MAX_CREDITS, an event's and a season's credits in all by MAX_EVENT_CREDITS and MAX_SEASON_CREDITS,
# and counts (re-buys, knock-outs, rounds, table numbers, best N, minimum players) by MAX_COUNT.
MAX_CREDITS = 1_000_000_000
MAX_EVENT_CREDITS = 1_000_000_000_000
MAX_SEASON_CREDITS = 100_000_000_000_000
MAX_COUNT = 1_000_000


# Characters a typed code may be read wrongly as (a letter O for a zero, I or L for a one), folded together.
_LOOK_ALIKES = str.maketrans("OIL", "011")


def join_key_of(code: str) -> str:
    """An invite code as it is compared: its letters and digits only, in capitals, with look-alikes folded, so
    that a code read out at a table and typed in any case, with spaces or dashes, still finds its league."""
    return "".join(ch for ch in str(code).upper() if ch.isascii() and ch.isalnum()).translate(_LOOK_ALIKES)


def new_claim_code() -> str:
    return secrets.token_urlsafe(9)


class Player(models.Model):
    """Someone who sits at a table: a user account, or a guest an organiser entered (claimable later)."""

    display_name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    claim_code = models.CharField(max_length=32, default=new_claim_code, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class ChipSet(models.Model):
    """A physical set of chips: which denominations exist and what a starting stake looks like."""

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    starting_chips = models.JSONField(
        default=dict,
        blank=True,
        help_text="The chips handed out for the default buy-in: each denomination's name and how many, like "
        '{"Bronze": 10, "Silver": 4, "Gold": 2}; {} for none.',
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The service's check of the starting chips' shape (`starting_chips_check`): the admin runs it too."""
        from config.errors import ApplicationError
        from league.services.chips import starting_chips_check

        try:
            starting_chips_check(self.starting_chips)
        except ApplicationError as exc:
            raise _as_validation_error(exc, {f.name for f in self._meta.fields}) from exc


class Denomination(models.Model):
    chip_set = models.ForeignKey(ChipSet, on_delete=models.CASCADE, related_name="denominations")
    name = models.CharField(max_length=40)
    colour = models.CharField(max_length=40, blank=True)
    value = models.PositiveBigIntegerField(help_text="Credits one chip is worth.")

    class Meta:
        ordering = ["chip_set", "-value"]
        constraints = [
            models.UniqueConstraint(
                fields=["chip_set", "name"],
                name="denomination_unique_name",
                violation_error_message="Each denomination of a chip set needs its own name.",
            ),
            models.UniqueConstraint(
                fields=["chip_set", "value"],
                name="denomination_unique_value",
                violation_error_message="Each denomination of a chip set needs its own credit value.",
            ),
            models.CheckConstraint(
                condition=Q(value__gt=0),
                name="denomination_value_positive",
                violation_error_message="A chip is worth at least 1 credit.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"


class BuyInPolicy(models.Model):
    """What a seat costs and whether a player may buy more chips later."""

    name = models.CharField(max_length=80, unique=True)
    buy_in = models.PositiveBigIntegerField("buy-in", default=450, help_text="Credits a seat costs.")
    rebuys_allowed = models.BooleanField("re-buys allowed", default=False)
    max_rebuys = models.PositiveIntegerField(
        "most re-buys", default=0, help_text="0 means no limit when re-buys are allowed."
    )
    rebuy_amount = models.PositiveBigIntegerField(
        "re-buy amount", default=0, help_text="Credits one re-buy buys; 0 when re-buys are not allowed."
    )
    addon_allowed = models.BooleanField("add-on allowed", default=False)
    addon_amount = models.PositiveBigIntegerField(
        "add-on amount", default=0, help_text="Credits the add-on buys; 0 when add-ons are not allowed."
    )

    class Meta:
        ordering = ["name"]
        verbose_name = "buy-in policy"
        verbose_name_plural = "buy-in policies"

    def __str__(self) -> str:
        return self.name

    @property
    def terms(self) -> str:
        """What it costs in words, as the league page and the forms show it: "350 credits, re-buys of 350 (at
        most 2), add-on of 200"."""
        parts = [f"{self.buy_in:,} credits"]
        if self.rebuys_allowed:
            parts.append(
                f"re-buys of {self.rebuy_amount:,}" + (f" (at most {self.max_rebuys})" if self.max_rebuys else "")
            )
        if self.addon_allowed:
            parts.append(f"add-on of {self.addon_amount:,}")
        return ", ".join(parts)

    def clean(self) -> None:
        """The service's checks (`buy_in_policy_check`), every wrong field at once: the admin runs them too."""
        from config.errors import ApplicationError
        from league.services.chips import BUY_IN_POLICY_FIELDS, buy_in_policy_check

        try:
            buy_in_policy_check({key: getattr(self, key) for key in BUY_IN_POLICY_FIELDS})
        except ApplicationError as exc:
            raise _as_validation_error(exc, {f.name for f in self._meta.fields}) from exc


def _as_validation_error(exc: Exception, fields: set[str]) -> ValidationError:
    """A service's ApplicationError as a model ValidationError on the fields it names (admin forms show them
    there; a refusal of several fields, `extra["fields"]`, on each of them)."""
    named = field_messages(getattr(exc, "extra", {}), str(exc))
    errors: dict[str, list[str]] = {}
    for field, messages in named.items():
        field = {"rules": "preset"}.get(field, field)
        field = field.split(".")[0] if isinstance(field, str) else field
        errors.setdefault(field if field in fields else NON_FIELD_ERRORS, []).extend(messages)
    return ValidationError(errors)


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"
    MEMBERS = "members", "Members only"


class JoinMode(models.TextChoices):
    INVITE = "invite", "Invite only"
    CODE = "code", "By invite link or code"
    REQUEST = "request", "By request, an organiser approves"


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    visibility = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC)
    # Default game rules; validated by the engine (`resolve_options`) when saved through a service.
    variant = models.CharField(max_length=40, default="coruscant_shift")
    preset = models.CharField(max_length=40, default="better")
    option_overrides = models.JSONField(default=dict, blank=True)
    chip_set = models.ForeignKey(ChipSet, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    buy_in_policy = models.ForeignKey(BuyInPolicy, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    points_formula = models.CharField(max_length=32, default="linear")
    points_parameters = models.JSONField(default=dict, blank=True)
    tie_breakers = models.JSONField(default=list, blank=True)
    best_n = models.PositiveIntegerField(null=True, blank=True, help_text="Only a player's best N events count.")
    min_players = models.PositiveIntegerField(default=2, help_text="Events with fewer players do not count.")
    ties_share_better_place = models.BooleanField(default=True)
    members_may_open_tables = models.BooleanField(
        default=False, help_text="Members, not only organisers, may open online tables at the league's events."
    )
    # How people join (`league.services.joining`); the code is the secret of an invite link, blank when revoked.
    join_mode = models.CharField(max_length=16, choices=JoinMode.choices, default=JoinMode.INVITE)
    join_code = models.CharField(max_length=64, blank=True, default="", editable=False)
    # The code as it is compared (`join_key_of`): a code typed in any case, with spaces or dashes, finds its league.
    join_key = models.CharField(max_length=64, blank=True, default="", editable=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped by every write of the league's data (`league.services.versions`); the pages' caches key on it.
    data_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A save of a loaded league never writes `data_version` back: only the services' bump (an
        `UPDATE ... + 1`) moves it, so a stale copy saved later cannot take it back to a used value."""
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name != "data_version"
            ]
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The services' checks (engine rules, points formula, tie-breakers, counts): the admin runs them too."""
        from config.errors import ApplicationError
        from league.services.rules import league_settings_check

        try:
            league_settings_check(self)
        except ApplicationError as exc:
            raise _as_validation_error(exc, {f.name for f in self._meta.fields}) from exc

    def set_join_code(self, code: str) -> None:
        """The invite code and the key it is compared by, together."""
        self.join_code = code
        self.join_key = join_key_of(code)


class Role(models.TextChoices):
    ORGANISER = "organiser", "Organiser"
    PLAYER = "player", "Player"


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "player__display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "player"],
                name="membership_unique",
                violation_error_message="This player is already a member of this league.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league} ({self.role})"


class Season(models.Model):
    """A stretch of a league's events; blank overrides fall back to the league's settings."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    variant = models.CharField(max_length=40, blank=True)
    preset = models.CharField(max_length=40, blank=True)
    option_overrides = models.JSONField(default=dict, blank=True)
    points_formula = models.CharField(max_length=32, blank=True)
    points_parameters = models.JSONField(default=dict, blank=True)
    buy_in_policy = models.ForeignKey(BuyInPolicy, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="season_dates_ordered",
                violation_error_message="A season cannot end before it starts; set the end on or after the start.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"

    def clean(self) -> None:
        """The services' checks of a season's overrides against its league's rules."""
        from config.errors import ApplicationError
        from league.services.rules import season_settings_check

        if self.league_id is None:
            return
        try:
            season_settings_check(self)
        except ApplicationError as exc:
            raise _as_validation_error(exc, {f.name for f in self._meta.fields}) from exc


class EventKind(models.TextChoices):
    TOURNAMENT = "tournament", "Tournament"
    GAME = "game", "Single game"


class EventStatus(models.TextChoices):
    PLANNED = "planned", "Planned"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Event(models.Model):
    """A tournament or a single game in a season; its games live in `games.models`."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=16, choices=EventKind.choices, default=EventKind.GAME)
    status = models.CharField(max_length=16, choices=EventStatus.choices, default=EventStatus.PLANNED)
    starts_at = models.DateTimeField()
    chip_set = models.ForeignKey(ChipSet, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    buy_in_policy = models.ForeignKey(BuyInPolicy, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    counts_for_standings = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "id"]
        # A season's events by status, newest first (the league page lists the latest 50 of 25,000 in one scan).
        indexes = [models.Index(fields=["season", "status", "-starts_at"], name="event_season_status_starts")]

    def __str__(self) -> str:
        return self.name


# What a standings update reads of each result besides its player and event (`league.services.standings`).
STANDING_RESULT_FIELDS = ["players", "place", "tied", "buy_in", "prize_pool", "rebuys", "knockouts"]
STANDING_RESULT_FIELDS += ["credits_in", "credits_out", "biggest_pot"]


class EventResult(models.Model):
    """A player's result in one event, derived from its games: what standings read."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="event_results")
    place = models.PositiveIntegerField()
    players = models.PositiveIntegerField(help_text="Players in the event.")
    tied = models.PositiveIntegerField(default=1, help_text="Players sharing this place.")
    buy_in = models.BigIntegerField(default=0)
    credits_in = models.BigIntegerField(default=0)
    credits_out = models.BigIntegerField(default=0)
    rebuys = models.PositiveIntegerField(default=0)
    knockouts = models.PositiveIntegerField(default=0)
    biggest_pot = models.PositiveBigIntegerField(default=0)
    prize_pool = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["event", "place", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                name="event_result_unique",
                violation_error_message="A player has one result per event.",
            )
        ]
        # A standings update reads a few players' results from this index alone (`standings_groups`): their
        # results lie all over the table, one page read each otherwise.
        indexes = [
            models.Index(
                fields=["player"],
                include=["event", *STANDING_RESULT_FIELDS],
                name="event_result_player_standing",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} placed {self.place} in event {self.event_id}"


class LedgerKind(models.TextChoices):
    BUY_IN = "buy_in", "Buy-in"
    REBUY = "rebuy", "Re-buy"
    ADDON = "addon", "Add-on"
    HAND_WON = "hand_won", "Hand won"
    HAND_LOST = "hand_lost", "Hand lost"
    PAYOUT = "payout", "Payout"
    ADJUSTMENT = "adjustment", "Adjustment"


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ValidationError("The ledger is append-only: write a correcting entry instead of updating one.")

    def delete(self):
        raise ValidationError("The ledger is append-only: write a correcting entry instead of deleting one.")


class LedgerEntry(models.Model):
    """One movement of a player's credits at an event's tables.

    `amount` is the change of the player's stack: buy-ins, re-buys and add-ons bring chips
    in (+), hands move them (+/-), and the payout takes the final stack off the table (-), so
    a settled game leaves every player at zero. Entries are never changed or deleted.
    """

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="ledger")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="ledger")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ledger")
    kind = models.CharField(max_length=16, choices=LedgerKind.choices)
    amount = models.BigIntegerField()
    hand = models.PositiveIntegerField(null=True, blank=True, help_text="Hand number, when known.")
    reason = models.CharField(max_length=255, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    correction = models.ForeignKey(
        "games.ResultCorrection", null=True, blank=True, on_delete=models.PROTECT, related_name="ledger"
    )
    reversal = models.BooleanField(default=False, help_text="Cancels earlier entries of a corrected game.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["player", "event"]), models.Index(fields=["event", "game"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="adjustment") | (~Q(reason="") & Q(author__isnull=False)),
                name="ledger_adjustment_has_reason_and_author",
                violation_error_message="An adjustment needs a reason and an author.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount:+d} for player {self.player_id}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValidationError("The ledger is append-only: write a correcting entry instead of changing one.")
        if self.kind == LedgerKind.ADJUSTMENT and (not self.reason or self.author_id is None):
            raise ValidationError("An adjustment needs a reason and an author.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("The ledger is append-only: write a correcting entry instead of deleting one.")


ALL_TIME = "all"  # the standings' scope over every season


def season_scope(season_id: int) -> str:
    """The standings' scope of one season."""
    return f"season-{season_id}"


class Standing(models.Model):
    """One row of a stored standings table: `scope` is "all" or "season-<id>"; read in one query."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE, related_name="standings")
    scope = models.CharField(max_length=32)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    display_name = models.CharField(max_length=80, help_text="The player's name when computed: no join to read.")
    rank = models.PositiveIntegerField()
    points = models.FloatField(default=0)
    wins = models.PositiveIntegerField(default=0)
    net_credits = models.BigIntegerField(default=0)
    average_place = models.FloatField(default=0)
    events_played = models.PositiveIntegerField(default=0)
    events_counted = models.PositiveIntegerField(default=0)
    biggest_pot = models.PositiveBigIntegerField(default=0)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["league", "scope", "rank", "player_id"]
        constraints = [models.UniqueConstraint(fields=["league", "scope", "player"], name="standing_unique")]
        indexes = [models.Index(fields=["league", "scope", "rank"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.display_name} ({self.scope})"


class AuditEntry(models.Model):
    """Who changed what, when: one row per service write."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=64)
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.object_type} {self.object_id}"


class StandingsTable(models.Model):
    """A standings table as the API serves it, written with its rows: the endpoint reads one row."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings_tables")
    scope = models.CharField(max_length=32)
    payload = models.TextField(help_text="The JSON document of the standings endpoint.")
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "scope"], name="standings_table_unique")]

    def __str__(self) -> str:
        return f"{self.league_id} {self.scope}"


class JoinRequestStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    DECLINED = "declined", "Declined"


class JoinRequest(models.Model):
    """A user asking to join a league that admits by request: one row per user and league. An organiser
    approves (the membership is made) or declines; `notified` is set once the user has been told."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=JoinRequestStatus.choices, default=JoinRequestStatus.PENDING)
    notified = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="join_request_unique")]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.league}"


class EmailInvite(models.Model):
    """An organiser's invitation by e-mail: its token joins whoever signs up or signs in with the link."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="email_invites")
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return f"{self.email} invited to {self.league}"

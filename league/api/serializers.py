"""Input and output serializers of the league API; no rules live here."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import StrictInput, StrictModelInput
from league import selectors
from league.models import (
    MAX_COUNT,
    MAX_CREDITS,
    BuyInPolicy,
    ChipSet,
    Denomination,
    Event,
    EventKind,
    EventStatus,
    League,
    LedgerEntry,
    Membership,
    Player,
    Role,
    Season,
    Visibility,
)
from league.permissions import can_manage_league, can_see_claim_code
from league.providers import games
from league.services import EVENT_FIELDS, LEAGUE_FIELDS, SEASON_FIELDS


class VisibleOnly:
    """A related field whose choices are what the requesting user may see: a hidden object and a missing
    one get the same answer ("does not exist"), so nobody can probe for what is hidden."""

    selector = None

    def get_queryset(self):
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return type(self).selector(user=user)


class VisibleLeagueField(VisibleOnly, serializers.SlugRelatedField):
    selector = staticmethod(selectors.league_list)

    def __init__(self, **kwargs):
        super().__init__(slug_field="slug", queryset=League.objects.none(), **kwargs)


class VisibleSeasonField(VisibleOnly, serializers.PrimaryKeyRelatedField):
    selector = staticmethod(selectors.season_list)

    def __init__(self, **kwargs):
        super().__init__(queryset=Season.objects.none(), **kwargs)


class VisiblePlayerField(VisibleOnly, serializers.PrimaryKeyRelatedField):
    selector = staticmethod(selectors.player_addable_list)

    def __init__(self, **kwargs):
        super().__init__(queryset=Player.objects.none(), **kwargs)


class BuyInPolicyOutput(serializers.ModelSerializer):
    class Meta:
        model = BuyInPolicy
        fields = [
            "id",
            "name",
            "buy_in",
            "rebuys_allowed",
            "max_rebuys",
            "rebuy_amount",
            "addon_allowed",
            "addon_amount",
        ]
        read_only_fields = ["id"]


class BuyInPolicySerializer(StrictModelInput):
    Meta = BuyInPolicyOutput.Meta  # what it reads is what it writes


class DenominationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Denomination
        fields = ["name", "colour", "value"]


class ChipSetOutput(serializers.ModelSerializer):
    denominations = DenominationSerializer(many=True, read_only=True)
    starting_stake = serializers.SerializerMethodField()

    class Meta:
        model = ChipSet
        fields = ["id", "name", "slug", "description", "denominations", "starting_chips", "starting_stake"]

    def get_starting_stake(self, chip_set: ChipSet) -> int:
        values = {d.name: d.value for d in chip_set.denominations.all()}
        return sum(values.get(name, 0) * count for name, count in (chip_set.starting_chips or {}).items())


class DenominationInput(StrictInput):
    name = serializers.CharField(max_length=40)
    colour = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    value = serializers.IntegerField(min_value=1, max_value=MAX_CREDITS)


class ChipSetInput(StrictInput):
    name = serializers.CharField(max_length=80)
    slug = serializers.SlugField(max_length=80)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    denominations = DenominationInput(many=True)
    starting_chips = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False, default=dict)


class ChipRowSerializer(serializers.Serializer):
    name = serializers.CharField()
    colour = serializers.CharField()
    value = serializers.IntegerField()
    count = serializers.IntegerField()


class StackAsChipsOutput(serializers.Serializer):
    credits = serializers.IntegerField()
    chips = ChipRowSerializer(many=True)
    chip_count = serializers.IntegerField()
    remainder = serializers.IntegerField(help_text="Credits no chip of the set can make.")


class LeagueOutput(serializers.ModelSerializer):
    chip_set = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    buy_in_policy = BuyInPolicyOutput(read_only=True, allow_null=True)

    class Meta:
        model = League
        fields = ["id", *LEAGUE_FIELDS, "created_at"]


class LeagueInput(StrictInput):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=80, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    # Blank is the service's to refuse: its message names the variants and the chosen variant's presets.
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True)
    preset = serializers.CharField(max_length=40, required=False, allow_blank=True)
    option_overrides = serializers.DictField(required=False)
    chip_set = serializers.SlugRelatedField(
        slug_field="slug", queryset=ChipSet.objects.all(), required=False, allow_null=True
    )
    buy_in_policy = serializers.PrimaryKeyRelatedField(
        queryset=BuyInPolicy.objects.all(), required=False, allow_null=True
    )
    points_formula = serializers.CharField(max_length=32, required=False)
    points_parameters = serializers.DictField(required=False)
    tie_breakers = serializers.ListField(child=serializers.CharField(), required=False)
    best_n = serializers.IntegerField(min_value=1, max_value=MAX_COUNT, required=False, allow_null=True)
    min_players = serializers.IntegerField(min_value=1, max_value=MAX_COUNT, required=False)
    ties_share_better_place = serializers.BooleanField(required=False)
    members_may_open_tables = serializers.BooleanField(
        required=False, help_text="Members, not only organisers, may open online tables (default false)."
    )


class SeasonOutput(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Season
        fields = ["id", "league", *SEASON_FIELDS]


class SeasonInput(StrictInput):
    league = VisibleLeagueField(required=False)
    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True)
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True)
    preset = serializers.CharField(max_length=40, required=False, allow_blank=True)
    option_overrides = serializers.DictField(required=False)
    points_formula = serializers.CharField(max_length=32, required=False, allow_blank=True)
    points_parameters = serializers.DictField(required=False)
    buy_in_policy = serializers.PrimaryKeyRelatedField(
        queryset=BuyInPolicy.objects.all(), required=False, allow_null=True
    )


class PlayerOutput(serializers.ModelSerializer):
    is_guest = serializers.BooleanField(read_only=True)
    claim_code = serializers.SerializerMethodField(
        help_text="A guest's code, shown only to those who answer for the guest: the organisers of its leagues, "
        "the organiser who entered it and site admins."
    )

    class Meta:
        model = Player
        fields = ["id", "display_name", "is_guest", "claim_code", "created_at"]

    def get_claim_code(self, player: Player) -> str | None:
        return player.claim_code if can_see_claim_code(self.context["request"].user, player) else None


class PlayerInput(StrictInput):
    display_name = serializers.CharField(max_length=80)


class GuestInput(PlayerInput):
    confirm_duplicate = serializers.BooleanField(
        default=False,
        help_text="A player with this name (any case) already exists among those you can see: without true the "
        "guest is refused (409, code duplicate_name, extra.namesakes their ids); true adds them anyway.",
    )


class ClaimInput(StrictInput):
    claim_code = serializers.CharField(max_length=32)


class MembershipOutput(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    player_name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "league", "player", "player_name", "role", "joined_at"]


class MembershipInput(StrictInput):
    league = VisibleLeagueField()
    player = VisiblePlayerField()
    role = serializers.ChoiceField(choices=Role.choices, default=Role.PLAYER)


class MembershipUpdateInput(StrictInput):
    role = serializers.ChoiceField(choices=Role.choices)


class TableOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.IntegerField()


class TableInput(StrictInput):
    name = serializers.CharField(max_length=80)
    number = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)


# The kinds of table a site table row names (its schema enum: `SiteTableKindEnum`, config.settings).
SITE_TABLE_KINDS = ("online", "real_cards")


class SiteTableOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SITE_TABLE_KINDS)
    name = serializers.CharField()
    status = serializers.CharField(help_text="open, running, paused, playing or finished")
    url = serializers.CharField(help_text="The table's page.")
    tournament_table = serializers.IntegerField(allow_null=True, help_text="The tournament's table it plays.")
    game = serializers.IntegerField(allow_null=True, help_text="The league game it landed as.")


class EventListOutput(serializers.ListSerializer):
    """A list of events reads their site tables once for all of them (two queries), not once per event."""

    def to_representation(self, data: Any) -> list:
        events = list(data.all() if hasattr(data, "all") else data)
        self.site_tables = games().events_tables(event_ids=[event.pk for event in events])
        return super().to_representation(events)


class EventOutput(serializers.ModelSerializer):
    """An event, in a list and alone: also its online and real-cards tables (`site_tables`), as its page lists them
    (`tables` are the tables results are entered at)."""

    league = serializers.CharField(source="season.league.slug", read_only=True)
    chip_set = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    tables = TableOutput(many=True, read_only=True)
    site_tables = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = ["tables", "id", "league", "season", *EVENT_FIELDS, "site_tables"]
        list_serializer_class = EventListOutput

    @extend_schema_field(SiteTableOutput(many=True))
    def get_site_tables(self, event: Event) -> list[dict]:
        batch = getattr(self.parent, "site_tables", None)
        rows = batch.get(event.pk, []) if batch is not None else games().event_tables(event_id=event.pk)
        return SiteTableOutput(rows, many=True).data


class EventInput(StrictInput):
    season = VisibleSeasonField(required=False)
    name = serializers.CharField(max_length=120)
    kind = serializers.ChoiceField(choices=EventKind.choices, required=False)
    status = serializers.ChoiceField(choices=EventStatus.choices, required=False)
    starts_at = serializers.DateTimeField()
    chip_set = serializers.SlugRelatedField(
        slug_field="slug", queryset=ChipSet.objects.all(), required=False, allow_null=True
    )
    buy_in_policy = serializers.PrimaryKeyRelatedField(
        queryset=BuyInPolicy.objects.all(), required=False, allow_null=True
    )
    counts_for_standings = serializers.BooleanField(required=False)


class AdjustmentInput(StrictInput):
    player = VisiblePlayerField()
    amount = serializers.IntegerField(
        min_value=-MAX_CREDITS, max_value=MAX_CREDITS, help_text="Credits added (+) or taken (-); not 0."
    )
    reason = serializers.CharField(max_length=255)


class AuditDetails:
    """The `author` and `reason` of an audited row (a ledger line, a result correction): audit details, shown to
    the row's league's organisers and site admins only, null for everyone else. A serializer names the league
    (`audit_league`) and declares the two method fields."""

    def audit_league(self, row: Any) -> League:
        raise NotImplementedError

    def _audit_visible(self, row: Any) -> bool:
        if hasattr(row, "audit_visible"):  # worked out by the list query (selectors.ledger_list)
            return row.audit_visible
        request = self.context.get("request")
        return request is not None and can_manage_league(request.user, self.audit_league(row))

    def get_author(self, row: Any) -> str | None:
        if not self._audit_visible(row):
            return None
        return row.author.get_username() if row.author_id else None

    def get_reason(self, row: Any) -> str | None:
        return row.reason if self._audit_visible(row) else None


class LedgerEntryOutput(AuditDetails, serializers.ModelSerializer):
    """One ledger line. Its author and reason are audit details: shown to the league's organisers and site
    admins only (null for everyone else)."""

    player_name = serializers.CharField(source="player.display_name", read_only=True)
    kind = serializers.CharField(
        read_only=True, help_text="buy_in, rebuy, addon, hand_won, hand_lost, payout or adjustment."
    )
    author = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()

    class Meta:
        model = LedgerEntry
        fields = [
            "id",
            "event",
            "game",
            "player",
            "player_name",
            "kind",
            "amount",
            "hand",
            "reason",
            "author",
            "correction",
            "reversal",
            "created_at",
        ]

    def audit_league(self, entry: LedgerEntry) -> League:
        return entry.event.season.league


class StandingRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    display_name = serializers.CharField()
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    net_credits = serializers.IntegerField()
    average_place = serializers.FloatField()
    events_played = serializers.IntegerField()
    events_counted = serializers.IntegerField()
    biggest_pot = serializers.IntegerField()


class StandingsOutput(serializers.Serializer):
    league = serializers.CharField()
    season = serializers.IntegerField(allow_null=True)
    points_formula = serializers.CharField()
    tie_breakers = serializers.ListField(child=serializers.CharField())
    rows = StandingRowOutput(many=True)


class ChipPointOutput(serializers.Serializer):
    kind = serializers.CharField()
    hand = serializers.IntegerField(allow_null=True)
    credits = serializers.IntegerField()


class PlayerGameHistoryOutput(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    played_at = serializers.DateTimeField()
    points = ChipPointOutput(many=True)


class CumulativePointOutput(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    event = serializers.IntegerField()
    at = serializers.DateTimeField()
    net_credits = serializers.IntegerField()


class NamedPlayerOutput(serializers.Serializer):
    """A player as every per-player answer leads with them: the id, then the name shown."""

    player = serializers.IntegerField()
    display_name = serializers.CharField()


class PlayerChipHistoryOutput(NamedPlayerOutput):
    season = serializers.IntegerField(allow_null=True)
    games = PlayerGameHistoryOutput(many=True)
    cumulative = CumulativePointOutput(many=True)
    net_credits = serializers.IntegerField(
        help_text="Net credits from every ledger line, as the standings count them; the player page's figure."
    )
    in_play = serializers.IntegerField(
        help_text="The part of net_credits booked at events not finished yet (a running tournament's buy-in)."
    )


class SeasonPointOutput(serializers.Serializer):
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    at = serializers.DateTimeField()
    net_credits = serializers.IntegerField()


class SeasonSeriesOutput(NamedPlayerOutput):
    points = SeasonPointOutput(many=True)


class LeagueChipHistoryOutput(serializers.Serializer):
    league = serializers.CharField()
    season = serializers.IntegerField(allow_null=True)
    series = SeasonSeriesOutput(many=True)

"""League API views: parse input, check permission, call a service or selector, shape output."""

import csv
import io
from typing import Any

import django_filters
from django import forms
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from config.api_views import GenericViewSet
from config.errors import ApplicationError
from config.inputs import whole_number_or
from config.renderers import CSV_RENDERERS, JSONErrorsMixin
from league import selectors, services
from league.api import serializers as s
from league.api.permissions import (
    require_admin,
    require_league_creator,
    require_organiser,
    require_player_editor,
    require_some_organiser,
    require_visible,
)
from league.chips import stack_as_chips
from league.models import BuyInPolicy, Event, EventKind, League, LedgerEntry, Membership, Player, Season
from league.pages import line_note, player_side
from league.permissions import can_manage_league

SEASON_PARAM = OpenApiParameter(
    "season",
    OpenApiTypes.INT,
    description="A season id of the league; leave out (or give `all`) for all-time. Any other value is a 400 naming "
    "the league's season ids.",
    required=False,
)
LEAGUE_PARAM = OpenApiParameter("league", OpenApiTypes.STR, description="A league slug.", required=True)


def _valid(request: Request, input_class: type[Serializer], *, partial: bool = False) -> dict[str, Any]:
    """The request's input, checked by `input_class`, as keyword arguments for a service (400 when it is wrong)."""
    data = input_class(data=request.data, context={"request": request}, partial=partial)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _parent(fields: dict[str, Any], name: str, missing: str) -> Any:
    """Take out what a new row belongs to (a season's league, an event's season); a 400 saying `missing` if none."""
    parent = fields.pop(name, None)
    if parent is None:
        raise ValidationError({name: [missing]})
    return parent


def _season_id(raw: str | None) -> int | None:
    """The season id `?season=` gives, written as a whole number; None for anything else."""
    return whole_number_or(raw, None, signed=False)


def _season_of(request: Request, league: League) -> Season | None:
    """The league's season `?season=` names; None for all-time (left out, empty or "all"). Any other value is a 400
    naming the league's season ids (its seasons are public wherever the league is)."""
    raw = request.query_params.get("season")
    if not raw or raw == "all":
        return None
    season_id = _season_id(raw)
    season = Season.objects.filter(pk=season_id, league=league).first() if season_id is not None else None
    if season is None:
        ids = list(Season.objects.filter(league=league).order_by("pk").values_list("pk", flat=True))
        takes = f"one of its season ids ({', '.join(map(str, ids))})" if ids else "no season id (it has no season yet)"
        raise ApplicationError(
            f"No season {raw!r} in {league.name}: 'season' takes {takes}, or 'all' (or leave it out) for all-time.",
            code="unknown_season",
            extra={"season": raw, "allowed": [*ids, "all"]},
        )
    return season


# Ids are whole numbers the database can hold and slugs are letters, digits, - and _: anything else in the
# address is a 404 from the router, never a lookup the database refuses.
ID_PATTERN = r"[0-9]{1,18}"
SLUG_PATTERN = r"[-a-zA-Z0-9_]{1,80}"


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(django_filters.NumberFilter):
    """A filter by id that never reveals whether a hidden object exists: it filters the visible rows by the
    number, so a hidden id and a missing one both give an empty page (a non-number is a 400 for both)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 10**18)
        super().__init__(*args, **kwargs)


def id_filterset(
    model_class, ids: dict[str, str], exact: tuple[str, ...] = (), *, league: str | None = None
) -> type[django_filters.FilterSet]:
    """A FilterSet of id filters (`?event=<id>`) and exact filters on plain fields (`?status=`); `league` names the
    path of the league's slug, offered as `?league=<slug>` beside its long name (`?season__league__slug=`)."""
    attrs: dict[str, Any] = {name: IdFilter(field_name=field) for name, field in ids.items()}
    if league:
        attrs["league"] = django_filters.CharFilter(field_name=league, label=f"A league slug (the same as {league}).")
    attrs["Meta"] = type("Meta", (), {"model": model_class, "fields": list(exact)})
    return type(f"{model_class.__name__}IdFilter", (django_filters.FilterSet,), attrs)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Any) -> Any:
    """Text a spreadsheet would run as a formula (a display name like "=HYPERLINK(...)") is quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_response(filename: str, header: list[str], rows: list[list]) -> HttpResponse:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows([_csv_cell(value) for value in row] for row in rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@extend_schema_view(
    list=extend_schema(
        summary="Leagues you can see",
        description="The public leagues, and the members-only leagues you belong to (a site admin: every league), "
        "each with its rules, points formula, chip set and buy-in policy. Anyone may call it; signed out, public "
        "leagues only.",
    ),
    retrieve=extend_schema(
        summary="One league",
        description="A league by its slug, as the list shows it. A members-only league is a 404 to anyone not its "
        "member, as a league that does not exist.",
    ),
)
class LeagueViewSet(JSONErrorsMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.LeagueOutput
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    filterset_fields = ["visibility", "preset"]
    search_fields = ["name", "slug"]
    ordering_fields = ["name", "created_at"]
    read_query_params = {"standings": ["season"], "standings_csv": ["season"], "chip_history": ["season"]}

    def get_queryset(self):
        return selectors.league_list(user=self.request.user)

    @extend_schema(
        request=s.LeagueInput,
        responses={201: s.LeagueOutput},
        summary="Create a league (you organise it)",
    )
    def create(self, request: Request) -> Response:
        """Creates a league with you as its first organiser (signed-in users, or site admins alone where the site
        sets `LEAGUE_CREATORS=staff`: else 403). Answers 201 with the league, at the slug asked for (or made from
        the name) or, when another league has it, the first free `<slug>-2`, `<slug>-3`, ...; rules the variant
        does not have are a 400 naming the variants and the chosen variant's presets."""
        require_league_creator(request.user)
        fields = _valid(request, s.LeagueInput)
        league = services.league_create(actor=request.user, name=fields.pop("name"), **fields)
        return Response(s.LeagueOutput(league, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.LeagueInput,
        responses=s.LeagueOutput,
        summary="Change a league's settings",
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        """Changes the fields sent, and only those (the league's organisers and site admins; else 403). Every change
        is audited and shows on the league's pages at once; wrong values are a 400 naming each field, and a slug
        another league has a 409, with nothing saved."""
        league = self.get_object()
        require_organiser(request.user, league)
        fields = _valid(request, s.LeagueInput, partial=True)
        league = services.league_update(actor=request.user, league=league, **fields)
        return Response(s.LeagueOutput(league, context={"request": request}).data)

    def _league(self, request: Request, slug: str) -> League:
        """The league without list filters: a lookup by slug, visibility checked in Python."""
        return selectors.league_by_slug(user=request.user, slug=slug)

    @extend_schema(
        parameters=[SEASON_PARAM],
        responses=s.StandingsOutput,
        summary="Stored standings table",
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str) -> HttpResponse:
        """The league's standings over its finished events, all time or one season: each player's rank, points, wins,
        net credits, average place, events played and counted, and biggest pot, with the points formula and
        tie-breakers that ranked them. Recomputed in the background after every change of a result and served as
        stored; empty until the league's first finished event. Anyone who may see the league may read it."""
        league = self._league(request, slug)
        raw = request.query_params.get("season")
        season_id = _season_id(raw)
        if not raw or raw == "all" or season_id is not None:
            scope = services.ALL_TIME if season_id is None else services.season_scope(season_id)
            stored = selectors.standings_table(league=league, scope=scope)
            if stored is not None:
                # Written by the recomputation in the StandingsOutput shape: served as stored, no re-encoding.
                return HttpResponse(stored, content_type="application/json")
        season = _season_of(request, league)  # not computed yet: check the season, serve an empty table
        return Response(
            services.standings_payload(league, season, selectors.standings_rows(league=league, season=season))
        )

    @extend_schema(
        parameters=[SEASON_PARAM],
        responses={(200, "text/csv"): OpenApiTypes.STR},
        summary="Standings as CSV",
    )
    @action(detail=True, methods=["get"], url_path="standings/csv", renderer_classes=CSV_RENDERERS)
    def standings_csv(self, request: Request, slug: str) -> HttpResponse:
        """The same standings as a CSV file to download (players by name, one row each), all time or one season.
        Errors are JSON, as everywhere in the API."""
        league = self._league(request, slug)
        season = _season_of(request, league)
        header = ["rank", "player", *selectors.STANDING_COLUMNS[3:]]  # the player by name, not by id
        rows = [
            [row["display_name"] if key == "player" else row[key] for key in header]
            for row in selectors.standings_rows(league=league, season=season)
        ]
        suffix = f"season-{season.pk}" if season else "all-time"
        return _csv_response(f"{league.slug}-standings-{suffix}.csv", header, rows)

    @extend_schema(
        parameters=[SEASON_PARAM],
        responses=s.LeagueChipHistoryOutput,
        summary="Every player's cumulative credits",
    )
    @action(detail=True, methods=["get"], url_path="chip-history")
    def chip_history(self, request: Request, slug: str) -> Response:
        """For each player of the league, their net credits after each event, all time or one season: the series the
        league page's chart draws. Anyone who may see the league may read it; a season that is not the league's is
        a 400 listing its season ids."""
        league = self._league(request, slug)
        season = _season_of(request, league)
        series = selectors.chip_history_for_season(league=league, season=season)
        return Response({"league": league.slug, "season": season.pk if season else None, "series": series})


@extend_schema_view(
    list=extend_schema(
        summary="Seasons of the leagues you can see",
        description="The seasons of the public leagues and of those you belong to, each with its dates and the "
        "rules, points formula and buy-in policy it sets over its league's. Filter by league (`league`); sort by "
        "start or name. Anyone may call it; signed out, public leagues only.",
    ),
    retrieve=extend_schema(
        summary="One season",
        description="A season by its id, as the list shows it. A season of a members-only league is a 404 to "
        "anyone not its member, as a season that does not exist.",
    ),
)
class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.SeasonOutput
    lookup_value_regex = ID_PATTERN
    filterset_class = id_filterset(Season, {}, ("league__slug",), league="league__slug")
    ordering_fields = ["starts_on", "name"]

    def get_queryset(self):
        return selectors.season_list(user=self.request.user)

    @extend_schema(
        request=s.SeasonInput,
        responses={201: s.SeasonOutput},
        summary="Add a season to a league",
    )
    def create(self, request: Request) -> Response:
        """Adds a season to the league named by its slug (`league`), with its name and start date, and if you like
        its end, rules, points formula and buy-in policy (the league's organisers and site admins; else 403).
        Answers 201 with the season. A league you cannot see is a 400 as one that does not exist; rules the
        variant does not have or fields that contradict each other are a 400 naming every such field."""
        fields = _valid(request, s.SeasonInput)
        league = _parent(fields, "league", "A season belongs to a league: give its slug.")
        require_organiser(request.user, league)
        season = services.season_create(actor=request.user, league=league, **fields)
        return Response(s.SeasonOutput(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.SeasonInput,
        responses=s.SeasonOutput,
        summary="Change a season",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        """Changes the fields sent, and only those (the league's organisers and site admins; else 403); a season
        stays in its league. The standings are computed again, as its rules may have changed. Wrong values are a
        400 naming every wrong field, with nothing saved; a season you cannot see is a 404."""
        season = self.get_object()
        require_organiser(request.user, season.league)
        fields = _valid(request, s.SeasonInput, partial=True)
        fields.pop("league", None)
        season = services.season_update(actor=request.user, season=season, **fields)
        return Response(s.SeasonOutput(season).data)


class PlayerFilter(django_filters.FilterSet):
    league = django_filters.CharFilter(
        method="in_league", label="Members of the league with this slug (a league you can see)."
    )
    memberships__league__slug = django_filters.CharFilter(method="in_league", label="The same as league.")

    class Meta:
        model = Player
        fields = ["league", "memberships__league__slug"]

    def in_league(self, queryset, name: str, value: str):
        # Only memberships of leagues the user can see: a members-only league's roster stays hidden.
        visible = selectors.league_list(user=self.request.user).filter(slug=value)
        return queryset.filter(memberships__league__in=visible)


@extend_schema_view(
    list=extend_schema(
        summary="Players you can see",
        description="The players of the leagues you can see, yourself and the guests you entered (a site admin: "
        "every player), each with whether they are a guest and, for those who answer for a guest (the organisers "
        "of its leagues, who entered it, site admins), its claim code. Filter by league (`league`), search by "
        "name, sort by name or date.",
    ),
    retrieve=extend_schema(
        summary="One player",
        description="A player by id, as the list shows it. A player you cannot see (none of their leagues is one "
        "you can see) is a 404, as a player that does not exist.",
    ),
)
class PlayerViewSet(JSONErrorsMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.PlayerOutput
    lookup_value_regex = ID_PATTERN
    search_fields = ["display_name"]
    ordering_fields = ["display_name", "created_at"]
    filterset_class = PlayerFilter
    read_query_params = {"chip_history": ["league", "season"], "ledger_csv": ["league", "season"]}

    def get_queryset(self):
        return selectors.player_list(user=self.request.user)

    @extend_schema(
        request=s.GuestInput,
        responses={201: s.PlayerOutput},
        summary="Enter a guest player",
    )
    def create(self, request: Request) -> Response:
        """Enters a player with no account, to record their results until they claim the player with its claim code
        (league organisers and site admins; else 403). The guest is in no league until added as a member. A name
        like one of the players you can see is a 409 (`duplicate_name`, with `extra.namesakes`) unless
        `confirm_duplicate` is true; an empty or unusable name is a 400."""
        if not request.user.is_authenticated:
            self.permission_denied(request)
        require_some_organiser(request.user)
        fields = _valid(request, s.GuestInput)
        confirm_duplicate = fields.pop("confirm_duplicate")
        services.refuse_namesake(actor=request.user, confirm_duplicate=confirm_duplicate, **fields)
        player = services.player_create(actor=request.user, **fields)
        return Response(s.PlayerOutput(player, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.PlayerInput,
        responses=s.PlayerOutput,
        summary="Rename a player",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        """Changes a player's display name everywhere, the standings included: your own player, or a guest by whoever
        answers for it (the organisers of its leagues, who entered it); site admins any player. Anyone else gets
        403. A name empty, too long or with invisible characters is a 400."""
        player = self.get_object()
        require_player_editor(request.user, player)
        fields = _valid(request, s.PlayerInput)
        player = services.player_update(actor=request.user, player=player, **fields)
        return Response(s.PlayerOutput(player, context={"request": request}).data)

    @extend_schema(
        request=s.ClaimInput,
        responses=s.PlayerOutput,
        summary="Link a guest player to your account",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def claim(self, request: Request, pk: str) -> Response:
        """Makes a guest player yours, with the claim code an organiser gave you: its results, ledger and memberships
        become your account's (signed-in users; one player per account). A wrong code is a 400; a player already
        linked to an account, or an account that has a player already, a 409; a player you neither can see nor
        hold the code of, a 404."""
        fields = _valid(request, s.ClaimInput)
        claimable = selectors.player_claimable_list(user=request.user, claim_code=fields["claim_code"])
        player = get_object_or_404(claimable, pk=pk)
        player = services.player_claim(user=request.user, player=player, **fields)
        return Response(s.PlayerOutput(player, context={"request": request}).data)

    def _league_param(self, request: Request) -> League:
        slug = request.query_params.get("league")
        if not slug:
            raise ValidationError({"league": ["Give ?league=<slug> of a league you can see."]})
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise NotFound("Not found.")  # the same answer as for a league the user may not see
        require_visible(request.user, league)
        return league

    @extend_schema(
        parameters=[LEAGUE_PARAM, SEASON_PARAM],
        responses=s.PlayerChipHistoryOutput,
        summary="A player's credits over time",
    )
    @action(detail=True, methods=["get"], url_path="chip-history")
    def chip_history(self, request: Request, pk: str) -> Response:
        """A player's credits in one league (`league`, required), all time or one season: through each game they
        played, and their net credits after each, as their page's charts draw them, with the total and the part
        still in play. Anyone who may see the league may read it; without `league` a 400, a league you cannot see
        a 404."""
        player = self.get_object()
        league = self._league_param(request)
        season = _season_of(request, league)
        return Response(selectors.chip_history_for_player(player=player, league=league, season=season))

    @extend_schema(
        parameters=[LEAGUE_PARAM, SEASON_PARAM],
        responses={(200, "text/csv"): OpenApiTypes.STR},
        summary="A player's ledger as CSV",
    )
    @action(detail=True, methods=["get"], url_path="ledger/csv", renderer_classes=CSV_RENDERERS)
    def ledger_csv(self, request: Request, pk: str) -> HttpResponse:
        """A player's ledger lines in one league (`league`, required), all time or one season, as a CSV file read
        from the player's side: money paid in and taken home, chips won and lost, the stack and the net after each
        line. Reasons and authors are filled in for the league's organisers and site admins only. Without `league`
        a 400, a league you cannot see a 404."""
        player = self.get_object()
        league = self._league_param(request)
        season = _season_of(request, league)
        entries = selectors.ledger_list(user=request.user).filter(player=player, event__season__league=league)
        audit_visible = can_manage_league(request.user, league)  # authors and reasons: organisers and admins
        if season is not None:
            entries = entries.filter(event__season=season)
        # Read from the player's side, as their page: money paid in (-) or taken home (+), chips won (+) or lost (-).
        # stack_after: what the player holds at that event's tables after the line (0 once paid out); blank at a
        # tournament, whose chips are not credits. net_after: their net credits so far, as the standings count them.
        # note: a corrected game's lines (its reversal and new result) and refunds, in words every viewer may read.
        stacks: dict[int, int] = {}
        net, rows = 0, []
        lines = entries.annotate(net_change=selectors.NET_CHANGE).select_related("event", "author").order_by("id")
        for e in reversals_rising(list(lines)):
            stacks[e.event_id] = stacks.get(e.event_id, 0) + e.amount
            net += e.net_change
            amount, money = player_side(e.kind, e.amount)
            rows.append(
                [
                    e.created_at.isoformat(),
                    e.event.name,
                    e.game_id or "",
                    e.get_kind_display(),
                    e.hand or "",
                    amount if money else "",
                    "" if money else amount,
                    "" if e.event.kind == EventKind.TOURNAMENT else stacks[e.event_id],
                    net,
                    line_note(reversal=e.reversal, correction_id=e.correction_id),
                    e.reason if audit_visible else "",
                    e.author.get_username() if e.author and audit_visible else "",
                ]
            )
        header = list(LEDGER_CSV_HEADER)
        return _csv_response(f"{league.slug}-{player.pk}-ledger.csv", header, rows)


# A player's ledger CSV: read from the player's side, as their page (docs/api.md, "CSV").
LEDGER_CSV_HEADER = (
    "when",
    "event",
    "game",
    "kind",
    "hand",
    "money",
    "chips",
    "stack_after",
    "net_after",
    "note",
    "reason",
    "author",
)


def reversals_rising(lines: list[LedgerEntry]) -> list[LedgerEntry]:
    """The lines in booking order, each correction's run of reversal lines with what goes back onto the table
    first (a payout, a lost hand) and what leaves it last (a won hand, the buy-in): the stack after each line is
    then one the player really held, never below zero, as the correction undid the game."""
    ordered: list[LedgerEntry] = []
    index = 0
    while index < len(lines):
        end = index
        if lines[index].reversal and lines[index].correction_id is not None:
            while (
                end + 1 < len(lines)
                and lines[end + 1].reversal
                and lines[end + 1].correction_id == lines[index].correction_id
            ):
                end += 1
        ordered.extend(sorted(lines[index : end + 1], key=lambda line: -line.amount))
        index = end + 1
    return ordered


@extend_schema_view(
    list=extend_schema(
        summary="Members of the leagues you can see",
        description="Who belongs to which league, with their role (player or organiser) and since when, for the "
        "public leagues and those you belong to. Filter by league (`league`), player or role. Anyone may call it; "
        "signed out, public leagues only.",
    ),
    retrieve=extend_schema(
        summary="One membership",
        description="A membership by its id, as the list shows it; one of a members-only league is a 404 to anyone "
        "not its member, as one that does not exist.",
    ),
)
class MembershipViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.MembershipOutput
    lookup_value_regex = ID_PATTERN
    filterset_class = id_filterset(Membership, {"player": "player_id"}, ("league__slug", "role"), league="league__slug")

    def get_queryset(self):
        return selectors.membership_list(user=self.request.user)

    @extend_schema(
        request=s.MembershipInput,
        responses={201: s.MembershipOutput},
        summary="Add a player to a league",
    )
    def create(self, request: Request) -> Response:
        """Adds a player to the league as a player or an organiser (the league's organisers and site admins; else
        403). A guest of another league stays its own: only those who answer for it may add it (else 403). A
        player you cannot see is a 400 as one that does not exist, a guest made organiser a 400 (they have no
        account to sign in with), a player already a member a 409."""
        fields = _valid(request, s.MembershipInput)
        require_organiser(request.user, fields["league"])
        player = fields["player"]
        if not selectors.player_addable_list(user=request.user).filter(pk=player.pk).exists():
            # A player only of members-only leagues closed to the user is as unknown as a missing one.
            raise ValidationError({"player": [f'Invalid pk "{player.pk}" - object does not exist.']})
        membership = services.membership_add(actor=request.user, **fields)
        return Response(s.MembershipOutput(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.MembershipUpdateInput,
        responses=s.MembershipOutput,
        summary="Change a member's role",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        """Makes a member a player or an organiser (the league's organisers and site admins; else 403). A league
        keeps at least one organiser: stepping down the last one is a 409; making a guest an organiser is a 400."""
        membership = self.get_object()
        require_organiser(request.user, membership.league)
        fields = _valid(request, s.MembershipUpdateInput)
        membership = services.membership_update(actor=request.user, membership=membership, **fields)
        return Response(s.MembershipOutput(membership).data)

    @extend_schema(
        responses={204: None},
        summary="Remove a member from a league",
    )
    def destroy(self, request: Request, pk: str) -> Response:
        """Takes a player out of the league (the league's organisers and site admins; else 403); their results and
        ledger lines stay. Answers 204. Removing the league's last organiser is a 409: name another first."""
        membership = self.get_object()
        require_organiser(request.user, membership.league)
        services.membership_remove(actor=request.user, membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(
        summary="Chip sets",
        description="Every chip set of the site (they are shared by all leagues): its denominations with their "
        "colours and credit values, the starting chips and the stake they make. Anyone may read them.",
    ),
    retrieve=extend_schema(
        summary="One chip set",
        description="A chip set by its slug, as the list shows it, with its denominations and starting stake. A "
        "slug no chip set has is a 404.",
    ),
)
class ChipSetViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.ChipSetOutput
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    filterset_fields = ["slug"]
    read_query_params = {"stack": ["credits"]}

    def get_queryset(self):
        return selectors.chip_set_list()

    @extend_schema(
        request=s.ChipSetInput,
        responses={201: s.ChipSetOutput},
        summary="Create a chip set (site admins)",
    )
    def create(self, request: Request) -> Response:
        """Creates a chip set for every league to use (site admins only; else 403): its denominations, each with its
        own name and credit value, and the starting chips. A name or slug another set has is a 409; no
        denomination, two with the same name or value, or starting chips naming an unknown one a 400."""
        require_admin(request.user)
        fields = _valid(request, s.ChipSetInput)
        chip_set = services.chip_set_create(actor=request.user, **fields)
        return Response(
            s.ChipSetOutput(selectors.chip_set_list().get(pk=chip_set.pk)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        parameters=[OpenApiParameter("credits", OpenApiTypes.INT, required=True, description="A stack in credits.")],
        responses=s.StackAsChipsOutput,
        summary="A stack shown as the fewest chips of this set",
    )
    @action(detail=True, methods=["get"])
    def stack(self, request: Request, slug: str) -> Response:
        """Shows a stack of `credits` as the fewest chips of this set, each denomination with its count, and the
        credits no chip can make (`remainder`). Anyone may ask; `credits` left out or not a whole number from 0 to
        1,000,000,000 is a 400."""
        chip_set = self.get_object()
        credits = whole_number_or(request.query_params.get("credits"), None)
        if credits is None or not 0 <= credits <= 10**9:
            raise ValidationError({"credits": ["Give ?credits= as a whole number from 0 to 1,000,000,000."]})
        return Response(stack_as_chips(list(chip_set.denominations.all()), credits))


@extend_schema_view(
    list=extend_schema(
        summary="Buy-in policies",
        description="Every buy-in policy of the site (shared by all leagues): the buy-in, whether re-buys and "
        "add-ons are allowed, their amounts and the cap on re-buys. A league, a season or an event names one. "
        "Anyone may read them.",
    ),
    retrieve=extend_schema(
        summary="One buy-in policy",
        description="A buy-in policy by its id, as the list shows it: its buy-in, re-buys and add-ons. An id no "
        "policy has is a 404.",
    ),
)
class BuyInPolicyViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.BuyInPolicyOutput
    lookup_value_regex = ID_PATTERN
    queryset = BuyInPolicy.objects.all()

    @extend_schema(
        request=s.BuyInPolicySerializer,
        responses={201: s.BuyInPolicyOutput},
        summary="Create a policy (site admins)",
    )
    def create(self, request: Request) -> Response:
        """Creates a buy-in policy for every league to use (site admins only; else 403). Amounts are whole credits, a
        buy-in at least 1; a re-buy or add-on amount is at least 1 when allowed and 0 when not. Fields that
        contradict each other are one 400 naming them all; a name another policy has is a 409."""
        require_admin(request.user)
        fields = _valid(request, s.BuyInPolicySerializer)
        policy = services.buy_in_policy_create(actor=request.user, name=fields.pop("name"), **fields)
        return Response(s.BuyInPolicyOutput(policy).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(
        summary="Events of the leagues you can see",
        description="The events (single games and tournaments) of the public leagues and those you belong to: name, "
        "kind, status, start, chip set, buy-in policy, whether it counts for the standings, and its tables online "
        "and with real cards. Filter by league (`league`), season, status or kind; sort by start or name.",
    ),
    retrieve=extend_schema(
        summary="One event",
        description="An event by its id, as the list shows it, with its tables. An event of a members-only league "
        "is a 404 to anyone not its member, as an event that does not exist.",
    ),
)
class EventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = s.EventOutput
    lookup_value_regex = ID_PATTERN
    filterset_class = id_filterset(
        Event, {"season": "season_id"}, ("season__league__slug", "status", "kind"), league="season__league__slug"
    )
    ordering_fields = ["starts_at", "name"]

    def get_queryset(self):
        return selectors.event_list(user=self.request.user)

    @extend_schema(
        request=s.EventInput,
        responses={201: s.EventOutput},
        summary="Plan an event",
    )
    def create(self, request: Request) -> Response:
        """Adds an event (a single game or a tournament) to a season (`season`, its id), with its name and start (the
        league's organisers and site admins; else 403). Answers 201 with the event. A season left out, or one you
        cannot see, is a 400; so is a kind or status not in the list."""
        fields = _valid(request, s.EventInput)
        season = _parent(fields, "season", "An event belongs to a season: give its id.")
        require_organiser(request.user, season.league)
        event = services.event_create(actor=request.user, season=season, **fields)
        return Response(s.EventOutput(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.EventInput,
        responses=s.EventOutput,
        summary="Change an event",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        """Changes the fields sent, and only those, its status included (the league's organisers and site admins;
        else 403); the standings follow. Refused with 409 when the status may not be set by hand: a tournament's
        event follows its tournament (`event_follows_tournament`, `tournament_not_complete`), and an event is not
        finished while a table's game is still played (`tables_in_play`). Wrong values are a 400."""
        event = self.get_object()
        require_organiser(request.user, event.season.league)
        fields = _valid(request, s.EventInput, partial=True)
        fields.pop("season", None)
        event = services.event_update(actor=request.user, event=event, **fields)
        return Response(s.EventOutput(event).data)

    @extend_schema(
        request=s.AdjustmentInput,
        responses={201: s.LedgerEntryOutput},
        summary="Adjust a player's credits",
    )
    @action(detail=True, methods=["post"])
    def adjustments(self, request: Request, pk: str) -> Response:
        """Adds credits to a player at this event (or takes them, with a negative amount), with a reason, as a ledger
        line of its own (the league's organisers and site admins; else 403). The event's results and the standings
        follow. An amount of 0 or out of range, no reason, a player not of the league, or credits past the event's
        or season's limit are a 400, with nothing saved."""
        event = self.get_object()
        require_organiser(request.user, event.season.league)
        fields = _valid(request, s.AdjustmentInput)
        entry = services.ledger_adjust(actor=request.user, event=event, **fields)
        return Response(s.LedgerEntryOutput(entry, context={"request": request}).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(
        summary="Ledger lines of the leagues you can see",
        description="Every credit movement of the leagues you can see, one line each: buy-ins, re-buys, add-ons, "
        "hands won and lost, payouts and adjustments, as the change of the player's stack at the table (a buy-in "
        "positive, a payout negative), with the correction it belongs to. Reasons and authors are shown to the "
        "league's organisers and site admins only. Filter by event, game, player, season, kind or league.",
    ),
)
class LedgerViewSet(mixins.ListModelMixin, GenericViewSet):
    serializer_class = s.LedgerEntryOutput
    filterset_class = id_filterset(
        LedgerEntry,
        {"event": "event_id", "game": "game_id", "player": "player_id", "event__season": "event__season_id"},
        ("kind", "event__season__league__slug"),
        league="event__season__league__slug",
    )
    ordering_fields = ["id", "created_at", "amount"]

    def get_queryset(self):
        return selectors.ledger_list(user=self.request.user).order_by("id")

"""Joining a league through the API: the same services and permission checks as the pages
(`league.views.joining`). A wrong, old or revoked code and a missing or hidden league answer the same 404;
wrong guesses are rate limited per address (429)."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_views import APIView
from config.client_address import client_address
from config.serializers import StrictInput
from league import selectors
from league.api.permissions import NOT_FOUND, require_organiser
from league.models import JoinMode, JoinRequest, JoinRequestStatus, League, Membership, Player
from league.services import joining


def _league(request: Request, slug: str) -> League:
    """A league the user may see, after one query whether it is missing or hidden (the same 404)."""
    league = selectors.league_list(user=request.user).filter(slug=slug).first()
    if league is None:
        raise NotFound(NOT_FOUND)
    return league


def _managed(request: Request, slug: str) -> League:
    league = _league(request, slug)
    require_organiser(request.user, league)
    return league


class JoinSettingsOutput(serializers.Serializer):
    join_mode = serializers.ChoiceField(choices=JoinMode.choices)
    join_code = serializers.CharField(help_text="Blank when revoked or when the league does not join by code.")
    join_url = serializers.CharField()


class JoinSettingsInput(StrictInput):
    join_mode = serializers.ChoiceField(choices=JoinMode.choices)


class JoinCodeInput(StrictInput):
    league = serializers.CharField(
        max_length=80, required=False, help_text="The league's slug; leave it out to join by the code alone."
    )
    join_code = serializers.CharField(
        max_length=300,
        help_text="The code of the league's invite link (or the whole link pasted). `code`, the name the page's "
        "form uses, is taken too: send one of the two.",
    )

    def to_internal_value(self, data: Any) -> Any:
        # `code` is read as `join_code`, so a refusal names `join_code`: an error body's own `code` key would clash.
        if hasattr(data, "keys") and "code" in data.keys():  # noqa: SIM118 (a QueryDict too)
            if "join_code" in data.keys():  # noqa: SIM118
                raise serializers.ValidationError(
                    {"join_code": ["Send the invite code once: as join_code or as code, not both."]}
                )
            data = {key: data[key] for key in data.keys() if key != "code"} | {"join_code": data["code"]}  # noqa: SIM118
        return super().to_internal_value(data)


class JoinCodeSchema(serializers.Serializer):
    """`POST /api/join/` as the schema shows it: `join_code` or its alias `code` (exactly one of them)."""

    league = serializers.CharField(
        max_length=80, required=False, help_text="The league's slug; leave it out to join by the code alone."
    )
    join_code = serializers.CharField(
        max_length=300, required=False, help_text="The code of the league's invite link (or the whole link pasted)."
    )
    code = serializers.CharField(
        max_length=300, required=False, help_text="The same as `join_code` (the page form's name): send one of the two."
    )


class InviteTokenInput(StrictInput):
    invite = serializers.IntegerField(min_value=1, max_value=2**62)
    token = serializers.CharField(max_length=64)


class ApproveInput(StrictInput):
    guest = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**62, help_text="A guest of the league to hand over."
    )


class EmptyInput(StrictInput):
    pass


class EmailInviteInput(StrictInput):
    email = serializers.CharField(max_length=254)


class JoinRequestOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class JoinedOutput(serializers.Serializer):
    league = serializers.CharField(source="league.slug")
    membership = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    role = serializers.CharField()


class AskOutput(serializers.Serializer):
    status = serializers.CharField(help_text='"pending", or "member" when already one.')


class InviteOutput(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.CharField()


def _settings(request: Request, league: League) -> dict[str, Any]:
    code = league.join_code if league.join_mode == JoinMode.CODE else ""
    url = request.build_absolute_uri(reverse("join-code", args=[league.slug, code])) if code else ""
    return {"join_mode": league.join_mode, "join_code": code, "join_url": url}


class JoinSettingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=JoinSettingsOutput,
        summary="How people join a league (organisers)",
    )
    def get(self, request: Request, slug: str) -> Response:
        """How people join the league: by invite only, by its invite link or code (with the code and the link to
        share), or by request that an organiser approves. The league's organisers and site admins only (else 403);
        a league you cannot see is a 404."""
        return Response(JoinSettingsOutput(_settings(request, _managed(request, slug))).data)

    @extend_schema(
        request=JoinSettingsInput,
        responses=JoinSettingsOutput,
        summary="Choose how people join",
    )
    def patch(self, request: Request, slug: str) -> Response:
        """Sets how people join the league: `invite`, `code` (which makes an invite code when the league has none) or
        `request` (the league's organisers and site admins; else 403). Answers the settings as they now stand; a
        mode not among the three is a 400."""
        league = _managed(request, slug)
        data = JoinSettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        league = joining.join_settings_update(actor=request.user, league=league, **data.validated_data)
        return Response(JoinSettingsOutput(_settings(request, league)).data)


class JoinCodeView(APIView):
    """POST rotates the invite code (a new link), DELETE revokes it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=EmptyInput,
        responses=JoinSettingsOutput,
        summary="A new invite code",
    )
    def post(self, request: Request, slug: str) -> Response:
        """Makes a new invite code, and with it a new link to share; the old code and link stop working at once. The
        league's organisers and site admins only (else 403). Answers the join settings with the new code; any
        field sent is a 400."""
        league = _managed(request, slug)
        EmptyInput(data=request.data).is_valid(raise_exception=True)
        league = joining.join_code_rotate(actor=request.user, league=league)
        return Response(JoinSettingsOutput(_settings(request, league)).data)

    @extend_schema(
        responses=JoinSettingsOutput,
        summary="Revoke the invite code",
    )
    def delete(self, request: Request, slug: str) -> Response:
        """Revokes the invite code: its link stops working until an organiser makes a new code. The league's
        organisers and site admins only (else 403); a league you cannot see is a 404. Answers the join settings,
        with no code."""
        league = joining.join_code_revoke(actor=request.user, league=_managed(request, slug))
        return Response(JoinSettingsOutput(_settings(request, league)).data)


GUESSES = OpenApiResponse(description="Too many wrong codes from this address; wait ten minutes.")


# Joining with something a stranger could guess (a code, a token): one address's wrong guesses are counted, and
# too many are refused (429) before the next is tried. (A comment, not a docstring: the schema would show it.)
class _JoinByGuessView(APIView):
    permission_classes = [IsAuthenticated]
    input_class: type[StrictInput]

    def join(self, user: Any, data: dict[str, Any]) -> Membership:
        raise NotImplementedError

    def post(self, request: Request) -> Response:
        data = self.input_class(data=request.data)
        data.is_valid(raise_exception=True)
        address = client_address(request)
        joining.guess_check(address)
        try:
            membership = self.join(request.user, data.validated_data)
        except joining.JoinNotFound:
            joining.guess_count(address)
            raise
        return Response(JoinedOutput(membership).data)


def _join_by_guess_schema(request: Any, summary: str, description: str) -> Any:
    """The schema of a `_JoinByGuessView`: its input, the membership it answers and the 429 of too many guesses."""
    return extend_schema_view(
        post=extend_schema(
            request=request,
            responses={200: JoinedOutput, 429: GUESSES},
            summary=summary,
            description=description,
        )
    )


@_join_by_guess_schema(
    JoinCodeSchema,
    "Join a league by its invite code",
    "Makes you a member of the league whose invite code you give (the code alone, with the league's slug, or the "
    "whole invite link pasted), with your player, made from your username if you have none. Signed-in users only. "
    "Answers your membership; as a member already, the one you have. A wrong, old or revoked code is a 404, and "
    "too many wrong codes from your address a 429 for ten minutes.",
)
class JoinByCodeView(_JoinByGuessView):
    input_class = JoinCodeInput

    def join(self, user: Any, data: dict[str, Any]) -> Membership:
        # The code alone names its league (as the pages' "Join with a code" box takes it); with `league`, both match.
        # A code that opens none is told what the page tells it.
        try:
            league = joining.league_for_typed_code(typed=data["join_code"], slug=data.get("league"))
            return joining.join_with_code(user=user, slug=league.slug, code=league.join_code)
        except joining.JoinNotFound as exc:
            raise joining.JoinNotFound(joining.WRONG_CODE) from exc


@_join_by_guess_schema(
    InviteTokenInput,
    "Join a league by an e-mail invite",
    "Makes you a member of the league that invited you by e-mail, with the invite's id and token from the link it "
    "sent (signed-in users only; the invite is used once, though its taker may follow it again). Answers your "
    "membership. A wrong token, or an invite someone else took, is a 404; too many wrong tries from your address "
    "a 429.",
)
class JoinByInviteView(_JoinByGuessView):
    input_class = InviteTokenInput

    def join(self, user: Any, data: dict[str, Any]) -> Membership:
        return joining.email_invite_accept(user=user, pk=data["invite"], token=data["token"])


class AskToJoinView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=EmptyInput,
        responses={201: AskOutput, 200: AskOutput},
        summary="Ask to join a league",
    )
    def post(self, request: Request, slug: str) -> Response:
        """Asks the organisers of a league that takes requests to let you in (signed-in users): 201 with status
        `pending`; asking again changes nothing, and a member gets 200 with `member`. A league that does not take
        requests is a 400 (ask an organiser to invite you); one you cannot see a 404."""
        league = _league(request, slug)
        EmptyInput(data=request.data).is_valid(raise_exception=True)
        outcome = joining.join_request_create(user=request.user, league=league)
        if isinstance(outcome, Membership):
            return Response({"status": "member"})
        return Response({"status": outcome.status}, status=status.HTTP_201_CREATED)


class JoinRequestListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=JoinRequestOutput(many=True),
        summary="Pending requests to join (organisers)",
    )
    def get(self, request: Request, slug: str) -> Response:
        """The requests to join the league that wait for an answer, each with who asked and when. The league's
        organisers and site admins only (else 403); a league you cannot see is a 404."""
        league = _managed(request, slug)
        rows = JoinRequest.objects.filter(league=league, status=JoinRequestStatus.PENDING).select_related("user")
        return Response(JoinRequestOutput(rows, many=True).data)


def _request(league: League, pk: int) -> JoinRequest:
    found = JoinRequest.objects.select_related("user", "league").filter(league=league, pk=pk).first()
    if found is None:
        raise NotFound(NOT_FOUND)
    return found


class JoinRequestApproveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ApproveInput,
        responses=JoinedOutput,
        summary="Approve a request to join",
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Lets the person who asked into the league, with their own player or, with `guest`, taking over one of the
        league's guests (their results come with it); they are told (by e-mail when they have an address). The
        league's organisers and site admins only (else 403). A request answered already is a 409, as is taking
        over a guest for an account that has a player; a `guest` not of the league a 400; an unknown request a
        404."""
        league = _managed(request, slug)
        join_request = _request(league, pk)
        data = ApproveInput(data=request.data)
        data.is_valid(raise_exception=True)
        guest = None
        if data.validated_data.get("guest"):
            guest = Player.objects.filter(pk=data.validated_data["guest"], memberships__league=league).first()
            if guest is None:
                raise serializers.ValidationError({"guest": ["Not a guest of this league."]})
        membership = joining.join_request_approve(actor=request.user, request=join_request, guest=guest)
        return Response(JoinedOutput(membership).data)


class JoinRequestDeclineView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=EmptyInput,
        responses={204: None},
        summary="Decline a request to join",
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Turns a request to join down; the person who asked hears of it (by e-mail when they have an address) and
        may ask again later. The league's organisers and site admins only (else 403). Answers 204; a request
        answered already is a 409, an unknown one a 404."""
        league = _managed(request, slug)
        join_request = _request(league, pk)
        EmptyInput(data=request.data).is_valid(raise_exception=True)
        joining.join_request_decline(actor=request.user, request=join_request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmailInviteView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=EmailInviteInput,
        responses={201: InviteOutput},
        summary="Invite by e-mail (organisers)",
    )
    def post(self, request: Request, slug: str) -> Response:
        """Sends an e-mail inviting its address to the league, with a link that makes them a member when they sign up
        or sign in with it. The league's organisers and site admins only (else 403). Answers 201 with the invite;
        an address that is not an e-mail address is a 400."""
        league = _managed(request, slug)
        data = EmailInviteInput(data=request.data)
        data.is_valid(raise_exception=True)

        def url(invite: Any) -> str:
            return request.build_absolute_uri(reverse("join-invite", args=[invite.pk, invite.token]))

        invite = joining.email_invite_create(
            actor=request.user, league=league, email=data.validated_data["email"], join_url=url
        )
        return Response({"id": invite.pk, "email": invite.email}, status=status.HTTP_201_CREATED)

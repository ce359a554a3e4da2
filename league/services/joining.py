"""Joining a league: the organiser's join setting, the invite link's code, requests to join, e-mail invites.

A league admits people one way (`League.join_mode`): invite only (organisers add members), by invite link or
code (`join_code`, rotated or revoked by an organiser), or by request (an organiser approves or declines).
A code is the secret of its link: a wrong, old or revoked code answers exactly as a missing league does
(`JoinNotFound`, the same words), compared in constant time, and guesses are rate limited per address.
Joining twice is harmless: the second time answers with the membership already made.
"""

import hmac
import logging
import secrets
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone
from rest_framework import status

from config import viewer_cache
from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, is_digits
from league.models import (
    EmailInvite,
    JoinMode,
    JoinRequest,
    JoinRequestStatus,
    League,
    Membership,
    Player,
    Role,
    join_key_of,
)
from league.selectors import can_see_league, remember_role
from league.services.common import audit, check_text
from league.services.locks import lock_league, lock_league_or_refuse
from league.services.players import player_for_user

logger = logging.getLogger(__name__)
NOT_FOUND = "No such league."
# Wrong guesses of a code or invite token one address may make in GUESS_WINDOW seconds.
GUESS_LIMIT = 20
GUESS_WINDOW = 600
NOTICE_KEY = "join-notice-{user_id}"


# What a typed code that opens no league is told, by the page's "Join with a code" box and `POST /api/join/` alike.
WRONG_CODE = (
    "That code does not open any league: check it with the organiser who shared it (a new link or a revoked one "
    "makes the old code stop working), or paste the whole invite link."
)


class JoinNotFound(ApplicationError):
    """A missing league, a hidden one, a wrong or revoked code: one answer for all (404)."""

    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"

    def __init__(self, message: str = NOT_FOUND) -> None:
        super().__init__(message)


class TooManyGuesses(ApplicationError):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "throttled"

    def __init__(self) -> None:
        super().__init__("Too many wrong codes from your address; wait ten minutes and try the link again.")


def _cached(operation: Any, default: Any = None) -> Any:
    """A cache operation that never fails the request: with the cache down, guesses go uncounted and notices
    wait in the database (`JoinRequest.notified`) for a page view when it is back."""
    try:
        return operation()
    except Exception:
        logger.warning("cache unavailable for joining", exc_info=True)
        return default


# A code's characters: digits and capitals without I, L, O and U (Crockford's), easy to read out at a table.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_join_code() -> str:
    """Sixteen random characters (80 bits) in groups of four: `K7QM-3XTR-9HWC-ZP2D`."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(16))
    return "-".join(chars[i : i + 4] for i in range(0, 16, 4))


def guess_check(address: str) -> None:
    """Refuse (429) once an address has made GUESS_LIMIT wrong guesses in the window."""
    if (_cached(lambda: cache.get(f"join-guess-{address}")) or 0) >= GUESS_LIMIT:
        raise TooManyGuesses()


def guess_count(address: str) -> None:
    key = f"join-guess-{address}"

    def count() -> None:
        if not cache.add(key, 1, GUESS_WINDOW):
            try:
                cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.set(key, 1, GUESS_WINDOW)

    _cached(count)


def league_for_code(*, slug: Any, code: Any) -> League:
    """The league whose current invite code this is, or JoinNotFound (missing, hidden and wrong look alike)."""
    league = League.objects.filter(slug=slug).first() if isinstance(slug, str) else None
    stored = league.join_key if league is not None and league.join_mode == JoinMode.CODE else ""
    # Compared even when there is nothing to compare with, so a missing league takes the same work; in any case,
    # with or without spaces and dashes (`join_key_of`).
    matches = hmac.compare_digest(join_key_of(code).encode(), (stored or "-" * 16).encode())
    if league is None or not stored or not matches:
        raise JoinNotFound()
    return league


def league_for_typed_code(*, typed: Any, slug: Any = None) -> League:
    """The league a typed code names: the whole invite link pasted, the code with the league's slug, or the
    code alone (a code is random enough to name its league by itself). JoinNotFound as for a wrong link."""
    text = str(typed or "").strip().rstrip("/")
    if "/join/" in text:  # the whole link: .../join/<slug>/<code>
        parts = text.split("/join/", 1)[1].split("/")
        if len(parts) == 2:
            return league_for_code(slug=parts[0], code=parts[1])
        raise JoinNotFound()
    if slug:
        return league_for_code(slug=slug, code=text)
    key = join_key_of(text)
    league = League.objects.filter(join_mode=JoinMode.CODE, join_key=key).first() if key else None
    if league is None:
        raise JoinNotFound()
    return league_for_code(slug=league.slug, code=text)


# --- the organiser's settings -------------------------------------------------------------------------------


@retry_on_conflict
@transaction.atomic
def join_settings_update(*, actor: Actor, league: League, join_mode: Any) -> League:
    """Choose how people join; switching to "code" makes a code when the league has none."""
    if join_mode not in JoinMode.values:
        raise ApplicationError(f"join_mode must be one of {', '.join(JoinMode.values)}.", extra={"field": "join_mode"})
    league = lock_league_or_refuse(league.pk)
    before = league.join_mode
    fields = ["join_mode"]
    league.join_mode = join_mode
    if join_mode == JoinMode.CODE and not league.join_code:
        league.set_join_code(new_join_code())
        fields += ["join_code", "join_key"]
    league.save(update_fields=fields)
    audit(
        actor=actor,
        action="league.join_settings",
        obj=league,
        league=league,
        data={"before": before, "after": join_mode},
    )
    return league


@retry_on_conflict
@transaction.atomic
def join_code_rotate(*, actor: Actor, league: League) -> League:
    """A new invite code: the old link stops working at once."""
    return _join_code_set(actor=actor, league=league, code=new_join_code(), action="league.join_code_rotate")


@retry_on_conflict
@transaction.atomic
def join_code_revoke(*, actor: Actor, league: League) -> League:
    """No invite code: the link stops working until an organiser makes a new one."""
    return _join_code_set(actor=actor, league=league, code="", action="league.join_code_revoke")


def _join_code_set(*, actor: Actor, league: League, code: str, action: str) -> League:
    league = lock_league_or_refuse(league.pk)
    league.set_join_code(code)
    league.save(update_fields=["join_code", "join_key"])
    audit(actor=actor, action=action, obj=league, league=league)
    return league


# --- joining ------------------------------------------------------------------------------------------------


def _member(*, actor: Actor, league: League, user: Any, how: str, guest: Player | None = None) -> Membership:
    """Make `user` a member (their own player, created if they have none, or the guest named); the
    membership they already have when they are one. The caller holds the league lock."""
    existing = Membership.objects.filter(league=league, player__user=user).first()
    if existing is not None:
        return existing
    if guest is not None:
        guest = Player.objects.select_for_update().get(pk=guest.pk)
        if guest.user_id is not None or not Membership.objects.filter(league=league, player=guest).exists():
            raise ApplicationError(
                f"{guest} is not a guest of {league}; name one of its guests or none.", extra={"field": "guest"}
            )
        if Player.objects.filter(user=user).exists():
            raise ConflictError(
                "This account already has a player profile, so it cannot take over a guest; approve without one.",
                extra={"field": "guest"},
            )
        guest.user = user
        guest.save(update_fields=["user"])
        audit(actor=actor, action="player.claim", obj=guest, league=league, data={"via": how})
        membership = Membership.objects.get(league=league, player=guest)
    else:
        player = player_for_user(user=user)
        membership = Membership.objects.create(league=league, player=player, role=Role.PLAYER)
    remember_role(user, league.pk, membership.role)
    audit(
        actor=actor,
        action="membership.join",
        obj=membership,
        league=league,
        data={"player": membership.player_id, "via": how},
    )
    return membership


@retry_on_conflict
@transaction.atomic
def join_with_code(*, user: Any, slug: Any, code: Any) -> Membership:
    """Join by the league's invite link; idempotent for a member. Wrong codes are counted by the caller."""
    league = league_for_code(slug=slug, code=code)
    existing = Membership.objects.filter(league=league, player__user=user).first()
    if existing is not None:
        return existing  # joining twice writes nothing
    league = lock_league(league.pk) or league
    return _member(actor=user, league=league, user=user, how="code")


@retry_on_conflict
@transaction.atomic
def join_request_create(*, user: Any, league: League) -> JoinRequest | Membership:
    """Ask to join a league that admits by request; asking again (or as a member) changes nothing."""
    if not can_see_league(user, league):
        raise JoinNotFound()
    member = Membership.objects.filter(league=league, player__user=user).first()
    if member is not None:
        return member
    if league.join_mode != JoinMode.REQUEST:
        raise ApplicationError(f"{league} is not taking requests to join: ask an organiser to invite you.")
    request = JoinRequest.objects.filter(league=league, user=user).first()
    if request is not None and request.status == JoinRequestStatus.PENDING:
        return request  # asking twice writes nothing
    lock_league(league.pk)
    request = JoinRequest.objects.filter(league=league, user=user).first()
    if request is not None and request.status == JoinRequestStatus.PENDING:
        return request
    if request is None:
        request = JoinRequest.objects.create(league=league, user=user)
    else:  # declined (or approved and since removed): a new request
        request.status, request.notified, request.created_at = JoinRequestStatus.PENDING, True, timezone.now()
        request.save(update_fields=["status", "notified", "created_at"])
    audit(actor=user, action="join_request.create", obj=request, league=league)
    return request


def _decide(request: JoinRequest, outcome: str) -> None:
    request.status, request.notified = outcome, False
    request.save(update_fields=["status", "notified"])
    user, league = request.user, request.league
    transaction.on_commit(lambda: _cached(lambda: cache.set(NOTICE_KEY.format(user_id=user.pk), True, None)))
    viewer_cache.user_changed(user.pk)  # the viewer's copy holds whether a notice waits (`league.viewers`)
    if user.email:
        words = "approved: you are now a member" if outcome == JoinRequestStatus.APPROVED else "declined"
        transaction.on_commit(
            lambda: send_mail(
                f"Your request to join {league.name}",
                f"Your request to join {league.name} was {words}.",
                settings.DEFAULT_FROM_EMAIL,
                [user.email],
                fail_silently=True,
            )
        )


def _pending(request: JoinRequest, *, member: bool) -> JoinRequest:
    """The request locked, still pending; the league is locked first only when a member is made (a decline
    changes nothing of the league, not even its data version)."""
    if member:
        lock_league(request.league_id)
    request = JoinRequest.objects.select_for_update().select_related("league", "user").get(pk=request.pk)
    if request.status != JoinRequestStatus.PENDING:
        raise ConflictError(f"This request was {request.status} already.")
    return request


@retry_on_conflict
@transaction.atomic
def join_request_approve(*, actor: Actor, request: JoinRequest, guest: Player | None = None) -> Membership:
    """The user becomes a member with their own player, or takes over `guest`, a guest of the league."""
    request = _pending(request, member=True)
    membership = _member(actor=actor, league=request.league, user=request.user, how="request", guest=guest)
    _decide(request, JoinRequestStatus.APPROVED)
    audit(actor=actor, action="join_request.approve", obj=request, league=request.league)
    return membership


@retry_on_conflict
@transaction.atomic
def join_request_decline(*, actor: Actor, request: JoinRequest) -> JoinRequest:
    request = _pending(request, member=False)
    _decide(request, JoinRequestStatus.DECLINED)
    audit(actor=actor, action="join_request.decline", obj=request, league=request.league)
    return request


def join_notices(*, user: Any) -> list[str]:
    """The decisions on the user's requests not yet told, marked told (one cache read when there are none)."""
    if not getattr(user, "is_authenticated", False):
        return []
    # A user served from the viewer cache says whether a notice waits (no extra round trip); else the cache key.
    key = NOTICE_KEY.format(user_id=user.pk)
    waiting = getattr(user, "_join_notice_pending", None)
    if waiting is None:  # not served from the viewer cache (no Redis, or read cold): the cache key says
        waiting = _cached(lambda: cache.get(key))
    if not waiting:
        return []
    _cached(lambda: cache.delete(key))
    viewer_cache.user_changed(user.pk)
    rows = list(JoinRequest.objects.filter(user=user, notified=False).select_related("league"))
    JoinRequest.objects.filter(pk__in=[row.pk for row in rows]).update(notified=True)
    return [
        f"You are now a member of {row.league.name}."
        if row.status == JoinRequestStatus.APPROVED
        else f"Your request to join {row.league.name} was declined."
        for row in rows
    ]


# --- e-mail invites -----------------------------------------------------------------------------------------


@retry_on_conflict
@transaction.atomic
def email_invite_create(*, actor: Actor, league: League, email: Any, join_url: Any = None) -> EmailInvite:
    """Invite an address; `join_url(invite)` is the link the e-mail carries (joins on sign-up or sign-in)."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    email = check_text(email, "An e-mail address", field="email", max_length=254)
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ApplicationError(f"{email!r} is not an e-mail address.", extra={"field": "email"}) from exc
    lock_league(league.pk)
    invite = EmailInvite.objects.create(league=league, email=email, token=secrets.token_urlsafe(24), created_by=actor)
    audit(actor=actor, action="league.email_invite", obj=invite, league=league, data={"email": email})
    link = join_url(invite) if join_url else f"/join/invite/{invite.pk}/{invite.token}/"
    transaction.on_commit(
        lambda: send_mail(
            f"You are invited to join {league.name}",
            f"{getattr(actor, 'username', 'An organiser')} invites you to the Sabacc league {league.name}.\n"
            f"Sign up or sign in with this link to join: {link}\n",
            settings.DEFAULT_FROM_EMAIL,
            [email],
            fail_silently=True,
        )
    )
    return invite


def invite_for_token(*, pk: Any, token: Any) -> EmailInvite:
    invite = EmailInvite.objects.select_related("league").filter(pk=pk).first() if is_digits(str(pk)) else None
    matches = hmac.compare_digest(str(token).encode(), (invite.token if invite else "-" * 32).encode())
    if invite is None or not matches:
        raise JoinNotFound()
    return invite


@retry_on_conflict
@transaction.atomic
def email_invite_accept(*, user: Any, pk: Any, token: Any) -> Membership:
    """Join by an e-mail invite; the invite is used once (its taker may follow it again harmlessly)."""
    invite = invite_for_token(pk=pk, token=token)
    lock_league(invite.league_id)
    invite = EmailInvite.objects.select_for_update().get(pk=invite.pk)
    if invite.accepted_by_id is not None and invite.accepted_by_id != user.pk:
        raise JoinNotFound()
    membership = _member(actor=user, league=invite.league, user=user, how="email")
    if invite.accepted_by_id is None:
        invite.accepted_by, invite.accepted_at = user, timezone.now()
        invite.save(update_fields=["accepted_by", "accepted_at"])
    return membership

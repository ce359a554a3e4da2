"""Joining pages: the invite link (`/join/<slug>/<code>/`), an e-mail invite's link, asking to join, and the
organisers' join settings (mode, code, pending requests, invites by e-mail) under /manage/.

An invite link works for someone who cannot see the league yet (the link is the secret); a wrong, old or revoked
code answers exactly as a missing league does. A visitor who is not signed in is sent to sign up or sign in with
the link kept in the session (`PENDING_JOIN`); `complete_pending_join` finishes it after sign-up or sign-in.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from config.client_address import client_address
from config.errors import ApplicationError
from config.inputs import parse_whole_number
from league import selectors
from league.models import JoinMode, JoinRequest, JoinRequestStatus, Membership, Player
from league.services import joining
from league.views.manage import _league, manager_required

PENDING_JOIN = "pending_join"
JUST_JOINED = "just_joined"  # the league a pending join has just joined, for its welcome


LINK_NOT_FOUND = (
    "This link opens no league: it may be old (a new link stops the one before) or revoked, or mistyped. Ask the "
    "organiser who shared it for the current link, or type their code at /join/."
)


def _link_not_found(request: HttpRequest) -> HttpResponse:
    """One answer for a missing league, a hidden one and a wrong, old or revoked code (nothing to probe with), that
    says what to do."""
    context = {"status": 404, "title": "No such league", "message": LINK_NOT_FOUND}
    return render(request, "errors/error.html", context, status=404)


def _find(request: HttpRequest, kind: str, a: Any, b: Any) -> Any:
    """The league (code) or invite (e-mail) the link names, or the 404 of a missing league; wrong guesses count."""
    address = client_address(request)
    try:
        joining.guess_check(address)
        if kind == "code":
            return joining.league_for_code(slug=a, code=b)
        return joining.invite_for_token(pk=a, token=b).league
    except joining.JoinNotFound:
        joining.guess_count(address)
        return _link_not_found(request)
    except joining.TooManyGuesses as exc:
        context = {"status": 429, "title": "Too many wrong codes", "message": exc.message}
        return render(request, "errors/error.html", context, status=429)


def _join(request: HttpRequest, kind: str, a: Any, b: Any) -> Membership:
    if kind == "code":
        return joining.join_with_code(user=request.user, slug=a, code=b)
    return joining.email_invite_accept(user=request.user, pk=a, token=b)


def _join_link(request: HttpRequest, kind: str, a: Any, b: Any) -> HttpResponse:
    league = _find(request, kind, a, b)
    if isinstance(league, HttpResponse):
        return league
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            _join(request, kind, a, b)
        except joining.JoinNotFound:
            return _link_not_found(request)
        except ApplicationError as exc:
            messages.error(request, exc.message)
            return redirect(request.get_full_path())
        messages.success(request, f"You are a member of {league.name}.")
        return redirect("league-detail", slug=league.slug)
    member = request.user.is_authenticated and league.pk in selectors.user_league_roles(request.user)
    if not request.user.is_authenticated:
        request.session[PENDING_JOIN] = [kind, str(a), str(b)]
    # Signed up (or in) through this link a moment ago: a welcome, not "a member already".
    welcome = member and request.session.pop(JUST_JOINED, None) == league.pk
    context = {"league": league, "member": member, "welcome": welcome, "next": request.get_full_path()}
    return render(request, "league/join.html", context)


@require_http_methods(["GET", "POST"])
def join_by_code(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    return _join_link(request, "code", slug, code)


@require_http_methods(["GET", "POST"])
def join_by_invite(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    return _join_link(request, "invite", pk, token)


def complete_pending_join(request: HttpRequest, user: Any) -> None:
    """After sign-up or sign-in: join by the link kept in the session, if any (a stale link is dropped)."""
    pending = request.session.pop(PENDING_JOIN, None)
    if not isinstance(pending, list) or len(pending) != 3:
        return
    kind, a, b = pending
    try:
        if kind == "code":
            membership = joining.join_with_code(user=user, slug=a, code=b)
        else:
            membership = joining.email_invite_accept(user=user, pk=a, token=b)
    except ApplicationError:
        return
    request.session[JUST_JOINED] = membership.league_id
    messages.success(request, f"You are a member of {membership.league.name}.")


WRONG_CODE = joining.WRONG_CODE


@require_http_methods(["GET", "POST"])
def join_typed_code(request: HttpRequest) -> HttpResponse:
    """ "Join with a code": the code typed (or the whole link pasted), alone or from a league's page (`league`, its
    slug). Goes through the same service and the same count of wrong guesses as the link; a refusal says why."""
    typed = str(request.POST.get("code", "")).strip()[:300]
    slug = str(request.POST.get("league", "")).strip()[:100]
    context = {"typed": typed, "league_slug": slug}
    if request.method == "GET":
        return render(request, "league/join_code.html", context)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("join-typed"))
    if not typed:
        context["error"] = "Type the invite code an organiser gave you (or paste the whole invite link)."
        return render(request, "league/join_code.html", context, status=400)
    address = client_address(request)
    try:
        joining.guess_check(address)
        league = joining.league_for_typed_code(typed=typed, slug=slug or None)
        joining.join_with_code(user=request.user, slug=league.slug, code=league.join_code)
    except joining.JoinNotFound:
        joining.guess_count(address)
        context["error"] = WRONG_CODE
        return render(request, "league/join_code.html", context, status=400)
    except ApplicationError as exc:
        context["error"] = exc.message
        return render(request, "league/join_code.html", context, status=exc.status_code)
    messages.success(request, f"You are a member of {league.name}.")
    return redirect("league-detail", slug=league.slug)


@require_POST
def ask_to_join(request: HttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("league-detail", args=[slug]))
    league = selectors.league_by_slug(user=request.user, slug=slug)
    try:
        outcome = joining.join_request_create(user=request.user, league=league)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        if isinstance(outcome, Membership):
            messages.info(request, f"You are already a member of {league.name}.")
        else:
            messages.success(request, f"Your request to join {league.name} is sent; an organiser will answer it.")
    return redirect("league-detail", slug=league.slug)


@require_http_methods(["GET", "POST"])
@manager_required
def join_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Join mode, the invite link (rotate, revoke), pending requests (approve, naming a guest, or decline) and
    invites by e-mail: one page, one form per action."""
    league = _league(request, slug)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            done = _act(request, league, action)
        except (ApplicationError, JoinRequest.DoesNotExist, Player.DoesNotExist) as exc:
            messages.error(request, getattr(exc, "message", "That request or guest is not in this league."))
            status = 400
        else:
            messages.success(request, done)
            return redirect("manage-join", slug=league.slug)
    pending = JoinRequest.objects.filter(league=league, status=JoinRequestStatus.PENDING).select_related("user")
    guests = Player.objects.filter(memberships__league=league, user__isnull=True)
    link = (
        request.build_absolute_uri(reverse("join-code", args=[league.slug, league.join_code]))
        if league.join_code and league.join_mode == JoinMode.CODE
        else ""
    )
    context = {
        "league": league,
        "modes": JoinMode.choices,
        "link": link,
        "pending": pending,
        "guests": guests,
        "invites": league.email_invites.select_related("accepted_by")[:20],
    }
    return render(request, "manage/join.html", context, status=status)


def _act(request: HttpRequest, league: Any, action: str) -> str:
    actor = request.user
    if action == "mode":
        joining.join_settings_update(actor=actor, league=league, join_mode=request.POST.get("join_mode"))
        return "Join setting saved."
    if action == "rotate":
        joining.join_code_rotate(actor=actor, league=league)
        return "New invite link made; the old one no longer works."
    if action == "revoke":
        joining.join_code_revoke(actor=actor, league=league)
        return "Invite link revoked."
    if action == "invite":

        def url(invite: Any) -> str:
            return request.build_absolute_uri(reverse("join-invite", args=[invite.pk, invite.token]))

        invite = joining.email_invite_create(actor=actor, league=league, email=request.POST.get("email"), join_url=url)
        return f"Invitation sent to {invite.email}."
    if action in ("approve", "decline"):
        join_request = JoinRequest.objects.select_related("user").get(
            league=league,
            pk=parse_whole_number(request.POST.get("request"), "The request", field="request"),
            status=JoinRequestStatus.PENDING,
        )
        if action == "decline":
            joining.join_request_decline(actor=actor, request=join_request)
            return f"Declined {join_request.user.get_username()}'s request."
        guest_id = request.POST.get("guest") or ""
        guest = (
            Player.objects.get(pk=parse_whole_number(guest_id, "The guest", field="guest"), memberships__league=league)
            if guest_id
            else None
        )
        joining.join_request_approve(actor=actor, request=join_request, guest=guest)
        return f"{join_request.user.get_username()} is now a member."
    raise ApplicationError("Unknown action.")

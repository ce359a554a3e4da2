"""The profile page (name, e-mail, player), claiming a guest player with the organiser's code, and the
admin sign-in routed through the site's sign-in (so its rate limits apply there too)."""

from urllib.parse import urlencode

from allauth.account import views as allauth_views
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from config.errors import ApplicationError
from league import services
from league.models import Player


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(label="Display name", max_length=80)


class ClaimForm(forms.Form):
    code = forms.CharField(
        label="Claim code",
        max_length=32,
        help_text="The code your league organiser gave you for your guest player.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}),
    )


@login_required
def profile_page(request: HttpRequest) -> HttpResponse:
    """Who you are: account details, your player (rename it) or the way to claim one."""
    player = Player.objects.filter(user=request.user).first()
    name_form = DisplayNameForm(initial={"display_name": player.display_name} if player else None)
    if request.method == "POST":
        name_form = DisplayNameForm(request.POST)
        if name_form.is_valid():
            try:
                if player is None:
                    player = services.player_create(
                        actor=request.user, display_name=name_form.cleaned_data["display_name"], user=request.user
                    )
                else:
                    player = services.player_update(
                        actor=request.user, player=player, display_name=name_form.cleaned_data["display_name"]
                    )
            except ApplicationError as exc:
                name_form.add_error("display_name", str(exc))
            else:
                messages.success(request, f"Your player name is now {player.display_name}.")
                return redirect("profile")
    context = {"player": player, "name_form": name_form, "claim_form": ClaimForm()}
    return render(request, "account/profile.html", context)


@login_required
def claim_page(request: HttpRequest, code: str = "") -> HttpResponse:
    """Claim a guest player: the link the organiser shares fills the code in; the form takes it by hand."""
    form = ClaimForm(request.POST or None, initial={"code": code})
    guest = Player.objects.filter(claim_code=code, user=None).first() if code else None
    if request.method == "POST" and form.is_valid():
        typed = form.cleaned_data["code"].strip()
        target = Player.objects.filter(claim_code=typed).first()
        if target is None:
            form.add_error("code", "No guest player has this claim code; check it with your league organiser.")
        else:
            try:
                player = services.player_claim(user=request.user, player=target, claim_code=typed)
            except ApplicationError as exc:
                form.add_error("code", str(exc))
            else:
                messages.success(request, f"You are now {player.display_name}: their results are yours.")
                return redirect("player-detail", pk=player.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "account/claim.html", {"form": form, "guest": guest}, status=status)


def admin_login(request: HttpRequest) -> HttpResponse:
    """`/admin/login/`: the site's sign-in (one form, one rate limit); a signed-in non-admin gets a 403."""
    next_url = request.GET.get("next") or reverse("admin:index")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = reverse("admin:index")
    if request.user.is_authenticated:
        if request.user.is_active and request.user.is_staff:
            return HttpResponseRedirect(next_url)
        raise PermissionDenied("The admin is for site admins; your account is not one.")
    return HttpResponseRedirect(f"{reverse('account_login')}?{urlencode({'next': next_url})}")


class LoginView(allauth_views.LoginView):
    """allauth's sign-in, except that a sign-in refused by the rate limit answers 429 (with the form and why)."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        codes = {error.code for errors in form.errors.as_data().values() for error in errors}
        if "too_many_login_attempts" in codes:
            response.status_code = 429
        return response

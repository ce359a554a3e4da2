"""Per-account limits on sign-in attempts, keyed on the account rather than the text typed.

A login may be a username or an e-mail address in any letter case, and both the site's sign-in (allauth) and
the API's token endpoint try every account the text could name. So an attempt is counted against each account the
text names (case-insensitively: username, the account's e-mail, or any of its allauth addresses); a text that
names none is counted under its normalised self. The site's sign-in also reads the client address through
`config.client_address`, as the API does.
"""

import hashlib

from allauth.account import app_settings as account_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.core.internal import ratelimit
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import HttpRequest

from config.client_address import client_address


def normalised_login(login: str) -> str:
    return login.strip().casefold()


def account_keys(login: str, *, by_username: bool = True) -> list[str]:
    """One key per account the login names, or one for the normalised text when it names none."""
    text = normalised_login(login)[:254]
    if not text:
        return []
    named = Q(email__iexact=text) | Q(pk__in=EmailAddress.objects.filter(email__iexact=text).values("user_id"))
    if by_username:
        named |= Q(username__iexact=text)
    accounts = get_user_model().objects.filter(named).order_by("pk").values_list("pk", "date_joined")
    if accounts:
        # The join time too: a database recreated (tests, a restore) while the cache lives on hands the same ids
        # to other accounts, which must not inherit the old ones' counts.
        return [f"account:{pk}:{joined.timestamp()}" for pk, joined in accounts]
    return [f"login:{hashlib.sha256(text.encode()).hexdigest()}"]


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter with the project's client address and per-account keys for failed sign-ins."""

    def get_client_ip(self, request: HttpRequest) -> str:
        return client_address(request)

    def pre_authenticate(self, request: HttpRequest, **credentials) -> None:
        keys = account_keys(credentials.get("email") or credentials.get("username") or "")
        if not keys:
            return super().pre_authenticate(request, **credentials)
        # The first key is counted with every login_failed rate (per address too), the others per account only,
        # so an ambiguous login costs its address one attempt.
        per_account = ",".join(
            rate for rate in account_settings.RATE_LIMITS.get("login_failed", "").split(",") if rate.endswith("/key")
        )
        used = ratelimit.RateLimitUsage(usage=[])
        for index, key in enumerate(keys):
            config = None if index == 0 else {"login_failed": per_account}
            usage = ratelimit.consume(request, app="allauth.account", action="login_failed", config=config, key=key)
            if not usage:
                used.rollback()
                self._login_failed_rl_usage = None
                raise self.validation_error("too_many_login_attempts")
            used.usage.extend(usage.usage)
        self._login_failed_rl_usage = used

    def _delete_login_attempts_cached_email(self, request: HttpRequest, **credentials) -> None:
        # A password reset wipes the failed sign-ins of the account it reset (allauth's behaviour), by our keys: it
        # is called with that account's addresses, which name no other account's e-mail (ACCOUNT_UNIQUE_EMAIL).
        for key in account_keys(credentials.get("email") or "", by_username=False):
            ratelimit.clear(request, app="allauth.account", action="login_failed", key=key)

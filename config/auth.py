"""The API's token endpoint, rate limited by account and by address against password guessing.

DRF's throttles count attempts in the cache (Redis when `REDIS_URL` is set, so every process shares the
count) and answer 429 with `Retry-After`. Limits: `TOKEN_RATE_LIMIT_ACCOUNT` attempts per account (named by its
username or its e-mail, in any letter case: `config.sign_in_limits.account_keys`) and `TOKEN_RATE_LIMIT_ADDRESS`
attempts per client address (`config.client_address`, which reads X-Forwarded-For only past the `NUM_PROXIES`
trusted proxies). The site's login form is limited by allauth (`ACCOUNT_RATE_LIMITS`) with the same keys.
"""

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from config.client_address import client_address
from config.query_params import StrictQueryParams
from config.sign_in_limits import account_keys


class TokenThrottle(SimpleRateThrottle):
    def get_rate(self) -> str:
        return settings.TOKEN_RATE_LIMITS[self.scope]

    def get_ident(self, request) -> str:
        return client_address(request)


class TokenAddressThrottle(TokenThrottle):
    """Attempts from one client address, whatever the accounts tried."""

    scope = "address"

    def get_cache_key(self, request, view) -> str:
        return f"throttle_token_address_{self.get_ident(request)}"


class TokenAccountThrottle(TokenThrottle):
    """Attempts on one account, from whatever addresses; an attempt naming two accounts counts against both."""

    scope = "account"

    def allow_request(self, request, view) -> bool:
        login = request.data.get("username") if hasattr(request.data, "get") else None
        if not isinstance(login, str):
            return True  # refused as invalid anyway; the address limit still counts it
        self.now = self.timer()
        histories = {}
        for key in account_keys(login):
            cache_key = f"throttle_token_{key}"
            history = [moment for moment in self.cache.get(cache_key, []) if moment > self.now - self.duration]
            if len(history) >= self.num_requests:
                self.history = history
                return self.throttle_failure()
            histories[cache_key] = history
        for cache_key, history in histories.items():
            self.cache.set(cache_key, [self.now, *history], self.duration)
        return True


class TokenView(StrictQueryParams, ObtainAuthToken):
    # ObtainAuthToken names DRF's own parsers; the project's refuse what would otherwise be a 500 (config.parsers).
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    throttle_classes = [TokenAddressThrottle, TokenAccountThrottle]

    @extend_schema(
        summary="Trade a username (or e-mail address) and password for an API token",
        request=inline_serializer(
            "TokenInput", {"username": serializers.CharField(), "password": serializers.CharField()}
        ),
        responses={
            200: inline_serializer("TokenOutput", {"token": serializers.CharField()}),
            429: OpenApiResponse(description="Too many attempts for this account or from this address."),
        },
        tags=["auth"],
    )
    def post(self, request, *args, **kwargs):
        """Answers your API token for a username (or e-mail address) and password; send it on every request as
        `Authorization: Token <token>`. Anyone may call it. A wrong username or password is a 400; too many
        attempts on one account or from one address are a 429 with `Retry-After`, even with the right password."""
        return super().post(request, *args, **kwargs)

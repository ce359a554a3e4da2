"""The API's token endpoint, rate limited by account and by address against password guessing.

DRF's throttles count attempts in the cache (Redis when `REDIS_URL` is set, so every process shares the
count) and answer 429 with `Retry-After`. Limits: `TOKEN_RATE_LIMIT_ACCOUNT` attempts per username and
`TOKEN_RATE_LIMIT_ADDRESS` attempts per client address (`NUM_PROXIES` trusted proxies in front set which
address of X-Forwarded-For that is). The site's login form is limited by allauth (`ACCOUNT_RATE_LIMITS`).
"""

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import SimpleRateThrottle


class TokenThrottle(SimpleRateThrottle):
    def get_rate(self) -> str:
        return settings.TOKEN_RATE_LIMITS[self.scope]


class TokenAddressThrottle(TokenThrottle):
    """Attempts from one client address, whatever the accounts tried."""

    scope = "address"

    def get_cache_key(self, request, view) -> str:
        return f"throttle_token_address_{self.get_ident(request)}"


class TokenAccountThrottle(TokenThrottle):
    """Attempts on one account, from whatever addresses."""

    scope = "account"

    def get_cache_key(self, request, view) -> str | None:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        if not isinstance(username, str) or not username:
            return None  # refused as invalid anyway; the address limit still counts it
        return f"throttle_token_account_{username.strip().casefold()[:150].encode().hex()}"


class TokenView(ObtainAuthToken):
    throttle_classes = [TokenAddressThrottle, TokenAccountThrottle]

    @extend_schema(
        summary="Trade a username and password for an API token",
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
        return super().post(request, *args, **kwargs)

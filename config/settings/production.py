"""Production settings: the base settings plus the checks that keep a deployment safe.

Importing this module refuses to start with `DEBUG` on, or without a real `SECRET_KEY`: at least 50
characters, not a pattern repeated, about 128 bits or more by its letters' spread, not Django's
`django-insecure-` development keys and not ours.
"""

import math
import os
from collections import Counter

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DEVELOPMENT_SECRET_KEY, NUM_PROXIES, env_bool

if env_bool("DEBUG", False):
    raise ImproperlyConfigured("DEBUG is on. Production must run with DEBUG=false (or DEBUG unset).")
_secret = os.environ.get("SECRET_KEY", "")
if not _secret:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Production needs a secret key of at least 50 random characters "
        "in the SECRET_KEY environment variable."
    )
MIN_SECRET_KEY_BITS = 128
_NEW_KEY = "For example: python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def estimated_bits(key: str) -> float:
    """The key's length times the entropy of its letters' frequencies: a generous upper bound, so low means weak."""
    counts = Counter(key)
    return -sum(n * math.log2(n / len(key)) for n in counts.values())


def repeats_a_pattern(key: str) -> bool:
    """Whether the key is a shorter stretch said again (`abcde` ten times), however many letters that stretch has."""
    return any(key == (key[:period] * (len(key) // period + 1))[: len(key)] for period in range(1, len(key) // 2 + 1))


if _secret.startswith("django-insecure-"):
    raise ImproperlyConfigured(
        "SECRET_KEY starts with 'django-insecure-': Django writes such keys for development only, and they may "
        f"have been shared with the code. Give production its own key of at least 50 random characters. {_NEW_KEY}"
    )
if (
    _secret == DEVELOPMENT_SECRET_KEY
    or len(_secret) < 50
    or repeats_a_pattern(_secret)
    or estimated_bits(_secret) < MIN_SECRET_KEY_BITS
):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for production: give at least 50 random characters (not a short pattern repeated, "
        f"at least {MIN_SECRET_KEY_BITS} bits by the spread of its letters), not the development key. {_NEW_KEY}"
    )

DEBUG = False
IS_PRODUCTION = True
API_BROWSABLE = env_bool("API_BROWSABLE", False)
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if API_BROWSABLE else []),
    ],
}
# Only site admins create leagues unless the site says otherwise.
LEAGUE_CREATORS = os.environ.get("LEAGUE_CREATORS", "staff")
if LEAGUE_CREATORS not in ("anyone", "staff"):
    raise ImproperlyConfigured(f"LEAGUE_CREATORS={LEAGUE_CREATORS!r}: use anyone or staff.")
WHITENOISE_USE_FINDERS = False
# X-Forwarded-Proto is believed only with a proxy in front (NUM_PROXIES), as X-Forwarded-For is: served directly,
# it is the client's own text.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if NUM_PROXIES > 0 else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

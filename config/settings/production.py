"""Production settings: the base settings plus the checks that keep a deployment safe.

Importing this module refuses to start with `DEBUG` on, or without a real `SECRET_KEY`: at least 50
characters, at least 5 different ones, and not the development key.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DEVELOPMENT_SECRET_KEY, env_bool

if env_bool("DEBUG", False):
    raise ImproperlyConfigured("DEBUG is on. Production must run with DEBUG=false (or DEBUG unset).")
_secret = os.environ.get("SECRET_KEY", "")
if not _secret:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Production needs a secret key of at least 50 random characters "
        "in the SECRET_KEY environment variable."
    )
if _secret == DEVELOPMENT_SECRET_KEY or len(_secret) < 50 or len(set(_secret)) < 5:
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for production: give at least 50 random characters (at least 5 different ones), "
        "not the development key. For example: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
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
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
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

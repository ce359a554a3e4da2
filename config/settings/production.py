"""Production settings: the base settings plus the checks that keep a deployment safe.

Importing this module refuses to start without a real `SECRET_KEY` or with `DEBUG` on.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env_bool

if not os.environ.get("SECRET_KEY"):
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Production needs a secret key of at least 50 random characters "
        "in the SECRET_KEY environment variable."
    )
if env_bool("DEBUG", False):
    raise ImproperlyConfigured("DEBUG is on. Production must run with DEBUG=false (or DEBUG unset).")

DEBUG = False
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

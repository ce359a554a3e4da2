"""Secrets that travel in a page's address kept out of the logs.

A few links carry their secret in the path, as a QR code or an e-mail needs: a real-cards seat's hand-over
(`/tabletop/<code>/seat/<secret>/`), a league's join code (`/join/<slug>/<code>/`), an e-mail invitation
(`/join/invite/<id>/<token>/`), a password reset (`/accounts/password/reset/key/<key>/`) and a casual game's
share link (`/tables/<n>/?invite=<token>`, in its query string). A server's access log line (uvicorn's, or
`runserver`'s), and Django's "Not Found: <path>" warning for a wrong guess, would record it, and whoever reads the
logs could take the seat or the place. `RedactSecrets` rewrites such a path to end in
`…` before any handler writes the line; `install()` puts it on the loggers that write request paths.
"""

import logging
import re

MARK = "…"
# Each: the part kept, then the secret (up to the next "/", "?", "#", quote or space).
_SECRET = r"[^/?#\s\"']+"
PATTERNS = (
    re.compile(rf"(/tabletop/[^/?#\s\"']+/seat/){_SECRET}"),
    re.compile(rf"(/join/invite/[^/?#\s\"']+/){_SECRET}"),
    re.compile(rf"(/join/(?!invite/)[^/?#\s\"']+/){_SECRET}"),
    re.compile(rf"(/accounts/password/reset/key/)(?!done/){_SECRET}"),  # ".../key/done/" is allauth's page after it
    # A casual game's share link, `/tables/<n>/?invite=<token>`: the parameter anywhere in a query string, also
    # percent-encoded inside another one (`?next=/tables/5/%3Finvite%3D<token>`).
    re.compile(r"((?:[?&;]|%3[fF]|%26)invite(?:=|%3[dD]))[^&;#\s\"']+"),
)
# The loggers that write a request's path: uvicorn's access log, `runserver`'s, and Django's 404 and error lines.
LOGGERS = ("uvicorn.access", "django.server", "django.request")


def redact(text: str) -> str:
    """`text` with the secret of every secret-bearing path in it replaced by `…`."""
    if "/" not in text:
        return text
    for pattern in PATTERNS:
        text = pattern.sub(rf"\g<1>{MARK}", text)
    return text


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and its string arguments; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(value) for key, value in record.args.items()}
        return True


def install() -> None:
    """Put the filter on each logger that writes request paths (once, however often it is called)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())


def configure(logging_settings: dict) -> None:
    """Django's `LOGGING_CONFIG`: the settings' `LOGGING` as `logging.config.dictConfig` reads it, then the filter."""
    import logging.config

    logging.config.dictConfig(logging_settings)
    install()

"""Rendered fragments of the league, player and event pages, cached under the league's data version.

Every write of what those pages show moves the league's `data_version` (`league.services.versions`), so a
fragment cached under (league, version, ...) is never served after the data changed: the next request
misses and renders it again. The key also holds the league's creation time, so a league made anew with a
recycled id (a test database, a re-created site) never meets an old entry, and a format number, bumped
when a fragment's shape changes. A cache that fails (Redis down) is passed over: the page renders
uncached, never fails.

Whole pages are cached the same way (`serve_page`): rendered once per state of the data they show and kind of
viewer, then served with only the viewer's own bits filled in (the CSRF token, "My tables"). A page is kept
per viewer: every anonymous visitor shares one copy; a signed-in user has their own, keyed by what the layout
and the pages show of them (name, staff flags, league roles, player), so no one is ever served another's
header, highlighted row, organiser controls or ledger reasons.
"""

import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from functools import cache as once
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString, mark_safe

from config.inputs import is_digits

logger = logging.getLogger(__name__)

T = TypeVar("T")
FORMAT = 2
TIMEOUT_SECONDS = 3600
# Where a cached page holds what each request fills in. Escaped text can never contain "<": no player's name
# or other user text can pass for one.
CSRF_SLOT: SafeString = mark_safe("<!--page-cache:csrf-token-->")
MY_TABLES_SLOT: SafeString = mark_safe("<!--page-cache:my-tables-->")
# A token that is not the slot, in the forms' hidden field or the htmx header: a cached page must never hold one.
_A_TOKEN = re.compile(r'(?:name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")(?!<!--page-cache:csrf-token-->)')


def league_stamp(league_id: int, created_at: Any, data_version: int) -> str:
    """What identifies one state of one league's data."""
    return f"{league_id}.{created_at.timestamp() if created_at else 0}.{data_version}"


@once
def site_build() -> str:
    """What identifies this build of the site's pages: the project's templates and the static files' manifest
    (their hashed names), so a deploy that changes either never serves pages rendered by the one before."""
    digest = hashlib.blake2b(digest_size=12)
    for folder in (Path(d) for engine in settings.TEMPLATES for d in engine.get("DIRS", [])):
        for path in sorted(folder.rglob("*.html")):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    from django.contrib.staticfiles.storage import staticfiles_storage

    read_manifest = getattr(staticfiles_storage, "read_manifest", None)
    if read_manifest is not None:
        digest.update((read_manifest() or "").encode())
    return digest.hexdigest()


def fragment_key(name: str, stamps: Iterable[str], *parts: Any) -> str:
    raw = "|".join([site_build(), *stamps, *(str(part) for part in parts)])
    return f"pages:{FORMAT}:{name}:{hashlib.blake2b(raw.encode(), digest_size=20).hexdigest()}"


def _get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:
        logger.warning("Page cache unreachable; rendering %s uncached.", key, exc_info=True)
        return None


def _set(key: str, value: Any) -> None:
    try:
        cache.set(key, value, TIMEOUT_SECONDS)
    except Exception:
        logger.warning("Page cache unreachable; %s not stored.", key, exc_info=True)


# Whole pages are also kept in each process's memory in front of a shared cache (Redis): a key names one state
# of everything the page shows, so a copy under it never goes out of date, and a warm page then needs no
# round trip to the cache. The least recently used go first.
_front = LocMemCache("page-cache-front", {"TIMEOUT": TIMEOUT_SECONDS, "OPTIONS": {"MAX_ENTRIES": 100}})


def _get_page(key: str) -> str | None:
    shared = not isinstance(caches["default"], LocMemCache)
    body = _front.get(key) if shared else None
    if body is None:
        body = _get(key)
        if body is not None and shared:
            _front.set(key, body)
    return body


def _set_page(key: str, body: str) -> None:
    _set(key, body)
    if not isinstance(caches["default"], LocMemCache):
        _front.set(key, body)


def cached(key: str, build: Callable[[], T]) -> T:
    """The value cached under `key`, or `build()` stored there."""
    value = _get(key)
    if value is None:
        value = build()
        _set(key, value)
    return value


def viewer_key(user: Any) -> str:
    """What a page shows of its viewer: one value for every anonymous visitor; for a signed-in user their id,
    name, staff flags, league roles (who may see and manage what, and whose ledger reasons) and player (the
    highlighted rows), and who may create leagues (the layout's organiser link)."""
    if not getattr(user, "is_authenticated", False):
        return "anonymous"
    from league import selectors
    from league.permissions import league_creators

    selectors.load_viewer(user)
    roles = sorted(selectors.user_league_roles(user).items())
    return (
        f"user:{user.pk}:{user.get_username()}:{user.is_staff}:{user.is_superuser}:{roles}:"
        f"{selectors.user_player_id(user)}:{league_creators()}"
    )


def render_page(request: HttpRequest, template: str, context: dict, csrf_token: SafeString | None) -> str:
    """A page's HTML for `serve_page`: with `CSRF_SLOT` for the token when it is to be cached."""
    from django.template.loader import render_to_string

    if csrf_token is not None:
        context = {**context, "csrf_token": csrf_token}
    return render_to_string(template, context, request)


def serve_page(
    request: HttpRequest,
    *,
    name: str,
    stamps: Iterable[str],
    parts: Iterable[Any],
    render: Callable[[SafeString | None], str],
    slots: dict[str, Callable[[], str]] | None = None,
) -> HttpResponse:
    """The page from the cache, or rendered by `render(csrf_token)` (given `CSRF_SLOT`) and stored there.

    `stamps` name the state of every league whose data the page shows and `parts` whatever else picks the
    page (the object, the query); a part that is None (a query not worth an entry) renders the page uncached.
    The viewer's own bits are filled in on the way out: their CSRF token, and each of `slots` (a slot's text in
    the page: a function giving what replaces it). A page with messages to show is rendered uncached."""
    parts = list(parts)
    if None in parts or get_messages(request):
        return HttpResponse(render(None))
    key = fragment_key(f"page-{name}", stamps, viewer_key(request.user), request.path, *parts)
    body = _get_page(key)
    if body is None:
        body = render(CSRF_SLOT)
        if _A_TOKEN.search(body):  # a token rendered past the slot (a new template tag?): never shared
            logger.error("A page rendered for the cache holds a CSRF token; %s not stored.", name)
        else:
            _set_page(key, body)
    body = body.replace(CSRF_SLOT, get_token(request))
    for slot, fill in (slots or {}).items():
        if slot in body:
            body = body.replace(slot, fill())
    return HttpResponse(body)


def plain_param(raw: str | None, *, allowed: tuple[str, ...] = ()) -> str | None:
    """A query parameter worth a cache entry: blank, one of `allowed`, or a short whole number; else None
    (the page then renders uncached, so made-up values cannot fill the cache)."""
    raw = raw or ""
    if raw in allowed or raw == "" or is_digits(raw):
        return raw
    return None

"""The signed-in user as a request needs them, held in Redis: their user row (never the password), the session
auth hash it gives, and what the apps add (`add_provider`; league: their player and league roles), so a warm
page reads nothing from the database to know its viewer.

Why a copy is never served after the user changed (the same reasoning as the league versions,
`league.services.versions`):

- Each user has a **token** in Redis, a random value. A copy of the user is stored with the token it was read
  under, and served only while that token is still the user's: one MGET of both per request, with the
  session itself when this process has seen that session signed in before.
- Every write that changes what the copy holds retires the token **after its transaction commits**
  (`user_changed`: a new random value): a save or deletion of the user (a password change, deactivation,
  staff flags, a sign-in's `last_login`), of their player (a claim links one) and of their memberships (a
  role granted or revoked). Copies read under the old token are never served again.
- A reader reads the token before the database, so what it read is never older than the token it stores it
  under: a reader that read before a write committed stores its copy under the token that write retires.
- Every copy expires after `TTL` seconds: a write whose after-commit step was lost (Redis briefly down, the
  process killed between commit and step) shows at most that late. A token that expired or was evicted is
  made anew (a random value no copy was stored under).
- The copy's session auth hash must equal the session's; when it does not (a password changed in a session
  this copy predates, a secret rotated), Django decides, from the database, as without the copy. The key
  holds a digest of `SECRET_KEY`, so a rotated key never meets copies made under the old one.

Only with Redis as the cache (shared by the web processes and the worker, whose writes must retire copies
everywhere); never inside a transaction (what it wrote is not committed, so a copy can't show it); and only
for the model backend's users. Otherwise, and when Redis fails, the user is read as Django reads them.
"""

import hashlib
import logging
import secrets
from collections.abc import Callable
from functools import cache as once
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.sessions.backends import cached_db
from django.core.cache import cache, caches
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject, empty

from config import shared_cache

logger = logging.getLogger(__name__)

TTL = 30  # seconds a copy of a user lives
TOKEN_TTL = 24 * 3600
FORMAT = 1  # moved when what a copy holds changes shape

_providers: list[Callable[[Any], dict[str, Any]]] = []


def add_provider(provide: Callable[[Any], dict[str, Any]]) -> None:
    """`provide(user)` gives attributes to keep on the user with their copy (read from the database when the
    copy is made, set on the user when it is served). Whoever provides them must call `user_changed` for the
    user whenever what they read changes."""
    if provide not in _providers:
        _providers.append(provide)


def held() -> bool:
    """Whether users are copied to the cache at all: only when it is Redis, shared by every process."""
    return shared_cache.redis_cache()


def enabled() -> bool:
    """Whether this request may read a copy: with Redis, outside a transaction."""
    return held() and not connection.in_atomic_block


@once
def _secret_digest(secret: str) -> str:
    return hashlib.blake2b(secret.encode(), digest_size=6, person=b"viewer-cache").hexdigest()


def _keys(user_id: Any) -> tuple[str, str]:
    base = f"viewer:{shared_cache.database_id()}:{_secret_digest(settings.SECRET_KEY)}:{FORMAT}:{user_id}"
    return f"{base}:token", f"{base}:user"


def _new_token() -> str:
    return secrets.token_hex(8)


def retire(user_id: Any) -> None:
    """Retire every copy of the user now (a new token). Redis failing is logged: copies expire within `TTL`."""
    if not held():
        return
    try:
        cache.set(_keys(user_id)[0], _new_token(), TOKEN_TTL)
    except Exception:
        logger.warning("User %s's cached copy not retired; it expires in %ss.", user_id, TTL, exc_info=True)


def user_changed(user_id: Any) -> None:
    """The user, or something a provider keeps with them, changed: retire their copies once the current
    transaction commits (at once outside one)."""
    if user_id is None or not held():
        return
    transaction.on_commit(lambda: retire(user_id), robust=True)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="viewer-cache-user-saved")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="viewer-cache-user-deleted")
def _user_saved_or_deleted(sender, instance, **kwargs) -> None:
    user_changed(instance.pk)


@once
def _model_backends(backends: tuple[str, ...]) -> frozenset[str]:
    """The configured backends whose `get_user` is the model backend's: the user row, if active."""
    return frozenset(path for path in backends if type(auth.load_backend(path)).get_user is ModelBackend.get_user)


def _fields() -> list[str]:
    return [f.attname for f in auth.get_user_model()._meta.concrete_fields if f.attname != "password"]


def _from_copy(held: dict[str, Any]) -> Any:
    model = auth.get_user_model()
    names = _fields()
    if set(held["fields"]) != set(names):
        return None
    # The password is left deferred: never held in Redis, read from the database if something asks for it
    # (and a save of this user writes only the fields it holds).
    user = model.from_db("default", names, [held["fields"][name] for name in names])
    for name, value in held["extras"].items():
        setattr(user, name, value)
    user._viewer_cache_hash = held["hash"]
    return user


def _copy(user: Any) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    for provide in _providers:
        extras.update(provide(user))
    fields = {name: getattr(user, name) for name in _fields()}
    return {"fields": fields, "hash": user.get_session_auth_hash(), "extras": extras}


# Whose session each session key is, as this process last read it: a hint to read the session, the user's
# token and their copy in one round trip. Only a hint: the session read with them says whose it is.
_session_users: dict[str, Any] = {}
_SESSION_USERS_LIMIT = 10_000


def _prefetch(request, raw_keys: tuple[str, ...], raw: dict[str, Any]) -> dict[str, Any]:
    """The session (loaded into `request.session` as its engine would) with the token and copy of the user it
    was last seen signed in, and `raw_keys` (into `raw`: values stored as they are, not through Django's
    cache), in one read; {} when this process has not seen the session signed in."""
    session = request.session
    key = session.session_key
    if (
        key not in _session_users
        or hasattr(session, "_session_cache")
        or not isinstance(session, cached_db.SessionStore)
        or session._cache is not caches["default"]
    ):
        return {}
    names = [session.cache_key, *_keys(_session_users[key])]
    backend = caches["default"]
    try:
        values = shared_cache.client().mget([backend.make_and_validate_key(name) for name in names] + list(raw_keys))
        loads = backend._cache._serializer.loads
        found = {name: loads(value) for name, value in zip(names, values, strict=False) if value is not None}
    except Exception:
        logger.warning("Redis unreachable; the session and user are read one by one.", exc_info=True)
        return {}
    raw.update(zip(raw_keys, values[len(names) :], strict=True))
    if found.get(session.cache_key) is not None:
        session._session_cache = found[session.cache_key]  # what `cached_db.SessionStore.load` would give
    return found


def read_with(user: Any, raw_keys: tuple[str, ...]) -> dict[str, Any] | None:
    """When `user` is a request's viewer not read yet, read them and `raw_keys` (values stored as they are, not
    through Django's cache) in one Redis round trip: {key: value or None}. None when the keys were not read
    (the viewer read already, anonymous, or a session this process has not seen signed in): read them apart."""
    request = user.__dict__.get("_viewer_request") if isinstance(user, SimpleLazyObject) else None
    if request is None or user._wrapped is not empty or hasattr(request, "_cached_user") or not enabled():
        return None
    raw: dict[str, Any] = {}
    request._cached_user = get_user(request, raw_keys, raw)
    return raw or None


def get_user(request, raw_keys: tuple[str, ...] = (), raw: dict[str, Any] | None = None) -> Any:
    """`django.contrib.auth.get_user(request)`, from the user's copy in Redis when there is a current one (and
    `raw_keys` read with them into `raw`, see `read_with`)."""
    if not enabled():
        return auth.get_user(request)
    found = _prefetch(request, raw_keys, {} if raw is None else raw)
    try:
        user_id = auth._get_user_session_key(request)
        backend_path = request.session[auth.BACKEND_SESSION_KEY]
    except KeyError:
        return auth.get_user(request)  # no one signed in
    if backend_path not in _model_backends(tuple(settings.AUTHENTICATION_BACKENDS)):
        return auth.get_user(request)
    token_key, user_key = _keys(user_id)
    try:
        if token_key not in found:  # not read with the session (or the session now names another user)
            if len(_session_users) >= _SESSION_USERS_LIMIT:
                _session_users.clear()
            _session_users[request.session.session_key] = user_id
            found = cache.get_many([token_key, user_key])
        token, held = found.get(token_key), found.get(user_key)
        if token is None:
            token = _new_token()
            if not cache.add(token_key, token, TOKEN_TTL):
                token = cache.get(token_key)
    except Exception:
        logger.warning("Redis unreachable; the user is read from the database.", exc_info=True)
        return auth.get_user(request)
    session_hash = request.session.get(auth.HASH_SESSION_KEY)
    if token and isinstance(held, tuple) and held[0] == token and session_hash:
        try:
            user = _from_copy(held[1])
        except Exception:
            logger.warning("A cached copy of user %s could not be read.", user_id, exc_info=True)
            user = None
        if user is not None and user.pk == user_id and constant_time_compare(session_hash, user._viewer_cache_hash):
            return user
    # Read as Django reads them (the user row, its session check: fallback secrets, a flush on a mismatch), after
    # the token: a copy of what was read is stored under a token that any later write retires.
    user = auth.get_user(request)
    if token and getattr(user, "is_authenticated", False) and user.pk == user_id:
        try:
            cache.set(user_key, (token, _copy(user)), TTL)
        except Exception:
            logger.warning("User %s not copied to Redis.", user_id, exc_info=True)
    return user


def _request_user(request) -> Any:
    if not hasattr(request, "_cached_user"):
        request._cached_user = get_user(request)
    return request._cached_user


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's, with `request.user` read through `get_user` above."""

    def process_request(self, request) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _request_user(request))
        request.user.__dict__["_viewer_request"] = request  # for `read_with`

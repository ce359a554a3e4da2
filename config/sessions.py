"""Sessions read from the cache (Redis) and written through to the database: Django's `cached_db`, made safe
for a cache that fails.

- Reading: the cache, else the database (Django's own); a cache that fails to take the copy is passed over,
  so a signed-in page still renders with Redis down.
- Ending a session (signing out, a password change's new key): the cached copy is deleted before the database
  row and again after it. If the first delete fails (Redis down), the request fails and nothing changes: a
  session never lives on in the cache after its row is gone (Django's order, row first, would leave the copy
  to be served once Redis is back). The second closes the window in which a concurrent request refilled the
  copy from the row about to be deleted.
- Whether a new session key is taken: the cache, else the database.
"""

import logging

from django.contrib.sessions.backends import cached_db

logger = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self):
        cache = self._cache
        self._cache = _Forgiving(cache)
        try:
            return super().load()
        finally:
            self._cache = cache

    def exists(self, session_key):
        try:
            if session_key and (self.cache_key_prefix + session_key) in self._cache:
                return True
        except Exception:
            logger.warning("Session cache unreachable; reading the database.", exc_info=True)
        return super(cached_db.SessionStore, self).exists(session_key)

    def delete(self, session_key=None):
        session_key = session_key if session_key is not None else self.session_key
        if session_key is None:
            return
        key = self.cache_key_prefix + session_key
        self._cache.delete(key)  # raises when Redis is down: the session is not ended, nothing changed
        super(cached_db.SessionStore, self).delete(session_key)
        try:
            self._cache.delete(key)
        except Exception:
            logger.warning("Session cache unreachable after a session ended.", exc_info=True)


class _Forgiving:
    """The cache as `load` uses it: a get that fails is a miss, a set that fails is skipped."""

    def __init__(self, cache):
        self._cache = cache

    def get(self, key, default=None):
        try:
            return self._cache.get(key, default)
        except Exception:
            logger.warning("Session cache unreachable; reading the database.", exc_info=True)
            return default

    def set(self, key, value, timeout=None):
        try:
            self._cache.set(key, value, timeout)
        except Exception:
            logger.warning("Session cache unreachable; the session is not copied there.", exc_info=True)

"""Renderings of a table shared between its viewers, in this process.

A rendering is a pure function of what it is made from: the viewer's `table_state` (the engine's view for their
seat or a spectator's, what they may do, why they may not sit), the table's variant and version, and the
language and time zone in force. Renderings are kept under a digest of exactly that, so viewers whose states are
equal (every spectator of one version alike, the two browsers of one player) share one rendering, and viewers
whose states differ in anything (two seats: their own cards, `you`) never can. What differs per request and is no
part of the state, the CSRF token, the idempotency key of the action form and the turn clock's seconds left, is
rendered as a placeholder that nobody's text can contain (a random word per process) and filled in per viewer.
"""

import hashlib
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable

from django.utils import timezone, translation

from games.online.selectors import refuse_unless_kept

_word = secrets.token_hex(12)
CSRF = f"csrf{_word}"
KEY = f"key{_word}"
CLOCK = f"clock{_word}"

KEPT = 1024  # renderings of some 20 KB: 50 tables' current versions, each in a dozen views, twice over
_kept: OrderedDict[str, dict] = OrderedDict()
_lock = threading.Lock()
made = 0  # renderings made by this process (the tests count them)


def state_key(version_key: tuple, state: dict, *, variant: str) -> str:
    """The digest of everything a rendering of `state` is made from (the clock's seconds left excepted: only
    whether it runs). Keys are not sorted (a third of the cost): `state_for` builds every state in one order, and
    equal text means equal states whatever the order, so unsorted keys can cost a rendering, never share one."""
    table = state["table"]
    ticking = {**state, "table": {**table, "seconds_left": table["seconds_left"] is not None}}
    text = json.dumps(
        [
            list(version_key),
            variant,
            translation.get_language(),
            timezone.get_current_timezone_name(),
            ticking,
        ],
        default=str,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()


def shared(key: str, render: Callable[[], dict]) -> dict:
    """The rendering kept under `key`, made by `render()` when this process has none (a payload whose strings
    hold the placeholders). Never changed once kept: callers copy what they fill in."""
    global made
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    refuse_unless_kept(False)  # on a stream's event loop: rendered in a thread instead
    found = render()
    with _lock:
        made += 1
        _kept[key] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return found


def fill(text: str, *, csrf: str, clock: str) -> str:
    """A kept rendering for one viewer: their CSRF token, a fresh idempotency key (a double-click acts once),
    and the turn clock as it stands now."""
    return text.replace(CSRF, csrf).replace(KEY, secrets.token_hex(16)).replace(CLOCK, clock)


def forget() -> None:
    """Drop every kept rendering (tests)."""
    with _lock:
        _kept.clear()

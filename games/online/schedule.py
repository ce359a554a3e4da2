"""When the table needs something to happen later (a bot's decision, the turn clock, the next hand).

Services call `later()` inside their transaction; the task is sent to Celery once the transaction
commits, with its delay. Every task re-checks the table when it runs, so one sent twice, late, or
after the player already acted does nothing.
"""

import random
from typing import Any

from django.conf import settings
from django.db import transaction


def dispatch(name: str, args: list[Any], countdown: float) -> None:
    """Send the task `name` of `games.online.tasks` with `args`, to run after `countdown` seconds."""
    from games.online import tasks

    getattr(tasks, name).apply_async(args=args, countdown=countdown)


def later(name: str, args: list[Any], countdown: float) -> None:
    """Send the task after the current transaction commits (never for a change that was rolled back)."""
    transaction.on_commit(lambda: dispatch(name, args, countdown))


def bot_delay() -> float:
    """A short, human-like pause before a bot decides (not a secret: the global random is fine here)."""
    low, high = getattr(settings, "ONLINE_BOT_DELAY_SECONDS", (0.8, 2.0))
    return random.uniform(low, high)


def hand_pause() -> float:
    """The pause between the end of a hand and the start of the next, to read the reveal."""
    return float(getattr(settings, "ONLINE_HAND_PAUSE_SECONDS", 5.0))

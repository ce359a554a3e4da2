"""The embedded default with bots that decide at once: for tests that run a worker in another process.

The embedded broker (kombu's filesystem transport) is looked at every tenth of a second instead of every second,
so a task waits for its worker a twentieth of a second on average, not half a second (a whole game against bots
sends hundreds). Nothing else differs from `config.settings.base`."""

from config.settings.base import *  # noqa: F403
from config.settings.base import CELERY_BROKER_TRANSPORT_OPTIONS

ONLINE_BOT_DELAY_SECONDS = (0.02, 0.1)
CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS, "polling_interval": 0.1}

"""The embedded default with bots that decide at once: for tests that run a worker in another process. On the
embedded broker (a folder), the worker also looks for new tasks every tenth of a second instead of every second
(kombu's `polling_interval`), so a bot's move or the next hand is not a second late each time."""

from config.settings.base import *  # noqa: F403

ONLINE_BOT_DELAY_SECONDS = (0.02, 0.1)
if "data_folder_in" in CELERY_BROKER_TRANSPORT_OPTIONS:  # noqa: F405
    CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS, "polling_interval": 0.1}  # noqa: F405

"""The embedded default with bots that decide at once: for tests that run a worker in another process."""

from config.settings.base import *  # noqa: F403

ONLINE_BOT_DELAY_SECONDS = (0.02, 0.1)

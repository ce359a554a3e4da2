"""Settings of the site as `bench.tabletop_bench` serves it: the embedded default (`config.settings.base`, as
`make run` serves it: SQLite, no Redis) with the peer's URL added (`bench.tabletop_site`)."""

from config.settings.base import *  # noqa: F403

ROOT_URLCONF = "bench.tabletop_site"

"""Settings of the site as `bench.streams_bench` serves it: production's (`config.settings.production`, as
docker-compose runs the web service) with two differences outside what is measured: the URLs gain the peer's view
(`bench.streams_site`), and static files are served by name without a manifest (the bench runs no
`collectstatic`)."""

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "bench.streams_site"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

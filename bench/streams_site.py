"""The URLs of the site as `bench.streams_bench` serves it (`bench.streams_settings`): the project's, and
`/bench-peer/<name>/`, the peer, which answers with bytes the bench stored in the cache (the same bytes as the page
or JSON it stands beside), through the same middleware, and does nothing else."""

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import include, path

PEER_PREFIX = "streams-bench-peer:"


def peer(request: HttpRequest, name: str) -> HttpResponse:
    found = cache.get(PEER_PREFIX + name)
    if found is None:
        raise Http404("no such peer document")
    body, content_type = found
    return HttpResponse(body, content_type=content_type)


urlpatterns = [path("bench-peer/<str:name>/", peer), path("", include("config.urls"))]

"""The URLs of the site as `bench.tabletop_bench` serves it: the embedded default (`config.settings.base`:
SQLite, no Redis, events delivered in process) with one more URL, the peer: `/bench-peer/<code>/events/`, a bare
server-sent-events stream of a real-cards table that reads nothing and renders nothing. It hears the table's
announcement in process (`config.events.subscribe_local`: the server that saved the step announces it) and sends
the version at once.

Its settings: `bench.tabletop_settings`."""

import queue

from django.http import HttpRequest, StreamingHttpResponse
from django.urls import include, path


def peer_events(request: HttpRequest, code: str) -> StreamingHttpResponse:
    from config.events import subscribe_local
    from games.tabletop.services import table_topic

    heard: queue.Queue = queue.Queue()
    stop = subscribe_local(table_topic(code), heard.put)

    def body():
        try:
            yield "retry: 1000\n\n"
            while True:
                try:
                    message = heard.get(timeout=1.0)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                yield f"id: {message.get('version')}\nevent: state\ndata: {{}}\n\n"
        finally:
            stop()

    response = StreamingHttpResponse(body(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [path("bench-peer/<str:code>/events/", peer_events), path("", include("config.urls"))]

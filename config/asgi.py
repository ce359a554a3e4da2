"""The ASGI application (uvicorn): Django's handler, with a request's synchronous part run in one step on a thread.

Django's own ASGI handler runs the same middleware and views as its WSGI one, but crosses between the event loop
and a thread six or more times per request (the `request_started` signal, into the sync middleware, back to the
loop for the async view caller, into a thread again for `CsrfViewMiddleware.process_view` and for the view, back
out, `response.close`), each crossing a wake-up of both sides; and it starts a new thread for every request
(asgiref's `ThreadSensitiveContext`). Measured in-process (`bench/streams_cpu.py`), that path cost 1.6 to 2 ms of
CPU per request while the page itself, through the plain handler, cost 0.2 to 1.9 ms. Here the middleware chain is
built synchronously, as for WSGI, and each request's synchronous part (`request_started`, the middleware, the view,
and for a plain response its `close`: `request_finished`, which gives the database connection back) is one call on
a thread of a pool kept for the process (`ASGI_THREADS`). A streaming response (the live streams) is sent from the
event loop as Django sends it, racing the client's disconnect, and closed afterwards in the pool.

The same middleware, views, bytes, headers and signals as Django's handler; what differs is where they run.
"""

import asyncio
import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django

django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import RequestAborted  # noqa: E402
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler  # noqa: E402
from django.core.handlers.asgi import get_script_prefix  # noqa: E402
from django.http import FileResponse  # noqa: E402
from django.urls import set_script_prefix  # noqa: E402


class ASGIHandler(DjangoASGIHandler):
    """Django's ASGI handler, with each request's synchronous part made in one call on a pooled thread."""

    def __init__(self) -> None:
        # The sync middleware chain (as for WSGI), built by the base handler; `DjangoASGIHandler.__init__` would
        # build the async one.
        super(DjangoASGIHandler, self).__init__()
        self.load_middleware(is_async=False)
        self._threads: ThreadPoolExecutor | None = None
        self._threads_made = threading.Lock()

    def _pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            with self._threads_made:
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(
                        max_workers=int(getattr(settings, "ASGI_THREADS", 8)), thread_name_prefix="asgi"
                    )
        return self._threads

    def _in_thread(self, call):
        """`call` as a coroutine function run on the pool (asgiref's, so an async view or `async_to_sync` inside it
        finds this event loop and the request's context variables go with it)."""
        return sync_to_async(call, thread_sensitive=False, executor=self._pool())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    def _respond(self, scope, body_file):
        """The request's synchronous part, in one thread: what Django's `handle` does between reading the body and
        sending the answer. A plain response is closed here (its body is already made): `request_finished` gives
        the request's database connection back before the bytes go out."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            body_file.close()
            error_response.close()
            return error_response
        response = self.get_response(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):  # as Django's: uvicorn chunks it, so fewer and larger reads
            response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        response = await self._in_thread(self._respond)(scope, body_file)
        if not response.streaming:
            try:
                await self.send_response(response, send)
            finally:
                body_file.close()
            return
        # A stream: sent from the loop until it ends or the client goes, as Django's handler sends it. Its own
        # reads and renderings that must run in a thread share one per stream (asgiref's thread-sensitive mode).
        try:
            async with ThreadSensitiveContext():
                sending = asyncio.create_task(self.send_response(response, send))
                listening = asyncio.create_task(self.listen_for_disconnect(receive))
                await asyncio.wait([listening, sending], return_when=asyncio.FIRST_COMPLETED)
                for task in (listening, sending):
                    if not task.done():
                        task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                        await task
        finally:
            await self._in_thread(response.close)()
            body_file.close()


application = ASGIHandler()

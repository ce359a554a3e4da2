"""Streams as uvicorn serves them (ASGI, `stream.async_stream`): the process's hub hears each change once, the
streams it wakes share one read of the table, each viewer gets their own rendering, and a reconnect catches up."""

import asyncio
import json
import os

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games.online import renders, stream, views
from tests.online.helpers import organiser_selects_none
from tests.online.test_stream import live_table  # noqa: F401 (fixture)


def run(coroutine) -> None:
    """`asyncio.run`, also in a process where an earlier browser test's Playwright (its sync API) left its event loop
    marked as running in this thread: the mark is set aside for the run and put back. During the run Django's async
    safety is as in production: the browser tests' conftest sets DJANGO_ALLOW_ASYNC_UNSAFE for the whole test process
    (which lets a query on the loop through, and these tests are about that refusal); the fixtures around the run,
    in the thread Playwright marked, keep it."""
    running = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    unsafe = os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    try:
        asyncio.run(coroutine)
    finally:
        if unsafe is not None:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = unsafe
        asyncio.events._set_running_loop(running)


async def next_state(chunks) -> tuple[int, dict]:
    async for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id: "):
            head, data = text.split("\ndata: ", 1)
            return int(head.split("\n")[0][4:]), json.loads(data)
    raise AssertionError("the stream ended")


async def opened(client: AsyncClient, url: str, **headers):
    response = await client.get(url, **headers)
    assert response["Content-Type"] == "text/event-stream"
    return response, aiter(response.streaming_content)


@pytest.mark.parametrize("redis", [True, False, None], ids=["redis-hub", "database-poll", "redis-down"])
def test_asgi_streams_of_one_table_share_each_read_and_each_viewer_gets_their_own(
    settings,
    world,
    humans,
    live_table,  # noqa: F811
    monkeypatch,
    redis,
):
    settings.REDIS_URL = (settings.REDIS_URL or "redis://127.0.0.1:6379/0") if redis else ""
    if redis is None:  # nothing listens there: the hub fails to subscribe, and the streams poll
        settings.REDIS_URL = "redis://127.0.0.1:1/0"
    renders.forget()
    reads = []
    original = views._fresh_or_none
    monkeypatch.setattr(views, "_fresh_or_none", lambda pk: reads.append(pk) or original(pk))
    url = f"/tables/{live_table.pk}/events/"

    async def main() -> None:
        member, organiser, spectator = AsyncClient(), AsyncClient(), AsyncClient()
        await member.aforce_login(humans[0])
        await organiser.aforce_login(world.users["organiser"])
        streams = [await opened(c, url) for c in (member, member, organiser, spectator, spectator)]
        try:
            for _, chunks in streams:
                assert (await next_state(chunks))[0] == live_table.version
            reads.clear()
            made = renders.made
            await sync_to_async(organiser_selects_none)(world, live_table)
            seconds = [await next_state(chunks) for _, chunks in streams]
            assert {version for version, _ in seconds} == {live_table.version + 1}
            if redis:
                assert len(reads) == 1  # five streams woken by one change: one read of the table
            else:
                assert len(reads) < 5 * 3  # polls of one slot share their read
            assert renders.made == made + 3  # the member's two streams share, the spectators share
            htmls = [state["html"] for _, state in seconds]
            assert 'aria-label="Your cards"' in htmls[0] and 'aria-label="Your cards"' in htmls[2]
            assert 'aria-label="Your cards"' not in htmls[3]
            # A reconnecting browser that missed the change catches up at once from its version.
            response, chunks = await opened(member, url, HTTP_LAST_EVENT_ID=str(live_table.version))
            streams.append((response, chunks))
            assert (await next_state(chunks))[0] == live_table.version + 1
        finally:
            for _, chunks in streams:
                await chunks.aclose()

    run(main())


def test_a_viewer_of_a_rendered_state_is_served_on_the_event_loop_with_only_their_own_seat(
    settings,
    world,
    humans,
    live_table,  # noqa: F811
):
    """The shared read reads ahead what a viewer's state needs of the database (the hand's log); what is still to
    compute (a new state's rendering, a seat's view) is made in a thread, and once made a viewer of that state is
    served on the loop, no thread woken; each viewer still gets only their own seat."""
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
    renders.forget()
    url = f"/tables/{live_table.pk}/events/"

    async def main() -> None:
        member, organiser, spectator = AsyncClient(), AsyncClient(), AsyncClient()
        await member.aforce_login(humans[0])
        await organiser.aforce_login(world.users["organiser"])
        streams = [await opened(c, url) for c in (member, member, organiser, spectator, spectator)]
        try:
            for _, chunks in streams:
                assert (await next_state(chunks))[0] == live_table.version
            in_threads, made, ahead = stream.rendered_in_threads, renders.made, stream.sent_ahead
            await sync_to_async(organiser_selects_none)(world, live_table)
            seconds = [await next_state(chunks) for _, chunks in streams]
            assert {version for version, _ in seconds} == {live_table.version + 1}
            # A new state's rendering (and a seat's engine view) is made in a thread, never on the loop. (How many
            # threads the five viewers woke depends on their timing: a busy machine may wake one twice.)
            assert stream.rendered_in_threads > in_threads
            # ... by the thread that made the shared read, for all five viewers: one thread woken, not one each.
            assert stream.sent_ahead == ahead + 5
            # Once made, a viewer of that state (a browser reconnecting) is served on the loop: counted with the
            # other viewers gone, so that nothing else renders meanwhile.
            for _, chunks in streams:
                await chunks.aclose()
            streams.clear()
            in_threads = stream.rendered_in_threads
            response, chunks = await opened(member, url, HTTP_LAST_EVENT_ID=str(live_table.version))
            streams.append((response, chunks))
            again = await next_state(chunks)
            assert again[0] == live_table.version + 1 and 'aria-label="Your cards"' in again[1]["html"]
            assert stream.rendered_in_threads == in_threads
            htmls = [state["html"] for _, state in seconds]
            assert 'aria-label="Your cards"' in htmls[0] and 'aria-label="Your cards"' in htmls[2]
            assert 'aria-label="Your cards"' not in htmls[3] and 'aria-label="Your cards"' not in htmls[4]
            # The member's two browsers share one rendering, the organiser's seat has its own, the spectators one.
            assert renders.made == made + 3
        finally:
            for _, chunks in streams:
                await chunks.aclose()

    run(main())


def test_a_rendering_that_needs_the_database_is_made_in_a_thread(transactional_db, world):
    """Django refuses a query on the event loop; `_rendered` then makes the rendering in a thread, the same."""
    from asgiref.sync import sync_to_async

    from league.models import League

    def render(found):
        return {"leagues": League.objects.count(), "found": found}

    async def main() -> dict:
        return await stream._rendered(render, sync_to_async(stream.released(render)), "row")

    in_threads = stream.rendered_in_threads
    result = {}
    run(_store(main(), result))
    assert result["value"] == {"leagues": League.objects.count(), "found": "row"}
    assert stream.rendered_in_threads == in_threads + 1


async def _store(coroutine, into: dict) -> None:
    into["value"] = await coroutine

"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# A live stream writes a keepalive this often when nothing changed, and so finds its closed browser within about two
# of these: each browser test with a stream open waited one to two seconds at its end with a keepalive a second.
STREAM_KEEPALIVE_SECONDS = 0.2


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def session_cookie(user, base_url: str) -> dict:
    """A signed-in session for `user`, as a cookie for a browser context (no sign-in form, no rate limit)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}


@pytest.fixture(autouse=True)
def streams_end_before_the_database(request):
    """A page with a live stream (the lobby, a table, a tournament clock) leaves it open on the live server until
    the stream next writes and finds its browser gone. With a keepalive every `STREAM_KEEPALIVE_SECONDS`, and a wait
    here (after the test's browsers are closed, before its database is flushed and closed to the server's threads),
    no stream outlives its test to read a database it may no longer use."""
    if "live_server" not in request.fixturenames:
        yield
        return
    from games.online import stream

    request.getfixturevalue("transactional_db")
    settings = request.getfixturevalue("settings")
    settings.ONLINE_STREAM_KEEPALIVE_SECONDS = STREAM_KEEPALIVE_SECONDS
    yield
    assert stream.wait_until_closed(timeout=15), "a live stream was still open 15 s after its test"

"""Four phones at one real-cards table (games/tabletop): the host runs it from a laptop (1280 px) and four guests
(390 px) join by typing its code. They play two Coruscant Shift hands to the reveal, each acting on their own
phone; every page (and the big screen) hears every step live, without a reload; the host undoes a mis-tap; between
the hands the host's add-on makes the stacks differ, and the second hand's all-ins make a side pot; the payouts the
pages show are the engine's own.

The test follows the engine's `due` to know whose phone must act (a player reads their own phone; the test reads
the table), and after each step waits until every page shows the table's new version."""

import re

import pytest
from django.test import Client

from games.engine.realcards.due import due
from games.engine.realcards.explain import explain_hand
from games.tabletop import services
from games.tabletop.models import RealTable
from games.tabletop.present import in_words
from tests.factories import UserFactory

WAIT = 20_000
NAMES = ("Ann", "Bob", "Cy", "Dee")
# The cards each seat shows, per hand (the roll is entered: gold 0, silver circle): hand 1 goes to Bob; in hand 2
# Ann (all in, the shortest stack) takes the main pot and Cy the side pot she could not reach.
SHOWN = {
    1: {0: ["+3c", "+4s"], 1: ["+1c", "+2c"], 2: ["-5s", "+9t"], 3: ["0", "-10t"]},
    2: {0: ["+1c", "-1c"], 1: ["+5s", "+4s"], 2: ["+2t", "+3t"], 3: ["+7c", "+8c"]},
}

pytestmark = pytest.mark.django_db(transaction=True)


def _table(code: str) -> RealTable:
    return RealTable.objects.get(code=code)


def _now(code: str) -> dict:
    return due(services.load_game(_table(code)))


def _all_see(pages, version: int) -> None:
    """Every page shows `version` of the table (heard on its stream: nobody reloads)."""
    for page in pages:
        try:
            page.wait_for_function(
                "v => document.querySelector('#tabletop .tt').dataset.version === v", arg=str(version), timeout=WAIT
            )
        except Exception:  # say which page fell behind, and where it stands
            shows = page.evaluate("document.querySelector('#tabletop .tt').dataset.version")
            live = page.locator("#tt-live").inner_text()
            raise AssertionError(f"{page.url} shows version {shows}, not {version} ({live})") from None


def _done(pages, code: str, tap, *args, **kwargs) -> None:
    """One tap that changes the table (a step, an undo, a seat): every page then shows the next version."""
    version = _table(code).version
    tap(*args, **kwargs)
    _all_see(pages, version + 1)


def _tap(page, verb: str) -> None:
    page.locator(".tt-turn-box", has=page.locator("h3", has_text="Your turn")).locator(
        f"button[data-verb={verb}]"
    ).first.click()


def _play_turn(phone, now: dict, seat: int, *, shove: bool) -> None:
    """The seat's own phone takes its turn: keep two cards, add none; check or call (or, shoving, all in)."""
    verbs = now["choices"][seat]["verbs"]
    box = phone.locator(".tt-turn-box", has=phone.locator("h3", has_text="Your turn"))
    if "select" in verbs:
        box.locator("input[name=count]").first.fill("0" if now["phase"] == "improve" else "2")
        _tap(phone, "select")
    elif shove and "check" in verbs:
        _tap(phone, "allin")  # the first to bet goes all in
    else:
        _tap(phone, "call" if "call" in verbs else "check")


def _reveal(phones, pages, code: str, hand: int) -> None:
    """Each phone taps its own hand's cards on the deck's picture."""
    for seat in [row["seat"] for row in _now(code)["seats"]]:
        phone = phones[seat]
        form = phone.locator("form.tt-reveal", has_text=f"{NAMES[seat]} shows 2 cards")
        for card in SHOWN[hand][seat]:
            form.locator(f".tt-pick:has(input[value='{card}']:not(:disabled):not(:checked))").first.click()
        _done(pages, code, form.get_by_role("button", name=f"Show {NAMES[seat]}'s hand").click)


def _deal_and_roll(host, pages, code: str) -> None:
    _done(pages, code, host.get_by_role("button", name="Dealt: done").click)
    host.select_option("select[name=number]", "0")
    host.select_option("select[name=suit]", "circle")
    _done(pages, code, host.get_by_role("button", name="Enter the roll").click)


def _numbers(page, column: int) -> list[int]:
    cells = page.locator(f".tt-players tbody tr td:nth-child({column})").all_inner_texts()
    return [int(text) for text in cells]


def test_four_phones_play_two_hands_with_a_side_pot_and_an_undo(browser, live_server):
    host_user = UserFactory(username="hostess")
    table = services.realtable_open(
        actor=host_user, variant="coruscant_shift", preset="casino", starting_credits=100, host_plays=False
    )
    code = table.code
    client = Client()
    client.force_login(host_user)
    contexts, errors, loads = [], [], {}
    try:
        laptop = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(laptop)
        laptop.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
        host = laptop.new_page()
        # The big screen in a browser of its own (a tab behind the host's would be throttled by Chromium).
        projector = browser.new_context(viewport={"width": 1280, "height": 720})
        contexts.append(projector)
        screen = projector.new_page()
        phones = []
        for _ in NAMES:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            contexts.append(context)
            phones.append(context.new_page())
        pages = [host, screen, *phones]
        for page in pages:
            page.set_default_timeout(WAIT)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        host.goto(f"{live_server.url}/tabletop/{code}/")
        host.wait_for_selector("#tt-live:has-text('Live')")
        # Four guests type the code (lower case) and give their names.
        for name, phone in zip(NAMES, phones, strict=True):
            phone.goto(f"{live_server.url}/tabletop/")
            phone.fill("#tt-code", code.lower())
            phone.get_by_role("button", name="Join").click()
            phone.wait_for_url(f"**/tabletop/{code}/")
            phone.fill("#tt-name", name)
            phone.get_by_role("button", name="Take a seat").click()
            phone.wait_for_selector(f".tt-seats li:has-text('{name}') strong:has-text('(you)')")
            phone.wait_for_selector("#tt-live:has-text('Live')")
        host.wait_for_selector(".tt-seats li:has-text('Dee')")  # heard live
        screen.goto(f"{live_server.url}/tabletop/{code}/screen/")
        screen.wait_for_selector("#tt-live:has-text('Live')")
        for page in pages:  # from here on nobody navigates: every change arrives on the stream
            page.on("load", lambda loaded: loads.__setitem__(loaded.url, loads.get(loaded.url, 0) + 1))
        _done(pages, code, host.get_by_role("button", name="Start the game").click)
        assert [row.name for row in _table(code).seats.order_by("number")] == list(NAMES)

        # ----- hand 1: everyone checks; one mis-tap undone by the host ---------------------------------------
        _deal_and_roll(host, pages, code)
        mis_tapped = False
        for _ in range(40):
            now = _now(code)
            if now["due"] != "act":
                break
            seat = now["seats"][0]
            phone = phones[seat]
            if not mis_tapped and now["phase"] == "betting_1":
                _done(pages, code, _tap, phone, "fold")  # a mis-tap: Bob meant to check
                other = phones[(seat + 1) % 4]
                assert other.locator(f".tt-players tr:has-text('{NAMES[seat]}') .tt-tag:has-text('folded')").count()
                _done(pages, code, host.get_by_role("button", name="Undo the last step").click)
                assert other.locator(".tt-players .tt-tag:has-text('folded')").count() == 0
                phone.wait_for_selector(".tt-turn-box h3:has-text('Your turn')")
                assert "took back" in host.locator(".tt-log").text_content()
                mis_tapped = True
            _done(pages, code, _play_turn, phone, now, seat, shove=False)
            # A phone that did not act shows whose turn it is now, without a reload.
            after = _now(code)
            if after["due"] == "act":
                watcher = phones[(seat + 2) % 4]
                marked = watcher.locator(".tt-players tr.tt-turn td:first-child").all_inner_texts()
                assert [text.split()[0] for text in marked] == [NAMES[s] for s in sorted(after["seats"])]
        assert mis_tapped and _now(code)["due"] == "reveal"
        _reveal(phones, pages, code, 1)
        game = services.load_game(_table(code))
        assert game.stacks == [90, 130, 90, 90]
        for page in (phones[0], phones[3]):
            assert _numbers(page, 2) == game.stacks

        # ----- between the hands: the host's add-on for Cy -----------------------------------------------------
        host.locator(".tt-between > summary").click()
        form = host.locator("form.tt-add-on")
        form.locator("select[name=seat]").select_option("2")
        form.locator("input[name=amount]").fill("100")
        _done(pages, code, form.get_by_role("button", name="Add on").click)
        assert _numbers(phones[2], 2) == [90, 130, 190, 90]

        # ----- hand 2: all in, a side pot ---------------------------------------------------------------------
        _deal_and_roll(host, pages, code)
        for _ in range(40):
            now = _now(code)
            if now["due"] != "act":
                break
            seat = now["seats"][0]
            _done(pages, code, _play_turn, phones[seat], now, seat, shove=True)
        assert _now(code)["due"] == "reveal"
        pots = phones[1].locator(".tt-pots").inner_text()
        assert "Pot 1 (main): 360" in pots and "Pot 2 (side): 80" in pots  # pots from 1, as the log and "why" say
        screen_text = screen.locator(".tt-screen-pots").inner_text()
        assert "360" in screen_text and "Pot 2 (side)" in screen_text and "80" in screen_text
        _reveal(phones, pages, code, 2)

        # ----- the payouts the pages show are the engine's ----------------------------------------------------
        game = services.load_game(_table(code))
        assert game.stacks == [360, 0, 140, 0] and game.game.total_credits() == 500
        said = [in_words(row["says"], "coruscant_shift") for row in explain_hand(game, 2)]
        assert len(said) == 2 and said[0].startswith("Pot 1 (360): Ann") and said[1].startswith("Pot 2 (80): Cy")
        for page in [host, *phones]:
            assert _numbers(page, 2) == game.stacks
            shown = page.locator("section.tt-box:has(h2:has-text('Why the pots')) li").all_inner_texts()
            assert [re.sub(r"\s+", " ", line) for line in shown] == said
        screen_lines = screen.locator(".tt-screen-result li").all_inner_texts()
        assert [re.sub(r"\s+", " ", line) for line in screen_lines] == said
        assert screen.locator("form, button").count() == 0
        assert loads == {}, loads  # nobody reloaded
        assert errors == []
    finally:
        for context in contexts:
            context.close()

"""The site's fair rolls at a real-cards table (docs/tabletop.md, "Fair rolls"): each hand's commitment (the SHA-256
of its seed) is on the page, the big screen, the hand history, the seeds page and in the API from before the hand
is dealt, before any site roll; the seeds only once the game is over, when each hashes to the commitment shown
before its hand (checked here with hashlib, from the documented recipe, not with the app's own functions)."""

import hashlib

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from tests.factories import client_as
from tests.tabletop.helpers import act_to_reveal, current_due, play_to_reveal, roll_dice, started_table

pytestmark = pytest.mark.django_db


def _seed_of(master: str, number: int) -> str:
    """docs/rules.md, "Fair decks": the server seed of hand n (no entropy at a real table: the hand's seed)."""
    return hashlib.sha256(f"{master}/hand/{number}".encode()).hexdigest()[:32]


def _bodies(table, clients) -> dict[str, str]:
    """Everything a viewer can read of the table now, by address."""
    urls = [
        reverse("tabletop-table", args=[table.code]),
        reverse("tabletop-fragment", args=[table.code]),
        reverse("tabletop-screen", args=[table.code]),
        reverse("tabletop-history", args=[table.code]),
        reverse("tabletop-seeds", args=[table.code]),
        f"/api/tabletop/{table.code}/",
    ]
    return {f"{url} as {who}": client.get(url).content.decode() for who, client in clients.items() for url in urls}


def test_each_hands_commitment_is_shown_before_its_roll_and_its_seed_only_at_the_end():
    table, host, ann, bob = started_table(has_dice=False)
    clients = {"host": client_as(host), "ann": client_as(ann), "anyone": Client()}
    master = table.master
    # Before the first deal: hand 1's commitment, everywhere a viewer looks at the table.
    before = Client().get(f"/api/tabletop/{table.code}/").json()
    assert before["commitment"]["hand"] == 1
    first = before["commitment"]["commitment"]
    assert len(first) == 64 and int(first, 16) >= 0
    for where, body in _bodies(table, {"anyone": Client()}).items():
        if "history" not in where:  # no hand dealt yet: the history lists none
            assert first in body, where
    # Dealt, the roll not made yet: the same commitment, now also in the hand history's hand 1.
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    assert current_due(table)["due"] == "dice"
    for where, body in _bodies(table, clients).items():
        assert first in body, where
        assert master not in body and _seed_of(master, 1) not in body, where
    guest = Client().get(f"/api/tabletop/{table.code}/", HTTP_X_TABLETOP_GUEST=bob).json()
    assert guest["commitment"] == {"hand": 1, "commitment": first} and "seed" not in guest
    # The site rolls; the hand plays to its reveal; still no seed anywhere, the commitment stays.
    roll_dice(table, host)  # no dice at this table: the site's roll
    act_to_reveal(table, host)
    for where, body in _bodies(table, clients).items():
        assert master not in body and _seed_of(master, 1) not in body, where
    for seat, cards in ((0, ["+1c", "+2c"]), (1, ["-5s", "+9t"]), (2, ["0", "-10t"])):
        services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": seat, "cards": cards})
    # Between hands: hand 2's commitment is shown before its deal.
    state = Client().get(f"/api/tabletop/{table.code}/").json()
    second = state["commitment"]["commitment"]
    assert state["commitment"]["hand"] == 2 and second != first
    services.realtable_finish(actor=host, table=table)
    # The end: the master seed and each hand's seed are shown, and each hashes to the commitment shown before.
    state = Client().get(f"/api/tabletop/{table.code}/").json()
    assert state["seed"] == master and state["commitment"] is None
    seed = _seed_of(master, 1)
    assert hashlib.sha256(seed.encode()).hexdigest() == first
    page = Client().get(reverse("tabletop-seeds", args=[table.code])).content.decode()
    assert seed in page and first in page and 'id="seeds-verdict"' in page and "match" in page
    assert f'data-commitment="{first}" data-server-seed="{seed}"' in page  # the browser's own check reads these
    history = Client().get(reverse("tabletop-history", args=[table.code]), {"hand": 1}).content.decode()
    assert f"<code data-seed>{seed}</code>" in history


def test_a_site_roll_that_is_not_the_seeds_is_caught_by_the_check():
    """The seeds page's verdict is the engine's re-run with the seed: a site roll stored other than the seed gives
    it is reported, not passed."""
    table, host, _, _ = started_table(has_dice=False)
    play_to_reveal(table, host)
    table.refresh_from_db()
    rolled = next(step for step in table.steps if step.get("by") == "site")
    other = next(
        {"number": n, "suit": s}
        for n in (0, 5, -5, 10, -10)
        for s in ("circle", "square", "triangle")
        if {"number": n, "suit": s} != rolled["dice"]
    )
    steps = [{**step, "dice": other} if step is rolled else step for step in table.steps]
    type(table).objects.filter(pk=table.pk).update(steps=steps, snapshot=None)
    services.realtable_finish(actor=host, table=table)
    page = Client().get(reverse("tabletop-seeds", args=[table.code])).content.decode()
    assert "These do not check out" in page and "from the revealed seed is" in page


@pytest.mark.django_db(transaction=True)  # the stream reads on its own, outside the test's transaction
def test_the_live_streams_carry_the_commitment_and_never_the_seed():
    table, host, ann, _ = started_table(has_dice=False)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    table.refresh_from_db()
    first = hashlib.sha256(_seed_of(table.master, 1).encode()).hexdigest()
    for url, client in (
        (reverse("tabletop-events", args=[table.code]), client_as(ann)),
        (reverse("tabletop-screen-events", args=[table.code]), Client()),
    ):
        answer = client.get(url)
        chunks = iter(answer.streaming_content)
        next(chunks)
        message = next(chunks).decode()
        answer._iterator.close()
        assert first in message, url
        assert table.master not in message and _seed_of(table.master, 1) not in message, url


def test_a_game_its_host_ends_early_downloads_with_its_seed_and_verifies(tmp_path):
    """A host may end the game before it ends by its rules; once the table is finished its seeds are public (the
    seeds page shows them), so the downloaded document carries the master seed too and `replay --verify` checks
    every site roll of it. Before the end, the download has no seed."""
    import json

    from django.core.management import call_command

    table, host, _, _ = started_table(has_dice=False)
    play_to_reveal(table, host)
    download = reverse("tabletop-history-download", args=[table.code])
    during = json.loads(client_as(host).get(download).content)
    assert during.get("seed") is None
    services.realtable_finish(actor=host, table=table)
    table.refresh_from_db()
    document = json.loads(Client().get(download).content)
    assert document["seed"] == table.master
    assert any(step.get("by") == "site" for step in document["steps"] if isinstance(step, dict))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    out = __import__("io").StringIO()
    call_command("replay", str(path), "--verify", stdout=out)
    assert out.getvalue().startswith("verified: ") and "site rolls" in out.getvalue()

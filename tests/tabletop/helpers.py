"""Shared set-ups of the real-cards table tests: a host, two players (one a guest), a started Coruscant table."""

from django.contrib.auth.models import AnonymousUser

from games.engine.realcards.due import due
from games.tabletop import services
from games.tabletop.models import RealTable
from tests.factories import UserFactory


def started_table(*, has_dice: bool = True, variant: str = "coruscant_shift", preset: str = "cantina"):
    """A table hosted by `host` (seat 0), with `ann` (seat 1, signed in) and a guest `Bob` (seat 2)."""
    host = UserFactory(username="hostess")
    ann = UserFactory(username="ann")
    table = services.realtable_open(actor=host, variant=variant, preset=preset, starting_credits=100, has_dice=has_dice)
    services.realseat_join(actor=ann, table=table)
    bob = services.realseat_join(actor=AnonymousUser(), table=table, name="Bob")
    services.realtable_start(actor=host, table=table, dealer=0)
    table.refresh_from_db()
    return table, host, ann, bob.guest_token


def current_due(table: RealTable) -> dict:
    table.refresh_from_db()
    return due(services.load_game(table))


def play_to_reveal(table: RealTable, host, *, bets: tuple[str, ...] = ("check", "call")) -> None:
    """The host plays a whole Coruscant hand for everyone (keeps 2 cards, bets the first of `bets` allowed: checks
    by default) up to the reveal."""
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    # The roll entered (not the site's, from the table's random seed): the same hand every run.
    roll = {"dice": {"number": 0, "suit": "circle"}} if table.has_dice else {"by": "site"}
    services.realtable_step(actor=host, table=table, step={"step": "dice", **roll})
    for _ in range(40):
        now = current_due(table)
        if now["due"] != "act":
            return
        seat = now["seats"][0]
        verbs = now["choices"][seat]["verbs"]
        step = {"step": "act", "seat": seat}
        if "select" in verbs:
            step.update(verb="select", count=0 if now["phase"] == "improve" else 2)
        else:
            step["verb"] = next(verb for verb in bets if verb in verbs)
        services.realtable_step(actor=host, table=table, step=step)
    raise AssertionError("the hand did not reach its reveal")

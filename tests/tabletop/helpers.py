"""Shared set-ups of the real-cards table tests: a host, two players (one a guest), a started Coruscant table."""

from collections.abc import Callable, Sequence

from django.contrib.auth.models import AnonymousUser

from games.engine.realcards.due import due
from games.tabletop import services
from games.tabletop.models import RealTable
from tests.factories import UserFactory

Bets = Sequence[str] | Callable[[int], Sequence[str]]  # verbs to try in turn, or a function of the seat giving them


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


def act_step(now: dict, bets: Bets = ("check", "call")) -> dict:
    """The `act` step of the seat due `now`: its selection if it has one to make (keep 2 cards, none at the improve),
    else the first of `bets` it may make (a bet of the least allowed)."""
    seat = now["seats"][0]
    choices = now["choices"][seat]
    verbs = choices["verbs"]
    step = {"step": "act", "seat": seat}
    if "select" in verbs:
        return {**step, "verb": "select", "count": 0 if now["phase"] == "improve" else 2}
    allowed = bets(seat) if callable(bets) else bets
    verb = next((verb for verb in allowed if verb in verbs), None)
    assert verb is not None, f"seat {seat} may not make any of {list(allowed)} (only {verbs})"
    return {**step, "verb": verb, **({"amount": choices["min_bet"]} if verb == "bet" else {})}


def act_to_reveal(table: RealTable, host, *, bets: Bets = ("check", "call")) -> dict:
    """The host acts for every seat due (`act_step` with `bets`, a tuple of verbs or a function of the seat giving
    one) until something other than an act is due: the reveal in Coruscant Shift, Corellian Spike's roll after its
    betting. Returns what is due then."""
    for _ in range(40):
        now = current_due(table)
        if now["due"] != "act":
            return now
        services.realtable_step(actor=host, table=table, step=act_step(now, bets))
    raise AssertionError("the hand did not reach its reveal")


def deal_and_roll(table: RealTable, host) -> None:
    """The host deals and enters the roll (`roll_dice`)."""
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    roll_dice(table, host)


def roll_dice(table: RealTable, host) -> None:
    """The roll due: at a table with dice the one entered (number 0, circle: not the site's from the table's random
    seed, so the same hand every run), else the site's."""
    roll = {"dice": {"number": 0, "suit": "circle"}} if table.has_dice else {"by": "site"}
    services.realtable_step(actor=host, table=table, step={"step": "dice", **roll})


def play_to_reveal(table: RealTable, host, *, bets: Bets = ("check", "call")) -> dict:
    """The host plays a whole Coruscant hand for everyone (keeps 2 cards, bets the first of `bets` allowed: checks
    by default) up to the reveal."""
    deal_and_roll(table, host)
    return act_to_reveal(table, host, bets=bets)

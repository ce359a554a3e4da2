"""The demo's people and names (`manage.py demo_data`, loaded by `tournaments.demo.load_demo_data`): the
accounts, one per role, the demo league's players and the other variants' leagues. The games app plays and
records the demo's games (`games.demo`), the tournaments app adds its tournament night.
"""

import random

from django.contrib.auth import get_user_model

DEMO_ORGANISER = "organiser"
DEMO_PLAYER = "player"
DEMO_ADMIN = "admin"
DEMO_PASSWORD = "sabacc-demo"  # the demo logins printed by `make run`, not a secret
DEMO_PLAYER_CLAIMS = "Han"  # the demo player account plays as this guest, claimed with its code
DEMO_LEAGUE = "coruscant-circuit"
DEMO_PLAYERS = [
    "Han",
    "Lando",
    "Leia",
    "Chewbacca",
    "Qi'ra",
    "Tobias",
    "Val",
    "Rio",
    "Enfys",
    "Dryden",
    "Bossk",
    "Greedo",
]


def demo_hands(rng: random.Random, stacks: dict[int, int], count: int) -> list[dict[str, int]]:
    """Random but plausible hands: everyone still in antes and bets; one player takes the pot."""
    hands = []
    for _ in range(count):
        alive = [pid for pid, stack in stacks.items() if stack > 0]
        if len(alive) < 2:
            break
        stakes = {pid: min(stacks[pid], rng.choice([10, 20, 30, 60, 120, 250])) for pid in alive}
        winner = rng.choice(alive)
        change = {str(pid): -stake for pid, stake in stakes.items()}
        change[str(winner)] += sum(stakes.values())
        for pid, stake in stakes.items():
            stacks[pid] += sum(stakes.values()) - stake if pid == winner else -stake
        hands.append(change)
    return hands


def demo_user(username: str, *, staff: bool):
    """A demo account with the demo password; an existing one keeps its password but gets the demo role."""
    user, created = get_user_model().objects.get_or_create(
        username=username,
        defaults={"is_staff": staff, "is_superuser": staff, "email": f"{username}@example.org"},
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    elif user.is_staff != staff:
        user.is_staff = user.is_superuser = staff
        user.save(update_fields=["is_staff", "is_superuser"])
    return user


# The other variants' demo leagues: (slug, name, variant, preset, description).
VARIANT_LEAGUES = [
    (
        "outer-rim-spike",
        "Outer Rim Spike",
        "corellian_spike",
        "galaxy_series",
        "Corellian Spike as the Galaxy Series plays it: spike dice, a market of Pilots, Wings and Gunners.",
    ),
    (
        "cloud-city-classic",
        "Cloud City Classic",
        "classic",
        "classic",
        "Classic Sabacc: interference fields, Sabacc Shifts, bombing out and the Sabacc pot.",
    ),
]

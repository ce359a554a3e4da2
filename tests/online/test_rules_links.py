"""Every table page links its phase label to that phase's part of the rules page of the table's variant
(`/rules/<variant>/#phase-<phase>`), at every step of a hand, and the rules page has that anchor; the header links the
table's rules (variant and preset); the first-visit guide is on the page."""

import random
import re

import pytest
from django.test import Client

from games import rules_pages
from games.engine.bots import SensibleBot
from games.online import services
from games.online.models import TableStatus
from games.online.selectors import table_state
from tests.league.conftest import league_plays
from tests.online.helpers import act

pytestmark = pytest.mark.django_db

PRESETS = {"coruscant_shift": "better", "corellian_spike": "galaxy_series", "classic": "classic"}


def _phase_links(page: str) -> list[tuple[str, str, str]]:
    """(href, engine phase, label) of the phase label."""
    return re.findall(r'<a class="phase phase-link" href="([^"]+)"[^>]*data-rules-phase="([^"]*)">([^<]*)</a>', page)


@pytest.mark.parametrize("variant", list(PRESETS))
def test_the_phase_label_links_the_rules_of_the_phase_at_every_step(
    variant, world, humans, open_table, scheduled, django_capture_on_commit_callbacks
):
    league_plays(world, variant, PRESETS[variant])
    table = open_table(seats=2, turn_seconds=20)
    users = [world.users["organiser"], humans[0]]
    for user in users:
        services.seat_take(actor=user, table=table)
    services.table_start(actor=users[0], table=table)
    client = Client()
    client.force_login(users[0])
    bots = {user.pk: SensibleBot(random.Random(user.pk)) for user in users}
    rules_pages_seen: dict[str, str] = {}
    phases = set()
    with django_capture_on_commit_callbacks(execute=True):
        for step in range(60):
            table.refresh_from_db()
            if table.status == TableStatus.FINISHED:
                break
            engine_phase = (table_state(table, user=users[0])["view"]["hand"] or {}).get("phase")
            page = client.get(f"/tables/{table.pk}/").content.decode()
            (link,) = _phase_links(page)
            assert link[:2] == (f"/rules/{variant}/#phase-{engine_phase}", engine_phase), (engine_phase, link)
            assert link[2] == rules_pages.phase_label(variant, engine_phase) and "_" not in link[2], link
            phases.add(engine_phase)
            for user in users:
                view = table_state(table, user=user)["view"]
                if view["legal"]["verbs"]:
                    act(table, user, bots[user.pk].decide(view), key=f"{step}-{user.pk}")
                    break
            else:
                scheduled.run(scheduled.last("next_hand"))
    assert len(phases) >= 2, phases  # the label moved on with the hand
    for phase in phases:
        if variant not in rules_pages_seen:
            rules_pages_seen[variant] = client.get(f"/rules/{variant}/").content.decode()
        assert f'id="phase-{phase}"' in rules_pages_seen[variant], phase


def test_the_header_links_the_tables_rules_and_the_first_visit_guide_is_there(heads_up, world):
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.get(f"/tables/{heads_up.pk}/").content.decode()
    assert f'<a class="rules-link" href="/rules/{heads_up.variant}/{heads_up.preset}/"' in page
    guide = page.split('id="first-visit"', 1)[1].split("</aside>", 1)[0]
    assert "hidden" in guide.split(">", 1)[0]  # shown by first-visit.js only until dismissed
    assert f'href="/rules/{heads_up.variant}/{heads_up.preset}/"' in guide and "data-first-visit-close" in guide
    assert 'src="/static/js/first-visit.js"' in page


def test_every_phase_of_every_variant_has_a_label_and_an_anchor():
    from games.engine.variant import get_variant, variant_names

    for variant in variant_names():
        for phase in (*get_variant(variant).phases, "deal", "complete"):
            assert rules_pages.phase_anchor(variant, phase) == f"#phase-{phase}", (variant, phase)
            label = rules_pages.phase_label(variant, phase)
            assert label and "_" not in label, (variant, phase, label)
    assert rules_pages.phase_label("coruscant_shift", "betting_1") == "First betting round"
    assert rules_pages.phase_label("corellian_spike", "betting_2") == "Round 2: betting"

"""Irreversible buttons ask first: each carries `data-confirm` (static/js/confirm.js opens a dialog with it), and
every page loads the script."""

import re

from league.models import EventStatus

from .conftest import page_client


def button(page: str, label: str) -> str:
    """The opening tag of the button whose text is `label`."""
    found = re.search(r"<button[^>]*>\s*" + re.escape(label) + r"\s*</button>", page)
    assert found, f"no {label!r} button"
    return found.group(0)


def test_finishing_an_event_and_removing_a_member_ask_first(world):
    world.event.status = EventStatus.RUNNING
    world.event.save()
    organiser = page_client(world.users["organiser"])
    event_page = organiser.get(f"/manage/events/{world.event.pk}/").content.decode()
    assert f'data-confirm="Finish {world.event.name}?' in button(event_page, "Finish event")
    assert "js/confirm.js" in event_page
    members = organiser.get(f"/manage/leagues/{world.league.slug}/members/").content.decode()
    removes = re.findall(r"<button[^>]*>Remove</button>", members)
    assert removes and all('data-confirm="Remove ' in tag for tag in removes)

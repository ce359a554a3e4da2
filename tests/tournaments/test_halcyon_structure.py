"""Halcyon tables play the preset's forced bets for the whole game: the setup pages do not present the
structure's blinds as if they applied (the create form hides the structure for Halcyon and says why; the
control room's level list drops the blinds and antes and says they are not used)."""

from tournaments import services
from tournaments.models import Format

from .conftest import STRUCTURE, signed_in


def test_the_create_form_says_halcyon_uses_no_blinds_and_hides_the_structure_for_it(night):
    page = signed_in(night.organiser).get(f"/manage/events/{night.event.pk}/tournament/").content.decode()
    note = page[page.index("data-halcyon-structure") :]
    assert 'data-format-only="halcyon"' in page[page.index("data-halcyon-structure") - 60 :]
    assert "not used" in note[:400] and "ante 1" in note[:400]
    assert '<fieldset data-format-not="halcyon"><legend>Structure</legend>' in page


def test_a_halcyon_control_room_lists_its_levels_without_blinds_saying_they_are_not_used(night):
    halcyon = services.tournament_create(
        actor=night.organiser, event=night.event, structure=STRUCTURE, format=Format.HALCYON, seats_per_table=4
    )
    page = signed_in(night.organiser).get(f"/manage/tournaments/{halcyon.pk}/").content.decode()
    levels = page[page.index('id="structure"') : page.index("</table>", page.index('id="structure"'))]
    assert "data-halcyon-structure" in levels and "not used" in levels
    assert ">Blinds<" not in levels and "5/10" not in levels and ">Ante<" not in levels
    assert "10 minutes" in levels  # the levels still time the night


def test_a_freezeout_control_room_still_lists_the_blinds(night, tournament):
    page = signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    levels = page[page.index('id="structure"') : page.index("</table>", page.index('id="structure"'))]
    assert ">Blinds<" in levels and "5/10" in levels and "data-halcyon-structure" not in levels

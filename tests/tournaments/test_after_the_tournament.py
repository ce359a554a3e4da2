"""What the pages say after and around a tournament's play: the booked prizes (not the template's projection)
once it is complete, and the stacks the tournament knows from tables played on the site that have finished."""

from django.test import Client

from league.models import LedgerEntry, LedgerKind
from tests.league.conftest import eager_tasks  # noqa: F401 (fixture)
from tournaments import selectors, services
from tournaments.models import Registration

from .conftest import drawn, play_out, signed_in


def _deal_and_complete(night, tournament):
    """Five in (pool 2,250: top 3 projects 1,125 / 675 / 450), three out, a chip-count chop of 2,000 to 250
    between the last two: the booked prizes differ from the template's."""
    drawn(night, tournament, players=5)
    field = night.players[:5]
    for out in field[:1:-1]:
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=out)
    services.tournament_deal(
        actor=night.organiser,
        tournament=tournament,
        method="chip_chop",
        stacks={field[0].pk: 2000, field[1].pk: 250},
    )
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    tournament.refresh_from_db()
    return field


def test_before_completion_every_page_labels_the_payouts_as_projected(night, tournament):
    drawn(night, tournament, players=5)
    clock = selectors.clock_summary(tournament)
    assert clock["payouts"] == [1125, 675, 450] and not clock["payouts_booked"] and clock["prizes"] == []
    assert clock["payouts_label"] == "Projected payouts"
    organiser = signed_in(night.organiser)
    for path in (f"/tournaments/{tournament.pk}/", f"/manage/tournaments/{tournament.pk}/"):
        page = organiser.get(path).content.decode()
        assert 'data-payouts-label="projected"' in page and "1,125" in page
    projector = organiser.get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert "Projected payouts" in projector and "1,125" in projector
    assert '<p class="p-time" data-clock="time_left"' in projector  # digits: the big size
    api = organiser.get(f"/api/tournaments/{tournament.pk}/clock/").json()
    assert api["payouts_booked"] is False and api["payouts_label"] == "Projected payouts"


def test_once_complete_every_page_and_the_api_show_the_booked_prizes_with_who_got_them(night, tournament):
    field = _deal_and_complete(night, tournament)
    booked = {
        entry.player_id: -entry.amount
        for entry in LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT)
    }
    first, second, third = (Registration.objects.get(tournament=tournament, place=n) for n in (1, 2, 3))
    assert first.player_id == field[0].pk and booked[field[0].pk] == first.prize
    assert sorted(booked.values(), reverse=True) != [1125, 675]  # the deal differs from the template
    expected = [
        {"place": r.place, "player": r.player_id, "name": r.player.display_name, "prize": r.prize}
        for r in (first, second, third)
    ]
    clock = selectors.clock_summary(tournament)
    assert clock["payouts_booked"] and clock["payouts_label"] == "Booked prizes"
    assert clock["prizes"] == expected and clock["payouts"] == [first.prize, second.prize, third.prize]
    assert sum(clock["payouts"]) == 2250

    organiser = signed_in(night.organiser)
    for path in (f"/tournaments/{tournament.pk}/", f"/manage/tournaments/{tournament.pk}/"):
        page = organiser.get(path).content.decode()
        assert 'data-payouts-label="booked"' in page and 'data-payouts-label="projected"' not in page
        assert f'{first.player.display_name} · <span class="num">{first.prize:,}</span>' in page
        assert "1,125" not in page  # the template's first prize is nowhere
    assert "The tables are balanced" not in page  # the control room, last: nothing left to balance
    projector = Client().get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert "Booked prizes" in projector and "Projected" not in projector
    # "Finished" in a smaller size than the digits (tournaments.css): at the digits' size it broke across two lines
    # on a phone ("Finish" / "ed").
    assert '<p class="p-time p-word" data-clock="time_left"' in projector and ">Finished</p>" in projector
    assert f"{first.player.display_name} · {first.prize:,}" in projector
    assert f"{second.player.display_name} · {second.prize:,}" in projector and "1,125" not in projector
    for path in (f"/api/tournaments/{tournament.pk}/clock/", f"/api/tournaments/{tournament.pk}/"):
        data = Client().get(path).json()
        data = data.get("clock", data)
        assert data["payouts_booked"] is True and data["prizes"] == expected


def test_shared_places_show_each_players_booked_share(night, tournament):
    """Two players sharing a place (as Halcyon's places can) each show the share booked on their row, not the
    template's amount for the place."""
    drawn(night, tournament, players=4)
    field = night.players[:4]
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=field[3])
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=field[2])
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=field[1])
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    # The rows as a Halcyon completion stores a shared second place (`shared_prizes`: 540 + 360 split in two).
    Registration.objects.filter(tournament=tournament, player=field[2]).update(place=2, prize=450)
    Registration.objects.filter(tournament=tournament, player=field[1]).update(prize=450)
    tournament.refresh_from_db()
    clock = selectors.clock_summary(tournament)
    assert [(row["place"], row["prize"]) for row in clock["prizes"]] == [(1, 900), (2, 450), (2, 450)]
    page = Client().get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert page.count("2nd</span>") == 2 and "540" not in page


def test_stacks_carried_from_finished_online_tables_are_known(
    night, users, online_tables, recorded, table_one_played, django_capture_on_commit_callbacks
):
    tournament, winner = table_one_played.tournament, table_one_played.winner
    starting = tournament.starting_stack
    clock = selectors.clock_summary(tournament)
    # The table finished, but its winner carries 900 chips: known, and the two at physical table 2 are not.
    assert clock["stacks_known"] == 1 and clock["stacks_unknown"] == 2
    assert clock["chip_leader"]["player"] == winner.player_id and clock["chip_leader"]["stack"] == 2 * starting
    assert "1 known stacks; 2 at physical tables not counted" in clock["average_note"]

    with django_capture_on_commit_callbacks(execute=True):
        second = online_tables(tournament, 2)[2]
        play_out(second, users, recorded)
    # Both tables finished: every player still in has a known stack; none is "not known yet".
    clock = selectors.clock_summary(tournament)
    assert clock["players_left"] == 2 and clock["stacks_known"] == 2 and clock["stacks_unknown"] == 0
    assert clock["average_stack"] == 2 * starting and clock["average_note"] == "from all 2 stacks"
    organiser = signed_in(night.organiser)
    for path in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/clock/"):
        page = organiser.get(path).content.decode()
        assert "no stack is known" not in page and "from all 2 stacks" in page
    seats = organiser.get(f"/api/tournaments/{tournament.pk}/").json()["seats"]
    assert sorted(seat["stack"] for seat in seats) == [2 * starting, 2 * starting]


def test_with_tables_played_on_the_site_but_none_known_now_the_note_says_why(night, tournament):
    drawn(night, tournament, players=4)
    still_in = {player.pk: player.display_name for player in night.players[:2]}
    # A player out at an online table (0 chips) is known to the site; the two still in are at physical tables.
    note = selectors.chip_counts({night.players[3].pk: 0}, still_in)["average_note"]
    assert note == "no stack is known: the players left are at physical tables played without the site"
    assert "yet" in selectors.chip_counts({}, still_in)["average_note"]
    assert selectors.chip_counts({}, still_in, finished=True)["average_note"] == "the tournament is complete"

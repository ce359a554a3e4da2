"""The tournament app's `games.hooks.TournamentListener`: what games' online and real-cards tables report to
tournaments and ask of them. Reports run after the table's commit and are recorded by a task."""

from typing import Any

from django.db.models import Count, QuerySet
from django.urls import reverse

from config.inputs import Actor
from league.models import EventStatus
from tournaments.models import Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.selectors import level_now, rebuy_offer
from tournaments.services.online import move_wanted, player_rebuy, rebuys_open_at
from tournaments.services.results import place_rows


class TournamentTables:
    def players_out(self, *, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> None:
        from tournaments import tasks

        tasks.online_busts.delay(event_id=event_id, table_id=table_id, hand=hand, busts=busts)

    def move_wanted(self, *, event_id: int, player_id: int, to_table: int) -> str | None:
        return move_wanted(event_id=event_id, player_id=player_id, to_table=to_table)

    def rebuys_open(self, *, event_id: int, player_ids: list[int]) -> bool:
        return rebuys_open_at(event_id=event_id, player_ids=player_ids)

    def rebuy_offer(self, *, event_id: int, player_id: int, stack: int = 0) -> dict[str, Any] | None:
        return rebuy_offer(event_id=event_id, player_id=player_id, stack=stack)

    def rebuy(self, *, actor: Actor, event_id: int, player_id: int) -> None:
        player_rebuy(actor=actor, event_id=event_id, player_id=player_id)

    def table_finished(self, *, event_id: int, table_id: int, tournament_table: int) -> None:
        from tournaments import tasks

        tasks.halcyon_online_table.delay(event_id=event_id, table_id=table_id, tournament_table=tournament_table)

    def place_rows(self, *, event_id: int) -> list[dict[str, Any]] | None:
        tournament = Tournament.objects.filter(event_id=event_id, completed_at__isnull=False).first()
        return place_rows(tournament) if tournament is not None else None

    def level_now(self, *, event_id: int) -> dict[str, int] | None:
        return level_now(event_id)

    def realcards_players_out(self, *, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> None:
        from tournaments import tasks

        tasks.realcards_busts.delay(event_id=event_id, table_id=table_id, hand=hand, busts=busts)

    def realcards_table_finished(self, *, event_id: int, table_id: int, tournament_table: int) -> None:
        from tournaments import tasks

        tasks.realcards_table.delay(event_id=event_id, table_id=table_id, tournament_table=tournament_table)

    def field(self, *, event_ids: list[int]) -> QuerySet:
        return (
            Registration.objects.filter(tournament__event_id__in=event_ids)
            .exclude(status=RegistrationStatus.WAITING)
            .values_list("tournament__event_id", "player_id")
        )

    def finish_refusal(self, *, event_id: int) -> str | None:
        tournament = (
            Tournament.objects.filter(event_id=event_id, completed_at__isnull=True)
            .exclude(status=TournamentStatus.CALLED_OFF)  # called off: its event is over without it
            .first()
        )
        if tournament is None:
            return None
        return (
            "This event is run as a tournament that is not complete yet: complete the tournament from its control "
            f"room ({reverse('tournament-manage', args=[tournament.pk])}), which books the payouts and the places "
            "and finishes the event."
        )

    def status_refusal(self, *, event_id: int, status: str) -> str | None:
        """An event run as a tournament follows it: started by its clock, finished by Complete (or a call-off);
        never started, reopened or put back to planned by hand."""
        if status == EventStatus.FINISHED:
            return self.finish_refusal(event_id=event_id)
        tournament = Tournament.objects.filter(event_id=event_id).first()
        if tournament is None:
            return None
        if status == EventStatus.RUNNING and tournament.status == TournamentStatus.RUNNING:
            return None  # the clock's start (or an event already running with it)
        url = reverse("tournament-manage", args=[tournament.pk])
        return (
            "This event is run as a tournament and follows it: it starts when the tournament's clock starts and "
            "finishes when the tournament is completed (or called off). Run it from the tournament's control room "
            f"({url}); it is not started or reopened by hand."
        )

    def seated_tables(self, *, event_id: int) -> list[dict[str, int]]:
        counts = (
            Registration.objects.filter(
                tournament__event_id=event_id, status=RegistrationStatus.REGISTERED, table_number__isnull=False
            )
            .values("table_number")
            .annotate(seated=Count("pk"))
            .order_by("table_number")
        )
        return [{"number": row["table_number"], "seated": row["seated"]} for row in counts]

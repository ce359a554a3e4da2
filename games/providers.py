"""The games app's answers to league (`league.providers.GamesProvider`), provided when the app starts."""

from typing import Any

from django.db.models import QuerySet

from games import hooks
from games.engine import EngineError, resolve_options
from games.engine.options import option_specs, variant_presets
from games.selectors import event_site_tables, events_site_tables, unfinished_tables, unfinished_tables_refusal
from league.models import Event, EventStatus
from league.providers import RulesRefused, StatusRefusal


class Games:
    """Rules from the engine and a player's online tables, as plain values for league."""

    def resolve_rules(self, *, variant: str, preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
        try:
            return resolve_options(variant, preset, overrides)
        except EngineError as exc:
            raise RulesRefused(str(exc)) from exc

    def rule_choices(self) -> dict[str, tuple[str, ...]]:
        return variant_presets()

    def option_specs(self) -> list[dict[str, Any]]:
        return option_specs()

    def player_tables(self, *, player_id: int) -> list[dict[str, Any]]:
        from games.online.models import OnlineSeat, TableStatus

        rows = (
            OnlineSeat.objects.filter(player_id=player_id)
            .order_by("-table__created_at", "-table_id")
            .values(
                "left",
                "table_id",
                "table__name",
                "table__status",
                "table__game_id",
                "table__event__name",
                "table__event__season__league__name",
            )[:200]
        )
        return [
            {
                "id": row["table_id"],
                "name": row["table__name"],
                "league": row["table__event__season__league__name"],
                "event": row["table__event__name"],
                "status": row["table__status"],
                "seated": not row["left"] and row["table__status"] != TableStatus.FINISHED,
                "game": row["table__game_id"],
            }
            for row in rows
        ]

    def event_tables(self, *, event_id: int) -> list[dict[str, Any]]:
        return event_site_tables(event_id)

    def events_tables(self, *, event_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
        return events_site_tables(event_ids)

    def taking_part(self, *, event_ids: list[int]) -> list[QuerySet]:
        """(event id, player id) of everyone seated at the events' online and real-cards tables (bots are no
        players), and of their tournaments' fields (the tournament app's answer)."""
        from games.online.models import OnlineSeat
        from games.tabletop.models import RealSeat

        parts: list[QuerySet] = [
            model.objects.filter(table__event_id__in=event_ids, player__isnull=False).values_list(
                "table__event_id", "player_id"
            )
            for model in (OnlineSeat, RealSeat)
        ]
        field = hooks.tournament_field(event_ids=event_ids)
        return parts if field is None else [*parts, field]

    def finish_refusal(self, *, event_id: int) -> str | None:
        refusal = self.status_refusal(event_id=event_id, status=EventStatus.FINISHED)
        return refusal.message if refusal else None

    def status_refusal(self, *, event_id: int, status: str) -> StatusRefusal | None:
        """A tournament's event follows its tournament; an event is finished only once its tables' games are over
        (else their results, buy-ins and payouts would land in an event already counted)."""
        if refusal := hooks.tournament_status_refusal(event_id=event_id, status=status):
            code = "tournament_not_complete" if status == EventStatus.FINISHED else "event_follows_tournament"
            return StatusRefusal(refusal, code, {"field": "status"})
        if status == EventStatus.FINISHED and (tables := unfinished_tables(event_id)):
            name = Event.objects.values_list("name", flat=True).get(pk=event_id)
            message = unfinished_tables_refusal(event_name=name, tables=tables)
            return StatusRefusal(message, "tables_in_play", {"field": "status", "tables": tables})
        return None


GAMES = Games()


def resolve_rules(*, variant: str, preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """The engine's full option set for these rules; raises `league.providers.RulesRefused` with its reason."""
    return GAMES.resolve_rules(variant=variant, preset=preset, overrides=overrides)


def rule_choices() -> dict[str, tuple[str, ...]]:
    """{variant: (preset, ...)} the engine plays."""
    return GAMES.rule_choices()

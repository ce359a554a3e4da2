"""Admin for tables, games and corrections: read mostly; results change through the services."""

from django.contrib import admin

from games.models import Game, ResultCorrection, Seat, Table
from league.admin import LeagueDataAdmin


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = [
        "player",
        "number",
        "buy_in",
        "rebuys",
        "rebuy_credits",
        "addon_credits",
        "final_credits",
        "place",
        "knockouts",
        "biggest_pot",
    ]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(LeagueDataAdmin):
    list_display = ["id", "event", "round", "status", "source", "preset", "played_at"]
    list_filter = ["status", "source", "preset"]
    readonly_fields = ["options", "replay_result", "hands"]
    exclude = ["replay_document"]
    inlines = [SeatInline]


@admin.register(Table)
class TableAdmin(LeagueDataAdmin):
    list_display = ["name", "number", "event"]


@admin.register(ResultCorrection)
class ResultCorrectionAdmin(admin.ModelAdmin):
    list_display = ["game", "author", "reason", "created_at"]
    readonly_fields = ["game", "author", "reason", "before", "after", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False

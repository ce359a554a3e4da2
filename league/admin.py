"""Admin for chip sets, buy-in policies, leagues and the rest; the ledger is read-only here."""

from django.contrib import admin

from league.models import (
    AuditEntry,
    BuyInPolicy,
    ChipSet,
    Denomination,
    Event,
    EventResult,
    League,
    LedgerEntry,
    Membership,
    Player,
    Season,
    Standing,
)


class DenominationInline(admin.TabularInline):
    model = Denomination
    extra = 1


@admin.register(ChipSet)
class ChipSetAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [DenominationInline]


@admin.register(BuyInPolicy)
class BuyInPolicyAdmin(admin.ModelAdmin):
    list_display = ["name", "buy_in", "rebuys_allowed", "max_rebuys", "rebuy_amount", "addon_allowed", "addon_amount"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "starts_on", "ends_on", "points_formula", "buy_in_policy"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "visibility", "preset", "points_formula"]
    list_filter = ["visibility", "preset", "points_formula"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SeasonInline, MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "created_at"]
    search_fields = ["display_name", "user__username"]
    readonly_fields = ["claim_code"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "kind", "status", "starts_at"]
    list_filter = ["kind", "status", "season__league"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "league", "role", "joined_at"]
    list_filter = ["role", "league"]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "event", "game", "player", "kind", "amount", "hand", "reason", "created_at"]
    list_filter = ["kind"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["league", "scope", "rank", "player", "points", "wins", "net_credits"]
    list_filter = ["league", "scope"]


@admin.register(EventResult)
class EventResultAdmin(ReadOnlyAdmin):
    list_display = ["event", "place", "player", "players", "credits_in", "credits_out"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "object_type", "object_id"]
    list_filter = ["action"]

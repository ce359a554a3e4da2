from django.contrib import admin

from tournaments.models import Registration, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("event", "format", "status", "cap", "rebuy_at_or_below")
    exclude = ("draw_seed",)  # never shown before the draw


admin.site.register(Registration)

"""Pages of this app (htmx)."""

from django.urls import path

from games.views import pages, rules

urlpatterns = [
    path("events/<int:pk>/", pages.event_page, name="event-detail"),
    path("games/<int:pk>/", pages.game_page, name="game-detail"),
    path("rules/", rules.rules_index, name="rules-index"),
    path("rules/<str:variant>/", rules.rules_variant, name="rules-variant"),
    path("rules/<str:variant>/<str:preset>/", rules.rules_variant, name="rules-preset"),
]

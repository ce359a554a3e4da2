"""Pages of this app (htmx)."""

from django.urls import path

from games.views import pages

urlpatterns = [
    path("events/<int:pk>/", pages.event_page, name="event-detail"),
    path("games/<int:pk>/", pages.game_page, name="game-detail"),
]

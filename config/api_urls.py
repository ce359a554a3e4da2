"""The REST API: every app adds its routes under /api/."""

from django.urls import include, path

urlpatterns = [
    path("", include("league.api_urls")),
    path("", include("games.api_urls")),
    path("", include("tournaments.api_urls")),
]

"""REST API routes of this app."""

from django.urls import re_path

from tournaments.api import TournamentClockView

urlpatterns = [
    re_path(r"^tournaments/(?P<pk>[0-9]{1,18})/clock/$", TournamentClockView.as_view(), name="tournament-clock"),
]

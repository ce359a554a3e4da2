"""REST API routes of this app."""

from django.urls import re_path

from tournaments.api import TournamentActionView, TournamentClockView, TournamentDetailView, TournamentEntryView

urlpatterns = [
    re_path(r"^tournaments/(?P<pk>[0-9]{1,18})/$", TournamentDetailView.as_view(), name="tournament-api-detail"),
    re_path(r"^tournaments/(?P<pk>[0-9]{1,18})/clock/$", TournamentClockView.as_view(), name="tournament-clock"),
    re_path(r"^tournaments/(?P<pk>[0-9]{1,18})/entry/$", TournamentEntryView.as_view(), name="tournament-api-entry"),
    re_path(
        r"^tournaments/(?P<pk>[0-9]{1,18})/actions/$", TournamentActionView.as_view(), name="tournament-api-actions"
    ),
]

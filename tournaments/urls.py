"""Tournament pages: public ones under /tournaments/<pk>/, the organiser's under /manage/."""

from django.urls import include, path

from tournaments import views

tournament_pages = [
    path("", views.tournament_detail, name="tournament-detail"),
    path("entry/", views.tournament_entry, name="tournament-entry"),
    path("clock/", views.tournament_clock_page, name="tournament-clock-page"),
    path("clock/events/", views.clock_events, name="tournament-clock-events"),
    path("seat-cards/", views.seat_cards, name="tournament-seat-cards"),
]

urlpatterns = [
    path("tournaments/<int:pk>/", include(tournament_pages)),
    path("manage/tournaments/<int:pk>/", views.control_room, name="tournament-manage"),
    path("manage/events/<int:pk>/tournament/", views.tournament_create, name="tournament-create"),
    path("manage/events/<int:pk>/tournament/preset/", views.structure_preset, name="tournament-structure-preset"),
]

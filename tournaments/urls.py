"""Tournament pages: public ones under /tournaments/, the organiser's under /manage/."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/entry/", views.tournament_entry, name="tournament-entry"),
    path("tournaments/<int:pk>/clock/", views.tournament_clock_page, name="tournament-clock-page"),
    path("tournaments/<int:pk>/clock/events/", views.clock_events, name="tournament-clock-events"),
    path("tournaments/<int:pk>/seat-cards/", views.seat_cards, name="tournament-seat-cards"),
    path("manage/tournaments/<int:pk>/", views.control_room, name="tournament-manage"),
    path("manage/events/<int:pk>/tournament/", views.tournament_create, name="tournament-create"),
    path("manage/events/<int:pk>/tournament/preset/", views.structure_preset, name="tournament-structure-preset"),
]

"""Pages of this app (htmx)."""

from django.urls import path

from league import views

urlpatterns = [
    path("me/", views.my_player, name="my-player"),
    path("leagues/", views.league_list_page, name="league-list"),
    path("leagues/<slug:slug>/", views.league_page, name="league-detail"),
    path("players/<int:pk>/", views.player_page, name="player-detail"),
]

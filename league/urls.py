"""Pages of this app (htmx)."""

from django.urls import path

from league import views
from league.views import joining

urlpatterns = [
    path("", views.home_page, name="home"),
    path("me/", views.my_player, name="my-player"),
    path("leagues/", views.league_list_page, name="league-list"),
    path("leagues/<slug:slug>/", views.league_page, name="league-detail"),
    path("leagues/<slug:slug>/ask/", joining.ask_to_join, name="league-ask"),
    path("join/", joining.join_typed_code, name="join-typed"),
    path("join/<slug:slug>/<str:code>/", joining.join_by_code, name="join-code"),
    path("join/invite/<int:pk>/<str:token>/", joining.join_by_invite, name="join-invite"),
    path("players/<int:pk>/", views.player_page, name="player-detail"),
]

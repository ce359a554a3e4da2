"""The pages of this app (htmx), included by config/urls.py: the public ones, then the organiser's forms under
/manage/ (they call the same services as the API)."""

from django.urls import include, path

from league import views
from league.views import joining, manage

# A league's organiser pages, under /manage/leagues/<slug>/.
manage_league = [
    path("", manage.league_hub, name="manage-league"),
    path("edit/", manage.league_edit, name="manage-league-edit"),
    path("joining/", joining.join_settings, name="manage-join"),
    path("seasons/", manage.seasons, name="manage-seasons"),
    path("members/", manage.members, name="manage-members"),
    path("members/guest/", manage.member_add_guest, name="manage-member-guest"),
    path("members/user/", manage.member_add_user, name="manage-member-user"),
    path("events/new/", manage.event_create, name="manage-event-create"),
]
manage_pages = [
    path("", manage.dashboard, name="manage-dashboard"),
    path("leagues/new/", manage.league_create, name="manage-league-create"),
    path("leagues/<slug:slug>/", include(manage_league)),
    path("events/<int:pk>/edit/", manage.event_edit, name="manage-event-edit"),
    path("seasons/<int:pk>/edit/", manage.season_edit, name="manage-season-edit"),
    path("members/<int:pk>/role/", manage.member_role, name="manage-member-role"),
    path("members/<int:pk>/remove/", manage.member_remove, name="manage-member-remove"),
    path("preview/rules/", manage.rules_preview, name="manage-rules-preview"),
    path("preview/points/", manage.points_preview, name="manage-points-preview"),
]

urlpatterns = [
    path("manage/", include(manage_pages)),
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

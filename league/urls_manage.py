"""Organiser pages of this app (forms that call the same services as the API), under /manage/."""

from django.urls import path

from league.views import joining, manage

urlpatterns = [
    path("", manage.dashboard, name="manage-dashboard"),
    path("leagues/new/", manage.league_create, name="manage-league-create"),
    path("leagues/<slug:slug>/", manage.league_hub, name="manage-league"),
    path("leagues/<slug:slug>/edit/", manage.league_edit, name="manage-league-edit"),
    path("leagues/<slug:slug>/joining/", joining.join_settings, name="manage-join"),
    path("leagues/<slug:slug>/seasons/", manage.seasons, name="manage-seasons"),
    path("leagues/<slug:slug>/members/", manage.members, name="manage-members"),
    path("leagues/<slug:slug>/members/guest/", manage.member_add_guest, name="manage-member-guest"),
    path("leagues/<slug:slug>/members/user/", manage.member_add_user, name="manage-member-user"),
    path("leagues/<slug:slug>/events/new/", manage.event_create, name="manage-event-create"),
    path("events/<int:pk>/edit/", manage.event_edit, name="manage-event-edit"),
    path("seasons/<int:pk>/edit/", manage.season_edit, name="manage-season-edit"),
    path("members/<int:pk>/role/", manage.member_role, name="manage-member-role"),
    path("members/<int:pk>/remove/", manage.member_remove, name="manage-member-remove"),
    path("preview/rules/", manage.rules_preview, name="manage-rules-preview"),
    path("preview/points/", manage.points_preview, name="manage-points-preview"),
]

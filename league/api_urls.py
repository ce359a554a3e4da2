"""REST API routes of this app."""

from django.urls import re_path
from rest_framework.routers import DefaultRouter

from league.api import joining, views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("seasons", views.SeasonViewSet, basename="season")
router.register("players", views.PlayerViewSet, basename="player")
router.register("memberships", views.MembershipViewSet, basename="membership")
router.register("chip-sets", views.ChipSetViewSet, basename="chip-set")
router.register("buy-in-policies", views.BuyInPolicyViewSet, basename="buy-in-policy")
router.register("events", views.EventViewSet, basename="event")
router.register("ledger", views.LedgerViewSet, basename="ledger")

SLUG = r"(?P<slug>[-a-zA-Z0-9_]{1,80})"
ID = r"(?P<pk>[0-9]{1,18})"
urlpatterns = [
    re_path(rf"^leagues/{SLUG}/joining/$", joining.JoinSettingsView.as_view(), name="league-joining"),
    re_path(rf"^leagues/{SLUG}/joining/code/$", joining.JoinCodeView.as_view(), name="league-join-code"),
    re_path(rf"^leagues/{SLUG}/ask/$", joining.AskToJoinView.as_view(), name="league-ask-api"),
    re_path(rf"^leagues/{SLUG}/invites/$", joining.EmailInviteView.as_view(), name="league-invites"),
    re_path(rf"^leagues/{SLUG}/join-requests/$", joining.JoinRequestListView.as_view(), name="league-join-requests"),
    re_path(
        rf"^leagues/{SLUG}/join-requests/{ID}/approve/$",
        joining.JoinRequestApproveView.as_view(),
        name="league-join-request-approve",
    ),
    re_path(
        rf"^leagues/{SLUG}/join-requests/{ID}/decline/$",
        joining.JoinRequestDeclineView.as_view(),
        name="league-join-request-decline",
    ),
    re_path(r"^join/$", joining.JoinByCodeView.as_view(), name="join-by-code-api"),
    re_path(r"^join/invite/$", joining.JoinByInviteView.as_view(), name="join-by-invite-api"),
    *router.urls,
]

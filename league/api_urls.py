"""REST API routes of this app."""

from rest_framework.routers import DefaultRouter

from league.api import views

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

urlpatterns = router.urls

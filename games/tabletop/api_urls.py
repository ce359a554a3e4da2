"""REST routes of real-cards tables, included by config/api_urls.py."""

from rest_framework.routers import DefaultRouter

from games.tabletop.api import RealTableViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("tabletop", RealTableViewSet, basename="real-table")

urlpatterns = router.urls

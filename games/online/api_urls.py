"""REST routes of online play, included by games/api_urls.py."""

from rest_framework.routers import DefaultRouter

from games.online.api import TableViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("tables", TableViewSet, basename="online-table")

urlpatterns = router.urls

"""REST API routes of this app."""

from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from games.api import EventTablesView, GameViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    re_path(r"^events/(?P<pk>[0-9]{1,18})/tables/$", EventTablesView.as_view(), name="event-tables"),
    *router.urls,
    path("", include("games.online.api_urls")),
]

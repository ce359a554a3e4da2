"""REST API routes of this app."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from games.api import GameViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("games", GameViewSet, basename="game")

urlpatterns = [*router.urls, path("", include("games.online.api_urls"))]

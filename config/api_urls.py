"""The REST API: every app adds its routes under /api/."""

from django.urls import include, path, re_path
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import NotFound


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@authentication_classes([])
@permission_classes([])
def api_not_found(request, rest: str = ""):
    """Any other address under /api/ (an id that is not a number, a slug with odd characters): a JSON 404."""
    raise NotFound()


urlpatterns = [
    path("", include("league.api_urls")),
    path("", include("games.api_urls")),
    path("", include("games.tabletop.api_urls")),
    path("", include("tournaments.api_urls")),
    re_path(r"^(?P<rest>.*)$", api_not_found),
]

"""The API's base views: DRF's own, each refusing query parameters it does not know (`config.query_params`).
Every view under /api/ derives from one of these (tests/api/test_query_params.py walks the routes to check), but
the HTML pages of the docs (/api/docs/, /api/redoc/) and the JSON 404 for addresses no route matches."""

from drf_spectacular import views as spectacular
from rest_framework import views, viewsets

from config.query_params import StrictQueryParams


class APIView(StrictQueryParams, views.APIView):
    pass


class ViewSet(StrictQueryParams, viewsets.ViewSet):
    pass


class GenericViewSet(StrictQueryParams, viewsets.GenericViewSet):
    pass


class SchemaView(StrictQueryParams, spectacular.SpectacularAPIView):
    read_query_params = {"get": ["lang"]}  # the schema's language; `format` picks JSON or YAML

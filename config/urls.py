from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from config import views
from config.api_views import SchemaView
from config.auth import TokenView

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    # The site's sign-in for /admin/ too (its rate limits), and the account pages, before admin's own routes.
    path("", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    # The browsable API's login pages: development only (settings.API_BROWSABLE).
    *([path("api/auth/", include("rest_framework.urls"))] if settings.API_BROWSABLE else []),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/", include("config.api_urls")),
    path("accounts/", include("allauth.urls")),
    # Each app's pages, its organiser's pages under /manage/ among them.
    path("", include("league.urls")),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
handler429 = "config.views.too_many_requests"  # allauth's rate limits answer with this

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts.views import admin_login
from config import views
from config.auth import TokenView
from league import views as league_views

urlpatterns = [
    path("", league_views.home_page, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/login/", admin_login, name="admin-login"),  # through the site's sign-in and its rate limits
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    # The browsable API's login pages: development only (settings.API_BROWSABLE).
    *([path("api/auth/", include("rest_framework.urls"))] if settings.API_BROWSABLE else []),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/", include("config.api_urls")),
    path("manage/", include("league.urls_manage")),
    path("manage/", include("games.urls_manage")),
    path("", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("", include("league.urls")),
    path("", include("games.urls")),
    path("", include("games.online.urls")),
    path("", include("tournaments.urls")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
handler429 = "config.views.too_many_requests"  # allauth's rate limits answer with this

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from config import views
from config.auth import TokenView

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
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
    path("", include("league.urls")),
    path("", include("games.urls")),
]

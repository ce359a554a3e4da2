from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/auth/", include("rest_framework.urls")),
    path("api/auth/token/", obtain_auth_token, name="api-token"),
    path("api/", include("config.api_urls")),
    path("manage/", include("league.urls_manage")),
    path("manage/", include("games.urls_manage")),
    path("", include("league.urls")),
    path("", include("games.urls")),
    path("", include("games.online.urls")),
]

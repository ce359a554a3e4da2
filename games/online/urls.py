"""Pages of online play, included by config/urls.py."""

from django.urls import path

from games.online import views

urlpatterns = [
    path("tables/", views.lobby, name="online-lobby"),
    path("tables/open/", views.table_open, name="online-open"),
    path("tables/events/", views.lobby_events, name="online-lobby-events"),
    path("tables/<int:pk>/", views.table_page, name="online-table"),
    path("tables/<int:pk>/fragment/", views.table_fragment, name="online-fragment"),
    path("tables/<int:pk>/events/", views.table_events, name="online-events"),
    path("tables/<int:pk>/act/", views.table_act, name="online-act"),
    path("tables/<int:pk>/<slug:what>/", views.table_do, name="online-do"),
]

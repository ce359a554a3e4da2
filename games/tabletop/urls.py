"""Pages of real-cards tables, included by config/urls.py."""

from django.urls import path

from games.tabletop import views

urlpatterns = [
    path("tabletop/", views.tabletop_home, name="tabletop-home"),
    path("tabletop/open/", views.tabletop_open, name="tabletop-open"),
    path("tabletop/<str:code>/", views.tabletop_table, name="tabletop-table"),
    path("tabletop/<str:code>/fragment/", views.tabletop_fragment, name="tabletop-fragment"),
    path("tabletop/<str:code>/events/", views.tabletop_events, name="tabletop-events"),
    path("tabletop/<str:code>/screen/", views.tabletop_screen, name="tabletop-screen"),
    path("tabletop/<str:code>/screen/events/", views.tabletop_screen_events, name="tabletop-screen-events"),
    path("tabletop/<str:code>/<slug:what>/", views.tabletop_do, name="tabletop-do"),
]

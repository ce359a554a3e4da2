"""Pages of real-cards tables, included by config/urls.py."""

from django.urls import path

from games.tabletop import views, views_league

urlpatterns = [
    path("tabletop/", views.tabletop_home, name="tabletop-home"),
    path("tabletop/open/", views.tabletop_open, name="tabletop-open"),
    path("tabletop/<str:code>/", views.tabletop_table, name="tabletop-table"),
    path("tabletop/<str:code>/fragment/", views.tabletop_fragment, name="tabletop-fragment"),
    path("tabletop/<str:code>/events/", views.tabletop_events, name="tabletop-events"),
    path("tabletop/event/<int:pk>/open/", views_league.tabletop_league_open, name="tabletop-league-open"),
    path("tabletop/<str:code>/history/", views_league.tabletop_history, name="tabletop-history"),
    path(
        "tabletop/<str:code>/history/download/",
        views_league.tabletop_history_download,
        name="tabletop-history-download",
    ),
    path("tabletop/<str:code>/seat-player/", views_league.tabletop_seat_player, name="tabletop-seat-player"),
    path("tabletop/<str:code>/book/", views_league.tabletop_land, name="tabletop-land"),
    path("tabletop/<str:code>/seat/<str:secret>/", views.tabletop_claim, name="tabletop-claim"),
    path("tabletop/<str:code>/screen/", views.tabletop_screen, name="tabletop-screen"),
    path("tabletop/<str:code>/screen/events/", views.tabletop_screen_events, name="tabletop-screen-events"),
    path("tabletop/<str:code>/<slug:what>/", views.tabletop_do, name="tabletop-do"),
]

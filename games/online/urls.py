"""Pages of online play, included by config/urls.py."""

from django.urls import path

from games.online import views

urlpatterns = [
    path("tables/", views.lobby, name="online-lobby"),
    path("tables/open/", views.table_open, name="online-open"),
    path("tables/play/", views.play_now, name="online-play"),
    path("tables/mine/", views.my_games_page, name="online-my-games"),
    path("tables/events/", views.lobby_events, name="online-lobby-events"),
    path("tables/<int:pk>/", views.table_page, name="online-table"),
    path("tables/<int:pk>/fragment/", views.table_fragment, name="online-fragment"),
    path("tables/<int:pk>/events/", views.table_events, name="online-events"),
    path("tables/<int:pk>/act/", views.table_act, name="online-act"),
    path("tables/<int:pk>/hands/", views.table_hands, name="online-hands"),
    path("tables/<int:pk>/hands/history.json", views.table_history_download, name="online-history-download"),
    path("tables/<int:pk>/hands/replay.json", views.table_replay_download, name="online-replay-download"),
    path("tables/<int:pk>/hands/<int:hand>/replay.json", views.table_replay_download, name="online-hand-download"),
    path("tables/<int:pk>/seeds/", views.table_seeds, name="online-seeds"),
    path("tables/<int:pk>/<slug:what>/", views.table_do, name="online-do"),
]

"""The pages of games (htmx), included by config/urls.py: events and games, the rules, online tables, real-cards
tables, and the organiser's forms under /manage/ (they call the same services as the API)."""

from django.urls import include, path

from games.online import views as online
from games.tabletop import views as tabletop
from games.tabletop import views_league as tabletop_league
from games.views import entry, pages, rules

# Online tables (games/online/views.py): the lobby, then one table's pages under tables/<pk>/.
online_table = [
    path("", online.table_page, name="online-table"),
    path("fragment/", online.table_fragment, name="online-fragment"),
    path("events/", online.table_events, name="online-events"),
    path("act/", online.table_act, name="online-act"),
    path("hands/", online.table_hands, name="online-hands"),
    path("hands/history.json", online.table_history_download, name="online-history-download"),
    path("hands/replay.json", online.table_replay_download, name="online-replay-download"),
    path("hands/<int:hand>/replay.json", online.table_replay_download, name="online-hand-download"),
    path("seeds/", online.table_seeds, name="online-seeds"),
    path("<slug:what>/", online.table_do, name="online-do"),
]
online_tables = [
    path("", online.lobby, name="online-lobby"),
    path("open/", online.table_open, name="online-open"),
    path("play/", online.play_now, name="online-play"),
    path("mine/", online.my_games_page, name="online-my-games"),
    path("events/", online.lobby_events, name="online-lobby-events"),
    path("<int:pk>/", include(online_table)),
]

# Real-cards tables (games/tabletop/): the home page, then one table's pages under tabletop/<code>/. "open/" and
# "event/" come first: a table's code would match them.
tabletop_table = [
    path("", tabletop.tabletop_table, name="tabletop-table"),
    path("fragment/", tabletop.tabletop_fragment, name="tabletop-fragment"),
    path("events/", tabletop.tabletop_events, name="tabletop-events"),
    path("history/", tabletop_league.tabletop_history, name="tabletop-history"),
    path("history/download/", tabletop_league.tabletop_history_download, name="tabletop-history-download"),
    path("seat-player/", tabletop_league.tabletop_seat_player, name="tabletop-seat-player"),
    path("book/", tabletop_league.tabletop_land, name="tabletop-land"),
    path("seat/<str:secret>/", tabletop.tabletop_claim, name="tabletop-claim"),
    path("seeds/", tabletop_league.tabletop_seeds, name="tabletop-seeds"),
    path("screen/", tabletop.tabletop_screen, name="tabletop-screen"),
    path("screen/events/", tabletop.tabletop_screen_events, name="tabletop-screen-events"),
    path("<slug:what>/", tabletop.tabletop_do, name="tabletop-do"),
]
tabletop_tables = [
    path("", tabletop.tabletop_home, name="tabletop-home"),
    path("open/", tabletop.tabletop_open, name="tabletop-open"),
    path("event/<int:pk>/open/", tabletop_league.tabletop_league_open, name="tabletop-league-open"),
    path("<str:code>/", include(tabletop_table)),
]

# The organiser's pages of an event and a game (games/views/entry.py), under /manage/.
manage_event = [
    path("", entry.event_manage, name="manage-event"),
    path("status/", entry.event_status, name="manage-event-status"),
    path("tables/", entry.table_add, name="manage-table-add"),
    path("adjustments/", entry.adjustment_add, name="manage-adjustment-add"),
    path("results/new/", entry.result_entry, name="manage-result-entry"),
    path("results/check/", entry.replay_check, name="manage-replay-check"),
]
manage = [
    path("events/<int:pk>/", include(manage_event)),
    path("games/<int:pk>/", entry.game_manage, name="manage-game"),
    path("games/<int:pk>/correct/", entry.result_correct, name="manage-result-correct"),
]

urlpatterns = [
    path("manage/", include(manage)),
    path("events/<int:pk>/", pages.event_page, name="event-detail"),
    path("games/<int:pk>/", pages.game_page, name="game-detail"),
    path("rules/", rules.rules_index, name="rules-index"),
    path("rules/<str:variant>/", rules.rules_variant, name="rules-variant"),
    path("rules/<str:variant>/<str:preset>/", rules.rules_variant, name="rules-preset"),
    path("tables/", include(online_tables)),
    path("tabletop/", include(tabletop_tables)),
]

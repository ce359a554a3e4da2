"""Organiser pages of this app (forms that call the same services as the API), under /manage/."""

from django.urls import path

from games.views import entry

urlpatterns = [
    path("events/<int:pk>/", entry.event_manage, name="manage-event"),
    path("events/<int:pk>/status/", entry.event_status, name="manage-event-status"),
    path("events/<int:pk>/tables/", entry.table_add, name="manage-table-add"),
    path("events/<int:pk>/adjustments/", entry.adjustment_add, name="manage-adjustment-add"),
    path("events/<int:pk>/results/new/", entry.result_entry, name="manage-result-entry"),
    path("events/<int:pk>/results/check/", entry.replay_check, name="manage-replay-check"),
    path("games/<int:pk>/", entry.game_manage, name="manage-game"),
    path("games/<int:pk>/correct/", entry.result_correct, name="manage-result-correct"),
]

"""Pages of this app (htmx)."""

from django.urls import path

from league import views

urlpatterns = [
    path("leagues/", views.league_list_page, name="league-list"),
    path("leagues/<slug:slug>/", views.league_page, name="league-detail"),
]

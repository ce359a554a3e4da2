"""Organiser pages of this app (forms that call the same services as the API)."""

urlpatterns: list = []

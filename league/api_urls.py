"""REST API routes of this app."""

urlpatterns: list = []

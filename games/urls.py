"""Pages of this app (htmx)."""

urlpatterns: list = []

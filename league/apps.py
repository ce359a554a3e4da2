from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from league import viewers  # noqa: F401  (its provider and signal hooks: the cached viewer)

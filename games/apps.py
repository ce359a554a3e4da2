from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # league asks games for rules and seats through league.hooks, never by importing games.
        from games.hooks import register

        register()

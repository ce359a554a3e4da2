from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # league asks games for rules and a player's tables through one typed provider, never by importing games.
        from games.online import tasks  # noqa: F401  (registers the tasks that games.online.schedule sends by name)
        from games.providers import GAMES
        from league.providers import provide_games

        provide_games(GAMES)

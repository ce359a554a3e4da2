from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # league asks games for rules and a player's tables through one typed provider, never by importing games.
        from games import table_status  # noqa: F401  (a table's status moved: its league's pages show it)
        from games.online import table_rows, tasks  # noqa: F401  (the tasks that games.online.schedule sends by name;

        # table_rows: every process that saves a table retires the rows the pages keep of it)
        from games.providers import GAMES
        from league.providers import provide_games

        provide_games(GAMES)

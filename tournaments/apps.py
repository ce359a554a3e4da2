from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Online tables report busts (and a finished table) and ask about re-buys and moves through games.hooks;
        # a task records each report after the table's commit. league is told a tournament's places by
        # tournament_complete itself (it pushes the rows), never asked.
        from games import hooks as game_hooks
        from tournaments import tasks  # noqa: F401  (registers the tasks that services send by name)
        from tournaments.listener import TournamentTables

        game_hooks.listen(TournamentTables())

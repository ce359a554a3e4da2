from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # league asks for a tournament's places (and the demo's tournament night) through league.hooks.
        from league import hooks
        from tournaments.demo import load_demo
        from tournaments.services.results import place_rows

        hooks.register(event_place_rows=place_rows, demo_extend=load_demo)

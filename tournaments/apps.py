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
        # Online tables report busts (and a finished table) through games.hooks; a task records each after the
        # table's commit.
        from games import hooks as game_hooks
        from tournaments import tasks
        from tournaments.services.online import move_wanted, player_rebuy, rebuy_offer, rebuys_open_at

        game_hooks.listen(
            online_players_out=lambda **report: tasks.online_busts.delay(**report),
            online_move_wanted=move_wanted,
            online_rebuys_open=rebuys_open_at,
            online_rebuy_offer=rebuy_offer,
            online_tournament_rebuy=player_rebuy,
            online_table_finished=lambda **report: tasks.halcyon_online_table.delay(**report),
        )

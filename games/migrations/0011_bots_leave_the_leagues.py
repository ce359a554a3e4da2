"""Bots are never league players (issue 23): the guest players bot seats used to play as ("Sensible bot 4") leave
every league. Their online seats keep the bot's name and kind and lose the player; their league Seat rows, ledger
lines, event results and standings rows are removed (the one place ledger lines are deleted: they were never a
person's money), each game's record keeps the bots' results under `replay_result["bots"]`, the people left are
placed again among themselves, and the players themselves go when nothing else refers to them. The events'
results and the leagues' standings are then rebuilt by the league's own services.
"""

from django.db import migrations


def bots_leave_the_leagues(apps, schema_editor):
    OnlineSeat = apps.get_model("games", "OnlineSeat")
    Seat = apps.get_model("games", "Seat")
    Game = apps.get_model("games", "Game")
    Player = apps.get_model("league", "Player")
    LedgerEntry = apps.get_model("league", "LedgerEntry")
    EventResult = apps.get_model("league", "EventResult")
    Standing = apps.get_model("league", "Standing")

    bot_seats = OnlineSeat.objects.filter(kind="bot", player__isnull=False)
    bot_players = set(bot_seats.values_list("player_id", flat=True))
    if not bot_players:
        return
    kinds = dict(bot_seats.values_list("player_id", "bot_kind"))
    bot_seats.update(player=None)
    rows = list(Seat.objects.filter(player_id__in=bot_players).select_related("player"))
    games = {row.game_id for row in rows}
    events = set(Game.objects.filter(pk__in=games).values_list("event_id", flat=True))
    for game in Game.objects.filter(pk__in=games):
        mine = [row for row in rows if row.game_id == game.pk]
        record = dict(game.replay_result or {})
        record["bots"] = {
            row.player.display_name: {
                "kind": kinds.get(row.player_id, ""),
                "final_credits": row.final_credits,
                "net": (row.final_credits or 0) - row.buy_in - row.rebuy_credits,
                "biggest_pot": row.biggest_pot,
                "engine_place": row.place,
            }
            for row in mine
        }
        game.replay_result = record
        gone = {str(row.player_id) for row in mine}
        game.hands = [{key: value for key, value in hand.items() if key not in gone} for hand in (game.hands or [])]
        game.save(update_fields=["replay_result", "hands"])
    Seat.objects.filter(player_id__in=bot_players).delete()
    for game_id in games:  # the people left, placed among themselves in the order they had
        people = [row for row in Seat.objects.filter(game_id=game_id) if row.place is not None]
        ordered = sorted(row.place for row in people)
        for row in people:
            row.place = ordered.index(row.place) + 1
        Seat.objects.bulk_update(people, ["place"])
    LedgerEntry.objects.filter(player_id__in=bot_players).delete()  # the historical model's plain manager
    EventResult.objects.filter(player_id__in=bot_players).delete()
    Standing.objects.filter(player_id__in=bot_players).delete()
    for player in Player.objects.filter(pk__in=bot_players, user=None):
        if not any(
            related.related_model.objects.filter(**{related.field.name: player}).exists()
            for related in player._meta.related_objects
        ):
            player.delete()
    _rebuild(events)


def _rebuild(event_ids: set[int]) -> None:
    """The events' results and their leagues' standings, by the league's services (run only where bots had rows,
    so a fresh database never reaches them)."""
    from games.selectors import event_result_rows
    from league.models import Event
    from league.services import event_results_rebuild, standings_recompute

    leagues = set()
    for event in Event.objects.select_related("season__league").filter(pk__in=event_ids):
        event_results_rebuild(event=event, seats=event_result_rows(event.pk))
        leagues.add(event.season.league_id)
    for league_id in leagues:
        standings_recompute(league_id=league_id)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_bot_seats_have_no_player"),
        ("league", "0007_joining"),
    ]

    operations = [migrations.RunPython(bots_leave_the_leagues, migrations.RunPython.noop)]

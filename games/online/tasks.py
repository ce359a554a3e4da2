"""Celery tasks of online play: thin, ids in, one service call; each safe to run twice or late."""

from celery import shared_task

from games.online import services, tournament


@shared_task(name="online.turn_timeout")
def turn_timeout(table_id: int, turn_version: int) -> int:
    return services.turn_timeout(table_id=table_id, turn_version=turn_version)


@shared_task(name="online.bot_act")
def bot_act(table_id: int, seat_number: int, turn_version: int) -> bool:
    return services.bot_act(table_id=table_id, seat_number=seat_number, turn_version=turn_version)


@shared_task(name="online.next_hand")
def next_hand(table_id: int, version: int) -> bool:
    return services.next_hand(table_id=table_id, version=version)


@shared_task(name="online.seat_changes")
def seat_changes(table_id: int) -> bool:
    return tournament.arrivals(table_id=table_id)

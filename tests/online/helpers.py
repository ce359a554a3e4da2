"""Playing an online table in a test as its players would: a decision sent through the table's API service."""

import random
import uuid
from typing import Any

from games.engine.bots import Decision, SensibleBot
from games.engine.replay import play_replay
from games.models import Game as LeagueGame
from games.models import GameStatus
from games.online import services
from games.online.models import OnlineTable, TableStatus
from games.online.selectors import table_state


def act(table: OnlineTable, user: Any, decision: Decision, *, key: str | None = None) -> dict:
    """`user` makes `decision` (a bot's, of any variant: each verb takes the fields it needs) at `table` through
    `table_act`, against the version the table was last read at; `key` is the idempotency key (a fresh one unless
    given)."""
    return services.table_act(
        actor=user,
        table=table,
        verb=decision.verb,
        cards=list(decision.cards),
        amount=decision.amount,
        card=decision.card,
        source=decision.source,
        unlock=decision.unlock,
        lock=decision.lock,
        call_hand=decision.call_hand,
        version=table.version,
        key=key or uuid.uuid4().hex,
    )


def organiser_selects_none(world: Any, table: OnlineTable) -> dict:
    """The organiser keeps no card at the selection (one change of `table`, read at its last version)."""
    return services.table_act(
        actor=world.users["organiser"], table=table, verb="select", cards=[], version=table.version, key="o"
    )


def bots_play_to_the_end(table: OnlineTable, users: list, scheduled: Any) -> set[str]:
    """A SensibleBot for each of `users` (seeded by the user) plays their turns through `table_act`, and the
    recorded `next_hand` task runs between hands, until the table finishes; returns the verbs played."""
    bots = {user.pk: SensibleBot(random.Random(user.pk)) for user in users}
    seen = set()
    for step in range(3000):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            break
        for user in users:
            view = table_state(table, user=user)["view"]
            if view["legal"]["verbs"]:
                decision = bots[user.pk].decide(view)
                seen.add(decision.verb)
                act(table, user, decision, key=f"{step}-{user.pk}")
                break
        else:
            scheduled.run(scheduled.last("next_hand"))
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    return seen


def assert_the_game_landed_in_the_league(table: OnlineTable, variant: str) -> None:
    """The finished heads-up table's game is a finished league game of `variant` whose replay gives the credits booked,
    and whatever the game left on the table went to the players (RULES 1.5 "Credits left at the end")."""
    game = LeagueGame.objects.get(pk=table.game_id)
    assert game.status == GameStatus.FINISHED and game.replay_document["variant"] == variant
    result = play_replay(game.replay_document)
    finals = {s.player.display_name: s.final_credits for s in game.seats.all()}
    assert result["stacks"] == finals
    assert "unpaid" not in game.replay_result and sum(finals.values()) == 2 * table.buy_in

"""Online tables of Classic Sabacc: opened with the league's variant, played through `table_act` with the play
verbs and calls of the hand, the table page showing the fields, rolls and Sabacc pot, the game landing in the
league."""

import random
import re

import pytest
from django.test import Client

from config.errors import ApplicationError
from games.engine.bots import SensibleBot
from games.online import services
from games.online.selectors import table_state
from tests.league.conftest import league_plays
from tests.online.conftest import start_heads_up
from tests.online.helpers import act, assert_the_game_landed_in_the_league, bots_play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def classic_league(world):
    return league_plays(world, "classic", "classic")


def _actor(world, humans, table):
    state = table_state(table, user=world.users["organiser"])
    return world.users["organiser"] if state["view"]["legal"]["verbs"] else humans[0]


def test_a_classic_table_opens_with_the_leagues_variant(classic_league, humans, open_table, scheduled):
    table = open_table(seats=3, preset="universe")
    assert table.variant == "classic" and table.preset == "universe"
    assert table.options["shift_rolls"] == "rounds"
    with pytest.raises(ApplicationError, match="not allowed"):
        open_table(preset="cantina")


def test_a_classic_game_is_played_online_and_lands_in_the_league(
    classic_league, humans, open_table, scheduled, django_capture_on_commit_callbacks
):
    world = classic_league
    world.league.option_overrides = {"hands": 2, "call_round": 1}
    world.league.save()
    table = start_heads_up(world, humans, open_table)
    users = [world.users["organiser"], humans[0]]
    with django_capture_on_commit_callbacks(execute=True):
        seen = bots_play_to_the_end(table, users, scheduled)
    # Both kinds of turn were played online (which verbs, in two hands, depends on the game's random seed: the
    # betting may have been all-ins and raises only).
    assert seen & {"draw", "trade", "stand"}
    assert seen & {"check", "call", "bet", "raise", "fold", "allin"}
    assert_the_game_landed_in_the_league(table, "classic")


def test_play_turns_need_their_fields_and_refusals_change_nothing(classic_league, humans, open_table, scheduled):
    world = classic_league
    table = start_heads_up(world, humans, open_table)
    actor = _actor(world, humans, table)
    version = table.version
    with pytest.raises(ApplicationError, match="Trade needs `card`"):
        services.table_act(actor=actor, table=table, verb="trade", version=version, key="a")
    with pytest.raises(ApplicationError, match=r"wrong phase: it is .*'s play turn in round 1"):
        services.table_act(actor=actor, table=table, verb="check", version=version, key="b")
    with pytest.raises(ApplicationError, match="cannot unlock"):
        services.table_act(actor=actor, table=table, verb="stand", unlock="+1s", version=version, key="c")
    table.refresh_from_db()
    assert table.version == version
    services.table_act(actor=actor, table=table, verb="draw", version=version, key="d")
    table.refresh_from_db()
    assert table.version > version


def test_the_table_page_shows_the_fields_the_rolls_and_the_sabacc_pot(classic_league, humans, open_table, scheduled):
    world = classic_league
    table = start_heads_up(world, humans, open_table)
    actor = _actor(world, humans, table)
    view = table_state(table, user=actor)["view"]
    locked = view["cards"][0]
    services.table_act(actor=actor, table=table, verb="stand", lock=locked, version=table.version, key="s")
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'class="classic"' in page and "data-sabacc-pot>2<" in page
    assert f'data-field-card="{locked}"' in page
    assert "data-last-roll>" in page
    # Selections are Coruscant Shift's: a Classic hand has a field instead, and simple chips (one credit
    # each) are not counted again under the stack.
    assert "Your selection" not in page and "Your hand" in page and "<kbd>S</kbd> select" not in page
    stacks = [p["stack"] for p in table_state(table, user=actor)["view"]["players"]]
    assert all(f"<strong>{n}</strong> credits<br>" not in page for n in stacks)


def test_the_reveal_on_the_table_page_tells_the_sabacc_pot(classic_league, humans, open_table, scheduled):
    """At the end of a hand the page says what became of the Sabacc pot (it always holds the antes): paid to a
    Pure Sabacc or Idiot's Array, or carried over; named hands carry their names."""
    world = classic_league
    world.league.option_overrides = {"call_round": 1}
    world.league.save()
    table = start_heads_up(world, humans, open_table)
    users = [world.users["organiser"], humans[0]]
    bots = {user.pk: SensibleBot(random.Random(user.pk)) for user in users}
    for step in range(500):
        table.refresh_from_db()
        if (table_state(table, user=users[0])["view"]["hand"] or {}).get("result"):
            break
        user = next(u for u in users if table_state(table, user=u)["view"]["legal"]["verbs"])
        act(table, user, bots[user.pk].decide(table_state(table, user=user)["view"]), key=f"r{step}")
    result = table_state(table, user=users[0])["view"]["hand"]["result"]
    client = Client()
    client.force_login(users[0])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    reveal = page.split('class="reveal"', 1)[1].split("</section>", 1)[0]
    assert 'class="note">The Sabacc pot ' in reveal
    for name, shown in result["showdown"].items():
        if shown["hand"] != "ordinary":
            assert '<strong class="hand-title">' in reveal, (name, shown)


def test_a_play_turn_shows_one_form_and_no_empty_betting_bar(classic_league, humans, open_table, scheduled):
    world = classic_league
    table = start_heads_up(world, humans, open_table)
    actor = _actor(world, humans, table)
    assert set(table_state(table, user=actor)["view"]["legal"]["verbs"]) <= {"draw", "trade", "stand"}
    client = Client()
    client.force_login(actor)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert page.count("data-act-form") == 1 and 'class="actions classic-turn"' in page
    assert 'value="draw" data-key="d"' in page and 'value="stand" data-key="s"' in page
    assert "<kbd>D</kbd> draw, <kbd>T</kbd> trade, <kbd>S</kbd> stand" in page


def test_a_player_locks_the_card_they_take_as_taken_and_cannot_probe_the_pile_by_naming_it(
    classic_league, humans, open_table, scheduled
):
    """Naming the card a draw would take is refused exactly as naming any card not held (the engine would accept
    it, which would tell the top of the pile); `lock="taken"` locks it unseen."""
    from games.online.services.base import load_game as _load

    world = classic_league
    table = start_heads_up(world, humans, open_table)
    actor = _actor(world, humans, table)
    game = _load(table)
    top = game.hand._draw[0].code  # hidden: read by the test only
    held = table_state(table, user=actor)["view"]["cards"]
    other = next(code for code in ("+1s", "+2s", "+3s", "+4s") if code not in held and code != top)
    messages = []
    for named in (top, other):
        with pytest.raises(ApplicationError, match=f"cannot lock {re.escape(named)}: lock a card") as refused:
            services.table_act(actor=actor, table=table, verb="draw", lock=named, version=table.version, key=named)
        messages.append(str(refused.value).removeprefix(f"cannot lock {named}"))
    assert messages[0] == messages[1]  # the same answer for the top card and any other card not held
    assert messages[0].endswith(", or `taken` for the card the draw takes.")
    table.refresh_from_db()
    assert _load(table).hand._draw[0].code == top  # nothing was drawn
    services.table_act(actor=actor, table=table, verb="draw", lock="taken", version=table.version, key="t")
    table.refresh_from_db()
    fields = [p.get("field") for p in table_state(table, user=actor)["view"]["players"]]
    assert [top] in fields


def _rigged(game, seat: int, held: str, top: str):
    """Hidden state rearranged by the test only: `seat`'s first card is a copy of `held` (its only one, whatever
    the deal gave it) and a copy of `top` heads the draw pile, each swapped with a card elsewhere outside `seat`'s
    hand, so the deck stays whole."""
    from games.engine.classic.cards import parse_card

    hand = game.hand
    mine = hand._hand[seat]
    for pool, code in ((mine, held), (hand._draw, top)):
        wanted = parse_card(code)
        others = [hand._draw, *(cards for s, cards in hand._hand.items() if s != seat)]
        if pool[0] != wanted:
            places = [pool, *others] if pool is mine else others
            other, at = next((p, i) for p in places for i, c in enumerate(p) if c == wanted and (p is not pool or i))
            pool[0], other[at] = other[at], pool[0]
        if pool is mine:  # `seat` holds `held` once: a twin dealt to it too goes to a card elsewhere
            for i in [i for i, c in enumerate(mine) if i and c == wanted]:
                other, at = next(
                    (p, j) for p in others for j, c in enumerate(p) if c != wanted and (p is not hand._draw or j)
                )
                mine[i], other[at] = other[at], mine[i]
    return game


def test_a_trade_locking_the_card_it_gives_up_is_refused_whatever_tops_the_pile(
    classic_league, humans, open_table, scheduled, monkeypatch
):
    """`trade card=X lock=X` (X a face card held once) was accepted exactly when X's twin topped the draw pile, a
    free look at the next card; now the answer is the same whatever is on top, and nothing changes."""
    from games.online.services import acting
    from games.online.services.base import load_game as _load

    world = classic_league
    table = start_heads_up(world, humans, open_table)
    actor = _actor(world, humans, table)
    me = table_state(table, user=actor)["you"]["engine_seat"]
    held = _rigged(_load(table), me, "-17", "-17").view_for(me)["cards"]
    assert held.count("-17") == 1
    other = next(code for code in ("+1s", "+2s", "+3s") if code not in held)
    answers = []
    before = table.state
    for top in ("-17", other):  # the Star's twin on top, then a card the player does not hold
        rigged = _rigged(_load(table), me, "-17", top)
        assert rigged.view_for(me) == _rigged(_load(table), me, "-17", "-17").view_for(me)  # the same view
        monkeypatch.setattr(acting, "load_game", lambda table, rigged=rigged: rigged)
        with pytest.raises(ApplicationError, match=r"cannot lock -17 \(the trade gives it up\)") as refused:
            services.table_act(
                actor=actor, table=table, verb="trade", card="-17", lock="-17", version=table.version, key=top
            )
        answers.append(str(refused.value))
        assert rigged.hand._draw[0].code == top  # nothing was taken
    assert answers[0] == answers[1]
    table.refresh_from_db()
    assert table.state == before


def test_the_play_form_stands_with_a_lock_though_it_also_sends_a_card_to_trade(
    classic_league, humans, open_table, scheduled
):
    """The page's play form sends its trade choice with every button: a stand ignores it (as the engine's
    decision does), also in the check made from what the player sees."""
    world = classic_league
    table = start_heads_up(world, humans, open_table)
    actor = _actor(world, humans, table)
    held = table_state(table, user=actor)["view"]["cards"]
    client = Client()
    client.force_login(actor)
    form = {"verb": "stand", "card": held[1], "lock": held[0], "version": table.version, "key": "form"}
    answer = client.post(f"/tables/{table.pk}/act/", form, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200, answer.json().get("detail")
    table.refresh_from_db()
    fields = [p.get("field") for p in table_state(table, user=actor)["view"]["players"]]
    assert [held[0]] in fields

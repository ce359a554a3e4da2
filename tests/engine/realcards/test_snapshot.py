"""A real-cards game saved as JSON (`games.engine.realcards.snapshot`) and loaded again is the game rebuilt from its
steps: at every step of random games in every variant and preset, stepped the way the site steps a table (load the
state saved after the previous step, take one step, save), with reveals corrected after the hand and steps taken
back; an undo loads the same state for fewer steps; a state of another format or of other steps is refused."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.errors import EngineError, InvalidState
from games.engine.realcards.document import game_result
from games.engine.realcards.due import due
from games.engine.realcards.explain import explain_hand
from games.engine.realcards.game import RealCardsGame
from games.engine.realcards.snapshot import FORMAT, load_state, save_state
from games.engine.variant import get_variant, variant_names
from tests.engine.realcards.helpers import MASTER, coruscant_to_reveal, table
from tests.engine.realcards.twins import play_twins

CASES = [(name, preset) for name in variant_names() for preset in get_variant(name).presets]


def stored(state: dict) -> dict:
    """The state as the database gives it back (JSON: keys become text, tuples lists)."""
    return json.loads(json.dumps(state))


def rebuilt(setup: dict, steps: list[dict], master: str = MASTER) -> RealCardsGame:
    game = RealCardsGame(setup, master=master)
    for step in steps:
        game.step(step)
    return game


def view(game: RealCardsGame):
    try:
        return game.game.spectator_view()
    except BaseException as exc:  # a hand waiting for its roll or a card: its public fields read them
        return type(exc).__name__


def assert_same(loaded: RealCardsGame, fresh: RealCardsGame) -> None:
    assert loaded.steps == fresh.steps and loaded.changes == fresh.changes
    assert loaded.game._snapshot() == fresh.game._snapshot()  # stacks, dealer, levels, carry, pools, who is out
    assert loaded.game.results == fresh.game.results
    assert (loaded.boards, loaded.shown, loaded.dice, loaded.named) == (
        fresh.boards,
        fresh.shown,
        fresh.dice,
        fresh.named,
    )
    assert (loaded.need, loaded._starting) == (fresh.need, fresh._starting)
    assert due(loaded) == due(fresh)
    assert view(loaded) == view(fresh)
    assert game_result(loaded) == game_result(fresh)
    for summary in fresh.game.results:
        assert explain_hand(loaded, summary["number"]) == explain_hand(fresh, summary["number"])


def last_of(twins) -> RealCardsGame:
    """The real-cards game after the last hand of `play_twins`."""
    real = None
    for _online, real in twins:  # noqa: B007 (the game after the last hand is wanted)
        pass
    return real


def with_corrections(steps: list[dict]) -> list[dict]:
    """The steps with each hand's last reveal entered again after it (a correction before the next deal)."""
    out = []
    for index, step in enumerate(steps):
        out.append(step)
        following = steps[index + 1] if index + 1 < len(steps) else {"step": "deal"}
        if step["step"] == "reveal" and following["step"] != "reveal":
            out.append(dict(step))
    return out


def step_as_the_site_does(setup: dict, steps: list[dict]) -> None:
    """Each step taken on the game loaded from the state saved after the previous one; each equals a rebuild, and
    so does the state loaded for one step fewer (an undo)."""
    state = stored(save_state(RealCardsGame(setup, master=MASTER)))
    for count in range(1, len(steps) + 1):
        game = load_state(setup, steps[: count - 1], state, master=MASTER)
        game.step(steps[count - 1])
        assert_same(game, rebuilt(setup, steps[:count]))
        state = stored(save_state(game))
        assert state["n"] == count
        if state["at"] < count - 1:  # an undo of this step (not its hand's deal) starts from the state saved with it
            assert_same(load_state(setup, steps[: count - 1], state, master=MASTER), rebuilt(setup, steps[: count - 1]))


@pytest.mark.parametrize(("variant", "preset"), CASES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), undo=st.booleans())
def test_a_game_stepped_from_its_saved_state_is_the_game_rebuilt(variant, preset, seed, players, undo):
    real = last_of(play_twins(variant, preset, seed, players=players, max_hands=3, undo_rate=0.2 * undo))
    step_as_the_site_does(real.setup, with_corrections(list(real.steps)))


@pytest.mark.parametrize(("variant", "preset"), [(v, p) for v, p in CASES if v != "classic"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_named_winners_load_the_same(variant, preset, seed):
    real = last_of(play_twins(variant, preset, seed, players=3, max_hands=3, name_winners=True))
    step_as_the_site_does(real.setup, list(real.steps))


POOL = ["+1c", "+2c", "-3s", "+4t", "0", "-5c", "+6s", "-7t", "+8c", "-9s"]


def hands_played(count: int, players: int = 3) -> RealCardsGame:
    """A Coruscant table after `count` hands, each shown at its reveal, and the next hand dealt."""
    game = table(players=players)
    for _ in range(count):
        coruscant_to_reveal(game)
        pool = list(POOL)
        while (now := due(game))["due"] == "reveal":
            row = now["seats"][0]
            game.step({"step": "reveal", "seat": row["seat"], "cards": [pool.pop() for _ in range(row["cards"])]})
    game.step({"step": "deal"})
    return game


def test_a_saved_state_holds_no_seed_and_stays_small():
    game = hands_played(6, players=4)
    state = save_state(game)
    text = json.dumps(state)
    assert state["at"] == len(game.steps) - 1  # the state before the hand just dealt
    assert MASTER not in text
    assert all(game._hand_seed(n) not in text for n in range(1, 8))
    assert len(text) < 1000 * 7  # each finished hand's summary and what the table entered: no step of theirs
    assert len(json.dumps(save_state(hands_played(1, players=4)))) < len(text)


def test_before_the_first_deal_the_state_is_the_setup():
    game = table(players=3, variant="coruscant_shift", preset="casino")
    game.step({"step": "levels", "ante": 2, "small_blind": 1, "big_blind": 2})
    state = stored(save_state(game))
    assert state == {"f": FORMAT, "n": 1, "at": 0}
    assert_same(load_state(game.setup, game.steps, state, master=MASTER), game)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: {**s, "f": FORMAT + 1},  # a newer or older format
        lambda s: {k: v for k, v in s.items() if k != "f"},
        lambda s: {**s, "at": 10_000},  # saved for other steps
        lambda s: {**s, "at": -1},
        lambda s: {**s, "at": "3"},
        lambda s: {**s, "table": {}},  # damaged
        lambda s: {k: v for k, v in s.items() if k != "results"},
        lambda s: {**s, "boards": {"1": {"0": "not a card"}}},
        lambda s: [s],
        lambda s: None,
    ],
)
def test_a_state_that_does_not_fit_is_refused(change):
    game = hands_played(2)
    state = stored(save_state(game))
    assert state["at"] > 0
    assert_same(load_state(game.setup, game.steps, state, master=MASTER), game)
    with pytest.raises(InvalidState):
        load_state(game.setup, game.steps, change(state), master=MASTER)


def test_a_state_refused_is_an_engine_error():
    assert issubclass(InvalidState, EngineError)

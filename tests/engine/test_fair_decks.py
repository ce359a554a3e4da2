"""RULES 1.7, fair decks: a commitment before each deal, player entropy, the hand seeds revealed only when
the game ends (a cash game: when the table closes), and `verify_game` over every hand of a finished game."""

import hashlib
import io
import json
import random

import pytest
from django.core.management import call_command

from games.engine import (
    EngineError,
    Game,
    IllegalAction,
    WrongPhase,
    game_problems,
    resolve_options,
    verify_game,
    verify_shuffle,
)
from games.engine.bots import RandomBot, SensibleBot, apply_decision
from games.engine.cards import codes
from games.engine.coruscant.dice import dice_from_seed
from games.engine.replay import export_replay, play_replay
from games.engine.shuffle import commitment, deck_from_seed, server_seed
from tests.engine.helpers import check_round, new_game, play_hand, select_all


def recompute_hand_seed(server: str, entropy: dict[str, str]) -> str:
    """The recipe of docs/rules.md, written out again here: anyone can recompute a hand seed."""
    if not entropy:
        return server
    pairs = sorted([name, value] for name, value in entropy.items())
    text = json.dumps([server, pairs], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def keep_nothing(game: Game) -> None:
    """Play the current hand with every player keeping nothing and checking: the shift empties the pile."""
    while game.in_hand:
        seat = game.waiting_for()[0]
        if game.legal_actions(seat).can_select:
            game.select(seat, [])
        elif game.can_check(seat):
            game.check(seat)
        else:
            game.call(seat)


def finished_game(hands: int = 3) -> Game:
    """Eight players (so the shift reshuffles the discard pile), entropy in every hand, ended by its hands limit."""
    game = new_game("cantina", stacks=[100] * 8, hands=hands)
    for number in range(hands):
        game.contribute_entropy(number % 8, f"from seat {number % 8}: {number}")
        game.contribute_entropy(7, "Hal's ✓ entropy")
        game.start_hand()
        keep_nothing(game)
    assert game.is_over
    return game


def test_1_7_every_hand_is_dealt_from_its_seed_mixed_with_the_players_entropy():
    game = finished_game()
    document = export_replay(game)
    seeds = game.revealed_seeds()
    assert [s["hand"] for s in seeds] == [1, 2, 3]
    for row, hand in zip(seeds, document["hands"], strict=True):
        assert commitment(row["server_seed"]) == row["commitment"] == hand["commitment"]
        assert row["server_seed"] == hand["server_seed"]
        assert row["seed"] == recompute_hand_seed(row["server_seed"], row["entropy"]) != row["server_seed"]
        assert hand["deck"] == codes(deck_from_seed(row["seed"]))
        assert hand["dice"] == dice_from_seed(row["seed"]).to_dict()
        assert verify_shuffle(row["seed"], commitment(row["seed"]), deck_from_seed(row["seed"]))
        assert len(hand["reshuffles"]) == 1  # eight players keeping nothing run the pile dry
    assert seeds[0]["entropy"] == {"Ann": "from seat 0: 0", "Hal": "Hal's ✓ entropy"}


def test_1_7_the_commitment_is_published_before_entropy_so_the_server_alone_cannot_choose_the_deck():
    first = new_game("cantina", stacks=[100, 100], seed=9)
    second = new_game("cantina", stacks=[100, 100], seed=9)
    published = first.spectator_view()["next_hand"]["commitment"]
    assert published == commitment(server_seed(first._master, 1))
    first.contribute_entropy(1, "mine")
    second.contribute_entropy(1, "something else")
    assert first.spectator_view()["next_hand"] == {"number": 1, "commitment": published, "entropy_from": ["Bob"]}
    a, b = first.start_hand(), second.start_hand()
    assert a.commitment == b.commitment == published  # the same server seed, fixed before the contributions
    assert codes(a._deck) != codes(b._deck)  # but the players' entropy changed the deck


def test_1_7_entropy_with_start_hand_and_as_an_operation_between_hands():
    game = new_game("cantina", stacks=[100, 100, 100])
    assert game.can_contribute_entropy(0, "abc") and not game.can_contribute_entropy(0, "")
    for bad in ("", "x" * 201, "tab\there", 7, None):
        with pytest.raises(IllegalAction, match="Entropy is a text of 1 to 200 printable characters") as caught:
            game.contribute_entropy(0, bad)
        assert "x" * 201 not in str(caught.value)
    with pytest.raises(IllegalAction, match="Entropy"):
        game.start_hand(entropy={1: ""})  # refused before anything changes
    assert game.hands_played == 0 and game.hand is None and game.entropy == {}
    game.start_hand(entropy={1: "bob's", 2: "cat's"})
    assert game._history[-1]["n"] == [["Bob", "bob's"], ["Cat", "cat's"]]
    with pytest.raises(WrongPhase, match="between hands"):
        game.contribute_entropy(0, "too late")
    keep_nothing(game)
    game.contribute_entropy(0, "first")
    game.contribute_entropy(0, "second")  # a later one replaces it
    copy = Game.from_json(game.to_json(), history=game.history_json())
    assert copy.entropy == game.entropy == {0: "second"}


def test_1_7_no_view_event_log_or_error_shows_a_seed_before_the_game_ends():
    game = new_game("casino", stacks=[450, 450, 450, 450], seed=3)
    bots = [SensibleBot(random.Random(1)), RandomBot(random.Random(2)), RandomBot(random.Random(3))]
    bots.append(SensibleBot(random.Random(4)))
    texts: list[str] = []
    hands = 0
    while hands < 8 or game.in_hand:
        if not game.in_hand:
            for busted in range(4):
                if game.stacks[busted] == 0:
                    game.rebuy(busted, 450)
            game.contribute_entropy(hands % 4, f"e{hands}")
            game.start_hand()
            hands += 1
        seat = game.waiting_for()[0] if game.in_hand else 0
        for attempt in (
            lambda seat=seat: game.check(seat + 1 if seat < 3 else 0),
            lambda seat=seat: game.raise_to(seat, 10**9),
            lambda seat=seat: game.select(seat, ["+11c"]),
            lambda: game.revealed_seeds(),
            lambda: game.close_table(),
        ):
            try:
                attempt()
            except EngineError as exc:
                texts.append(str(exc))
        texts += [json.dumps(game.view_for(s)) for s in range(4)]
        texts += [json.dumps(game.spectator_view()), json.dumps(game.results), repr(game), repr(game.hand)]
        texts += [repr(game.hand.log_for(None)), json.dumps(game.legal_actions(seat).to_dict())]
        exported = export_replay(game)
        assert all("server_seed" not in hand for hand in exported["hands"])
        if game.in_hand:
            apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))
    assert hands == 8 and not game.is_over
    secrets = set()
    for number in range(1, hands + 2):
        entry = next(e for e in _hand_entries(game) if e[0] == number)[1] if number <= hands else {}
        secrets |= {server_seed(game._master, number), game._hand_seed(number, entry)}
    secrets.add(game._master)
    text = "\n".join(texts)
    assert not any(secret in text for secret in secrets)
    assert any("revealed when the game ends" in t for t in texts)
    game.close_table()  # a cash game: the seeds are revealed when the table closes
    assert game.spectator_view()["seeds_revealed"] is True
    revealed = {row["seed"] for row in game.revealed_seeds()} | {row["server_seed"] for row in game.revealed_seeds()}
    assert revealed <= secrets and len(game.revealed_seeds()) == hands
    assert verify_game(game)


def _hand_entries(game: Game) -> list[tuple[int, dict]]:
    hands = [entry for entry in game._history if "a" in entry]
    return list(enumerate(hands, start=1))


def test_1_7_verify_game_accepts_a_finished_game():
    game = finished_game()
    document = json.loads(json.dumps(export_replay(game)))
    assert game_problems(document) == []
    assert verify_game(document) and verify_game(game)
    assert play_replay(document)["hands"] == game.results


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ("swap two cards", "Hand 2: the deck is not the one its seed deals."),
        ("change the dice", "Hand 3: the dice are not the ones its seed rolls."),
        ("reorder a reshuffle", "Hand 1: the reshuffles listed are not the ones its seed makes."),
        ("another server seed", "Hand 2: the revealed server seed does not match the commitment published."),
        ("hide a server seed", "Hand 1: its server seed is not revealed"),
        ("drop a commitment", "Hand 3: its deck was given, not dealt from a committed seed."),
    ],
)
def test_1_7_verify_game_rejects_a_game_whose_deck_was_changed(change, problem):
    document = json.loads(json.dumps(export_replay(finished_game())))
    hands = document["hands"]
    if change == "swap two cards":
        deck = hands[1]["deck"]
        deck[50], deck[51] = deck[51], deck[50]  # cards nobody saw: the game still replays
    elif change == "change the dice":
        hands[2]["dice"]["suit"] = {"circle": "square", "square": "triangle", "triangle": "circle"}[
            hands[2]["dice"]["suit"]
        ]
    elif change == "reorder a reshuffle":
        pile = hands[0]["reshuffles"][0]
        pile[-1], pile[-2] = pile[-2], pile[-1]
    elif change == "another server seed":
        hands[1]["server_seed"] = "0" * 32
    elif change == "hide a server seed":
        del hands[0]["server_seed"]
    else:
        del hands[2]["commitment"]
    problems = game_problems(document)
    assert problem in problems[0] or any(p.startswith(problem) for p in problems), problems
    assert not verify_game(document)


def test_1_7_verify_game_refuses_a_game_that_is_not_over():
    game = new_game("cantina", stacks=[100, 100])
    play_hand(game, winner=0)
    assert game_problems(game) == ["Hand 1: its server seed is not revealed (seeds are revealed when the game ends)."]
    with pytest.raises(WrongPhase, match="revealed when the game ends"):
        game.revealed_seeds()
    assert game_problems({"format": "sabacc-replay/1"})[0].startswith('Only a "sabacc-replay/2" export')


def test_1_7_closing_a_cash_table_reveals_its_seeds():
    game = Game.new(
        options=resolve_options("coruscant_shift", "casino"),
        players=[("Ann", 450), ("Bob", 450)],
        dealer=0,
        rng=random.Random(5),
    )
    game.start_hand()
    select_all(game)
    check_round(game)
    with pytest.raises(WrongPhase, match="between hands"):
        game.close_table()
    select_all(game)
    check_round(game)
    assert not game.is_over and game.can_start_hand()
    game.close_table()
    assert game.is_over and not game.can_start_hand()
    assert [row["hand"] for row in game.revealed_seeds()] == [1]
    with pytest.raises(WrongPhase, match="ends by itself"):
        new_game("cantina").close_table()


def test_the_replay_command_verifies_a_finished_game(tmp_path):
    document = json.loads(json.dumps(export_replay(finished_game())))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(good), "--verify", stdout=out, stderr=err)
    assert out.getvalue().strip() == "verified: 3 hands" and err.getvalue() == ""
    deck = document["hands"][0]["deck"]
    deck[60], deck[61] = deck[61], deck[60]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(bad), "--verify", stdout=out, stderr=err)
    assert exited.value.code == 2 and out.getvalue() == ""
    assert err.getvalue().strip() == "replay: Hand 1: the deck is not the one its seed deals."

"""sabacc-replay/2 (docs/replay.md): events between hands, listed reshuffles, exports of any game, the
public log of finished hands; and version 1 documents still giving exactly their results."""

import io
import json
import random
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import EngineError, Game, ReplayError, public_log, resolve_options
from games.engine.replay import export_replay, play_replay, replay_game
from tests.engine.helpers import play_hand

REPLAYS = Path(__file__).parent / "replays"


def load(name: str) -> dict:
    return json.loads((REPLAYS / f"{name}.json").read_text())


def test_the_new_rulings_have_their_fixtures():
    names = {path.stem for path in REPLAYS.glob("*.json")}
    assert {
        "partial_big_blind",
        "cumulative_short_all_ins",
        "no_carry_past_the_end",
        "all_in_by_any_name",
        "reshuffle_listed",
        "invalid_missing_reshuffle",
        "invalid_wrong_reshuffle",
        "casino_between_hands",
        "min_bet_and_cap_follow_the_blinds",
        "casino_ante_and_hands_limit",
        "zero_credit_seat_in_standings",
        "fixed_stay_allin_is_a_call",
        "betting_round_skipped",
    } <= names


def test_1_8_the_cap_doubles_with_the_blinds_and_no_further():
    document = load("min_bet_and_cap_follow_the_blinds")["replay"]
    assert play_replay(document)["hands"][2]["forced"] == {"Ann": 10, "Bob": 20}  # the blinds doubled
    hand = document["hands"][2]
    message = "A raise must take your total for this round to between 80 and 80"
    for action in ({"player": "Ann", "do": "raise", "to": 81}, {"player": "Ann", "do": "raise", "to": 79}):
        actions = [*hand["actions"][:2], action]
        with pytest.raises(ReplayError) as caught:
            play_replay({**document, "hands": [*document["hands"][:2], {**hand, "actions": actions}]})
        assert str(caught.value) == f"Hand 3, action 3 (Ann raise): {message}; got {action['to']}."
    bet = {"player": "Bob", "do": "bet", "amount": 59}  # the min bet doubled with the blinds: 30 -> 60
    actions = [*hand["actions"][:6], bet]
    with pytest.raises(ReplayError, match=r"Hand 3, action 7 \(Bob bet\): A bet must be from 60 to 80; got 59\."):
        play_replay({**document, "hands": [*document["hands"][:2], {**hand, "actions": actions}]})


def test_1_8_reshuffles_listed_in_a_replay_are_the_new_draw_piles():
    fixture = load("reshuffle_listed")
    result = play_replay(fixture["replay"])
    # Ann's third shift card is the second card of the listed pile, a Sylop: total 0 on target 0.
    assert result["hands"][0]["showdown"]["Ann"]["cards"] == ["0"]
    assert result["stacks"]["Ann"] == 100 - 2 + 16


def test_1_8_a_missing_or_wrong_reshuffle_list_is_refused_with_one_line_and_exit_2(tmp_path):
    for name, words in (
        ("invalid_missing_reshuffle", "the hand lists 0 reshuffles"),
        ("invalid_wrong_reshuffle", "not in the discard pile: +10t; missing: +1s"),
    ):
        fixture = load(name)
        assert words in fixture["error"]
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(fixture["replay"]))
        out, err = io.StringIO(), io.StringIO()
        with pytest.raises(SystemExit) as exited:
            call_command("replay", str(path), stdout=out, stderr=err)
        assert exited.value.code == 2 and out.getvalue() == ""
        assert err.getvalue().strip() == "replay: " + fixture["error"]


def test_reshuffles_must_be_lists_of_card_codes():
    document = load("reshuffle_listed")["replay"]
    hand = document["hands"][0]
    cases = ((["+1c"], "must be a list of draw piles"), ([["+11c"]], "Hand 1 reshuffles: Unknown card '\\+11c'"))
    for bad, message in cases:
        with pytest.raises(ReplayError, match=message):
            play_replay({**document, "hands": [{**hand, "reshuffles": bad}]})


def test_version_2_records_rebuys_joins_add_ons_entropy_leaves_and_closing():
    fixture = load("casino_between_hands")
    result = play_replay(fixture["replay"])
    assert result == fixture["result"]
    assert result["format"] == "sabacc-replay-result/2"
    assert result["finished"] is True and result["left"] == ["Dan"]
    assert sum(result["hands"][-1]["stacks"].values()) == 450 + 20 + 450 + 100 + 200 + 50


def test_version_1_documents_refuse_version_2_parts():
    document = load("bob_and_jane")["replay"]
    with pytest.raises(ReplayError, match='"after" \\(events between hands\\) needs "format": "sabacc-replay/2"'):
        play_replay({**document, "after": []})
    hand = {**document["hands"][0], "before": [{"do": "close"}]}
    with pytest.raises(ReplayError, match='Hand 1: "before"'):
        play_replay({**document, "hands": [hand]})


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"do": "dance"}, 'after, event 1: an event is an object whose "do" is one of rebuy, addon'),
        ({"do": "rebuy", "player": "Ann"}, 'after, event 1 (Ann rebuy): needs "amount".'),
        ({"do": "rebuy", "player": "Zed", "amount": 5}, "after, event 1 (Zed rebuy): 'Zed' is not one of the seated"),
        (
            {"do": "rebuy", "player": "Ann", "amount": 5},
            "after, event 1 (Ann rebuy): Ann still holds 430 credits; only a player out of credits may re-buy.",
        ),
        ({"do": "entropy", "player": "Ann", "value": ""}, "after, event 1 (Ann entropy): Entropy is a text of 1 to"),
        ({"do": "addon", "player": "Bob", "amount": 5}, "after, event 1 (Bob addon): Bob has no credits"),
    ],
)
def test_invalid_events_are_refused_with_one_line(event, message):
    document = load("casino_between_hands")["replay"]
    document = {**document, "hands": document["hands"][:1], "after": [event]}
    with pytest.raises(ReplayError) as caught:
        play_replay(document)
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.json")), ids=lambda p: p.stem)
def test_every_version_1_fixture_gives_the_same_result_as_a_version_2_document(path):
    fixture = json.loads(path.read_text())
    document = fixture["replay"]
    if document["format"] != "sabacc-replay/1" or "error" in fixture:
        return
    result = play_replay({**document, "format": "sabacc-replay/2"})
    assert result["format"] == "sabacc-replay-result/2"
    assert {k: v for k, v in result.items() if k not in ("format", "items", "left")} == {
        k: v for k, v in play_replay(document).items() if k != "format"
    }


def casino_table(seed: int) -> Game:
    """A casino table with re-buys, add-ons, joins, leaves, an item stake and entropy, then closed."""
    rng = random.Random(seed)
    options = resolve_options("coruscant_shift", "casino", {"item_stakes": True})
    game = Game.new(options=options, players=[("Ann", 450), ("Bob", 10), ("Cat", 450)], dealer=0, rng=rng)
    script = [
        [],  # hand 1: Bob is all-in with his ante and loses it
        [("rebuy", 1, 100), ("add_on", 0, 25)],
        [("join", "Dan", 10)],  # Dan loses his whole stack to the ante in hand 3
        [("stake_item", 3, "speeder", 60)],
        [("leave", 1)],
        [("join", "Bob", 80)],  # back in his old seat
    ]
    winners = [0, 1, 0, 2, 0, 3]
    for events, winner in zip(script, winners, strict=True):
        for name, *args in events:
            getattr(game, name)(*args)
        for seat in range(len(game.names)):
            if seat not in game.left and rng.random() < 0.5:
                game.contribute_entropy(seat, f"{game.names[seat]}-{rng.getrandbits(32):x}")
        play_hand(game, winner=winner)
    game.close_table()
    return game


def test_export_of_a_casino_table_replays_to_the_same_game():
    game = casino_table(4)
    document = json.loads(json.dumps(export_replay(game)))
    assert document["format"] == "sabacc-replay/2"
    kinds = {event["do"] for hand in document["hands"] for event in hand["before"]} | {
        event["do"] for event in document["after"]
    }
    assert kinds == {"rebuy", "addon", "stake", "join", "leave", "entropy", "close"}
    result = play_replay(document)
    assert result["hands"] == game.results
    assert result["stacks"] == {name: game.stacks[s] for s, name in enumerate(game.names)}
    assert result["finished"] is True


def test_public_log_shows_what_the_table_saw_and_nothing_else():
    fixture = load("side_pots_all_ins")
    log = public_log(fixture["replay"])
    assert [hand["number"] for hand in log] == [1]
    steps = log[0]["steps"]
    text = json.dumps(steps)
    deals = [s for s in steps if s["kind"] == "deal"]
    assert deals and all("cards" not in s for s in deals)
    shown = {s["player"]: s["cards"] for s in steps if s["kind"] == "select" and "cards" in s}
    showdown = fixture["result"]["hands"][0]["showdown"]
    assert set(shown) <= set(showdown)
    for player, row in showdown.items():
        cards = [c for s in steps if s["kind"] == "select" and s.get("player") == player for c in s.get("cards", [])]
        assert cards == row["cards"]
    for player in fixture["result"]["hands"][0]["folded"]:
        assert not any("cards" in s for s in steps if s.get("player") == player)
    assert log[0]["result"] == fixture["result"]["hands"][0]
    assert "seed" not in text
    bets = [s for s in steps if s["kind"] in ("bet", "raise", "call", "allin")]
    assert bets and all(isinstance(s["amount"], int) for s in bets)


def test_public_log_never_shows_the_cards_of_a_player_who_folded_or_won_without_showing():
    fixture = load("fold_out")  # Ann and Bob fold; Cat wins without showing
    (hand,) = public_log(fixture["replay"])
    assert [s["kind"] for s in hand["steps"]].count("deal") == 15
    assert not any("cards" in step for step in hand["steps"])
    assert [s["count"] for s in hand["steps"] if s["kind"] == "select"] == [0, 0, 0]


def test_replay_game_steps_through_a_document_for_hand_history_pages():
    document = load("casino_between_hands")["replay"]
    seen = []

    def step(game, number, index, action):
        seen.append((number, index, None if action is None else action["do"], game.spectator_view()["hand"]["phase"]))

    game = replay_game(document, on_step=step)
    assert game.is_over
    hand_1 = [s for s in seen if s[0] == 1]
    assert hand_1[0] == (1, 0, None, "select")
    assert [s[1] for s in hand_1] == list(range(len(document["hands"][0]["actions"]) + 1))
    assert hand_1[-1] == (1, 11, "fold", "complete")
    assert seen[-1][0] == 2 and seen[-1][3] == "complete"


def test_export_as_version_1_for_readers_of_the_first_version():
    game = Game.new(
        options=resolve_options("coruscant_shift", "cantina"),
        players=[("Ann", 100), ("Bob", 100), ("Cat", 100)],
        dealer=0,
        rng=random.Random(2),
        preset="cantina",
    )
    game.contribute_entropy(1, "entropy is not an event of version 1; its effect is in the listed deck")
    play_hand(game, winner=1)
    play_hand(game, winner=2)
    document = json.loads(json.dumps(export_replay(game, version=1)))
    assert document["format"] == "sabacc-replay/1" and "after" not in document
    assert all(set(hand) <= {"deck", "dice", "actions", "reshuffles"} for hand in document["hands"])
    assert play_replay(document)["hands"] == game.results
    game = casino_table(1)
    with pytest.raises(EngineError, match=r"events between hands \(addon, close, join, leave, rebuy, stake\)"):
        export_replay(game, version=1)
    with pytest.raises(EngineError, match="version 1 or 2; got 3"):
        export_replay(game, version=3)


def test_a_reshuffle_listed_for_a_hand_that_never_needed_one_is_refused():
    document = load("bob_and_jane")["replay"]
    hand = {**document["hands"][0], "reshuffles": [["+1c"]]}
    with pytest.raises(ReplayError) as caught:
        play_replay({**document, "hands": [hand]})
    assert str(caught.value) == (
        "Hand 1 reshuffles: the hand lists 1 reshuffles but the draw pile ran out 0 times; "
        "list only the reshuffles that happened."
    )

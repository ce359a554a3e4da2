"""Event and game pages: an event's status, tables, games, results and prize pool; a game's seats, result,
credits hand by hand and, when a replay is known, its hand history stepped through as the table saw it."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from config.inputs import whole_number_or
from games import pages
from league import page_cache, page_stamps, selectors
from league import pages as league_pages
from league.permissions import can_manage_league


def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole page is rendered once per state of the league's data (its data version) and kind of viewer,
    then served from the cache (`league.page_cache.serve_page`) after reading the event's league alone."""
    state = page_stamps.league_of_event(pk, user=request.user)
    if state is None or not state.visible_to(request.user):
        raise Http404("No such event.")
    return page_cache.serve_page(
        request,
        name="event",
        stamps=[state.stamp],
        parts=[pk],
        render=lambda csrf_token: _render_event_page(request, pk, csrf_token),
    )


def _render_event_page(request: HttpRequest, pk: int, csrf_token) -> str:
    event = pages.event_for_viewer(user=request.user, pk=pk)
    league = event.season.league
    my_player_id = selectors.user_player_id(request.user)
    stamp = page_cache.league_stamp(league.pk, league.created_at, league.data_version)
    key = page_cache.fragment_key("event", [stamp], event.pk, my_player_id)
    fragments = page_cache.cached(key, lambda: _event_fragments(event, my_player_id))
    context = {
        "event": event,
        "league": league,
        "prize_pool": fragments["prize_pool"],
        "body_html": fragments["body_html"],
        "can_manage": can_manage_league(request.user, league),
    }
    return page_cache.render_page(request, "games/event_detail.html", context, csrf_token)


def _event_fragments(event, my_player_id: int | None) -> dict:
    context = {
        "event": event,
        **pages.event_tables(event=event),
        "results": pages.event_results(event=event),
        "my_player_id": my_player_id,
    }
    return {
        "prize_pool": pages.event_prize_pool(event=event),
        "body_html": render_to_string("games/_event_body.html", context),
    }


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """`?hand=N&step=K` picks the history step (bookmarkable; htmx swaps just the history)."""
    game = pages.game_for_viewer(user=request.user, pk=pk)
    league = game.event.season.league
    history = pages.game_replay_history(game=game)
    step_context = history_step(history, request.GET.get("hand"), request.GET.get("step"))
    if getattr(request, "htmx", False) and request.GET.get("hand") is not None and history:
        return render(request, "games/_history.html", {"game": game, **step_context})
    chips = selectors.chip_history_for_game(game_id=game.pk)
    hands = sorted({point["hand"] for line in chips["series"] for point in line["points"] if point["hand"] is not None})
    series = []
    for line in chips["series"]:
        by_hand = {point["hand"]: point["credits"] for point in line["points"] if point["hand"] is not None}
        last, values = None, []
        for hand in hands:  # a player out of the game keeps their last stack until the chart ends
            last = by_hand.get(hand, last)
            values.append(last)
        series.append({"label": line["display_name"], "values": values})
    context = {
        "game": game,
        "event": game.event,
        "league": league,
        "seats": list(game.seats.all()),
        # The stake the game was played at (a buy-in may set it): its own starting stack, not the preset's.
        "rules": league_pages.rules_in_words(game.variant, game.preset, _own_stack(game)),
        "hands_known": chips["hands_known"],
        "credits_chart": league_pages.chart(
            "game-chart",
            "Credits hand by hand" if chips["hands_known"] else "Credits in and out",
            x=hands,
            x_labels=["buy-in" if hand == 0 else f"hand {hand}" for hand in hands],
            series=series,
            x_label="Hand",
            y_label="Credits",
        ),
        "history": history,
        **step_context,
        "my_player_id": selectors.user_player_id(request.user),
        "can_manage": can_manage_league(request.user, league),
    }
    return render(request, "games/game_detail.html", context)


def history_step(history: dict | None, raw_hand: str | None, raw_step: str | None) -> dict:
    if not history or not history.get("hands"):
        return {"hand": None, "step": None}
    hands = history["hands"]
    hand_number = min(max(whole_number_or(raw_hand, 1), 1), len(hands))
    hand = hands[hand_number - 1]
    step_number = min(max(whole_number_or(raw_step, 1), 1), len(hand["steps"]))
    return {
        "hand": hand,
        "hand_count": len(hands),
        "step_number": step_number,
        "step": hand["steps"][step_number - 1],
        "steps_so_far": hand["steps"][:step_number],
        "step_count": len(hand["steps"]),
    }


def _own_stack(game: Any) -> dict:
    """The game's starting stack as an option over its preset, when its recorded options name one."""
    stack = (game.options or {}).get("starting_stack")
    return {"starting_stack": stack} if isinstance(stack, int) and not isinstance(stack, bool) and stack > 0 else {}

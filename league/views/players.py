"""A player's pages: home for a signed-in user, `/me/`, and a player's page (summary figures, credits over
time per season or all time, a game hand by hand, results and the paginated ledger)."""

from datetime import timedelta
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from config.inputs import is_digits
from league import page_cache, page_stamps, pages, selectors
from league.models import Player
from league.permissions import can_edit_player
from league.providers import games


def home_page(request: HttpRequest) -> HttpResponse:
    """Everyone sees the running events; a signed-in user also their leagues, events and last results."""
    context = {"running_public": pages.public_running_events(user=request.user)}
    if request.user.is_authenticated:
        context.update(pages.home_for(user=request.user, now=timezone.now()))
        context["first_visit"] = first_visit(request.user)
    return render(request, "site/home.html", context)


FIRST_SESSION = timedelta(hours=1)


def first_visit(user: Any) -> bool:
    """Whether this is the account's first visit: not signed in since the hour it was made (sign-up signs in),
    so an account that joined a league through an invite link on sign-up is welcomed, not welcomed back."""
    last, joined = getattr(user, "last_login", None), getattr(user, "date_joined", None)
    return last is None or joined is None or last - joined < FIRST_SESSION


def my_player(request: HttpRequest) -> HttpResponse:
    """The header's "My player": the signed-in user's player page, or the profile to make or claim one."""
    player_id = selectors.user_player_id(request.user)
    if player_id is None:
        return redirect("profile" if request.user.is_authenticated else "account_login")
    return redirect("player-detail", pk=player_id)


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """`?scope=all|<season id>` picks the credits chart, `?game=<id>` the hand-by-hand one, `?page=` the ledger.

    The whole page is rendered once per state of the leagues the viewer can see (their data versions), the
    player's row and kind of viewer, then served from the cache (`league.page_cache.serve_page`) after one
    query; "My tables" on the player's own page is filled in afresh each time. A value the page does not take
    (a season the player has no results in, a game not played hand by hand, a ledger page past the last) is
    answered as the league page answers one: a 400 with the page of the default in its place and a notice
    naming what was wrong and what is allowed, served from the default's cached copy with the notice filled
    in, so a made-up value never makes or changes an entry."""
    state = page_stamps.player_for_viewer(user=request.user, pk=pk)
    if state is None or not state.visible:
        raise Http404("No such player.")
    is_me = state.user_id is not None and state.user_id == request.user.pk

    def serve(raw: dict[str, str | None], notice: str) -> HttpResponse:
        slots = {NOTICE_SLOT: lambda: notice}
        if is_me:
            slots[page_cache.MY_TABLES_SLOT] = lambda: _my_tables(request, pk)
        row = repr((state.pk, state.display_name, state.user_id, state.created_by_id, state.claim_code))
        return page_cache.serve_page(
            request,
            name="player",
            stamps=[stamp for _, stamp in state.leagues],
            parts=[row, *_cache_params(raw)],
            render=lambda csrf_token: _render_player_page(
                request, pk, state, raw, csrf_token, notice=NOTICE_SLOT if csrf_token else notice
            ),
            slots=slots,
        )

    raw = {name: request.GET.get(name) for name in ("scope", "game", "page")}
    try:
        return serve(raw, "")
    except UnknownQuery as refused:  # raised before anything was stored: serve the default in its place
        defaults = {name: None if name in refused.params else value for name, value in raw.items()}
        response = serve(defaults, refused.notice)
    response.status_code = 400
    return response


class UnknownQuery(Exception):
    """The address names a season, game or ledger page the player page does not have; `notice` (HTML, the
    visitor's values escaped) says which and what the page takes."""

    def __init__(self, params: list[str], notice: str) -> None:
        super().__init__(", ".join(params))
        self.params = params
        self.notice = notice


# Where a player page holds the notice of a query value it does not take (filled in on each request, never cached).
NOTICE_SLOT: SafeString = mark_safe("<!--page-cache:player-query-notice-->")


def _cache_params(raw: dict[str, str | None]) -> list[str | None]:
    """The query's values as parts of a cache key: None (render uncached) for one not worth an entry."""
    return [
        page_cache.plain_param(raw["scope"], allowed=("all",)),
        page_cache.plain_param(raw["game"]),
        page_cache.plain_param(raw["page"]),
    ]


def _render_player_page(request: HttpRequest, pk: int, state, raw: dict, csrf_token, *, notice: str = "") -> str:
    # The player as the stamp query read them (who may see them is decided there): no second read.
    player = Player(
        pk=state.pk,
        display_name=state.display_name,
        user_id=state.user_id,
        created_by_id=state.created_by_id,
        claim_code=state.claim_code,
    )
    league_ids = [league_id for league_id, _ in state.leagues]
    audit = pages.audit_league_ids(request.user)  # whose ledger reasons this viewer may read

    def build() -> dict:
        return player_fragments(player=player, user=request.user, league_ids=league_ids, audit=audit, **raw)

    params = _cache_params(raw)
    if None in params:
        fragments = build()
    else:
        stamps = [stamp for _, stamp in state.leagues]
        audit_key = "all" if audit is None else sorted(audit)
        key = page_cache.fragment_key("player", stamps, player.pk, player.display_name, audit_key, *params)
        fragments = page_cache.cached(key, build)
    is_me = player.user_id is not None and player.user_id == request.user.pk
    context = {
        "player": player,
        "leagues": fragments["leagues"],
        "body_html": fragments["body_html"],
        "query_notice": notice,  # the slot, or the notice of this request
        "is_me": is_me,
        "can_manage": can_edit_player(request.user, player),
        # "My tables": online tables are the player's own business, filled in on each request, never cached
        "my_tables": (page_cache.MY_TABLES_SLOT if csrf_token is not None else _my_tables(request, pk))
        if is_me
        else "",
    }
    return page_cache.render_page(request, "players/player_detail.html", context, csrf_token)


def _my_tables(request: HttpRequest, player_id: int) -> str:
    tables = games().player_tables(player_id=player_id)
    context = {"now": [t for t in tables if t["seated"]], "played": [t for t in tables if not t["seated"]]}
    return render_to_string("tables/_my_tables.html", {"tables": context}, request)


# What the page shows of a result, its event, season and league: 200 results load without their JSON settings.
PAGE_RESULT_FIELDS = (
    "place",
    "players",
    "buy_in",
    "credits_in",
    "credits_out",
    "biggest_pot",
    "event__name",
    "event__status",
    "event__starts_at",
    "event__season__name",
    "event__season__starts_on",
    "event__season__league__name",
)


def player_fragments(
    *,
    player: Any,
    user: Any,
    league_ids: list[int],
    audit: frozenset[int] | None,
    scope: str | None,
    game: str | None,
    page: str | None,
) -> dict[str, Any]:
    """The player page's body rendered (figures, charts, results, ledger page) and the player's leagues."""
    results = list(pages.player_results(user=user, player=player, league_ids=league_ids).only(*PAGE_RESULT_FIELDS))
    seasons = pages.player_seasons(results)
    season = next((s for s in seasons if str(s.pk) == scope), None)
    games = pages.games_with_hands(player=player, league_ids=league_ids)
    chosen = next((g for g in games if str(g["game"]) == game), None)
    ledger = pages.ledger_page(player=player, league_ids=league_ids, page=page, audit=audit)
    wrong = []
    if scope not in (None, "", "all") and season is None:
        wrong.append({"param": "scope", "value": scope})
    if game not in (None, "") and chosen is None:
        wrong.append({"param": "game", "value": game})
    if page not in (None, "") and not (is_digits(page) and 1 <= int(page) <= ledger.paginator.num_pages):
        wrong.append({"param": "page", "value": page})
    if wrong:  # raised before the cache stores anything: a made-up value makes no entry
        context = {
            "notices": wrong,
            "player": player,
            "seasons": seasons,
            "first_game": games[0] if games else None,
            "pages": ledger.paginator.num_pages,
        }
        notice = render_to_string("players/_query_notice.html", context)
        raise UnknownQuery([w["param"] for w in wrong], notice)
    scope = str(season.pk) if season else "all"
    chosen = chosen or (games[0] if games else None)
    steps = pages.credits_over_time(player=player, league_ids=league_ids, season=season)
    hands = pages.game_hands(player=player, league_ids=league_ids, game_id=chosen["game"]) if chosen else []
    leagues = pages.player_leagues(user=user, player=player)
    context = {
        "player": player,
        "summary": pages.player_summary(results, pages.player_net(player=player, league_ids=league_ids)),
        "results_body": pages.results_body(results),
        "seasons": seasons,
        "scope": scope,
        "season": season,
        "credits_chart": pages.chart(
            "credits-chart",
            f"{season.league.name} {season.name}" if season else "All time",
            x=[step["at"] for step in steps],
            x_labels=[f"{step['at']:%d %b %Y} · {step['label']}" for step in steps],
            series=[{"label": player.display_name, "values": [step["cumulative"] for step in steps]}],
            x_label="Date",
            y_label="Net credits",
        ),
        "games": games,
        "game_options": pages.game_options(games, chosen["game"] if chosen else None),
        "game": chosen,
        "hands_chart": pages.chart(
            "hands-chart",
            f"Stack hand by hand, {chosen['label']}" if chosen else "Stack hand by hand",
            x=[point["hand"] for point in hands],
            x_labels=["buy-in" if point["hand"] == 0 else f"hand {point['hand']}" for point in hands],
            series=[{"label": player.display_name, "values": [point["credits"] for point in hands]}],
            x_label="Hand",
            y_label="Credits",
        ),
        "ledger": ledger,
        "leagues": leagues,
    }
    return {"leagues": leagues, "body_html": render_to_string("players/_player_body.html", context)}

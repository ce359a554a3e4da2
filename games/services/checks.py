"""Checking a manual result before anything is written: seats, buy-ins and re-buys, hand by hand results,
a replay the engine plays, credits in against credits out, and places."""

from dataclasses import dataclass, field
from typing import Any

from config.errors import ApplicationError
from config.inputs import MAX_JSON_DEPTH, Actor, has_nul, json_depth, whole_number
from games.engine.options import variant_presets
from games.words import variant_title
from league.models import (
    MAX_COUNT,
    MAX_CREDITS,
    Event,
    Membership,
    Player,
)
from league.services import (
    effective_buy_in_policy,
)

MIN_SEATS, MAX_SEATS = 2, 8


def checked_preset(variant: Any, preset: Any) -> str:
    """The preset a new table plays (the variant's first when none is given), or a refusal naming the variants or
    the variant's presets; shared by every way of opening a casual table (online, real cards)."""
    presets = variant_presets()
    if variant not in presets:
        raise ApplicationError(
            f"Unknown variant {variant!r}; the variants are: {', '.join(presets)}.", extra={"field": "variant"}
        )
    preset = preset or presets[variant][0]
    if preset not in presets[variant]:
        raise ApplicationError(
            f"{variant_title(variant)} has the presets: {', '.join(presets[variant])}; got {preset!r}.",
            extra={"field": "preset"},
        )
    return preset


@dataclass
class SeatInput:
    player: Player
    number: int
    buy_in: int
    rebuys: int = 0
    rebuy_credits: int = 0
    addon_credits: int = 0
    final_credits: int | None = None
    place: int | None = None
    knockouts: int = 0
    biggest_pot: int = 0
    hand_deltas: list[int] = field(default_factory=list)

    @property
    def credits_in(self) -> int:
        return self.buy_in + self.rebuy_credits + self.addon_credits


def _places_from_credits(seats: list[SeatInput]) -> None:
    """Rank by final credits; equal credits share the better place."""
    ordered = sorted(seats, key=lambda s: -s.final_credits)
    for index, seat in enumerate(ordered, start=1):
        previous = ordered[index - 2] if index > 1 else None
        seat.place = previous.place if previous and previous.final_credits == seat.final_credits else index


def check_places(seats: list[SeatInput]) -> None:
    """Places run 1..n with ties sharing a place (1, 2, 2, 4); more credits never rank worse,
    and equal credits above zero share a place (players out of credits rank by when they went out)."""
    places = sorted(s.place for s in seats)
    expected, index = [], 0
    while index < len(places):
        tied = places.count(places[index])
        expected.extend([index + 1] * tied)
        index += tied
    if places != expected:
        raise ApplicationError(
            f"Places {places} are not a valid finishing order: places run from 1 to {len(seats)} and players "
            f"sharing a place skip the places after it (e.g. 1, 2, 2, 4); expected a set like {expected}.",
            extra={"field": "places"},
        )
    for a in seats:
        for b in seats:
            if a.final_credits > b.final_credits and a.place >= b.place:
                raise ApplicationError(
                    f"{a.player} finished with {a.final_credits} credits but is placed {a.place}, not ahead of "
                    f"{b.player} ({b.final_credits} credits, place {b.place}): more credits must rank better.",
                    extra={"field": "places"},
                )
            if a.final_credits == b.final_credits > 0 and a.place != b.place:
                raise ApplicationError(
                    f"{a.player} and {b.player} both finished with {a.final_credits} credits, so they share a "
                    f"place; got {a.place} and {b.place}.",
                    extra={"field": "places"},
                )


def _parse_seats(event: Event, seats: list[dict[str, Any]], *, actor: Actor) -> list[SeatInput]:
    if not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
        count = len(seats) if isinstance(seats, list) else 0
        raise ApplicationError(
            f"A game seats {MIN_SEATS} to {MAX_SEATS} players; got {count}.", extra={"field": "seats"}
        )
    if not all(isinstance(seat, dict) for seat in seats):
        raise ApplicationError("Each seat is an object with a player id and its result.", extra={"field": "seats"})
    player_ids = [s.get("player") for s in seats]
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in player_ids):
        raise ApplicationError("Each seat names its player by id (a whole number).", extra={"field": "seats"})
    league = event.season.league
    players = Player.objects.in_bulk(player_ids)
    if actor is not None:
        from league.selectors import player_addable_list

        # A player the user may not know of (only in members-only leagues closed to them) is as unknown as a
        # missing one: the same answer, so nobody can probe for who plays where.
        known = set(player_addable_list(user=actor).filter(pk__in=players).values_list("pk", flat=True))
        players = {pk: player for pk, player in players.items() if pk in known}
    members = set(Membership.objects.filter(league=league, player_id__in=players).values_list("player_id", flat=True))
    missing = [str(p) for p in player_ids if p not in players]
    if missing:
        raise ApplicationError(
            f"Unknown players: {', '.join(missing)}; give existing player ids.", extra={"field": "seats"}
        )
    if len(set(player_ids)) != len(player_ids):  # named once the players are known to the one asking
        duplicates = sorted({players[p].display_name for p in player_ids if player_ids.count(p) > 1})
        raise ApplicationError(
            f"Each player may sit only once in a game; listed more than once: {', '.join(duplicates)}.",
            extra={"field": "seats"},
        )
    outsiders = [players[p].display_name for p in player_ids if p not in members]
    if outsiders:
        raise ApplicationError(
            f"Not members of {league}: {', '.join(outsiders)}. Only league members can be seated; add them first.",
            extra={"field": "seats"},
        )
    policy = effective_buy_in_policy(event)
    default_buy_in = policy.buy_in if policy else 0
    parsed = []
    for number, raw in enumerate(seats, start=1):
        player = players[raw["player"]]
        rebuys = whole_number(raw.get("rebuys", 0), f"{player}'s re-buys", maximum=MAX_COUNT)
        addon = whole_number(raw.get("addon_credits", 0), f"{player}'s add-on", maximum=MAX_CREDITS)
        if rebuys and policy is not None and not policy.rebuys_allowed:
            raise ApplicationError(
                f"{player} has {rebuys} re-buys but this event's buy-in policy ({policy}) allows none.",
                extra={"field": "rebuys"},
            )
        if rebuys and policy is not None and policy.max_rebuys and rebuys > policy.max_rebuys:
            raise ApplicationError(
                f"{player} has {rebuys} re-buys; this event allows at most {policy.max_rebuys}.",
                extra={"field": "rebuys"},
            )
        if addon and policy is not None and not policy.addon_allowed:
            raise ApplicationError(
                f"{player} has an add-on but this event's buy-in policy ({policy}) allows none.",
                extra={"field": "addon"},
            )
        default_rebuy = rebuys * (policy.rebuy_amount if policy else 0)
        parsed.append(
            SeatInput(
                player=player,
                number=number,
                buy_in=whole_number(raw.get("buy_in", default_buy_in), f"{player}'s buy-in", maximum=MAX_CREDITS),
                rebuys=rebuys,
                rebuy_credits=whole_number(
                    raw.get("rebuy_credits", default_rebuy), f"{player}'s re-buy credits", maximum=MAX_CREDITS
                ),
                addon_credits=addon,
                final_credits=whole_number(
                    raw.get("final_credits"), f"{player}'s final credits", maximum=MAX_CREDITS, allow_none=True
                ),
                place=whole_number(
                    raw.get("place"), f"{player}'s place", minimum=1, maximum=MAX_SEATS, allow_none=True
                ),
                knockouts=whole_number(raw.get("knockouts", 0), f"{player}'s knockouts", maximum=MAX_COUNT),
            )
        )
    return parsed


def _apply_hands(seats: list[SeatInput], hands: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Check hand-by-hand results ({player id: change}); return stacks after each hand."""
    if not isinstance(hands, list) or not hands:
        raise ApplicationError("Hands must be a non-empty list of {player id: credits won or lost}.")
    by_id = {str(s.player.pk): s for s in seats}
    stacks = {key: s.credits_in for key, s in by_id.items()}
    history = []
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict) or set(map(str, hand)) - by_id.keys():
            raise ApplicationError(
                f"Hand {number} names players who are not seated; use the ids of the seated players "
                f"({', '.join(by_id)}).",
                extra={"field": "hands"},
            )
        changes = {
            str(k): whole_number(v, f"Hand {number}'s change", minimum=-MAX_CREDITS, maximum=MAX_CREDITS)
            for k, v in hand.items()
        }
        if sum(changes.values()) != 0:
            raise ApplicationError(
                f"Hand {number} does not balance: the changes add up to {sum(changes.values())}, but what "
                "winners gain the others must lose (total 0).",
                extra={"field": "hands"},
            )
        for key, change in changes.items():
            stacks[key] += change
            if stacks[key] < 0:
                raise ApplicationError(
                    f"After hand {number} {by_id[key].player} would hold {stacks[key]} credits; a stack cannot go "
                    "below 0.",
                    extra={"field": "hands"},
                )
            by_id[key].hand_deltas.append(change)
            by_id[key].biggest_pot = max(by_id[key].biggest_pot, change)
        history.append(dict(stacks))
    for key, seat in by_id.items():
        if seat.final_credits is None:
            seat.final_credits = stacks[key]
        elif seat.final_credits != stacks[key]:
            raise ApplicationError(
                f"{seat.player}'s hands add up to {stacks[key]} credits "
                f"but the final credits say {seat.final_credits}.",
                extra={"field": "hands"},
            )
    return [{key: stacks_after[key] for key in by_id} for stacks_after in history]


def _apply_replay(seats: list[SeatInput], document: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """Play the replay with the engine; final credits, places and hand stacks come from it."""
    from games.engine import EngineError
    from games.engine.replay import play_replay

    if not isinstance(document, dict):
        raise ApplicationError("The replay must be a sabacc-replay/1 JSON object.", extra={"field": "replay"})
    if has_nul(document) or json_depth(document) > MAX_JSON_DEPTH:
        raise ApplicationError(
            f"The replay holds a NUL character or nests deeper than {MAX_JSON_DEPTH} levels; a sabacc-replay/1 "
            "document has neither.",
            extra={"field": "replay"},
        )
    try:
        result = play_replay(document)
    except EngineError as exc:
        raise ApplicationError(f"The replay was refused by the rules engine: {exc}", extra={"field": "replay"}) from exc
    if not result.get("complete", False):
        raise ApplicationError("The replay stops part-way through a hand; record a replay of whole hands only.")
    names = [s.player.display_name for s in seats]
    shared = sorted({name for name in names if names.count(name) > 1})
    if shared:
        raise ApplicationError(
            f"A replay names players by display name, and seated players share the display name "
            f"{', '.join(shared)}; rename one of them first so each replay seat matches one player.",
            extra={"field": "replay"},
        )
    by_name = {s.player.display_name: s for s in seats}
    replay_names = [seat.get("player") for seat in document.get("seats", [])]
    if sorted(replay_names) != sorted(by_name):
        raise ApplicationError(
            f"The replay seats {', '.join(map(str, replay_names))} but the result lists {', '.join(by_name)}; "
            "the replay's player names must be the seated players' display names.",
            extra={"field": "replay"},
        )
    for seat in document["seats"]:
        entry = by_name[seat["player"]]
        if entry.rebuy_credits or entry.addon_credits:
            raise ApplicationError("A replay cannot show re-buys or add-ons; enter this game without the replay.")
        if "stack" not in seat:
            raise ApplicationError(
                f'{entry.player}\'s seat in the replay gives no "stack"; give the {entry.buy_in} credits they '
                "bought in for.",
                extra={"field": "replay"},
            )
        if seat.get("stack") != entry.buy_in:
            raise ApplicationError(
                f"{entry.player} starts the replay with {seat.get('stack')} credits but bought in for {entry.buy_in}; "
                "they must be equal.",
                extra={"field": "replay"},
            )
    stacks, places = result["stacks"], {row["player"]: row["place"] for row in result["standings"]}
    for name, entry in by_name.items():
        if entry.final_credits is not None and entry.final_credits != stacks[name]:
            raise ApplicationError(
                f"{entry.player} ends the replay with {stacks[name]} credits, not the {entry.final_credits} entered.",
                extra={"field": "final_credits"},
            )
        if entry.place is not None and entry.place != places[name]:
            raise ApplicationError(
                f"{entry.player} finishes the replay in place {places[name]}, not the {entry.place} entered.",
                extra={"field": "places"},
            )
        entry.final_credits, entry.place = stacks[name], places[name]
    history = []
    previous = {name: entry.buy_in for name, entry in by_name.items()}
    for hand in result["hands"]:
        for pot in hand.get("pots", []):
            for name, paid in pot.get("paid", {}).items():
                by_name[name].biggest_pot = max(by_name[name].biggest_pot, paid)
        for name, entry in by_name.items():
            entry.hand_deltas.append(hand["stacks"][name] - previous[name])
        previous = dict(hand["stacks"])
        history.append({str(entry.player.pk): hand["stacks"][name] for name, entry in by_name.items()})
    return result, history


def _credits_from_finishing_order(seats: list[SeatInput]) -> None:
    """A finishing order alone describes a game played until one player held every credit:
    the winner ends with all the credits that came in, everyone else with none."""
    if any(s.final_credits is not None for s in seats) or all(s.place is None for s in seats):
        return
    unplaced = [s.player.display_name for s in seats if s.place is None]
    if unplaced:
        raise ApplicationError(
            f"A finishing order needs every player's place; missing for {', '.join(unplaced)}. "
            "Otherwise give every player's final credits.",
            extra={"field": "places"},
        )
    winners = [s for s in seats if s.place == 1]
    if len(winners) != 1:
        raise ApplicationError(
            f"A finishing order alone needs exactly one player in place 1 (the one who ended with every credit); "
            f"got {len(winners)}. For a shared first place give every player's final credits.",
            extra={"field": "places"},
        )
    total = sum(s.credits_in for s in seats)
    for seat in seats:
        seat.final_credits = total if seat is winners[0] else 0


def _check_game(seats: list[SeatInput], *, unpaid: int = 0) -> None:
    """`unpaid`: credits a replay leaves in no player's hands at the end (Corellian Spike's Sabacc pot and
    carry-over, RULES Ruling 2.6.1); they came in but are paid to nobody."""
    _credits_from_finishing_order(seats)
    missing = [s.player.display_name for s in seats if s.final_credits is None]
    if missing:
        raise ApplicationError(
            f"Final credits are missing for {', '.join(missing)}; give every player's final credits, a finishing "
            "order (every player's place, for a game played until one player held every credit), hand-by-hand "
            "results or a replay.",
            extra={"field": "final_credits"},
        )
    credits_in = sum(s.credits_in for s in seats)
    credits_out = sum(s.final_credits for s in seats) + unpaid
    if max(credits_in, credits_out) > MAX_CREDITS:
        raise ApplicationError(
            f"A game holds at most {MAX_CREDITS:,} credits in all; this one brings in {credits_in:,} and pays out "
            f"{credits_out:,}.",
            extra={"field": "final_credits", "credits_in": credits_in, "credits_out": credits_out},
        )
    if credits_in != credits_out:
        detail = "; ".join(f"{s.player}: in {s.credits_in}, out {s.final_credits}" for s in seats)
        raise ApplicationError(
            f"Credits do not balance: {credits_in} came in (buy-ins, re-buys, add-ons) but {credits_out} went out. "
            f"They must be equal. ({detail})",
            extra={"field": "final_credits", "credits_in": credits_in, "credits_out": credits_out},
        )
    if any(s.place is None for s in seats):
        if any(s.place is not None for s in seats):
            raise ApplicationError("Give a place for every player or for none (places then follow final credits).")
        _places_from_credits(seats)
    check_places(seats)

"""What the rules pages show: the variants and presets from the engine's registry, each preset's options in
plain words, and worked examples the engine itself works out (scores, hand names, side pots), so the pages
can never disagree with the game that is played.

The prose lives in `templates/rules/`; this module only gathers facts from the engine.
"""

from dataclasses import fields
from typing import Any

from games.engine.cards import parse_card
from games.engine.classic.cards import parse_card as parse_classic_card
from games.engine.classic.ranking import HAND_TITLES as CLASSIC_TITLES
from games.engine.classic.ranking import evaluate as classic_evaluate
from games.engine.dice import GOLD_FACES, SILVER_FACES
from games.engine.evaluation import best, score
from games.engine.pots import side_pots, uncalled
from games.engine.spike.evaluation import HAND_NAMES as SPIKE_HAND_NAMES
from games.engine.spike.evaluation import HAND_TITLES as SPIKE_TITLES
from games.engine.spike.evaluation import evaluate as spike_evaluate
from games.engine.variant import get_variant, variant_names
from games.phases import PHASE_LABELS, PHASE_TITLES, phase_anchor, phase_label  # noqa: F401 (used here and by callers)
from games.words import card

VARIANT_TITLES = {
    "coruscant_shift": "Coruscant Shift",
    "corellian_spike": "Corellian Spike",
    "classic": "Classic Sabacc",
}
VARIANT_SUMMARIES = {
    "coruscant_shift": "Five cards, two dice that set a target, and a secret selection: get closest to the target.",
    "corellian_spike": "Two to five cards, a market of face-up cards for sale: get your hand to total zero.",
    "classic": "The old game: lock cards in a field, survive the Sabacc Shifts, and get to 23 without going over.",
}
PRESET_SUMMARIES = {
    "halcyon": "A short, friendly game: ten credits each, one to stay in each round, everyone deals once.",
    "cantina": "A hundred credits each and an ante that grows as players drop out.",
    "better": "Poker-style blinds that double each time the dealer button goes round the table.",
    "casino": "A cash game: the ante equals the min bet, players come and go, re-buys allowed.",
    "galaxy_series": "The tournament way: a market of Pilot, Wing and Gunner at 1, 2 and 3 credits, spike dice on.",
    "cantina_spike": "The bar-room way: a face-up discard pile instead of the market, no buying from it.",
    "classic": "As played at a real table: the hand may be called from round 4, dice after every turn.",
    "universe": "As told in the stories: the hand may be called from round 5, dice only after betting.",
}

# Every option of every variant, as a player would call it (a test checks none is missing).
OPTION_LABELS = {
    "starting_stack": "Starting credits",
    "ante": "Ante (each player, each hand)",
    "sabacc_ante": "Sabacc pot ante (each player, each hand)",
    "small_blind": "Small blind",
    "big_blind": "Big blind",
    "min_bet": "Smallest bet",
    "betting": "Betting",
    "stay_cost": "Cost to stay in (fixed-stay betting)",
    "min_raise": "Smallest raise",
    "max_bet": "Most one player may put in a betting round",
    "escalation": "Forced bets grow",
    "ante_increments": "Ante rise with 2 / 3 / 4 / 5+ players left",
    "tie_rule": "A tie",
    "odd_credits": "Odd credits of a split pot",
    "end_rule": "The game ends",
    "hands": "Number of hands",
    "rebuys": "Re-buys",
    "add_ons": "Add-ons",
    "item_stakes": "Stake an item when out of credits",
    "roller": "Who rolls the dice",
    "chips": "Chips",
    "market": "Cards for sale",
    "market_prices": "Prices of Pilot / Wing / Gunner",
    "gain_from_discard": "Buy a face-up card without giving one back",
    "gain_cost": "Price of a blind draw",
    "swap_cost": "Price of a trade with the draw pile",
    "spike_dice": "Spike dice in round 3",
    "call_round": "The hand may be called from betting round",
    "max_rounds": "An uncalled hand ends after betting round",
    "shift_rolls": "When the dice are rolled",
    "hand_ranking": "Ordinary hands rank by",
    "declare_totals": "Two-card totals announced after the deal",
}
CHOICE_WORDS = {
    ("betting", "no_limit"): "no limit: bet, call, raise or go all-in",
    ("betting", "fixed_stay"): "fixed: pay to stay or fold, no raises",
    ("min_raise", "min_bet"): "the smallest bet",
    ("min_raise", "last_increment"): "the last raise (as in poker)",
    ("escalation", "none"): "never",
    ("escalation", "cantina"): "the ante rises before every hand, by the number of players left",
    ("escalation", "double_blinds"): "the blinds double each time the button passes the first dealer",
    ("tie_rule", "split"): "the pot is split",
    ("tie_rule", "draw"): "each tied player draws a card, highest wins",
    ("odd_credits", "carry"): "stay in the pot for the next hand",
    ("odd_credits", "left_of_dealer"): "one each to the winners nearest the dealer's left",
    ("end_rule", "last_player"): "when one player holds every credit",
    ("end_rule", "everyone_deals"): "after every player has dealt once",
    ("end_rule", "never"): "never: players join and leave between hands",
    ("roller", "dealer"): "the dealer",
    ("roller", "left_of_dealer"): "the player left of the dealer",
    ("chips", "simple"): "one credit each",
    ("chips", "standard"): "bronze 5, silver 50, gold 100 and up",
    ("market", "galaxy"): "Pilot, Wing and Gunner, turned up from the draw pile",
    ("market", "discard_pile"): "the top card of a face-up discard pile",
    ("shift_rolls", "turns_and_rounds"): "after every turn and every betting round",
    ("shift_rolls", "rounds"): "after every betting round",
    ("shift_rolls", "off"): "never (no Sabacc Shifts)",
    ("hand_ranking", "magnitude"): "nearness to +23 or -23",
    ("hand_ranking", "signed"): "the higher total",
}
# Corellian Spike's named hands, in words (the order is the engine's, best first; a test checks none is missing).
SPIKE_HAND_WORDS = {
    "pure_sabacc": ("the two Sylops, alone", "0 0"),
    "full_sabacc": ("a Sylop, two +10s and two -10s: five cards", "0 +10c +10s -10c -10t"),
    "fleet": ("a Sylop, two cards of the same number from 1 to 9 and their two negatives", "0 +5c +5t -5s -5t"),
    "prime_sabacc": ("a Sylop, a +10 and a -10", "0 +10t -10s"),
    "yee_haa": ("a Sylop, a number from 1 to 9 and its negative", "0 +4c -4s"),
    "rhylet": ("five cards, no Sylop, adding to zero: three of one number and two of another", "+2c +2s +2t -3c -3s"),
    "squadron": ("four cards, no Sylop: a number twice and its negative twice", "+6c +6s -6c -6t"),
    "gee_whiz": ("+1, +2, +3, +4 and -10, or the same with every sign turned round", "+1c +2s +3t +4c -10s"),
    "straight_khyron": ("four cards adding to zero whose numbers run in a row, like 1, 2, 3, 4", "+1c -2s -3t +4s"),
    "banthas_wild": ("four or five cards adding to zero, three of them of one number", "+3c +3s +3t -9c"),
    "rule_of_two": ("four or five cards adding to zero, with two pairs of different numbers", "+4c -4s +6t -6c"),
    "sabacc": ("any other hand adding to zero", "+9c -4s -5t"),
    "nulrhek": ("any hand that does not add to zero", "+7c -5s"),
}
NONE_WORDS = {"max_bet": "no cap", "hands": "no limit", "max_rounds": "no limit"}


class UnknownRules(LookupError):
    """No such variant or preset in the engine's registry (the page answers 404)."""


def variants() -> list[dict[str, Any]]:
    """Every registered variant with its presets, as the index lists them."""
    return [
        {
            "name": name,
            "title": VARIANT_TITLES.get(name, name.replace("_", " ").title()),
            "summary": VARIANT_SUMMARIES.get(name, ""),
            "presets": [preset_summary(name, preset) for preset in get_variant(name).presets],
        }
        for name in variant_names()
    ]


def preset_summary(variant: str, preset: str) -> dict[str, str]:
    return {"name": preset, "title": preset.replace("_", " ").title(), "summary": PRESET_SUMMARIES.get(preset, "")}


def preset_names(variant: str) -> tuple[str, ...]:
    return tuple(get_variant(variant).presets) if variant in variant_names() else ()


def _check(variant: str, preset: str | None = None) -> None:
    if variant not in variant_names():
        raise UnknownRules(f"No variant {variant!r}.")
    if preset is not None and preset not in get_variant(variant).presets:
        raise UnknownRules(f"No preset {preset!r} of {variant}.")


def option_text(name: str, value: Any) -> str:
    """One option's value in plain words."""
    if value is None:
        return NONE_WORDS.get(name, "none")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return CHOICE_WORDS.get((name, value), value.replace("_", " "))
    if name == "ante_increments":
        return " / ".join(f"+{v:,}" for v in value)
    if name == "market_prices":
        return " / ".join(f"{v:,}" for v in value)
    if isinstance(value, tuple):
        return " / ".join(f"{v:,}" for v in value)
    return f"{value:,}"


def preset_numbers(variant: str, preset: str) -> tuple[Any, list[dict[str, Any]]]:
    """The preset's options object (built by the engine) and one row per option: name, label, value, words."""
    _check(variant, preset)
    options = get_variant(variant).build_options(preset)
    rows = [
        {
            "name": field.name,
            "label": OPTION_LABELS.get(field.name, field.name.replace("_", " ").capitalize()),
            "value": getattr(options, field.name),
            "text": option_text(field.name, getattr(options, field.name)),
        }
        for field in fields(options)
    ]
    return options, rows


def comparison(variant: str) -> dict[str, Any]:
    """Every preset of `variant` side by side: the option rows with one value per preset."""
    _check(variant)
    presets = list(get_variant(variant).presets)
    tables = [preset_numbers(variant, preset)[1] for preset in presets]
    rows = [
        {"name": row["name"], "label": row["label"], "texts": [table[i]["text"] for table in tables]}
        for i, row in enumerate(tables[0])
    ]
    return {"presets": [preset_summary(variant, p) for p in presets], "rows": rows}


def cards(codes: str, variant: str) -> list[dict]:
    """Card codes as the table draws them."""
    return [card(code, variant) for code in codes.split()]


def deck(variant: str) -> list[dict[str, Any]]:
    """The variant's deck, grouped as a player sorts it: one group per suit, then the cards of no suit."""
    groups: dict[str, list[dict]] = {}
    for c in get_variant(variant).deck():
        drawn = card(c.code, variant)
        groups.setdefault(drawn["suit"], []).append(drawn)
    return [{"suit": suit, "label": _group_label(suit, group), "cards": group} for suit, group in groups.items()]


def _group_label(suit: str, group: list[dict]) -> str:
    if suit == "sylop":
        return "Sylops"
    if suit == "face":
        return "Face cards"
    if suit.startswith("classic-"):
        return group[0]["mark"].capitalize()
    return suit.capitalize()


def dice_faces() -> dict[str, Any]:
    """Coruscant Shift's two dice, face by face."""
    return {"gold": [f"{face:+d}" if face else "0" for face in GOLD_FACES], "silver": list(SILVER_FACES)}


def showdown_example() -> dict[str, Any]:
    """A Coruscant Shift reveal scored by the engine: two selections at the same distance, the suit decides."""
    target, suit = -5, "c"
    shown = {"Ana": "+3c -8s", "Ben": "-10c +5c", "Cyd": "+4t +6s -7t", "Dee": ""}
    scores = {name: score([parse_card(c) for c in codes.split()], target, suit) for name, codes in shown.items()}
    names = list(shown)
    winners = best(dict(enumerate(scores.values())), range(len(names)))
    return {
        "target": target,
        "suit": "circle",
        "rows": [
            {
                "name": name,
                "cards": cards(codes, "coruscant_shift"),
                "total": scores[name].total,
                "distance": scores[name].distance,
                "suit_count": scores[name].suit_count,
            }
            for name, codes in shown.items()
        ],
        "winners": [names[i] for i in winners],
    }


def side_pot_example() -> dict[str, Any]:
    """Four players' contributions sliced into pots by the engine (RULES 1.4), the uncalled part returned."""
    names = ["Ana", "Ben", "Cyd", "Dee"]
    put_in = {0: 20, 1: 50, 2: 80, 3: 10}
    how = ["all-in", "all-in", "bet 80, called by nobody in full", "paid 10, then folded"]
    folded = {3}
    back = uncalled(put_in)
    contributions = dict(put_in)
    if back is not None:
        contributions[back[0]] -= back[1]
    pots = side_pots(contributions, folded)
    return {
        "rows": [{"name": names[s], "put_in": put_in[s], "how": how[s]} for s in put_in],
        "returned": {"name": names[back[0]], "amount": back[1]} if back else None,
        "pots": [
            {
                "amount": p.amount,
                "eligible": [names[s] for s in p.eligible],
                "who": _and([names[s] for s in p.eligible]),
            }
            for p in pots
        ],
        "total": sum(p.amount for p in pots),
    }


def _and(names: list[str]) -> str:
    """ "Ana, Ben and Cyd"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def spike_examples() -> list[dict[str, Any]]:
    """Corellian Spike hands named and totalled by the engine, best first."""
    hands = ["0 0", "0 +4c -4s", "+6c +6s -6c -6t", "+9c -4s -5t", "+2c +3c +4c -8c", "+7c -5s", "-3t +1s"]
    rows = []
    for codes in hands:
        result = spike_evaluate([parse_card(c) for c in codes.split()])
        rows.append(
            {
                "cards": cards(codes, "corellian_spike"),
                "title": SPIKE_TITLES[result.name],
                "total": result.total,
                "key": result.key,
            }
        )
    rows.sort(key=lambda row: row["key"], reverse=True)
    return rows


def spike_hierarchy() -> list[dict[str, Any]]:
    """Corellian Spike's hands best first, in the engine's order, each with its words and an example the engine
    names (so an example that stopped matching its row would show the wrong name)."""
    rows = []
    for rank, name in enumerate(SPIKE_HAND_NAMES, start=1):
        words, codes = SPIKE_HAND_WORDS.get(name, ("", ""))
        example = [parse_card(c) for c in codes.split()]
        rows.append(
            {
                "rank": rank,
                "name": name,
                "title": SPIKE_TITLES[name],
                "words": words,
                "cards": cards(codes, "corellian_spike"),
                "example_is": SPIKE_TITLES[spike_evaluate(example).name] if example else "",
            }
        )
    return rows


def classic_examples(ranking: str = "magnitude") -> list[dict[str, Any]]:
    """Classic Sabacc hands judged by the engine, best first, bombed-out hands last."""
    hands = ["0 +2s +3f", "+15s +8c", "-17 -8 +2t", "+11c +11f", "-15 -8 +1s", "+12t +13s", "+7s -8 +1c"]
    rows = []
    for codes in hands:
        result = classic_evaluate([parse_classic_card(c) for c in codes.split()], ranking)
        rows.append(
            {
                "cards": cards(codes, "classic"),
                "title": CLASSIC_TITLES[result.hand] or "ordinary hand",
                "total": result.total,
                "bombed": result.bombed,
                "key": result.key,
            }
        )
    rows.sort(key=lambda row: row["key"], reverse=True)
    return rows


def page(variant: str, preset: str | None = None) -> dict[str, Any]:
    """Everything one rules page shows: the variant, its phases, its deck, its presets' numbers (one preset's
    when `preset` is given) and the worked examples."""
    _check(variant, preset)
    engine_variant = get_variant(variant)
    context: dict[str, Any] = {
        "variant": variant,
        "title": VARIANT_TITLES.get(variant, variant),
        "summary": VARIANT_SUMMARIES.get(variant, ""),
        "phases": [{"key": key, "title": title} for key, title in PHASE_TITLES.get(variant, {}).items()],
        "deck": deck(variant),
        "deck_size": len(engine_variant.deck()),
        "presets": [preset_summary(variant, p) for p in engine_variant.presets],
        "side_pots": side_pot_example(),
        "has_blinds": engine_variant.has_blinds,
    }
    if preset is None:
        context["comparison"] = comparison(variant)
    else:
        options, rows = preset_numbers(variant, preset)
        context.update(preset=preset_summary(variant, preset), options=options, numbers=rows)
        context["other_presets"] = [p for p in context["presets"] if p["name"] != preset]
    if variant == "coruscant_shift":
        context.update(dice=dice_faces(), showdown=showdown_example())
    elif variant == "corellian_spike":
        context.update(hands=spike_examples(), hierarchy=spike_hierarchy())
    elif variant == "classic":
        ranking = context["options"].hand_ranking if preset else "magnitude"
        context["hands"] = classic_examples(ranking)
    return context

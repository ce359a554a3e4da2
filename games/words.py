"""The game in words: cards, suits, phases, hands, variants and presets as a player names them, read from the
engine's own codes (its decks, phases, presets and hand names), and the patterns of those codes, so a page
that shows a code instead of a word can be caught (tests/site/test_words_sweep.py).

Codes stay where they belong: replays, the API, and `title`/`aria` attributes and `<code>` elements.
"""

import re
from functools import cache

from config.inputs import is_digits
from games.engine.classic.cards import FACE_NAMES as CLASSIC_FACE_NAMES
from games.engine.classic.cards import RANK_NAMES as CLASSIC_RANK_NAMES
from games.engine.classic.cards import SUIT_NAMES as CLASSIC_SUIT_NAMES
from games.engine.classic.ranking import HAND_TITLES as CLASSIC_HAND_TITLES
from games.engine.options import option_specs
from games.engine.spike.evaluation import HAND_NAMES as SPIKE_HAND_NAMES
from games.engine.spike.evaluation import HAND_TITLES as SPIKE_HAND_TITLES
from games.engine.variant import get_variant, variant_names
from games.phases import phase_label, roll_label

SUIT_NAMES = {"c": "circle", "s": "square", "t": "triangle"}
VARIANT_TITLES = {
    "coruscant_shift": "Coruscant Shift",
    "corellian_spike": "Corellian Spike",
    "classic": "Classic Sabacc",
}
# Presets whose name is not its slug with capitals.
PRESET_TITLES = {"classic": "Classic", "universe": "Universe", "cantina_spike": "Cantina"}
MINUS = "\u2212"  # U+2212, the minus sign: a hyphen before a number reads as a dash


def variant_title(variant: object) -> str:
    """ "Coruscant Shift" for `coruscant_shift`."""
    text = str(variant or "")
    return VARIANT_TITLES.get(text, text.replace("_", " ").title())


def preset_title(preset: object) -> str:
    """ "Galaxy Series" for `galaxy_series`, "Better" for `better`."""
    text = str(preset or "")
    return PRESET_TITLES.get(text, text.replace("_", " ").title())


def rules_title(variant: object, preset: object) -> str:
    """ "Better Coruscant Shift" (its presets read as adjectives), "Corellian Spike (Galaxy Series)", "Classic":
    the one name the pages give a game's rules (`league.pages.rules_name`, which the league pages use)."""
    from league.pages import rules_name

    return rules_name(str(variant or ""), str(preset or ""))


def signed_number(value: int) -> str:
    """+3, -2 (a minus sign, not a hyphen) and 0."""
    if value < 0:
        return f"{MINUS}{-value}"
    return f"+{value}" if value else "0"


def price_words(price: object) -> str:
    """A card action's price as the page says it: "costs 1 credit", "costs 2 credits", or "free" at 0."""
    amount = int(price or 0)
    return f"costs {amount} credit{'' if amount == 1 else 's'}" if amount else "free"


def card_name(code: object, variant: str | None = None) -> str:
    """One card in words: "-3 triangle", "+7 circle", "Sylop"; Classic: "12 Coins (Commander)", "The Idiot",
    "The Star (-17)". An unknown code is returned as it came (never a 500 for a bad replay)."""
    text = str(code or "").strip()
    if not text:
        return ""
    if variant == "classic":
        value = _signed(text)
        if value is not None:
            face = CLASSIC_FACE_NAMES.get(value)
            if face is None:
                return text
            return "The Idiot" if value == 0 else f"{face} ({signed_number(value)})"
        suit = CLASSIC_SUIT_NAMES.get(text[-1])
        value = _signed(text[:-1])
        if suit is None or value is None or value < 0:
            return text
        rank = CLASSIC_RANK_NAMES.get(value)
        return f"{value} {suit}" + (f" ({rank})" if rank else "")
    if text == "0":
        return "Sylop"
    suit = SUIT_NAMES.get(text[-1:].lower())
    value = _signed(text[:-1])
    if suit is None or value is None:
        return text
    return f"{signed_number(value)} {suit}"


def _signed(text: str) -> int | None:
    """A card code's number: ASCII digits after at most one sign ("+7", "-3", "12"), else None (a replay's card
    text is anyone's: "¹" passes `str.isdigit` and fails `int`, as does "+-3" after a `lstrip`)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    return int(text) if is_digits(digits) else None


def card(code: str, variant: str | None = None) -> dict:
    """A card code (`+7c`, `-3t`, `0`) as the page draws it: signed value and suit shape, or the Sylop.
    Classic Sabacc's cards (`+12f`, `-17`, `0`) have no shapes: value and suit in words."""
    if variant == "classic":
        if code[-1:].isdigit():
            return {
                "code": code,
                "sylop": False,
                "value": code,
                "suit": "face",
                "mark": "face",
                "label": card_name(code, variant),
            }
        suit = CLASSIC_SUIT_NAMES.get(code[-1:], code[-1:])
        return {
            "code": code,
            "sylop": False,
            "value": code[:-1],
            "suit": f"classic-{code[-1:]}",
            "mark": suit,
            "label": card_name(code, variant),
        }
    if code == "0":
        return {"code": code, "sylop": True, "value": "0", "suit": "sylop", "label": "Sylop"}
    value, suit = _signed(code[:-1]), SUIT_NAMES.get(code[-1:], code[-1:])
    text = code[:-1] if value is None else f"{value:+d}" if value else "0"
    return {"code": code, "sylop": False, "value": text, "suit": suit, "label": card_name(code, variant)}


def cards_words(codes: object, variant: str | None = None) -> str:
    """Several cards ("+3c -8s" or a list) in words, comma separated; "no cards" for none."""
    items = codes.split() if isinstance(codes, str) else list(codes or [])
    return ", ".join(card_name(code, variant) for code in items) or "no cards"


def phase_title(variant: object, phase: object) -> str:
    """A phase as the table names it ("Round 2: betting", "Second betting round")."""
    return phase_label(str(variant or ""), str(phase or ""))


def roll_title(variant: object, phase: object) -> str:
    """The roll a real-cards hand waits for, named for what it decides ("Roll: the target and its suit")."""
    return roll_label(str(variant or ""), str(phase or ""))


def hand_title(name: object) -> str:
    """A named hand in words: "Pure Sabacc", "Yee-Haa", "Idiot's Array"."""
    text = str(name or "")
    return SPIKE_HAND_TITLES.get(text) or CLASSIC_HAND_TITLES.get(text) or text.replace("_", " ").capitalize()


# ----- the codes, so a page that shows one can be caught ---------------------------------------------------


@cache
def card_codes() -> dict[str, frozenset[str]]:
    """Every card code of every variant's deck ({variant: codes}), as the engine writes them."""
    return {name: frozenset(card.code for card in get_variant(name).deck()) for name in variant_names()}


@cache
def slug_codes() -> frozenset[str]:
    """The engine's names that are codes, not words: those with an underscore or a digit (`cards_1`,
    `coruscant_shift`, `galaxy_series`, `yee_haa`, `double_blinds`); plain words (`select`, `better`) are words."""
    names: set[str] = set()
    for variant in variant_names():
        names.add(variant)
        spec = get_variant(variant)
        names.update(spec.phases)
        names.update(spec.presets)
    names.update(SPIKE_HAND_NAMES)
    names.update(str(name) for name in CLASSIC_HAND_TITLES)
    for spec in option_specs():
        names.add(spec["name"])
        names.update(str(choice) for choice in spec["choices"])
    return frozenset(name for name in names if re.search(r"[_\d]", name) and re.fullmatch(r"[a-z][a-z0-9_]*", name))


@cache
def code_patterns() -> dict[str, re.Pattern]:
    """What a page's words must not contain: card codes (a signed or bare number with a suit letter of a deck:
    `-3t`, `+12f`), the engine's slugs in any letter case (`Cards_1`), and version labels (`v17`)."""
    suited = sorted(
        {code.lstrip("+-") for codes in card_codes().values() for code in codes if not code.lstrip("+-").isdigit()},
        key=lambda code: (-len(code), code),
    )
    return {
        "card code": re.compile(r"(?:[+\-\u2212]|(?<![\w.,]))(?:" + "|".join(map(re.escape, suited)) + r")(?!\w)"),
        "engine code": re.compile(
            r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(slug_codes(), key=len, reverse=True))) + r")(?!\w)",
            re.IGNORECASE,
        ),
        "version label": re.compile(r"(?<!\w)v\d+(?!\w)"),
    }


@cache
def bare_card_codes() -> frozenset[str]:
    """The codes that are bare signed numbers (Classic's face cards, `-14`): in running text they look like any
    amount of credits, so they are looked for only where a card is the whole of a label (a menu's choice)."""
    return frozenset(
        code for codes in card_codes().values() for code in codes if code.lstrip("+-").isdigit() and code != "0"
    )


def codes_in(text: str) -> list[tuple[str, str]]:
    """(kind, code) of every code in a page's words."""
    return [(kind, match.group(0)) for kind, pattern in code_patterns().items() for match in pattern.finditer(text)]

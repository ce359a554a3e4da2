"""What a Corellian Spike hand's seats may do: its phases and verbs, the names of the prices, the records only
their seat may see, and the legal actions of a card turn or a spike (`CardTurnActions`).
"""

from dataclasses import dataclass, fields

CARD_PHASES = ("cards_1", "cards_2", "cards_3")
BETTING_PHASES = ("betting_1", "betting_2", "betting_3")
CARD_VERBS = ("stand", "draw", "trade", "buy")
BET_VERBS = ("check", "call", "bet", "raise", "fold", "allin")
PRICE_NAMES = {
    "pilot": "the Pilot",
    "wing": "the Wing",
    "gunner": "the Gunner",
    "discard": "the discard pile's top card",
}
# Log records whose cards only their seat may see (the others see the record without its cards).
PRIVATE_KINDS = ("deal", "draw", "trade", "buy", "spike")


@dataclass(frozen=True)
class CardTurnActions:
    """What one seat may do in a card turn or a spike, with each source's price (credits)."""

    seat: int
    phase: str
    verbs: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    draw_cost: int = 0
    trade_from: tuple[tuple[str, int], ...] = ()
    buy_from: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict:
        # Every field is in the object's `__dict__` (a frozen dataclass without slots, or `legal_from`): read there,
        # a dict lookup each, as `LegalActions.to_dict` does.
        values = self.__dict__
        verbs = values["verbs"]
        data: dict = {"seat": values["seat"], "phase": values["phase"], "verbs": list(verbs)}
        if verbs:
            data["cards"] = list(values["cards"])
        if "draw" in verbs:
            data["draw_cost"] = values["draw_cost"]
        if "trade" in verbs:
            data["trade_from"] = dict(values["trade_from"])
        if "buy" in verbs:
            data["buy_from"] = dict(values["buy_from"])
        return data


# Every field of a `CardTurnActions` at its default: `legal_from(CardTurnActions, {**CARD_TURN_DEFAULTS, ...})`.
CARD_TURN_DEFAULTS = {f.name: f.default for f in fields(CardTurnActions)}

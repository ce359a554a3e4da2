"""Blind structures: a list of levels (blinds, ante, length) and breaks, their validation, presets and a suggestion.

Pure Python, no Django: a structure is plain data that the models store as JSON and the clock reads.
A level lasts a number of minutes, hands or orbits (an orbit: the button goes once round the table).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tournaments.errors import TournamentLogicError

UNITS = ("minutes", "hands", "orbits", "seconds")
TIMED_UNITS = {"minutes": 60, "seconds": 1}  # seconds: compressed clocks for tests, demos and benchmarks


@dataclass(frozen=True, kw_only=True)
class Level:
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    length: int
    unit: str = "minutes"
    is_break: bool = False

    @property
    def seconds(self) -> int | None:
        """How long the level lasts in seconds of play; None when it lasts hands or orbits (not timed)."""
        factor = TIMED_UNITS.get(self.unit)
        return self.length * factor if factor else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def level_from_dict(data: Any, index: int) -> Level:
    """One level from JSON, refusing unknown keys and wrong types with the level's number in the message."""
    where = f"Level {index + 1}"
    if not isinstance(data, dict):
        raise TournamentLogicError(f"{where} must be an object with small_blind, big_blind, ante, length and unit.")
    allowed = {"small_blind", "big_blind", "ante", "length", "unit", "is_break"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise TournamentLogicError(f"{where} has unknown keys {unknown}; allowed: {sorted(allowed)}.")
    for key in ("small_blind", "big_blind", "ante", "length"):
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TournamentLogicError(f"{where}: {key} must be a whole number of 0 or more; got {value!r}.")
    unit = data.get("unit", "minutes")
    if unit not in UNITS:
        raise TournamentLogicError(f"{where}: unit must be one of {', '.join(UNITS)}; got {unit!r}.")
    if not isinstance(data.get("is_break", False), bool):
        raise TournamentLogicError(f"{where}: is_break must be true or false.")
    return Level(**{key: data[key] for key in data})


def structure_from_json(data: Any) -> list[Level]:
    if not isinstance(data, list) or not data:
        raise TournamentLogicError("A structure is a non-empty list of levels.")
    return [level_from_dict(item, index) for index, item in enumerate(data)]


def structure_to_json(levels: list[Level]) -> list[dict[str, Any]]:
    return [level.to_dict() for level in levels]


def payable(amount: int, denominations: list[int]) -> bool:
    """Whether `amount` can be paid exactly with chips of these values (any number of each)."""
    if amount == 0:
        return True
    reachable = [False] * (amount + 1)
    reachable[0] = True
    for total in range(1, amount + 1):
        reachable[total] = any(value <= total and reachable[total - value] for value in denominations)
    return reachable[amount]


def validate_structure(
    levels: list[Level], *, denominations: list[int] | None = None, no_blinds: str | None = None
) -> list[str]:
    """Refuse a structure that cannot be played; return the colour-up prompts (chips no longer needed).

    Rules: at least one playing level; every level lasts at least 1; a playing level has a big blind or an
    ante; the small blind is at most the big blind; the ante is at most the big blind (when there are blinds);
    blinds and antes never decrease; with a chip set, every amount is payable in its denominations. For a
    variant without blinds (`no_blinds` names it: Corellian Spike, Classic) a playing level has an ante, the
    hand-pot ante every player pays each hand, and no blinds.
    """
    playing = [(index, level) for index, level in enumerate(levels) if not level.is_break]
    if not playing:
        raise TournamentLogicError("A structure needs at least one playing level (not only breaks).")
    if levels[0].is_break:
        raise TournamentLogicError("A structure cannot start with a break: put the first playing level first.")
    denominations = sorted({value for value in (denominations or []) if value > 0})
    previous: Level | None = None
    for index, level in enumerate(levels):
        where = f"Level {index + 1}"
        if level.length < 1:
            raise TournamentLogicError(f"{where} must last at least 1 {level.unit}; got {level.length}.")
        if level.is_break:
            if level.unit not in TIMED_UNITS:
                raise TournamentLogicError(f"{where} is a break: a break lasts minutes, not {level.unit}.")
            if level.small_blind or level.big_blind or level.ante:
                raise TournamentLogicError(f"{where} is a break: it has no blinds or ante (leave them at 0).")
            continue
        if no_blinds and (level.small_blind or level.big_blind or not level.ante):
            raise TournamentLogicError(
                f"{where}: {no_blinds} has no blinds; a level sets the hand-pot ante every player pays each hand. "
                f"Leave small_blind and big_blind at 0 and give an ante of at least 1 "
                f"(got {level.small_blind}/{level.big_blind}, ante {level.ante})."
            )
        if level.big_blind == 0 and level.ante == 0:
            raise TournamentLogicError(f"{where} has no big blind and no ante: a level needs at least one forced bet.")
        if level.small_blind > level.big_blind:
            raise TournamentLogicError(
                f"{where}: the small blind ({level.small_blind}) is larger than the big blind ({level.big_blind})."
            )
        if level.big_blind and level.ante > level.big_blind:
            raise TournamentLogicError(
                f"{where}: the ante ({level.ante}) is larger than the big blind ({level.big_blind}); "
                "an ante may be at most the big blind."
            )
        if previous is not None:
            for key in ("small_blind", "big_blind", "ante"):
                if getattr(level, key) < getattr(previous, key):
                    raise TournamentLogicError(
                        f"{where}: the {key.replace('_', ' ')} ({getattr(level, key)}) is lower than the level "
                        f"before ({getattr(previous, key)}); a structure never decreases."
                    )
        if denominations:
            for key in ("small_blind", "big_blind", "ante"):
                amount = getattr(level, key)
                if not payable(amount, denominations):
                    raise TournamentLogicError(
                        f"{where}: the {key.replace('_', ' ')} of {amount} cannot be paid with chips of "
                        f"{', '.join(map(str, denominations))}; choose a sum of those values."
                    )
        previous = level
    return colour_up_prompts(levels, denominations) if denominations else []


def colour_up_prompts(levels: list[Level], denominations: list[int]) -> list[str]:
    """For each denomination, the level from which every forced bet is a multiple of a larger chip.

    From then on the smaller chip is no longer needed: race it off (chip race) or colour it up.
    """
    prompts = []
    values = sorted(denominations)
    for position, value in enumerate(values[:-1]):
        larger = values[position + 1]
        for index, level in enumerate(levels):
            if level.is_break:
                continue
            amounts = [amount for amount in (level.small_blind, level.big_blind, level.ante) if amount]
            later = [
                later_level
                for later_level in levels[index:]
                if not later_level.is_break
                and any(
                    amount % larger for amount in (later_level.small_blind, later_level.big_blind, later_level.ante)
                )
            ]
            if amounts and not later:
                prompts.append(
                    f"From level {index + 1} no forced bet needs the {value}-credit chips: colour them up to "
                    f"{larger}-credit chips (chip race) at the break before it."
                )
                break
    return prompts


def cantina_preset(*, start_ante: int = 2, hands_per_level: int = 1, players: int = 6) -> list[Level]:
    """Cantina's ante escalation written as levels: the ante rises each hand by 5, 3, 2 or 1 as 2, 3, 4, 5+ remain.

    The rise depends on how many still hold credits, which a fixed list cannot know; this preset assumes the
    field shrinks from `players` to 2 evenly and is a guide for the clock. The engine applies the exact rule.
    """
    increments = {2: 5, 3: 3, 4: 2}
    levels = [Level(ante=start_ante, length=hands_per_level, unit="hands")]
    ante = start_ante
    for remaining in range(max(players, 2), 1, -1):
        ante += increments.get(remaining, 1)
        levels.append(Level(ante=ante, length=hands_per_level, unit="hands"))
    return levels


def better_preset(*, small_blind: int = 5, big_blind: int = 10, levels: int = 10) -> list[Level]:
    """Better's blinds doubling each time the button passes the first dealer's seat: one orbit per level."""
    return [
        Level(small_blind=small_blind * 2**step, big_blind=big_blind * 2**step, length=1, unit="orbits")
        for step in range(levels)
    ]


def time_preset(*, big_blinds: list[int], minutes: int, break_every: int = 4, break_minutes: int = 10) -> list[Level]:
    """A time-based structure: each big blind for `minutes`, small blind half of it, a break every few levels."""
    result: list[Level] = []
    for index, big_blind in enumerate(big_blinds):
        if index and break_every and index % break_every == 0:
            result.append(Level(length=break_minutes, is_break=True))
        result.append(Level(small_blind=big_blind // 2, big_blind=big_blind, length=minutes))
    return result


PRESETS = {
    "cantina": cantina_preset,
    "better": better_preset,
    "turbo": lambda: time_preset(big_blinds=[10, 20, 30, 50, 100, 150, 200, 300, 400, 600, 800, 1000], minutes=10),
    "regular": lambda: time_preset(big_blinds=[10, 20, 30, 50, 100, 150, 200, 300, 400, 600, 800, 1000], minutes=20),
}


def suggest_structure(
    *, duration_minutes: int, players: int, starting_stack: int, denominations: list[int] | None = None
) -> list[Level]:
    """A time-based structure that should end in about `duration_minutes`.

    The big blind grows geometrically from about 1/50 of the starting stack to about a tenth of all the chips in
    play (when a few players are left, blinds that size end the event), over levels of equal length, each amount
    rounded down to the smallest chip.
    """
    if duration_minutes < 10 or players < 2 or starting_stack < 2:
        raise TournamentLogicError(
            "A suggestion needs a duration of at least 10 minutes, 2 players or more and a starting stack of 2 or more."
        )
    chip = min(denominations) if denominations else 1
    level_minutes = max(5, min(30, round(duration_minutes / 12)))
    count = max(2, duration_minutes // level_minutes)
    first = max(chip * 2, starting_stack // 50 // (chip * 2) * chip * 2)
    last = max(first, players * starting_stack // 10)
    ratio = (last / first) ** (1 / (count - 1))
    levels: list[Level] = []
    previous = 0
    for step in range(count):
        # At least two chips above the level before: a level that changes nothing is no level (a small stack in
        # coarse chips otherwise repeated 10/20 three times).
        big = max(previous + chip * 2 if previous else first, int(first * ratio**step) // (chip * 2) * chip * 2)
        levels.append(Level(small_blind=big // 2, big_blind=big, length=level_minutes))
        previous = big
    return levels


def preset_for_duration(
    *,
    duration_minutes: int,
    starting_stack: int,
    players: int = 10,
    ante_only: bool = False,
    denominations: list[int] | None = None,
    break_every: int = 4,
    break_minutes: int = 10,
) -> list[Level]:
    """The editor's "fill from a preset": `suggest_structure` with a break every few levels, all of it (breaks
    included) lasting about `duration_minutes`.

    For a variant without blinds (`ante_only`: Corellian Spike, Classic) each level is the hand-pot ante every
    player pays each hand, a quarter of the big blind it replaces (about the same cost per orbit at a full
    table), rounded down to the smallest chip and at least a chip more than the level before.
    """
    if duration_minutes < 10:
        raise TournamentLogicError("A preset needs a target duration of at least 10 minutes.")
    if starting_stack < 2:
        raise TournamentLogicError("A preset needs a starting stack of 2 or more.")
    level_minutes = max(5, min(30, round(duration_minutes / 12)))
    breaks = 0
    if break_every > 0 and break_minutes > 0:
        breaks = max(0, (duration_minutes // level_minutes - 1) // (break_every + 1))
    playing_minutes = max(10, duration_minutes - breaks * break_minutes)
    levels = suggest_structure(
        duration_minutes=playing_minutes,
        players=max(players, 2),
        starting_stack=starting_stack,
        denominations=denominations,
    )
    if ante_only:
        chip = min(denominations) if denominations else 1
        antes: list[Level] = []
        for level in levels:
            # Each level raises the ante by at least a chip: a level that changes nothing is no level.
            ante = max(chip, level.big_blind // 4 // chip * chip, antes[-1].ante + chip if antes else 0)
            antes.append(Level(ante=ante, length=level.length))
        levels = antes
    result: list[Level] = []
    for index, level in enumerate(levels):
        if index and break_every > 0 and break_minutes > 0 and index % break_every == 0:
            result.append(Level(length=break_minutes, is_break=True))
        result.append(level)
    return result

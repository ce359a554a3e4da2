"""The old import path of Coruscant Shift's dice (now `games.engine.coruscant.dice`), for callers outside the
engine; nothing in the engine imports it."""

from games.engine.coruscant.dice import (
    GOLD_FACES,
    SILVER_FACES,
    Dice,
    decode_dice,
    dice_from_seed,
    encode_dice,
    parse_dice,
    roll,
)

__all__ = ["GOLD_FACES", "SILVER_FACES", "Dice", "decode_dice", "dice_from_seed", "encode_dice", "parse_dice", "roll"]

"""The error of the pure tournament logic: a message a person can read and act on (no Django here)."""


class TournamentLogicError(ValueError):
    """Bad input to the structure, clock, seating or payout logic: says what is wrong and what is allowed."""

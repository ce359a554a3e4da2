"""The phases of a hand as the pages name them: the rules page's headings (`PHASE_TITLES`, whose keys are its
`#phase-<key>` anchors) and the shorter labels of a table page (`PHASE_LABELS`). Plain data with no imports of the
site, so that `games.words` and `games.rules_pages` both read it without importing each other."""

# The phases of a hand as the table names them, each with the heading of its part of the rules page.
# Anchors are `phase-<key>`; the engine's decision phases come from the registry (a test keeps them covered).
PHASE_TITLES = {
    "coruscant_shift": {
        "deal": "Forced bets and the deal",
        "select": "Select",
        "betting_1": "First betting round",
        "improve": "The shift and Improve",
        "betting_2": "Second betting round",
        "complete": "The reveal",
    },
    "corellian_spike": {
        "deal": "Antes and the deal",
        "cards_1": "Round 1: card turns",
        "betting_1": "Round 1: betting",
        "cards_2": "Round 2: card turns",
        "betting_2": "Round 2: betting",
        "spike": "Round 3: the spike dice",
        "cards_3": "Round 3: card turns",
        "betting_3": "Round 3: betting",
        "complete": "The reveal",
    },
    "classic": {
        "deal": "Antes and the deal",
        "play": "Play turns",
        "betting": "Betting rounds",
        "closing": "The roll after betting",
        "complete": "The reveal",
    },
}


# The phase label of a table page, where the rules page's heading is too long for it.
PHASE_LABELS = {
    "coruscant_shift": {
        "deal": "Deal",
        "select": "Select",
        "betting_1": "First betting round",
        "improve": "Improve",
        "betting_2": "Second betting round",
        "complete": "Complete",
    },
    "corellian_spike": {"deal": "Deal", "spike": "Round 3: spike dice", "complete": "Complete"},
    "classic": {
        "deal": "Deal",
        "play": "Play turns",
        "betting": "Betting",
        "closing": "Closing roll",
        "complete": "Complete",
    },
}


# While a real-cards hand waits for its dice the engine is still in the phase before the roll (Coruscant Shift's
# "deal", Corellian Spike's last betting round, Classic's play turn): the table names the roll instead.
ROLL_LABELS = {
    "coruscant_shift": "Roll: the target and its suit",
    "corellian_spike": "Roll of the spike dice",
    "classic": {"closing": "Closing roll", "": "Roll after the turn"},
}


def roll_label(variant: str, phase: str) -> str:
    """The table's name for the roll its hand waits for: "Roll: the target and its suit", "Closing roll"."""
    label = ROLL_LABELS.get(variant, "Roll of the dice")
    return label if isinstance(label, str) else label.get(phase) or label[""]


def phase_label(variant: str, phase: str) -> str:
    """The table's name for a phase: "Round 2: betting", "Play turns"."""
    return PHASE_LABELS.get(variant, {}).get(phase) or PHASE_TITLES.get(variant, {}).get(phase) or phase.capitalize()


def phase_anchor(variant: str, phase: str | None) -> str:
    """`#phase-<phase>` when the rules page of `variant` has that phase, else nothing (the top of the page)."""
    return f"#phase-{phase}" if phase and phase in PHASE_TITLES.get(variant, {}) else ""

"""Points formulas, tie-break metrics and the standings computation."""

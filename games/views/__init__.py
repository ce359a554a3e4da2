"""Pages of the games app: `pages` (event and game pages, hand histories) and `entry` (organisers:
result entry, corrections)."""

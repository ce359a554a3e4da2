"""Pages of the games app: `pages` (event and game pages, hand histories), `entry` (organisers: result entry, corrections)."""

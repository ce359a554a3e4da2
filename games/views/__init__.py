"""Pages of the games app: `pages` (event and game pages, hand histories), `rules` (the rules pages) and
`entry` (organisers: result entry, corrections)."""

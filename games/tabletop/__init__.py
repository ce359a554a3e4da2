"""Real-cards tables on the site: people play with a printed deck and real dice, the site keeps the chips
(issue 25; docs/tabletop.md). The engine is `games.engine.realcards`."""

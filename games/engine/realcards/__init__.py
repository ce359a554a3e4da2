"""Real cards: the engine plays a table whose cards stay unknown until revealed (docs/engine.md, "Real cards")."""

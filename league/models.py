"""Players, leagues, seasons, chip sets, buy-ins, tournaments and standings."""

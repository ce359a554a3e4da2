"""Tables, seats and games around the engine."""

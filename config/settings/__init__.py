"""Settings: `base` is read from the environment; `production` adds the safety checks."""

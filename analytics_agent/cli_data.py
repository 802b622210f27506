"""Commands that change the data: load, drop (registered on the root app)."""

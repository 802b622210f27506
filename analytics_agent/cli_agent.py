"""Commands that ask a model: ask, chat, demo (registered on the root app)."""

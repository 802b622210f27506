"""OpenAI-compatible /chat/completions: the provider, its wire mapping and stream assembly."""

"""Tool arguments: one pydantic model per tool, the JSON Schemas every provider accepts, and the quick checks that need no pydantic."""

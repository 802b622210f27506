"""Text-mode tool calling for models without native tools: the prompt, the protocol parser, the mode."""

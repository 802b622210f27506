"""Model providers: each maps the neutral conversation to its wire format and back."""

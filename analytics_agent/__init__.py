"""analytics-agent: ask business questions in plain language; a model answers with real numbers from DuckDB."""

__version__ = "0.1.0"

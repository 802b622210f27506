"""SQL identifiers as DuckDB reads them: any name, quoted."""

from __future__ import annotations


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'

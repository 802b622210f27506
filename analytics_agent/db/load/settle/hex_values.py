"""Integer columns the file writes in hexadecimal (``0x1A``). DuckDB's reader stores each as the number it
writes, so a hex code loses its written form without a sign: said in one line per column, with the option
that keeps the text. The file's first block decides whether to look (a column written in hex shows it in
its first rows); only then is the file read again as text, where every value is counted."""

from __future__ import annotations

import re
from typing import Any

import duckdb

from analytics_agent.db.catalog import column_types, quote_ident
from analytics_agent.db.rows import first_row

# patterns, compiled on first use (re's cache): most files hold no "0x" at all
_HEX_FIELD = r"(?m)(?:^|[,;\t|])[ \t]*\"?[+-]?0[xX][0-9a-fA-F]"
_INTEGER = r"U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)"


def written_in_hex(text: str) -> bool:
    """Whether a field of ``text`` (the file's first block) starts with a hexadecimal number. Pure."""
    return ("0x" in text or "0X" in text) and re.search(_HEX_FIELD, text) is not None


def hex_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_reader: tuple[str, list[Any]],
    stored_to_original: dict[str, str],
) -> list[str]:
    """One line per integer column of the freshly written ``table`` holding values the file writes in
    hexadecimal, counted in the file read as text (``text_reader``)."""
    columns = [
        name
        for name, kind in column_types(conn, table).items()
        if re.fullmatch(_INTEGER, kind) and name in stored_to_original
    ]
    if not columns:
        return []
    parts = []
    for col in (quote_ident(stored_to_original[name]) for name in columns):
        hexadecimal = f"regexp_matches({col}, '^\\s*[+-]?0[xX]')"
        parts += [f"count(*) FILTER (WHERE {hexadecimal})", f"min(trim({col})) FILTER (WHERE {hexadecimal})"]
    source, params = text_reader
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {source}", params))
    notes = []
    for i, name in enumerate(columns):
        count, example = found[2 * i], found[2 * i + 1]
        if count:
            values = "value" if count == 1 else "values"
            notes.append(
                f"{name}: {count:,} {values} written in hexadecimal, like {example!r}, stored as the numbers "
                f"they write ({int(example, 16)}); add --type {name}=VARCHAR to keep them as written"
            )
    return notes

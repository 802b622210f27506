"""Marks an export puts on a value so a spreadsheet keeps it as text: Excel's formula ``="00123"`` (the
leading zeros of an id or a SKU), a tab after the value (WeChat Pay's and Alipay's order numbers) and
Excel's text prefix, an apostrophe before digits (Shopify's ZIP codes, ``'02134``).
DuckDB stores them as written, so a filter on ``00123`` found nothing; the load takes each mark off,
keeps the column text (the exporter said it is) and says so. Runs inside the load's transaction, in
DuckDB's SQL."""

from __future__ import annotations

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

_TAB = "\t"


def _marked(value: str) -> bool:
    return (
        (len(value) > 3 and value.startswith('="') and value.endswith('"'))
        or (value.endswith(_TAB) and bool(value.strip()))
        or (value[:1] == "'" and value[1:2] in _PREFIXED and "'" not in value[1:])
    )


_PREFIXED = frozenset("0123456789+")
"""What an apostrophe keeps text in Excel: digits, a phone number's plus (not a word in single quotes)."""
_PREFIX_SQL = "regexp_full_match({c}, chr(39) || '[0-9+][^' || chr(39) || ']*')"


def marked_columns(probe: dict[str, list[str]]) -> list[str]:
    """The columns at least half of whose first values carry a mark. Pure."""
    return [c for c, values in probe.items() if values and 2 * sum(map(_marked, values)) >= len(values)]


def settle_text_marks(conn: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> list[str]:
    """Take the marks off ``columns``' values and say so, a note per column."""
    if not columns:
        return []
    t = quote_ident(table)
    formula = "LIKE '=\"%\"' AND length({c}) > 3"
    marked = "{c} " + formula + " OR ends_with({c}, chr(9)) OR " + _PREFIX_SQL
    counts = first_row(
        conn.execute(
            f"SELECT {', '.join(f'count(*) FILTER (WHERE {marked.format(c=c)})' for c in map(quote_ident, columns))} FROM {t}"
        )
    )
    notes = []
    for name, count in zip(columns, counts, strict=True):
        c = quote_ident(name)
        conn.execute(
            f"UPDATE {t} SET {c} = CASE WHEN {c} {formula.format(c=c)} THEN {c}[3:-2] "
            f"WHEN {_PREFIX_SQL.format(c=c)} THEN {c}[2:] ELSE rtrim({c}, chr(9)) END "
            f"WHERE {marked.format(c=c)}"
        )
        values = "value" if count == 1 else "values"
        notes.append(
            f"{name}: the marks that keep a value text in a spreadsheet (='00123', a tab after it, an "
            f"apostrophe before it) taken off {count:,} {values}, kept as text; add --type {name}=VARCHAR to "
            "keep them as written"
        )
    return notes

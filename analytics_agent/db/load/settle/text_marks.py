"""Marks an export puts on a value so a spreadsheet keeps it as text: Excel's formula ``="00123"`` (the
leading zeros of an id or a SKU) and a tab after the value (WeChat Pay's and Alipay's order numbers).
DuckDB stores them as written, so a filter on ``00123`` found nothing; the load takes each mark off,
keeps the column text (the exporter said it is) and says so. Runs inside the load's transaction, in
DuckDB's SQL."""

from __future__ import annotations

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

_TAB = "\t"


def _marked(value: str) -> bool:
    return (len(value) > 3 and value.startswith('="') and value.endswith('"')) or (
        value.endswith(_TAB) and bool(value.strip())
    )


def marked_columns(probe: dict[str, list[str]]) -> list[str]:
    """The columns at least half of whose first values carry a mark. Pure."""
    return [c for c, values in probe.items() if values and 2 * sum(map(_marked, values)) >= len(values)]


def settle_text_marks(conn: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> list[str]:
    """Take the marks off ``columns``' values and say so, a note per column."""
    if not columns:
        return []
    t = quote_ident(table)
    formula = "LIKE '=\"%\"' AND length({c}) > 3"
    counts = first_row(
        conn.execute(
            f"SELECT {', '.join(f'count(*) FILTER (WHERE {c} {formula.format(c=c)} OR ends_with({c}, chr(9)))' for c in map(quote_ident, columns))} FROM {t}"
        )
    )
    notes = []
    for name, count in zip(columns, counts, strict=True):
        c = quote_ident(name)
        conn.execute(
            f"UPDATE {t} SET {c} = CASE WHEN {c} {formula.format(c=c)} THEN {c}[3:-2] ELSE rtrim({c}, chr(9)) END "
            f"WHERE {c} {formula.format(c=c)} OR ends_with({c}, chr(9))"
        )
        values = "value" if count == 1 else "values"
        notes.append(
            f"{name}: the marks that keep a value text in a spreadsheet (='00123', a tab after it) taken off "
            f"{count:,} {values}, kept as text; add --type {name}=VARCHAR to keep them as written"
        )
    return notes

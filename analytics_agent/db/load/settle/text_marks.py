"""Marks an export puts on a value so a spreadsheet keeps it as text: Excel's formula ``="00123"`` (the
leading zeros of an id or a SKU), a tab after the value (WeChat Pay's and Alipay's order numbers) and
Excel's text prefix, an apostrophe before digits (Shopify's ZIP codes, ``'02134``).
DuckDB stores them as written, so a filter on ``00123`` found nothing; the load takes each mark off,
keeps the column text (the exporter said it is) and says so. Runs inside the load's transaction, in
DuckDB's SQL."""

from __future__ import annotations

import re

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


def _padded(value: str) -> bool:
    return value.endswith("  ") and not value.endswith("\t")


_NUMBER = re.compile(r"[+-]?[0-9][0-9.,]*")


def padded_columns(probe: dict[str, list[str]], marked: list[str]) -> list[str]:
    """The columns (not ``marked``) at least half of whose first values end in two spaces or more: a
    report padded to fixed widths (Alipay's bill); when two columns are, any with a padded value (a
    long value fills its width), with any column whose every value ends in a space. Not those of numbers alone: the load reads padded numbers itself
    (``plain_numbers``). Pure."""
    texts = {
        c: values
        for c, values in probe.items()
        if c not in marked and not all(_NUMBER.fullmatch(v.strip(" ")) for v in values if v.strip(" "))
    }
    padded = {c: sum(map(_padded, values)) for c, values in texts.items()}
    half = [c for c, values in texts.items() if values and 2 * padded[c] >= len(values)]
    found = half if len(half) < 2 else [c for c in texts if padded[c]]
    # in a padded report, a column whose every value ends in a space is padded one past its longest
    # value (HDFC's references, '0000553674489452 ')
    return found and [
        c for c, values in texts.items() if c in found or (values and all(v.endswith(" ") for v in values))
    ]


_ISO = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
_ISO_STAMP = _ISO + r"[ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?"


def settle_padding(
    conn: duckdb.DuckDBPyConnection, table: str, columns: list[str]
) -> tuple[list[str], list[str]]:
    """Take the spaces that pad ``columns``' values off their ends (a value of spaces alone is missing),
    store a column of ISO dates or timestamps as such (what DuckDB reads unpadded), and say so in one
    note. Returns the note and the columns stored as dates."""
    if not columns:
        return [], []
    t = quote_ident(table)
    padded = "regexp_matches({c}, '^ | $')"
    for c in map(quote_ident, columns):
        conn.execute(f"UPDATE {t} SET {c} = nullif(trim({c}, ' '), '') WHERE {padded.format(c=c)}")
    parts = [
        f"count({c}), count(*) FILTER (WHERE regexp_full_match({c}, '{_ISO_STAMP}')), "
        f"count(*) FILTER (WHERE regexp_full_match({c}, '{_ISO}'))"
        for c in map(quote_ident, columns)
    ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {t}"))
    dated = []
    for i, name in enumerate(columns):
        present, stamps, days = found[3 * i : 3 * i + 3]
        if present and present in (stamps, days):
            kind = "TIMESTAMP" if stamps == present else "DATE"
            conn.execute(
                f"ALTER TABLE {t} ALTER {quote_ident(name)} TYPE {kind} USING TRY_CAST({quote_ident(name)} AS {kind})"
            )
            dated.append(name)
    read = f", and {', '.join(dated)} read as dates" if dated else ""
    note = (
        f"{', '.join(columns)}: the spaces that pad {'its' if len(columns) == 1 else 'their'} values to a fixed "
        f"width taken off (spaces alone read as missing, NULL){read}; add --type {columns[0]}=VARCHAR (for each "
        "such column) to keep them as written"
    )
    return [note], dated


def unpadded(values: list[str]) -> list[str]:
    """A padded column's first values as ``settle_padding`` leaves them. Pure."""
    return [v.strip(" ") for v in values if v.strip(" ")]

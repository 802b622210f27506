"""Decimal numbers whose form alone keeps them text: padded with spaces (``1005.70 ``, ``   12.00``: an
Alipay record pads every cell, a fixed-width report saved as CSV pads its columns) or signed with a plus
(``+1072.12``, Rabobank's and OP's ``+451,76``). DuckDB's reader keeps such a column text, and a sum over
it is refused; with ``--decimal ','`` given the column stayed text without a word. A column whose every
value is a number with a decimal part, some so written, is stored as DOUBLE and said in one line with the
option that keeps the text. Whole numbers are not read here (a padded ``0042`` may be a code: the
odd-value check names the ``--type`` that reads them; whole numbers each with its sign are
``signed_whole``'s). Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.load.settle.convert_all import convert_all


def _number(decimal: str) -> str:
    return rf"\s*[+-]?[0-9]+{re.escape(decimal)}[0-9]+\s*"


def _written(value: str) -> bool:
    return value[:1].isspace() or value[-1:].isspace() or value.lstrip()[:1] == "+"


def plain_columns(probe: Mapping[str, Sequence[str]], decimal: str | None) -> list[str]:
    """The columns whose first values are all decimal numbers (``decimal``: the load's ``--decimal``, a
    point if none), some padded or signed with a plus. Pure."""
    pattern = _number(decimal or ".")
    return [
        name
        for name, values in probe.items()
        if values and any(_written(v) for v in values) and all(re.fullmatch(pattern, v) for v in values)
    ]


def settle_plain_numbers(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], decimal: str | None
) -> tuple[list[str], list[str]]:
    """The columns of ``columns`` stored as DOUBLE (every value in the table a decimal number, some padded
    or signed with a plus), and one note for them."""
    mark = decimal or "."
    pattern = _number(mark).replace("'", "''")
    converted = convert_all(
        conn,
        table,
        columns,
        fits=lambda col: f"regexp_full_match({col}, '{pattern}')",
        example=lambda col: (
            f"min({col}) FILTER (WHERE {col} <> trim({col}) OR starts_with(trim({col}), '+'))"
        ),
        value=lambda col: f"replace(trim({col}), '{mark}', '.')::DOUBLE",
        kind="DOUBLE",
    )
    if not converted:
        return [], []
    done, examples = [name for name, _ in converted], [written for _, written in converted]
    each = " (for each such column)" if len(done) > 1 else ""
    return done, [
        f"{', '.join(done)}: numbers padded with spaces or signed with a plus, like {examples[0]!r}, stored as "
        f"DOUBLE; add --type {done[0]}=VARCHAR{each} to keep them as text"
    ]

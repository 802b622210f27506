"""Whether a footer row's numbers are the aggregates of the rows above it (``totals``): a sum to the cent,
a count, an average, or a rate two of the row's sums give. Runs one aggregate query on the freshly written
table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row, is_number


def aggregated(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    last: dict[str, Any],
    numbers: list[str],
    where: str,
    *,
    counts: bool = True,
    least: int = 2,
    loose: bool = False,
) -> list[str]:
    """The columns whose value in ``last`` is the sum of the rows ``where`` selects, when every number of
    ``numbers`` is their sum, count or average (``counts``), the last row's value carried down (a
    statement's balance: Logo's ``Genel Toplam`` row ends in the closing balance), or the ratio of two of
    those sums in the same row (a ``Variance %`` or margin beside the sums it divides); else none.
    ``loose``: the numbers that are no sum may be anything."""
    parts = []
    for c in map(quote_ident, numbers):
        parts += [
            f"sum({c})", f"count({c}) FILTER (WHERE {c} <> 0)", f"count({c})", f"avg({c})", f"arg_max({c}, rowid)"
        ]  # fmt: skip
    found = first_row(
        conn.execute(f"SELECT count(*), {', '.join(parts)} FROM {quote_ident(table)} WHERE {where}")
    )
    above, stats = found[0], found[1:]
    sums, ratios = [], []
    for i, name in enumerate(numbers):
        total, nonzero, present, mean, carried = stats[5 * i : 5 * i + 5]
        value = last[name]
        if total is not None and nonzero >= least and _same(value, total):
            sums.append(name)
        elif not counts:
            return []
        elif not (value in (present, above, carried) or (mean is not None and _same(value, mean))):
            ratios.append(value)
    if not loose and any(not _ratio_of(value, [last[c] for c in sums]) for value in ratios):
        return []
    return sums


def _ratio_of(value: Any, sums: Sequence[Any]) -> bool:
    """Whether ``value`` is one of ``sums`` divided by another, as a fraction, in percent or per thousand
    (an ad server's eCPM: revenue per thousand impressions), rounded to the decimals it shows (``3.9`` for
    308,770 of 7,893,300): what a totals row holds in a rate column, which no sum of the rows above gives.
    Pure."""
    shown = repr(float(value)).partition(".")[2]
    decimals = 0 if "e" in shown else len(shown.rstrip("0"))
    return any(
        round(float(a) / float(b) * scale, decimals) == round(float(value), decimals)
        for a in sums
        for b in sums
        if a is not b and b
        for scale in (1, 100, 1000)
    )


def _same(value: float | Decimal, total: float | Decimal) -> bool:
    """Equal, or equal to the cent (a spreadsheet rounds a total it shows)."""
    return abs(float(value) - float(total)) <= max(0.005, 1e-9 * abs(float(total)))


def whole_row(
    conn: duckdb.DuckDBPyConnection, table: str, row: int, whole: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The row at rowid ``row`` by column, as ``note_rows`` read it (``whole``) or read now."""
    if whole is not None:
        return dict(whole)
    cursor = conn.execute(f"SELECT * FROM {quote_ident(table)} WHERE rowid = {row}")
    return dict(zip([d[0] for d in cursor.description], first_row(cursor), strict=True))


def numbers_of(row: Mapping[str, Any]) -> list[str]:
    """The columns of ``row`` holding a number (no flag). Pure."""
    return [c for c, v in row.items() if is_number(v)]

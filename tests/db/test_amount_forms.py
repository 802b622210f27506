"""``checked_value_sql``: the view of a CSV source reads an amount as a load does, or stops naming it.

Real DuckDB; the numbers meant are worked out by hand."""

from __future__ import annotations

import re

import duckdb
import pytest

from analytics_agent.db.amount_forms import checked_value_sql, spellings


def _read(values: list[str | None], mark: str, percent: bool, currency: str | None) -> list:
    sql = checked_value_sql("v", mark, percent, spellings(currency), "v holds {}, not its amounts")
    with duckdb.connect() as conn:
        conn.execute("CREATE TABLE t (i INT, v VARCHAR)")
        conn.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(values)))
        return [r[0] for r in conn.execute(f"SELECT {sql} FROM t ORDER BY i").fetchall()]


def test_amounts_of_the_pinned_kind_read_as_numbers():
    dollars = ["$1,234.50", "(84.10)", "USD 3", "US$ 2.5", "5.00-", None]  # US$ and USD are $
    assert _read(dollars, ".", False, "$") == [1234.5, -84.1, 3, 2.5, -5, None]
    assert _read(["3,50 €", "1.234,00 €", "EUR 2"], ",", False, "€") == [3.5, 1234, 2]
    assert _read(["12%", "7.5 %"], ".", True, None) == [12, 7.5]


@pytest.mark.parametrize(
    ("value", "mark", "percent", "currency"),
    [
        ("€5.00", ".", False, "$"),  # another currency
        ("$5.00", ".", False, None),  # a currency in a column that had none
        ("12", ".", True, None),  # no percent sign in a percent column
        ("12%", ".", False, "$"),  # a percent sign in a column of dollars
        ("1,5", ".", False, None),  # a decimal comma in a column read with a point
        ("n/a", ",", False, "€"),
    ],
)
def test_any_other_value_stops_the_query_naming_it(value, mark, percent, currency):
    with pytest.raises(duckdb.InvalidInputException, match=re.escape(f"v holds '{value}', not its amounts")):
        _read([None, value], mark, percent, currency)

"""``amounts.currency_sql`` says without a regular expression what ``regexp_extract`` of ``CURRENCY`` says
for a value starting with ``$``; every value, dollar or not, must read the same both ways (run in DuckDB,
the engine both forms are for)."""

from __future__ import annotations

import duckdb

from analytics_agent.db.load.settle.amounts import CURRENCY, currency_sql

VALUES = [
    "$1,234.50", "($84.10)", "-$5.00", "$-5.00", "US$ 12", "USD 12", "12 USD", "R$ 3,50", "3,50 €", "€3",
    "(€3)", "-€3", "12%", "1,234", "$", "($", "-$", "$ USD 5", "(US$5)", "-US$5", " $5", "5$", "5 $ €",
    "EUR 12", "12 kr", "12 zł", "Fr 5", "£5", "abc", "", "(5)", "5-", "$€", "AB$5", "A$5", "(AB$5)",
]  # fmt: skip


def test_the_dollar_shortcut_reads_every_value_as_the_regular_expression_does() -> None:
    conn = duckdb.connect()
    conn.execute("CREATE TABLE v AS SELECT unnest(?::VARCHAR[]) AS x", [[*VALUES, None]])
    pattern = "'" + CURRENCY.replace("'", "''") + "'"
    rows = conn.execute(
        f"SELECT x, {currency_sql('x')}, nullif(regexp_extract(x, {pattern}), '') FROM v"
    ).fetchall()
    assert len(rows) == len(VALUES) + 1
    assert [(x, fast) for x, fast, _ in rows] == [(x, slow) for x, _, slow in rows]
    assert {x: fast for x, fast, _ in rows}["($84.10)"] == "$"  # the shortcut's own case, read right

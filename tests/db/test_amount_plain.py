"""The quick ways of reading amounts (a speed change: results as the full check and the regular-expression
reading give them). ``simple`` forms sit inside ``POINT``/``COMMA``; the cast-only readings give the
number the regular-expression reading gives, or (``value_sql``'s plain try) nothing; a load whose column
leaves the plain form after its first values is checked the full way. Real DuckDB; numbers by hand."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.amount_forms import COMMA, POINT, simple, simple_value_sql, value_sql
from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files

_DOLLARS = ["$1,234.50", "-$5", "$-5", "($84.10)", "(0.00)", "-0.00", "1,23,45,678.00", ".5", "$0"]
_ODD = ["$ -", "5-", "E$5", "5E$", "+5", "$ (5)", "1 234.5", "\u22125", "US$ 2.5", "$5 EUR", "1e5"]


def _texts(values: list[str], sql: str) -> list[str | None]:
    """``sql`` over ``v`` for each value, the DOUBLE as text (-0.0 is not 0.0)."""
    with duckdb.connect() as conn:
        conn.execute("CREATE TABLE t (i INT, v VARCHAR)")
        conn.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(values)))
        return [r[0] for r in conn.execute(f"SELECT ({sql})::VARCHAR FROM t ORDER BY i").fetchall()]


def _matches(values: list[str], pattern: str) -> list[bool]:
    with duckdb.connect() as conn:
        return [conn.execute("SELECT regexp_full_match(?, ?)", [v, pattern]).fetchone()[0] for v in values]


def test_the_plain_dollar_form_reads_by_a_cast_to_the_numbers_meant():
    assert all(_matches(_DOLLARS, simple(".", True, False)))
    assert all(_matches(_DOLLARS, POINT))
    expected = ["1234.5", "-5.0", "-5.0", "-84.1", "-0.0", "-0.0", "12345678.0", "0.5", "0.0"]
    assert _texts(_DOLLARS, simple_value_sql("v", ".", True, False)) == expected
    assert _texts(_DOLLARS, value_sql("v", ".", True)) == expected == _texts(_DOLLARS, value_sql("v", "."))


def test_other_forms_are_no_plain_form_and_the_cast_leaves_them_to_the_full_reading():
    assert not any(_matches(_ODD, simple(".", True, False)))
    fitting = [v for v, fits in zip(_ODD, _matches(_ODD, POINT), strict=True) if fits]
    assert [v for v in _ODD if v not in fitting] == ["1e5"]  # an amount's shape, every other
    assert _texts(fitting, value_sql("v", ".", True)) == _texts(fitting, value_sql("v", "."))


@pytest.mark.parametrize(
    ("mark", "dollar", "percent", "values", "expected"),
    [
        (",", False, False, ["1.234,50", "(3,5)", ",5"], ["1234.5", "-3.5", "0.5"]),
        ("0", False, True, ["12%", "-3%", "(4%)"], ["12.0", "-3.0", "-4.0"]),
    ],
)
def test_comma_and_percent_forms(mark, dollar, percent, values, expected):
    assert all(_matches(values, simple(mark, dollar, percent)))
    assert all(_matches(values, COMMA if mark == "," else POINT))
    assert _texts(values, simple_value_sql("v", mark, dollar, percent)) == expected


def test_a_column_leaving_the_plain_form_after_its_first_values_is_checked_whole(tmp_path: Path):
    rows = [f"{i},${i},{i}%" for i in range(1, 61)]
    rows[55] = "56,€56,56 %"  # another currency; a space before the percent sign
    path = tmp_path / "late.csv"
    path.write_text("id,price,share\n" + "\n".join(rows) + "\n")
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t"))
    types = {c.name: c.type for c in summary.columns}
    assert types["price"] == "VARCHAR" and types["share"] == "DOUBLE"
    assert any(
        n.startswith("price stayed text: it holds amounts in more than one currency") for n in summary.notes
    )
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT sum(share) FROM t").fetchone()[0] == sum(range(1, 61))

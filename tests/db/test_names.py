"""Safe table and column names from whatever a file calls things."""

from __future__ import annotations

import re

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics_agent.db.load.names import (
    rename_reason,
    safe_column_names,
    safe_identifier,
    table_name_from_path,
)

RESERVED = {"select", "order", "table", "from"}
PLAIN = re.compile(r"^[^\W\d]\w*$")  # letters of any script, digits, underscores; no leading digit


def test_headers_become_snake_case_ascii():
    assert safe_column_names(["Order ID", "customerID", "Order Date", "Café", "HTTPStatus"]) == [
        "order_id",
        "customer_id",
        "order_date",
        "cafe",
        "http_status",
    ]


def test_a_leading_digit_is_prefixed_and_a_reserved_word_gets_an_underscore():
    assert safe_identifier("2024 Sales", prefix="t") == "t_2024_sales"
    assert safe_column_names(["select", "Order", "from"], reserved=RESERVED) == ["select_", "order_", "from_"]


def test_duplicates_and_nameless_columns_get_distinct_names():
    # the file's own "name" keeps it: a stored name is never another column's (issue 38)
    assert safe_column_names(["Name", "name", "NAME ", "", "!?"]) == [
        "name_2",
        "name",
        "name_3",
        "column_4",
        "column_5",
    ]


def test_non_ascii_headers_keep_readable_names_and_lose_only_accents():
    assert safe_column_names(["備考", "Größe", "Ціна й грн", "Café au lait", "😀"]) == [
        "備考",
        "große",
        "ціна_й_грн",
        "cafe_au_lait",
        "column_5",
    ]


def test_a_keyword_renamed_says_why_and_a_plain_rename_needs_no_reason():
    assert rename_reason("order", "order_", RESERVED) == "order is an SQL keyword, stored as order_"
    assert rename_reason("Order Date", "order_date", RESERVED) is None


def test_quotes_and_sql_in_a_header_leave_only_a_plain_name():
    assert safe_column_names(['a"; DROP TABLE orders; --']) == ["a_drop_table_orders"]


def test_the_table_name_comes_from_the_file_name_without_suffixes_or_glob_characters():
    assert table_name_from_path("exports/Sales 2024-*.csv.gz") == "sales_2024"
    assert table_name_from_path("/data/2024.parquet") == "t_2024"
    assert table_name_from_path("order.csv", reserved=RESERVED) == "order_"


@given(st.lists(st.text(max_size=30), min_size=1, max_size=12))
def test_any_headers_give_distinct_plain_names_of_bounded_length(headers):
    names = safe_column_names(headers, reserved=RESERVED)
    assert len(names) == len(headers) and len(set(names)) == len(names)
    for name in names:
        assert PLAIN.match(name) and name == name.lower() and name not in RESERVED
        assert len(name) <= 70


def duckdb_reserved() -> frozenset[str]:
    rows = duckdb.sql("SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'")
    return frozenset(r[0] for r in rows.fetchall())


@settings(max_examples=200)
@given(st.lists(st.text(max_size=20), min_size=1, max_size=6))
def test_duckdb_reads_every_stored_name_without_quotes(headers):
    names = safe_column_names(headers, reserved=duckdb_reserved())
    select = ", ".join(f"{i} AS {name}" for i, name in enumerate(names))
    assert duckdb.sql(f"SELECT {select}").columns == names

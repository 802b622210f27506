"""Safe table and column names from whatever a file calls things."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from analytics_agent.db.names import safe_column_names, safe_identifier, table_name_from_path

RESERVED = {"select", "order", "table", "from"}
PLAIN = re.compile(r"^[a-z_][a-z0-9_]*$")


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
    assert safe_column_names(["Name", "name", "NAME ", "", "日付"]) == [
        "name",
        "name_2",
        "name_3",
        "column_4",
        "column_5",
    ]


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
        assert PLAIN.match(name) and name not in RESERVED
        assert len(name) <= 70

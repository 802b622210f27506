"""Invariants of the committed sample data in ``seeds/`` (and that it is reproducible)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import duckdb
import pytest

SEEDS = Path(__file__).parents[1] / "seeds"
FILES = ("products.csv", "customers.csv", "orders.csv", "order_items.csv")

COLUMNS = {
    "products": {"product_id": "VARCHAR", "name": "VARCHAR", "category": "VARCHAR", "list_price": "BIGINT"},
    "customers": {
        "customer_id": "VARCHAR",
        "name": "VARCHAR",
        "city": "VARCHAR",
        "signup_day": "DATE",
        "segment": "VARCHAR",
    },
    "orders": {
        "order_id": "VARCHAR",
        "customer_id": "VARCHAR",
        "city": "VARCHAR",
        "day": "DATE",
        "status": "VARCHAR",
        "amount": "BIGINT",
        "channel": "VARCHAR",
    },
    "order_items": {
        "order_id": "VARCHAR",
        "product_id": "VARCHAR",
        "quantity": "BIGINT",
        "unit_price": "BIGINT",
    },
}

REFERENCE_ORDERS = [
    ("A-1040", "Pune", "2026-10-24", "delivered", 1299),
    ("A-1041", "Pune", "2026-10-24", "cancelled", 799),
    ("A-1042", "Delhi", "2026-10-18", "delivered", 2499),
    ("A-1043", "Pune", "2026-10-24", "in_transit", 3499),
    ("A-1044", "Mumbai", "2026-10-24", "delivered", 599),
]


@pytest.fixture(scope="module")
def db() -> duckdb.DuckDBPyConnection:
    conn = duckdb.connect()
    for table, columns in COLUMNS.items():
        path = str(SEEDS / f"{table}.csv")
        conn.execute(
            f"CREATE TABLE {table} AS SELECT * FROM read_csv(?, header = true, columns = ?)", [path, columns]
        )
    yield conn
    conn.close()


def scalar(conn: duckdb.DuckDBPyConnection, sql: str, params: list | None = None):
    return conn.execute(sql, params or []).fetchone()[0]


def daily_counts_sql(where: str) -> str:
    """Average orders per calendar day over the days matching ``where`` (days without orders count as 0)."""
    return f"""
        SELECT avg(coalesce(n, 0)) FROM (
            SELECT d::DATE AS day
            FROM generate_series(DATE '2026-01-01', DATE '2026-10-31', INTERVAL 1 DAY) t(d)
        ) cal
        LEFT JOIN (SELECT day, count(*) AS n FROM orders GROUP BY day) USING (day)
        WHERE {where}
    """


def test_csv_headers_are_exactly_the_documented_columns():
    for table, columns in COLUMNS.items():
        with open(SEEDS / f"{table}.csv", encoding="utf-8", newline="") as fh:
            assert fh.readline() == ",".join(columns) + "\n", table


def test_orders_has_at_least_40000_rows_all_within_2026_01_01_to_2026_10_31(db):
    n, first, last, outside = db.execute(
        """SELECT count(*), min(day), max(day),
                  count(*) FILTER (WHERE day NOT BETWEEN DATE '2026-01-01' AND DATE '2026-10-31')
           FROM orders"""
    ).fetchone()
    assert n >= 40_000
    assert outside == 0
    assert (str(first), str(last)) == ("2026-01-01", "2026-10-31")


def test_orders_span_at_least_eight_cities(db):
    assert scalar(db, "SELECT count(DISTINCT city) FROM orders WHERE city IS NOT NULL") >= 8


def test_order_ids_match_letter_dash_four_digits_and_are_unique(db):
    ids = [row[0] for row in db.execute("SELECT order_id FROM orders").fetchall()]
    pattern = re.compile(r"[A-Z]-\d{4}")
    bad = [i for i in ids if i is None or not pattern.fullmatch(i)]
    assert bad == []
    assert len(set(ids)) == len(ids)


def test_status_values_are_exactly_delivered_cancelled_in_transit_returned(db):
    statuses = {row[0] for row in db.execute("SELECT DISTINCT status FROM orders").fetchall()}
    assert statuses == {"delivered", "cancelled", "in_transit", "returned"}


def test_amount_equals_sum_of_item_totals_for_every_order(db):
    mismatches = scalar(
        db,
        """SELECT count(*) FROM orders o
           LEFT JOIN (SELECT order_id, sum(quantity * unit_price) AS total, count(*) AS lines
                      FROM order_items GROUP BY order_id) i USING (order_id)
           WHERE i.total IS DISTINCT FROM o.amount OR i.lines NOT BETWEEN 1 AND 4""",
    )
    assert mismatches == 0


def test_every_item_belongs_to_an_existing_order(db):
    assert (
        scalar(db, "SELECT count(*) FROM order_items WHERE order_id NOT IN (SELECT order_id FROM orders)")
        == 0
    )


def test_every_item_product_exists_in_products(db):
    orphans = scalar(
        db, "SELECT count(*) FROM order_items i ANTI JOIN products p ON i.product_id = p.product_id"
    )
    assert orphans == 0


def test_every_order_customer_exists_in_customers(db):
    orphans = scalar(
        db, "SELECT count(*) FROM orders o ANTI JOIN customers c ON o.customer_id = c.customer_id"
    )
    assert orphans == 0


def test_customer_signup_day_is_not_after_their_first_order(db):
    late = scalar(
        db,
        """SELECT count(*) FROM customers c
           JOIN (SELECT customer_id, min(day) AS first_day FROM orders GROUP BY customer_id) f
             USING (customer_id)
           WHERE c.signup_day > f.first_day""",
    )
    assert late == 0


def test_many_customers_order_more_than_once(db):
    repeaters = scalar(
        db, "SELECT count(*) FROM (SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) >= 2)"
    )
    assert repeaters >= 1_000


def test_five_reference_orders_are_present_verbatim(db):
    rows = db.execute(
        """SELECT order_id, city, strftime(day, '%Y-%m-%d'), status, amount FROM orders
           WHERE order_id IN ('A-1040', 'A-1041', 'A-1042', 'A-1043', 'A-1044') ORDER BY order_id"""
    ).fetchall()
    assert rows == REFERENCE_ORDERS


def test_reference_orders_are_the_only_pune_and_mumbai_orders_on_2026_10_24(db):
    rows = db.execute(
        """SELECT order_id FROM orders
           WHERE day = DATE '2026-10-24' AND city IN ('Pune', 'Mumbai') ORDER BY order_id"""
    ).fetchall()
    assert [r[0] for r in rows] == ["A-1040", "A-1041", "A-1043", "A-1044"]
    other_cities = scalar(
        db,
        """SELECT count(DISTINCT city) FROM orders
           WHERE day = DATE '2026-10-24' AND city NOT IN ('Pune', 'Mumbai')""",
    )
    assert other_cities >= 1


def test_pune_on_2026_10_24_has_3_orders_and_revenue_4798(db):
    n, revenue = db.execute(
        """SELECT count(*), sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned'))
           FROM orders WHERE city = 'Pune' AND day = DATE '2026-10-24'"""
    ).fetchone()
    assert (n, revenue) == (3, 4798)


def test_weekend_days_average_more_orders_than_weekdays(db):
    weekend = scalar(db, daily_counts_sql("isodow(day) IN (6, 7)"))
    weekday = scalar(db, daily_counts_sql("isodow(day) BETWEEN 1 AND 5"))
    assert weekend > weekday


def test_october_daily_average_exceeds_january_to_september(db):
    october = scalar(db, daily_counts_sql("month(day) = 10"))
    earlier = scalar(db, daily_counts_sql("month(day) BETWEEN 1 AND 9"))
    assert october > earlier


def test_generate_reproduces_committed_files_byte_for_byte(tmp_path):
    spec = importlib.util.spec_from_file_location("seeds_generate", SEEDS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(tmp_path)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (SEEDS / name).read_bytes(), name


def test_order_a9999_is_kept_unused_as_the_unknown_order_example(db):
    assert scalar(db, "SELECT count(*) FROM orders WHERE order_id = 'A-9999'") == 0

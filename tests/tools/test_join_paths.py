"""aggregate over a normalized store: paths of any depth, and no fan-out. Every answer is compared with
hand-written SQL over the same DuckDB file.

The store: order_lines → orders → customers → regions, order_lines → products → brands and → categories.
An order has 1 to 6 lines, so a measure of orders summed over its lines would count it up to six times."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.relationships import store_relationships
from analytics_agent.workspace.workspace import Workspace

TABLES = """
CREATE TABLE regions AS SELECT range AS region_id, ['North', 'South', 'East'][range + 1] AS region_name
    FROM range(3);
CREATE TABLE customers AS SELECT range AS customer_id, 'c' || range AS customer_name,
    range % 3 AS region_id, ['Pune', 'Delhi', 'Goa', 'Agra'][range % 4 + 1] AS city FROM range(40);
CREATE TABLE brands AS SELECT range AS brand_id, 'brand ' || range AS brand_name FROM range(5);
CREATE TABLE categories AS SELECT range AS category_id, ['Kitchen', 'Garden', 'Toys'][range + 1] AS category_name
    FROM range(3);
CREATE TABLE products AS SELECT range AS product_id, 'p' || range AS product_name, range % 5 AS brand_id,
    (range * 7) % 3 AS category_id, 10 + range AS list_price FROM range(20);
CREATE TABLE orders AS SELECT range AS order_id, (range * 13) % 37 AS customer_id,
    DATE '2026-01-01' + CAST(range * 2 AS INTEGER) AS order_date,
    CASE WHEN range % 9 = 0 THEN NULL ELSE round(50 + (range * 37) % 200 + 0.25, 2) END AS total,
    ['paid', 'late', 'paid', 'open'][range % 4 + 1] AS status FROM range(150);
CREATE TABLE order_lines AS SELECT row_number() OVER () AS line_id, o.order_id, (o.order_id * 3 + n) % 20 AS product_id,
    1 + (o.order_id + n) % 4 AS quantity
    FROM orders o, range(6) AS r(n) WHERE n < 1 + o.order_id % 6;
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "store.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(TABLES)
        links = store_relationships(conn)
    assert {(r.table, r.column, r.target) for r in links} >= {
        ("order_lines", "order_id", "orders"),
        ("order_lines", "product_id", "products"),
        ("orders", "customer_id", "customers"),
        ("customers", "region_id", "regions"),
        ("products", "brand_id", "brands"),
        ("products", "category_id", "categories"),
    }
    return path


@pytest.fixture(scope="module")
def ws(store: Path):
    with Workspace.open(store) as workspace:
        yield workspace


def call(ws: Workspace, args: dict) -> dict:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert not out.is_error, out.text
    return json.loads(out.text)


def error(ws: Workspace, args: dict) -> str:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert out.is_error, out.text
    return out.text


def sql(ws: Workspace, query: str) -> list[list[object]]:
    return [list(r) for r in ws.cursor().execute(query).fetchall()]


def same(got: list[list[object]], want: list[list[object]]) -> bool:
    def close(a: object, b: object) -> bool:
        if (
            isinstance(a, int | float | Decimal)
            and isinstance(b, int | float | Decimal)
            and not isinstance(a, bool)
        ):
            return math.isclose(float(a), float(b), rel_tol=1e-5, abs_tol=1e-6)
        return str(a) == str(b)

    return len(got) == len(want) and all(
        len(g) == len(w) and all(close(a, b) for a, b in zip(g, w, strict=True))
        for g, w in zip(got, want, strict=True)
    )


LINES = """order_lines l JOIN orders o USING (order_id) JOIN customers c USING (customer_id)
    JOIN regions g USING (region_id) JOIN products p USING (product_id) JOIN brands b USING (brand_id)
    JOIN categories k USING (category_id)"""


def test_a_path_three_links_away_equals_hand_written_sql(ws):
    got = call(ws, {"table": "order_lines", "group_by": ["orders.customers.regions.region_name"],
                    "metrics": [{"fn": "sum", "column": "quantity"}], "order_by": "orders.customers.regions.region_name"})  # fmt: skip
    assert got["columns"] == ["orders.customers.regions.region_name", "sum_quantity"]
    assert same(got["rows"], sql(ws, f"SELECT region_name, sum(quantity) FROM {LINES} GROUP BY 1 ORDER BY 1"))


def test_a_table_reached_by_one_path_is_named_alone_and_means_the_same(ws):
    spelled = {"table": "order_lines", "group_by": ["products.brands.brand_name"],
               "metrics": [{"expr": "sum(quantity * products.list_price)"}], "order_by": "-expr"}  # fmt: skip
    alone = {**spelled, "group_by": ["brands.brand_name"]}
    want = sql(
        ws, f"SELECT brand_name, sum(quantity * list_price) FROM {LINES} GROUP BY 1 ORDER BY 2 DESC, 1"
    )
    assert same(call(ws, spelled)["rows"], want)
    assert same(call(ws, alone)["rows"], want)
    both = call(
        ws, {"table": "order_lines", "group_by": ["regions.region_name"], "order_by": "regions.region_name"}
    )
    assert same(both["rows"], sql(ws, f"SELECT region_name, count(*) FROM {LINES} GROUP BY 1 ORDER BY 1"))


def test_each_path_is_joined_once_however_many_names_use_it(ws):
    out = ws.executor.execute(
        "aggregate",
        {"table": "order_lines", "group_by": ["orders.status", "orders.customers.city"],
         "filters": [{"column": "customers.city", "op": "!=", "value": "Goa"}]},
    )  # fmt: skip
    assert not out.is_error, out.text
    assert out.sql.count(" JOIN ") == 2  # orders, then customers through it
    got = json.loads(out.text)["rows"]
    want = sql(
        ws,
        f"SELECT status, city, count(*) FROM {LINES} WHERE city <> 'Goa' GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2",
    )
    assert same(got, want)


@pytest.mark.parametrize(
    ("fn", "agg"),
    [
        ("sum", "sum(total)"),
        ("avg", "avg(total)"),
        ("count", "count(total)"),
        ("median", "median(total)"),
        ("p90", "quantile_cont(total, 0.9)"),
        ("stddev", "stddev_samp(total)"),
        ("min", "min(total)"),
        ("max", "max(total)"),
        ("count_distinct", "count(DISTINCT total)"),
    ],
)
def test_a_measure_of_orders_asked_from_its_lines_counts_each_order_once(ws, fn, agg):
    metric = {"fn": fn, "column": "orders.total"}
    whole = call(ws, {"table": "order_lines", "metrics": [metric]})["rows"]
    assert same(whole, sql(ws, f"SELECT {agg} FROM orders"))
    grouped = call(ws, {"table": "order_lines", "group_by": ["categories.category_name"], "metrics": [metric],
                        "order_by": "categories.category_name"})["rows"]  # fmt: skip
    # each order once within each category it has a line in
    pairs = f"SELECT DISTINCT category_name, order_id, total FROM {LINES}"
    assert same(grouped, sql(ws, f"SELECT category_name, {agg} FROM ({pairs}) GROUP BY 1 ORDER BY 1"))
    fanned = sql(ws, f"SELECT {agg.replace('total', 'o.total')} FROM {LINES}")
    if fn in ("sum", "count"):
        assert not same(whole, fanned)  # the plain join would have counted orders once per line


def test_grouped_by_a_column_above_the_measure_each_order_falls_in_one_group(ws):
    got = call(ws, {"table": "order_lines", "group_by": ["orders.customers.city"],
                    "metrics": [{"fn": "sum", "column": "orders.total"}, {"fn": "sum", "column": "quantity"}],
                    "order_by": "orders.customers.city"})  # fmt: skip
    want = sql(
        ws,
        "SELECT city, (SELECT sum(total) FROM orders o2 JOIN customers c2 USING (customer_id) WHERE c2.city = c.city), "
        f"sum(quantity) FROM {LINES} GROUP BY city ORDER BY city",
    )
    assert same(got["rows"], want)


def test_a_condition_and_a_period_comparison_keep_each_order_once(ws):
    metric = {"fn": "sum", "column": "orders.total", "where": "orders.status = 'paid'"}
    got = call(ws, {"table": "order_lines", "metrics": [metric], "group_by": ["brands.brand_name"],
                    "period": "2026-03-01..2026-04-30", "baseline": "2026-01-01..2026-02-28",
                    "time_column": "orders.order_date", "order_by": "brands.brand_name"})  # fmt: skip
    pairs = f"SELECT DISTINCT brand_name, order_id, total, order_date FROM {LINES} WHERE status = 'paid'"
    want = sql(
        ws,
        "SELECT brand_name, sum(total) FILTER (WHERE order_date BETWEEN '2026-03-01' AND '2026-04-30'), "
        "sum(total) FILTER (WHERE order_date BETWEEN '2026-01-01' AND '2026-02-28') "
        f"FROM ({pairs}) GROUP BY 1 ORDER BY 1",
    )
    assert same([r[:3] for r in got["rows"]], want)


def test_pct_of_a_related_table_is_of_its_rows_not_of_the_lines(ws):
    metric = {"fn": "pct", "column": "orders.total", "where": "orders.status = 'late'"}
    got = call(ws, {"table": "order_lines", "metrics": [metric]})["rows"]
    want = sql(
        ws,
        "SELECT 100.0 * count(*) FILTER (WHERE status = 'late') / count(*) FROM orders WHERE total IS NOT NULL",
    )
    assert same(got, want)


def test_each_row_counts_a_looked_up_value_once_per_row_of_the_queried_table(ws):
    metric = {"fn": "avg", "column": "products.list_price", "each_row": True}
    got = call(
        ws,
        {
            "table": "order_lines",
            "metrics": [metric],
            "group_by": ["orders.status"],
            "order_by": "orders.status",
        },
    )
    want = sql(ws, f"SELECT status, avg(list_price) FROM {LINES} GROUP BY 1 ORDER BY 1")
    assert same(got["rows"], want)
    once = call(ws, {**{"table": "order_lines", "metrics": [{**metric, "each_row": False}]}})["rows"]
    assert same(
        once,
        sql(
            ws,
            "SELECT avg(list_price) FROM products WHERE product_id IN (SELECT product_id FROM order_lines)",
        ),
    )


def test_arithmetic_takes_the_row_of_its_nearest_table_and_refuses_tables_on_separate_paths(ws):
    got = call(
        ws, {"table": "order_lines", "metrics": [{"expr": "sum(orders.total * orders.customers.region_id)"}]}
    )
    assert same(
        got["rows"], sql(ws, "SELECT sum(total * region_id) FROM orders JOIN customers USING (customer_id)")
    )
    text = error(
        ws, {"table": "order_lines", "metrics": [{"expr": "sum(orders.total * products.list_price)"}]}
    )
    assert "no row of its own" in text and "orders and products" in text


def test_a_share_of_a_related_measure_is_of_its_true_total_though_groups_overlap(ws):
    got = call(ws, {"table": "order_lines", "group_by": ["categories.category_name"], "order_by": "categories.category_name",
                    "metrics": [{"fn": "sum", "column": "orders.total", "share": True}]})  # fmt: skip
    assert got["columns"] == ["categories.category_name", "sum_orders.total", "sum_orders.total_share"]
    pairs = f"SELECT DISTINCT category_name, order_id, total FROM {LINES}"
    want = sql(ws, f"SELECT category_name, sum(total), 100.0 * sum(total) / (SELECT sum(total) FROM orders) "
                   f"FROM ({pairs}) GROUP BY 1 ORDER BY 1")  # fmt: skip
    assert same(got["rows"], want)
    assert sum(r[2] for r in got["rows"]) > 100  # an order with lines in two categories is in both


def test_names_that_do_not_lead_anywhere_say_what_does(ws):
    text = error(ws, {"table": "order_lines", "group_by": ["orders.customers.nope"]})
    assert "customers (as orders.customers) has no column 'nope'" in text and "customer_name" in text
    text = error(ws, {"table": "orders", "group_by": ["order_lines.quantity"]})
    assert "one-to-many" in text and "double-count" in text
    text = error(ws, {"table": "order_lines", "group_by": ["orders.customers.city.month"]})
    assert "not a date" in text


def test_a_date_part_of_a_column_two_links_away(ws):
    got = call(
        ws,
        {
            "table": "order_lines",
            "group_by": ["orders.order_date.month"],
            "metrics": [{"fn": "sum", "column": "quantity"}],
        },
    )
    want = sql(ws, f"SELECT strftime(order_date, '%Y-%m'), sum(quantity) FROM {LINES} GROUP BY 1 ORDER BY 1")
    assert same(got["rows"], want)


def test_two_paths_to_one_table_are_named_and_neither_is_guessed(tmp_path):
    db = tmp_path / "two.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(
            "CREATE TABLE staff AS SELECT range AS staff_id, 'e' || range AS staff_name FROM range(4);"
            "CREATE TABLE teams AS SELECT range AS team_id, range AS staff_id FROM range(4);"
            "CREATE TABLE desks AS SELECT range AS desk_id, 3 - range AS staff_id FROM range(4);"
            "CREATE TABLE tickets AS SELECT range AS ticket_id, range % 4 AS team_id, (range // 3) % 4 AS desk_id "
            "FROM range(30);"
        )
        store_relationships(conn)
    with Workspace.open(db) as ws:
        text = error(ws, {"table": "tickets", "group_by": ["staff.staff_name"]})
        assert (
            "tickets refers to staff through several paths; use desks.staff.<column> or teams.staff.<column>"
            in text
        )
        got = call(
            ws,
            {
                "table": "tickets",
                "group_by": ["teams.staff.staff_name"],
                "order_by": "teams.staff.staff_name",
            },
        )
        assert same(got["rows"], sql(ws, "SELECT s.staff_name, count(*) FROM tickets t JOIN teams USING (team_id) "
                                          "JOIN staff s ON s.staff_id = teams.staff_id GROUP BY 1 ORDER BY 1"))  # fmt: skip


def test_a_duplicate_key_two_links_away_refuses_the_join(store, tmp_path):
    import shutil

    copy = tmp_path / "dup.duckdb"
    shutil.copy(store, copy)
    with duckdb.connect(str(copy)) as conn:
        conn.execute("INSERT INTO customers VALUES (5, 'again', 1, 'Pune')")  # behind the loader's back
        conn.execute("UPDATE _agent.relationships SET verified = false WHERE target = 'customers'")
    with Workspace.open(copy) as ws:
        text = error(ws, {"table": "order_lines", "group_by": ["orders.customers.city"]})
    assert "customers.customer_id is not a unique key" in text and "refused" in text


def test_rows_with_no_or_some_related_rows_are_counted_by_the_related_table_s_name(ws):
    none = call(ws, {"table": "customers", "filters": [{"column": "orders", "op": "is_null"}]})["rows"]
    assert none == sql(
        ws,
        "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
    )
    some = call(ws, {"table": "products", "group_by": ["brands.brand_name"], "order_by": "brands.brand_name",
                     "metrics": [{"fn": "count", "where": "order_lines is not null", "as": "sold"}, {"fn": "count"}]})  # fmt: skip
    want = sql(ws, "SELECT b.brand_name, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM order_lines l WHERE l.product_id = p.product_id)), "
               "count(*) FROM products p JOIN brands b USING (brand_id) GROUP BY 1 ORDER BY 1")  # fmt: skip
    assert same(some["rows"], want)
    assert none == [[3]]  # customers 37 to 39
    every = call(ws, {"table": "brands", "filters": [{"column": "products", "op": "is_null"}]})["rows"]
    assert every == [[0]]  # every brand has products: none is an answer, not an error
    text = error(ws, {"table": "customers", "filters": [{"column": "order_lines", "op": "is_null"}]})
    assert "customers has no column 'order_lines'" in text  # lines refer to orders, not to customers


def test_a_join_the_load_did_not_infer_is_asked_in_the_call_and_checked_unique(tmp_path):
    db = tmp_path / "crm.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(
            "CREATE TABLE desks AS SELECT range AS desk_no, 'd' || range AS desk_name FROM range(4);"
            "CREATE TABLE accounts AS SELECT range AS account_id, range % 4 AS seat, 10 * range AS revenue FROM range(20);"
        )
        assert store_relationships(conn) == []  # 'seat' names no table and no role: not inferred
    asked = {"table": "accounts", "joins": [{"column": "seat", "to": "desks.desk_no"}],
             "group_by": ["desks.desk_name"], "metrics": [{"fn": "sum", "column": "revenue"}], "order_by": "desks.desk_name"}  # fmt: skip
    with Workspace.open(db) as ws:
        got = call(ws, asked)["rows"]
        want = sql(
            ws,
            "SELECT s.desk_name, sum(revenue) FROM accounts a JOIN desks s ON s.desk_no = a.seat GROUP BY 1 ORDER BY 1",
        )
        assert same(got, want)
        assert "accounts has no column 'seet'" in error(
            ws, {**asked, "joins": [{"column": "seet", "to": "desks.desk_no"}]}
        )
        assert "to is table.key" in error(ws, {**asked, "joins": [{"column": "seat", "to": "desks"}]})
        assert "cannot refer to" in error(
            ws, {**asked, "joins": [{"column": "seat", "to": "desks.desk_name"}]}
        )
    with duckdb.connect(str(db)) as conn:
        conn.execute("INSERT INTO desks VALUES (2, 'again')")
    with Workspace.open(db) as ws:
        assert "desks.desk_no is not a unique key" in error(ws, asked)


def test_a_small_list_needs_no_made_up_count(ws):
    """Each customer's region, as a list (issue 34: the 8 employees and their managers took a fake count)."""
    got = call(ws, {"table": "customers", "metrics": [], "group_by": ["customer_name", "regions.region_name"],
                    "filters": [{"column": "city", "op": "=", "value": "Goa"}]})  # fmt: skip
    assert got["columns"] == ["customer_name", "regions.region_name"]
    want = sql(ws, "SELECT customer_name, region_name FROM customers JOIN regions USING (region_id) "
                   "WHERE city = 'Goa' ORDER BY 1, 2")  # fmt: skip
    assert same(got["rows"], want)
    assert "give group_by" in error(ws, {"table": "customers", "metrics": []})


def test_fn_beside_an_expr_of_that_aggregate_is_the_same_metric_and_any_other_fn_is_refused(ws):
    expr = {"expr": "sum(quantity * products.list_price)", "as": "sales"}
    alone = call(ws, {"table": "order_lines", "metrics": [expr]})["rows"]
    assert call(ws, {"table": "order_lines", "metrics": [{**expr, "fn": "sum"}]})["rows"] == alone
    assert "expr is the whole metric" in error(
        ws, {"table": "order_lines", "metrics": [{**expr, "fn": "avg"}]}
    )

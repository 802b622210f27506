"""Relationships inferred from real data: by name with orphans allowed, by value for lookup codes, never to
a column that is not a unique key; kept current by every load and drop."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from real_data import REAL, build_real_db

from analytics_agent.db import relationships
from analytics_agent.db.drop import drop_table
from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.db.relationships import Relationship, infer_relationships, read_relationships


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_real_db(tmp_path_factory.mktemp("rel") / "real.duckdb")


def _links(rels: list[Relationship]) -> set[tuple[str, str, str, str]]:
    return {(r.table, r.column, r.target, r.key) for r in rels}


def test_the_real_exports_link_flights_to_airlines_planes_and_airports(real_db):
    with duckdb.connect(str(real_db), read_only=True) as conn:
        rels = read_relationships(conn)
        orphans = conn.execute(
            "SELECT count(DISTINCT tailnum) FILTER (WHERE tailnum NOT IN (SELECT tailnum FROM planes)), "
            "count(DISTINCT tailnum) FROM flights"
        ).fetchone()
    assert _links(rels) == {
        ("flights", "carrier", "airlines", "carrier"),
        ("flights", "tailnum", "planes", "tailnum"),  # by name, though some tailnums have no plane row
        ("flights", "origin", "airports", "faa"),  # by value: the codes are airports' unique faa
        ("flights", "dest", "airports", "faa"),
        ("weather", "origin", "airports", "faa"),
    }
    tailnum = next(r for r in rels if r.column == "tailnum")
    assert orphans[0] > 0 and tailnum.coverage == pytest.approx(1 - orphans[0] / orphans[1], abs=1e-4)


def test_a_same_named_column_that_is_not_unique_in_the_target_is_never_a_key(real_db):
    with duckdb.connect(str(real_db), read_only=True) as conn:
        links = _links(infer_relationships(conn))
        dupes = conn.execute("SELECT count(*) - count(DISTINCT year) FROM planes").fetchone()[0]
    assert dupes > 0  # planes.year repeats, so flights.year must not point at it
    assert not any(key == "year" or target == "weather" for _, _, target, key in links)


def test_a_name_match_covering_under_half_the_values_is_not_a_link(tmp_path):
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        conn.execute("CREATE TABLE shops AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(shop_id, name)")
        conn.execute("CREATE TABLE sales AS SELECT range % 10 AS shop_id FROM range(100)")
        assert infer_relationships(conn) == []
        conn.execute("CREATE TABLE visits AS SELECT range % 3 AS shop_id FROM range(9)")  # 1, 2 of 0..2
        assert _links(infer_relationships(conn)) == {("visits", "shop_id", "shops", "shop_id")}


def _flight_links(db: Path) -> set[tuple[str, str, str, str]]:
    with duckdb.connect(str(db), read_only=True) as conn:
        return {link for link in _links(read_relationships(conn)) if link[0] == "flights"}


def test_loading_and_dropping_keep_the_stored_links_current(tmp_path):
    db = tmp_path / "mine.duckdb"
    load_files(db, [str(REAL / "flights.csv")], LoadOptions(table="flights"))
    assert _flight_links(db) == set()
    load_files(db, [str(REAL / "airlines.csv")], LoadOptions(table="airlines"))
    assert _flight_links(db) == {("flights", "carrier", "airlines", "carrier")}
    drop_table(db, "airlines")
    assert _flight_links(db) == set()


def test_a_key_whose_profile_lists_fewer_values_than_rows_is_ruled_out_without_a_scan(tmp_path, monkeypatch):
    # the profile of status holds its 3 values over 6 rows: it repeats, so no uniqueness query is needed
    scanned: list[tuple[str, str]] = []
    real = relationships.duplicate_keys

    def counting(cur, table, key, **kwargs):
        scanned.append((table, key))
        return real(cur, table, key, **kwargs)

    monkeypatch.setattr(relationships, "duplicate_keys", counting)
    db = tmp_path / "x.duckdb"
    (tmp_path / "statuses.csv").write_text("status,label\nnew,New\nshipped,Shipped\ndone,Done\n")
    (tmp_path / "orders.csv").write_text("id,status\n" + "".join(f"{i},{s}\n" for i, s in
                                         enumerate(["new", "done", "new", "shipped", "done", "new"])))  # fmt: skip
    load_files(db, [str(tmp_path / "orders.csv")], LoadOptions(table="orders"))
    load_files(db, [str(tmp_path / "statuses.csv")], LoadOptions(table="statuses"))
    assert ("orders", "status") not in scanned  # before: scanned for duplicates on each load
    assert ("statuses", "status") in scanned
    with duckdb.connect(str(db), read_only=True) as conn:
        assert _links(read_relationships(conn)) == {("orders", "status", "statuses", "status")}


def test_columns_sharing_a_key_each_keep_their_own_coverage(tmp_path):
    # orders and invoices both point at customers.customer_id: checked in one join, counted apart
    with duckdb.connect(str(tmp_path / "c.duckdb")) as conn:
        conn.execute("CREATE TABLE customers AS SELECT range AS customer_id FROM range(100)")
        conn.execute("CREATE TABLE orders AS SELECT range % 100 AS customer_id FROM range(500)")
        conn.execute("CREATE TABLE invoices AS SELECT range % 160 AS customer_id FROM range(320)")
        conn.execute("CREATE TABLE refunds AS SELECT (range % 300)::INTEGER AS customer_id FROM range(600)")
        found = {(r.table, r.target): r.coverage for r in infer_relationships(conn)}
        alone = {
            t: relationships.coverage(conn, t, "customer_id", "customers", "customer_id")
            for t in ("orders", "invoices", "refunds")
        }
    assert found == {("orders", "customers"): 1.0, ("invoices", "customers"): 0.625}
    assert alone == {"orders": 1.0, "invoices": 0.625, "refunds": 1 / 3}  # refunds: below one half, no link


def test_a_table_that_links_to_nothing_leaves_the_links_as_they_were(sample_db):
    with duckdb.connect(str(sample_db)) as conn:
        stored = conn.execute("SELECT * FROM _agent.relationships ORDER BY ALL").fetchall()
        conn.execute("CREATE TABLE remarks AS SELECT 'late' AS remark")  # links to nothing
        found = relationships.store_relationships(conn, "remarks")
        assert conn.execute("SELECT * FROM _agent.relationships ORDER BY ALL").fetchall() == stored
        assert len(found) == len(stored) > 0

        conn.execute("CREATE TABLE order_remarks AS SELECT order_id, 'late' AS remark FROM orders")
        relationships.store_relationships(conn, "order_remarks")
        links = conn.execute(
            "SELECT table_name, column_name, target, key FROM _agent.relationships"
        ).fetchall()
        assert ("order_remarks", "order_id", "orders", "order_id") in links
        assert {r[:4] for r in stored} < set(links)

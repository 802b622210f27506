"""Links among linked PostgreSQL tables come from the keys PostgreSQL enforces (issue 25): a declared
foreign key, and a column named for another table's primary key; they live in the session only, and
``tables`` marks each linked table with its source. Real PostgreSQL (conftest), DuckDB's postgres extension."""

from __future__ import annotations

import json
import os
import subprocess

import duckdb
import pytest

pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)

from analytics_agent.db.linked.spec import parse_source
from analytics_agent.db.relationships import read_relationships
from analytics_agent.workspace.workspace import Workspace
from tests.required import POSTGRESQL, program

SCHEMA = """
CREATE TABLE customers (id integer PRIMARY KEY, city text NOT NULL);
CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers (id), amount numeric);
CREATE TABLE payments (id integer PRIMARY KEY, order_id integer, paid numeric);
CREATE TABLE notes (customer_id integer, body text);
INSERT INTO customers SELECT i, (ARRAY['Pune', 'Delhi', 'Goa'])[i % 3 + 1] FROM generate_series(0, 99) i;
INSERT INTO orders SELECT i, i % 100, i * 1.5 FROM generate_series(0, 999) i;
INSERT INTO payments SELECT i, i % 1000, i * 1.5 FROM generate_series(0, 499) i;
INSERT INTO notes SELECT i % 100, 'called' FROM generate_series(0, 9) i;
"""


@pytest.fixture
def keyed(postgres, monkeypatch):
    postgres.create_database("keyed")
    psql = program("psql", POSTGRESQL)  # postgresql depends on postgresql-client, which brings psql
    subprocess.run(
        [psql, "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres", "-d", "keyed",
         "-v", "ON_ERROR_STOP=1", "-c", SCHEMA],
        check=True, capture_output=True, timeout=600, env={**os.environ, "PGPASSWORD": postgres.password},
    )  # fmt: skip
    monkeypatch.setenv("KEYED_PASSWORD", postgres.password)
    return parse_source(
        "keyed",
        {"type": "postgres", "dsn": postgres.dsn("keyed"), "password_env": "KEYED_PASSWORD", "prefix": "pg_"},
    )


def test_postgres_keys_become_links_kept_out_of_the_database_file(sample_db, keyed):
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        before = conn.execute("SELECT count(*) FROM _agent.relationships").fetchone()[0]
    with Workspace.open(sample_db, sources=[keyed]) as ws:
        links = {(r.table, r.column): (r.target, r.key) for r in read_relationships(ws.cursor())}
        described = json.loads(ws.executor.execute("describe_table", {"table": "pg_orders"}).text)
        joined = ws.executor.execute(
            "aggregate",
            {"table": "pg_orders", "group_by": ["pg_customers.city"], "metrics": [{"fn": "count"}]},
        )
    assert links[("pg_orders", "customer_id")] == ("pg_customers", "id")  # the declared foreign key
    assert links[("pg_payments", "order_id")] == ("pg_orders", "id")  # named for the primary key
    assert ("pg_notes", "customer_id") not in links  # a table without keys gets no guessed link
    assert ("orders", "customer_id") in links  # the database's own links are still there
    assert "pg_customers" in json.dumps(described)
    assert not joined.is_error, joined.text
    assert sorted(tuple(r) for r in json.loads(joined.text)["rows"]) == [
        ("Delhi", 330),
        ("Goa", 330),
        ("Pune", 340),
    ]
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        after = conn.execute("SELECT count(*) FROM _agent.relationships").fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT table_name FROM _agent.relationships").fetchall()}
    assert after == before and not any(n.startswith("pg_") for n in names)

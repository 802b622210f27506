"""Load the bundled sample data (``seeds/``) into a new database, with explicit column types."""

from __future__ import annotations

import duckdb

from analytics_agent.db.catalog import store_profile
from analytics_agent.resources import seeds_dir

SAMPLE_TABLES: dict[str, dict[str, str]] = {
    "products": {"product_id": "VARCHAR", "name": "VARCHAR", "category": "VARCHAR", "list_price": "INTEGER"},
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
        "amount": "INTEGER",
        "channel": "VARCHAR",
    },
    "order_items": {
        "order_id": "VARCHAR",
        "product_id": "VARCHAR",
        "quantity": "INTEGER",
        "unit_price": "INTEGER",
    },
}


def seed_sample_data(conn: duckdb.DuckDBPyConnection) -> None:
    """Create the four sample tables in one transaction, sorted for fast day/city filters."""
    from analytics_agent.db.relationships import store_relationships  # a first run only, not every command

    folder = seeds_dir()
    conn.execute("BEGIN")
    try:
        for table, columns in SAMPLE_TABLES.items():
            path = folder / f"{table}.csv"
            order = " ORDER BY day, city" if table == "orders" else ""
            conn.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv(?, header = true, columns = ?){order}",
                [str(path), columns],
            )
            store_profile(conn, table)
        store_relationships(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise

"""Drop a table: the table, its profile and the relationships that named it, in one transaction."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.catalog import drop_profile, quote_ident, table_names
from analytics_agent.db.connect import open_writer
from analytics_agent.db.relationships import store_relationships
from analytics_agent.db.rows import first_row
from analytics_agent.db.write_safety import WriteState, is_interrupt, transaction
from analytics_agent.errors import LoadError
from analytics_agent.suggest import did_you_mean


def drop_table(db_path: Path, table: str) -> int:
    """Drop one table and its profile in one transaction. Returns how many rows it held."""
    if not db_path.exists():
        raise LoadError(f"no database at {db_path}; nothing to drop")
    with open_writer(db_path) as conn:
        names = table_names(conn)
        if table not in names:
            raise LoadError(
                f"no table {table!r}{did_you_mean(table, names)}; tables: {', '.join(names) or 'none'}"
            )
        rows = first_row(conn.execute(f"SELECT count(*) FROM {quote_ident(table)}"))[0]
        state = WriteState()
        try:
            with transaction(conn, state):
                conn.execute(f"DROP TABLE {quote_ident(table)}")
                drop_profile(conn, table)
                store_relationships(conn, table)
        except duckdb.Error as exc:
            raise LoadError(_drop_failed(db_path, table, str(exc))) from None
        except BaseException as exc:
            if is_interrupt(exc):
                raise state.interrupted("drop") from None
            raise
    return int(rows)


def _drop_failed(db_path: Path, table: str, message: str) -> str:
    if "No space left on device" in message:
        return (
            f"the disk holding {db_path.parent} is full: dropping {table} needs a little space to record "
            "itself (a few KB); free some space there and drop again (nothing was changed)"
        )
    return f"cannot drop {table}: {message.strip().splitlines()[0]} (nothing was changed)"

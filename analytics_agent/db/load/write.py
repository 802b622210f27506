"""Writing a planned load inside its transaction: the rows (create, replace by swap, or append by name),
the refusal of a load that read nothing, and DuckDB's progress estimate for the terminal."""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb

from analytics_agent.db.catalog import column_types, quote_ident, table_names
from analytics_agent.db.load.options import Input, LoadOptions
from analytics_agent.db.load.plan import Plan
from analytics_agent.db.load.settle.rejects import data_lines, plural_lines
from analytics_agent.db.rows import first_row
from analytics_agent.errors import LoadError

ProgressCallback = Callable[[float], None]
_POLL_S = 0.2


def write_rows(
    conn: duckdb.DuckDBPyConnection, table: str, plan: Plan, mode: str, existing: list[str] | None = None
) -> int:
    """Write the rows (inside the caller's transaction). Returns the rows written. ``existing``: the
    database's tables, when the caller has just listed them on this connection."""
    exists = table in (table_names(conn) if existing is None else existing)
    target = quote_ident(table)
    if exists and mode == "create":
        raise LoadError(
            f"table {table!r} already exists; add --replace to overwrite it or --append to add rows"
        )
    if exists and mode == "append":
        _check_same_columns(conn, table, plan.safe)
        return int(first_row(conn.execute(f"INSERT INTO {target} BY NAME {plan.query}", plan.params))[0])
    if exists:  # replace: build beside the old table, then swap, all before COMMIT
        temporary = quote_ident(f"_loading_{uuid.uuid4().hex[:12]}")
        loaded = first_row(conn.execute(f"CREATE TABLE {temporary} AS {plan.query}", plan.params))[0]
        conn.execute(f"DROP TABLE {target}")
        conn.execute(f"ALTER TABLE {temporary} RENAME TO {target}")
        return int(loaded)
    return int(first_row(conn.execute(f"CREATE TABLE {target} AS {plan.query}", plan.params))[0])


def _check_same_columns(conn: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> None:
    existing = list(column_types(conn, table))
    missing = [c for c in existing if c not in columns]
    extra = [c for c in columns if c not in existing]
    if missing or extra:
        parts = []
        if extra:
            parts.append(f"the file has {', '.join(extra)} which {table} lacks")
        if missing:
            parts.append(f"{table} has {', '.join(missing)} which the file lacks")
        raise LoadError(
            f"--append needs the same columns: {'; '.join(parts)}; use --replace or another --table"
        )


def refuse_empty(
    conn: duckdb.DuckDBPyConnection,
    loaded: int,
    rejected: list[tuple[str, int]],
    files: list[Path],
    inputs: list[Input],
    table: str,
    options: LoadOptions,
) -> None:
    """Zero rows is refused (the transaction rolls back) unless --allow-empty asked for it, and even then
    when the file has lines below the header: an empty table from a file with data is a silent loss."""
    if loaded:
        return
    names = ", ".join(i.label for i in inputs)
    if options.allow_empty:
        lines = sum(data_lines(conn, f, options) for f in files)
        if lines:
            check = (
                "if its first line is data, add --no-header; otherwise check --delimiter and --quote"
                if options.header is None
                else "check --delimiter, --quote and --header"
            )
            raise LoadError(
                f"{names} has {plural_lines(lines)} of data by DuckDB's own reading but none read as a row here: "
                f"{check} (--allow-empty only creates a table from a file with no data lines)"
            )
        return
    if rejected:
        raise LoadError(
            f"every record of {names} was rejected ({len(rejected):,}, first at "
            f"{'' if len(inputs) == 1 else rejected[0][0] + ' '}line {rejected[0][1]}); "
            "check --delimiter and --header, nothing was loaded"
        )
    raise LoadError(
        f"{names} has no data rows, only a header; nothing loaded (add --allow-empty to create "
        f"{table} with its columns and no rows)"
    )


def drop_empty_tail(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: list[str],
    loaded: int,
    files: list[Path],
    delimiter: str,
) -> int:
    """Delete the rows of NULLs at the end of the freshly written rows (a spreadsheet's trailing ``,,,,``
    lines) and return how many; none when every row written is one (that file is empty, said elsewhere).
    A plain file whose last line holds more than delimiters is not asked; otherwise the last row's first
    column is read first: a row of data rarely starts with an empty field."""
    if not loaded or (len(files) == 1 and not _may_end_empty(files[0], delimiter)):
        return 0
    t = quote_ident(table)
    last = f"(SELECT max(rowid) FROM {t})"
    if (
        first_row(conn.execute(f"SELECT {quote_ident(columns[0])} IS NULL FROM {t} WHERE rowid = {last}"))[0]
        is False
    ):
        return 0
    empty = " AND ".join(f"{quote_ident(c)} IS NULL" for c in columns)
    kept = first_row(conn.execute(f"SELECT max(rowid) FROM {t} WHERE NOT ({empty})"))[0]
    if kept is None:
        return 0
    count = int(first_row(conn.execute(f"SELECT count(*) FROM {t} WHERE rowid > {int(kept)}"))[0])
    if not count or count >= loaded:
        return 0
    conn.execute(f"DELETE FROM {t} WHERE rowid > {int(kept)}")
    return count


def empty_tail_note(count: int) -> list[str]:
    """The note of ``drop_empty_tail``'s rows. Pure."""
    if not count:
        return []
    lines = "line at the end of the file holds" if count == 1 else "lines at the end of the file hold"
    return [
        f"{count:,} {lines} only delimiters (',,,,', a spreadsheet's empty rows): not loaded as rows of NULLs"
    ]


def _may_end_empty(path: Path, delimiter: str) -> bool:
    """Whether a file's last line could be a record of empty fields (only delimiters, quotes and spaces);
    True when its end cannot be read as is (a packed file DuckDB unpacks itself)."""
    if path.name.lower().endswith((".gz", ".zst", ".zstd")):
        return True
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - 4096))
            tail = handle.read().rstrip(b"\r\n\t ")
    except OSError:
        return True
    last = tail[tail.rfind(b"\n") + 1 :].replace(b"\r", b"")
    return bool(last) and not last.strip(delimiter.encode() + b'"\t ')


@contextlib.contextmanager
def progress(conn: duckdb.DuckDBPyConnection, callback: ProgressCallback | None) -> Iterator[None]:
    """Report DuckDB's own progress estimate (0-100) from a side thread while the load runs."""
    if callback is None:
        yield
        return
    conn.execute("SET enable_progress_bar = true")
    conn.execute("SET enable_progress_bar_print = false")  # we draw it, on stderr only
    done = threading.Event()

    def poll() -> None:
        while not done.wait(_POLL_S):
            with contextlib.suppress(duckdb.Error):
                value = conn.query_progress()
                if value >= 0:
                    callback(value)

    thread = threading.Thread(target=poll, name="load-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()

"""Load CSV or Parquet files into one table, all or nothing.

Everything happens in one transaction on the writer connection: read with ``CREATE TABLE … AS SELECT``
(every column of every row is converted, so a bad value anywhere fails the load), swap for ``--replace``,
store the profile, ``COMMIT``. Any failure before ``COMMIT`` (a bad row, Ctrl-C, a full disk, the
process killed) leaves the database exactly as it was: DuckDB only makes committed work durable.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.archives import is_archive, member_name, unpacked
from analytics_agent.db.catalog import (
    column_types,
    get_profile,
    quote_ident,
    store_profile,
    table_names,
)
from analytics_agent.db.connect import ensure_database, open_writer
from analytics_agent.db.dialect import sniff_dialect
from analytics_agent.db.load_checks import Rejects, data_lines, plural_lines, settle_columns
from analytics_agent.db.load_errors import explain_load_error, renumber_lines
from analytics_agent.db.names import rename_reason, safe_column_names, safe_identifier, table_name_from_path
from analytics_agent.db.relationships import store_relationships
from analytics_agent.db.rows import first_row
from analytics_agent.db.sources import (
    Dialect,
    Input,
    Kind,
    LoadOptions,
    check_options,
    csv_reader_sql,
    file_kind,
    map_type_overrides,
    parquet_reader_sql,
    resolve_inputs,
)
from analytics_agent.db.write_safety import (
    WriteState,
    is_interrupt,
    space_given_back_on_failure,
    transaction,
)
from analytics_agent.errors import LoadError

ProgressCallback = Callable[[float], None]
_POLL_S = 0.2
_SHOWN_LINES = 5


@dataclass(frozen=True)
class ColumnSummary:
    name: str
    original: str
    type: str
    nulls: int


@dataclass(frozen=True)
class LoadSummary:
    """What a load did, for the closing summary."""

    table: str
    files: list[str]
    """The files as the user named them (``archive.zip:member.csv`` for an archive member)."""
    mode: str
    rows_loaded: int
    rows_total: int
    columns: list[ColumnSummary]
    seconds: float
    created_database: bool = False
    rejected_lines: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Things the user should know: odd values that kept a column as text, names that changed and why."""


@dataclass(frozen=True)
class _Plan:
    """The reader and the names: what the one transaction runs."""

    query: str
    params: list[Any]
    originals: list[str]
    safe: list[str]
    text_columns: list[str]
    flags: list[str] = field(default_factory=list)
    """Columns DuckDB guessed BOOLEAN, read as text: they become BOOLEAN only if every value is true/false
    (``NO`` is Norway in a country column, not false)."""
    recount: tuple[str, list[Any]] | None = None
    """The file read again as text with only the empty field missing, to count missing-value tokens."""
    date_formats: dict[str, str] = field(default_factory=dict)
    """Stored date column -> the day/month format DuckDB guessed, when it was not given."""
    fixed: list[str] = field(default_factory=list)
    """Stored columns typed by --type: left as the user said."""
    dialect: Dialect | None = None


def load_files(
    db_path: Path,
    patterns: Sequence[str],
    options: LoadOptions,
    *,
    on_progress: ProgressCallback | None = None,
    sample_data: bool = False,
) -> LoadSummary:
    """Load the files into one table. Raises LoadError (database unchanged), DatabaseError, or
    Interrupted (Ctrl-C; it says whether the load committed).
    ``sample_data``: a database created now gets the sample tables (only the default one does)."""
    state = WriteState()
    try:
        return _load_files(db_path, patterns, options, on_progress, state, sample_data=sample_data)
    except BaseException as exc:
        if is_interrupt(exc):
            raise state.interrupted("load") from None
        raise


def _load_files(
    db_path: Path,
    patterns: Sequence[str],
    options: LoadOptions,
    on_progress: ProgressCallback | None,
    state: WriteState,
    *,
    sample_data: bool,
) -> LoadSummary:
    started = time.perf_counter()
    inputs = [_named_member(i) for i in resolve_inputs(patterns)]
    kind = file_kind([i.member or i.path.name for i in inputs])
    options = check_options(options, kind)
    created = ensure_database(db_path, sample_data=sample_data)
    try:
        return _load(
            db_path,
            patterns,
            inputs,
            kind,
            options,
            on_progress,
            started=started,
            created=created,
            state=state,
        )
    except LoadError:
        if created and not sample_data:  # a failed first load leaves no empty database behind
            for leftover in (db_path, db_path.with_name(db_path.name + ".wal")):
                leftover.unlink(missing_ok=True)
        raise


def _load(
    db_path: Path,
    patterns: Sequence[str],
    inputs: list[Input],
    kind: Kind,
    options: LoadOptions,
    on_progress: ProgressCallback | None,
    *,
    started: float,
    created: bool,
    state: WriteState,
) -> LoadSummary:
    rejects = Rejects.fresh() if options.skip_bad_rows else None
    with unpacked(inputs) as files, open_writer(db_path) as conn:
        reserved = _reserved_words(conn)
        table = _target_table(options, patterns, reserved)
        mode = _effective_mode(options.mode, table, table_names(conn))
        plan = _plan(conn, kind, files, inputs, options, reserved, rejects)
        renamed = {s: o for o, s in zip(plan.originals, plan.safe, strict=True) if o != s}
        labels = {str(f): i.label for f, i in zip(files, inputs, strict=True)}
        try:
            with (
                space_given_back_on_failure(db_path),
                _progress(conn, on_progress),
                transaction(conn, state),
            ):
                loaded = _write(conn, table, plan, mode)
                rejected = rejects.keep(conn, table, labels) if rejects else []
                _refuse_empty(conn, loaded, rejected, files, inputs, table, options)
                notes = settle_columns(
                    conn,
                    table,
                    text=plan.text_columns,
                    flags=plan.flags,
                    fixed=plan.fixed,
                    recount=plan.recount,
                    stored_to_original=dict(zip(plan.safe, plan.originals, strict=True)),
                    tokens=options.nulls(),
                    date_formats=plan.date_formats,
                )
                original_names = renamed
                if mode == "append":
                    original_names = {**get_profile(conn, table).get("original_names", {}), **renamed}
                store_profile(conn, table, original_names=original_names or None)
                store_relationships(conn, table)
        except duckdb.Error as exc:
            stored = dict(zip(plan.originals, plan.safe, strict=True))
            label = inputs[0].label if len(inputs) == 1 else None
            message = str(exc)
            dialect = plan.dialect
            if len(files) == 1 and dialect is not None:
                message = renumber_lines(message, lambda n: physical_line(files[0], n, dialect))
            raise LoadError(explain_load_error(message, files, stored_names=stored, label=label)) from None
        profile = get_profile(conn, table)
    reasons = [rename_reason(o, s, reserved) for o, s in zip(plan.originals, plan.safe, strict=True)]
    return LoadSummary(
        table=table,
        files=[i.label for i in inputs],
        mode=mode,
        rows_loaded=loaded,
        rows_total=int(profile["rows"]),
        columns=_column_summaries(profile),
        seconds=time.perf_counter() - started,
        created_database=created,
        rejected_lines=rejected,
        notes=[r for r in reasons if r] + notes,
    )


def physical_line(path: Path, record_line: int, dialect: Dialect) -> int:
    """The line of the file where DuckDB's ``record_line`` (header = 1) starts, counting the extra lines of
    multi-line quoted values before it. Read only on the error path; compressed files keep DuckDB's number."""
    if (
        path.suffix.lower() in (".gz", ".zst", ".zstd")
        or not dialect.quote
        or dialect.skip
        or dialect.comment
    ):
        return record_line
    import csv

    try:
        with path.open(newline="", encoding="utf-8", errors="replace") as handle:
            reader = csv.reader(handle, delimiter=dialect.delimiter, quotechar=dialect.quote)
            previous_end = 0
            for number, _ in enumerate(reader, start=1):
                if number == record_line:
                    return previous_end + 1
                previous_end = reader.line_num
    except (OSError, csv.Error):
        pass
    return record_line


def _named_member(item: Input) -> Input:
    """An archive input with its member named, so every message can say which file inside it."""
    return Input(item.path, member_name(item)) if is_archive(item.path) else item


def _plan(
    conn: duckdb.DuckDBPyConnection,
    kind: Kind,
    files: list[Path],
    inputs: list[Input],
    options: LoadOptions,
    reserved: frozenset[str],
    rejects: Rejects | None,
) -> _Plan:
    """Sniff (once per file), name the columns, apply --type, and build the reader."""
    if kind == "parquet":
        source, params = parquet_reader_sql(files)
        sniffed = _describe(conn, source, params, files)
    else:
        dialects = [sniff_dialect(conn, f, i.label, options) for f, i in zip(files, inputs, strict=True)]
        sniffed = dialects[0].columns
        if len(files) > 1 and any(
            d.quote != dialects[0].quote or d.escape != dialects[0].escape for d in dialects
        ):
            # one reader for all files: a quote DuckDB saw in any of them applies to all
            quoted = next(d for d in dialects if d.quote)
            dialects[0] = replace(dialects[0], quote=quoted.quote, escape=quoted.escape)
        if len(files) > 1:  # their union, by name
            source, params = csv_reader_sql(files, options, dialects[0])
            sniffed = _describe(conn, source, params, files)
    originals = list(sniffed)
    safe = safe_column_names(originals, reserved=reserved)
    # DuckDB guesses BIGNUM for thousands-separated integers; BIGINT is what every tool expects
    bignums = {o: "BIGINT" for o, t in sniffed.items() if t == "BIGNUM" and kind == "csv"}
    overrides = map_type_overrides(options.types, originals, safe)
    flags = {
        o: "VARCHAR" for o, t in sniffed.items() if t == "BOOLEAN" and kind == "csv" and o not in overrides
    }
    types = bignums | flags | overrides
    recount = None
    formats: dict[str, str] = {}
    if kind == "csv":
        rejected = (rejects.errors, rejects.scans) if rejects else None
        source, params = csv_reader_sql(files, options, dialects[0], types=types, rejects=rejected)
        if options.null_tokens is None or set(options.nulls()) - {""}:
            as_text = {o: "VARCHAR" for o in originals}
            recount = csv_reader_sql(
                files, replace(options, null_tokens=()), dialects[0], types=as_text, lenient=True
            )
        guessed = options.date_format is None and dialects[0].date_format
        if guessed and "%d" in guessed and "%m" in guessed and not guessed.startswith("%Y"):
            formats = {
                s: guessed
                for o, s in zip(originals, safe, strict=True)
                if sniffed[o] == "DATE" and o not in overrides
            }
    final = {o: types.get(o, t) for o, t in sniffed.items()}
    text = [s for o, s in zip(originals, safe, strict=True) if final[o] == "VARCHAR"]
    stored_flags = [s for o, s in zip(originals, safe, strict=True) if o in flags]
    select = ", ".join(f"{quote_ident(o)} AS {quote_ident(s)}" for o, s in zip(originals, safe, strict=True))
    fixed = [s for o, s in zip(originals, safe, strict=True) if o in overrides]
    return _Plan(
        f"SELECT {select} FROM {source}",
        params,
        originals,
        safe,
        text,
        stored_flags,
        recount,
        formats,
        fixed,
        dialects[0] if kind == "csv" else None,
    )


def _describe(
    conn: duckdb.DuckDBPyConnection, source: str, params: list[Any], files: list[Path]
) -> dict[str, str]:
    """The columns and guessed types of a reader (DuckDB sniffs a sample; nothing converted yet)."""
    try:
        described = conn.execute(f"DESCRIBE SELECT * FROM {source}", params).fetchall()
    except duckdb.Error as exc:
        raise LoadError(explain_load_error(str(exc), files)) from None
    return {row[0]: row[1] for row in described}


def _refuse_empty(
    conn: duckdb.DuckDBPyConnection,
    loaded: int,
    rejected: list[int],
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
            raise LoadError(
                f"{names} has {plural_lines(lines)} of data by DuckDB's own reading but none read as a row here; "
                "check --delimiter, --quote and --header (--allow-empty only creates a table from a file with "
                "no data lines)"
            )
        return
    if rejected:
        raise LoadError(
            f"every record of {names} was rejected ({len(rejected):,}, first at line {rejected[0]}); "
            "check --delimiter and --header, nothing was loaded"
        )
    raise LoadError(
        f"{names} has no data rows, only a header; nothing loaded (add --allow-empty to create "
        f"{table} with its columns and no rows)"
    )


def _effective_mode(mode: str, table: str, existing: list[str]) -> str:
    """``create`` when ``--replace``/``--append`` names a table that is not there (the summary then says
    what happened); a name close to an existing table is taken for a typo and refused, since replacing
    or appending was meant to change that table, not to make a new one beside it."""
    if mode == "create" or table.lower() in {name.lower() for name in existing}:
        return mode
    from analytics_agent.suggest import did_you_mean

    hint = did_you_mean(table, existing)
    if hint:
        flag = f"--{mode}"
        raise LoadError(
            f"no table {table!r} to {'replace' if mode == 'replace' else 'append to'}{hint} "
            f"(to create {table!r} as a new table, leave out {flag})"
        )
    return "create"


def _write(conn: duckdb.DuckDBPyConnection, table: str, plan: _Plan, mode: str) -> int:
    """Write the rows (inside the caller's transaction). Returns the rows written."""
    exists = table in table_names(conn)
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


def _target_table(options: LoadOptions, patterns: Sequence[str], reserved: frozenset[str]) -> str:
    if options.table is not None:
        name = safe_identifier(options.table, reserved=reserved, prefix="t")
    else:  # archive.zip:member.csv is named after its member
        name = table_name_from_path(patterns[0].rsplit(".zip:", 1)[-1], reserved=reserved)
    if name.startswith("_"):
        raise LoadError(f"table names starting with '_' are reserved; choose another --table than {name!r}")
    return name


def _reserved_words(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    rows = conn.execute(
        "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'"
    ).fetchall()
    return frozenset(r[0] for r in rows)


def _column_summaries(profile: dict[str, Any]) -> list[ColumnSummary]:
    original = profile.get("original_names", {})
    return [
        ColumnSummary(c["name"], original.get(c["name"], c["name"]), c["type"], int(c["nulls"]))
        for c in profile["columns"]
    ]


@contextlib.contextmanager
def _progress(conn: duckdb.DuckDBPyConnection, callback: ProgressCallback | None) -> Iterator[None]:
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

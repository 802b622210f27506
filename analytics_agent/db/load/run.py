"""Load CSV or Parquet files into one table, all or nothing.

Everything happens in one transaction on the writer connection: read with ``CREATE TABLE … AS SELECT``
(every column of every row is converted, so a bad value anywhere fails the load), swap for ``--replace``,
store the profile, ``COMMIT``. Any failure before ``COMMIT`` (a bad row, Ctrl-C, a full disk, the
process killed) leaves the database exactly as it was: DuckDB only makes committed work durable.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import duckdb

from analytics_agent.db.catalog import written_tables
from analytics_agent.db.connect import ensure_database, holds_tables, is_new_database, open_writer
from analytics_agent.db.load.ahead import plan_ahead
from analytics_agent.db.load.inputs import load_threads
from analytics_agent.db.load.keywords import RenamedWords
from analytics_agent.db.load.names import rename_reason
from analytics_agent.db.load.options import (
    Input,
    Kind,
    LoadOptions,
    check_options,
    file_kind,
    resolve_inputs,
)
from analytics_agent.db.load.plan import Plan, make_plan
from analytics_agent.db.load.read.archives import is_archive, member_name, unpacked
from analytics_agent.db.load.read.newlines import one_kind_of_newline
from analytics_agent.db.load.read.transcode import utf8_copies
from analytics_agent.db.load.settle.amounts_ahead import Ahead, AheadMissed
from analytics_agent.db.load.settle.rejects import Rejects
from analytics_agent.db.load.steps import Done, LoadSteps
from analytics_agent.db.load.summary import ColumnSummary as ColumnSummary
from analytics_agent.db.load.summary import LoadSummary as LoadSummary
from analytics_agent.db.load.summary import column_summaries
from analytics_agent.db.load.target import target_table, write_mode
from analytics_agent.db.load.write import (
    ProgressCallback,
    progress,
)
from analytics_agent.db.relationships_base import describe_link
from analytics_agent.db.write_safety import (
    WriteState,
    is_interrupt,
    space_given_back_on_failure,
    transaction,
)
from analytics_agent.errors import LoadError


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
    # a new database of the user's own is created by the load's own connection: built apart first (as the
    # sample one is, ensure_database) it cost a small load 16 ms of CPU, a tenth of it, for an empty file
    created = (
        ensure_database(db_path, sample_data=True)
        if sample_data
        else is_new_database(db_path, sample_data=False)
    )
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
        # a failed first load leaves no empty database behind; one another process created and filled
        # while this load waited for it stays
        if created and not sample_data and not holds_tables(db_path):
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
    with (
        unpacked(inputs) as unpacked_files,
        utf8_copies(unpacked_files, inputs, options.encoding) as (plain_files, encoding_notes, read_as),
        one_kind_of_newline(plain_files, options.newline) as files,
        open_writer(db_path, threads=load_threads(files)) as conn,
    ):
        options = options._replace(encoding=read_as)  # None: the files DuckDB reads are UTF-8 copies
        reserved = RenamedWords(conn)
        table = target_table(options, patterns, reserved)
        before = written_tables(conn)  # the writer holds the file: nobody else adds or drops a table
        existing = list(before[0])
        options = options._replace(mode=write_mode(options.mode, table, existing))
        plan = make_plan(conn, kind, files, inputs, options, reserved, rejects)
        load = LoadSteps(conn, table, plan, options, files, inputs, rejects, before)
        ahead = plan_ahead(conn, plan, options, files)
        try:
            # once around both tries: the file is cut back only once the writer is done with it
            with space_given_back_on_failure(db_path):
                loaded, rejected, notes, profile, links = _run(load, ahead, on_progress, state)
        except duckdb.Error as exc:
            raise LoadError(load.explain(str(exc))) from None
    reasons = [rename_reason(o, s, reserved) for o, s in zip(plan.originals, plan.safe, strict=True)]
    return LoadSummary(
        table=table,
        files=[i.label for i in inputs],
        mode=options.mode,
        rows_loaded=loaded,
        rows_total=int(profile["rows"]),
        columns=column_summaries(profile),
        seconds=time.perf_counter() - started,
        created_database=created,
        rejected_lines=[line for _, line in rejected],
        rejected_at=tuple(rejected),
        notes=encoding_notes + [r for r in reasons if r] + notes,
        links=tuple(describe_link(r) for r in links if table in (r.table, r.target)),
    )


def _run(
    load: LoadSteps, ahead: tuple[Plan, Ahead] | None, on_progress: ProgressCallback | None, state: WriteState
) -> Done:
    """``load.run`` in its transaction, rolled back on any failure: first with the amount columns of
    ``ahead`` converted in the write, and again the plain way when they were not what their first values
    suggested (``amounts_ahead``)."""
    if ahead is not None:
        try:
            return _in_transaction(load._replace(plan=ahead[0], ahead=ahead[1]), on_progress, state)
        except AheadMissed:
            pass  # rolled back: a column held a value outside the form of its first ones
    return _in_transaction(load, on_progress, state)


def _in_transaction(load: LoadSteps, on_progress: ProgressCallback | None, state: WriteState) -> Done:
    with progress(load.conn, on_progress), transaction(load.conn, state):
        return load.run()


def _named_member(item: Input) -> Input:
    """An archive input with its member named, so every message can say which file inside it."""
    return Input(item.path, member_name(item)) if is_archive(item.path) else item

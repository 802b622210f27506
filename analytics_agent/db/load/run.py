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
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.catalog import Written, get_profile, own_table_types, store_profile, written_tables
from analytics_agent.db.connect import ensure_database, holds_tables, is_new_database, open_writer
from analytics_agent.db.load.ahead import plan_ahead
from analytics_agent.db.load.inputs import load_threads
from analytics_agent.db.load.keywords import renamed_words
from analytics_agent.db.load.names import header_renames, rename_reason
from analytics_agent.db.load.options import (
    Input,
    Kind,
    LoadOptions,
    check_options,
    file_kind,
    resolve_inputs,
)
from analytics_agent.db.load.plan import Plan, excel_note, make_plan
from analytics_agent.db.load.read.archives import is_archive, member_name, unpacked
from analytics_agent.db.load.read.newlines import one_kind_of_newline
from analytics_agent.db.load.read.transcode import asks_windows_1252, utf8_copies
from analytics_agent.db.load.settle.amounts_ahead import Ahead, AheadMissed
from analytics_agent.db.load.settle.columns import Rejects, settle_columns
from analytics_agent.db.load.settle.hex_values import hex_notes
from analytics_agent.db.load.settle.totals import NO_TOTALS, drop_totals, totals_row_note
from analytics_agent.db.load.settle.trailing import trailing_note
from analytics_agent.db.load.summary import ColumnSummary as ColumnSummary
from analytics_agent.db.load.summary import LoadSummary as LoadSummary
from analytics_agent.db.load.summary import column_summaries
from analytics_agent.db.load.target import target_table, write_mode
from analytics_agent.db.load.write import (
    ProgressCallback,
    drop_empty_tail,
    empty_tail_note,
    progress,
    refuse_empty,
    write_rows,
)
from analytics_agent.db.relationships import store_relationships
from analytics_agent.db.relationships_base import Relationship, describe_link
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
        utf8_copies(unpacked_files, inputs, options.encoding) as (plain_files, encoding_notes),
        one_kind_of_newline(plain_files, options.newline) as files,
        open_writer(db_path, threads=load_threads(files)) as conn,
    ):
        if asks_windows_1252(options.encoding):  # the files DuckDB reads are UTF-8 copies
            options = options._replace(encoding=None)
        reserved = renamed_words(conn)
        table = target_table(options, patterns, reserved)
        before = written_tables(conn)  # the writer holds the file: nobody else adds or drops a table
        existing = list(before[0])
        options = options._replace(mode=write_mode(options.mode, table, existing))
        plan = make_plan(conn, kind, files, inputs, options, reserved, rejects)
        load = _Load(conn, table, plan, options, files, inputs, rejects, before)
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


_Result = tuple[int, list[tuple[str, int]], list[str], dict[str, Any], list[Relationship]]


def _run(
    load: _Load, ahead: tuple[Plan, Ahead] | None, on_progress: ProgressCallback | None, state: WriteState
) -> _Result:
    """``load.run`` in its transaction, rolled back on any failure: first with the amount columns of
    ``ahead`` converted in the write, and again the plain way when they were not what their first values
    suggested (``amounts_ahead``)."""
    if ahead is not None:
        try:
            return _in_transaction(load._replace(plan=ahead[0], ahead=ahead[1]), on_progress, state)
        except AheadMissed:
            pass  # rolled back: a column held a value outside the form of its first ones
    return _in_transaction(load, on_progress, state)


def _in_transaction(load: _Load, on_progress: ProgressCallback | None, state: WriteState) -> _Result:
    with progress(load.conn, on_progress), transaction(load.conn, state):
        return load.run()


def _header_renames(plan: Plan) -> tuple[list[str], dict[str, str]]:
    cells = (plan.dialect.header_cells if plan.dialect else ()) or plan.originals
    return header_renames(cells, plan.originals, plan.safe)


class _Load(NamedTuple):  # not a dataclass: a tenth of the import cost
    """One planned load on the writer connection: the writing steps, and the explanation of a failure."""

    conn: duckdb.DuckDBPyConnection
    table: str
    plan: Plan
    options: LoadOptions
    files: list[Path]
    inputs: list[Input]
    rejects: Rejects | None
    before: Written
    """The database's tables before the load (``written_tables``)."""
    ahead: Ahead | None = None
    """The amount columns the write converts (``amounts_ahead``); the plan's query converts them."""

    def run(self) -> tuple[int, list[tuple[str, int]], list[str], dict[str, Any], list[Relationship]]:
        """Write, settle the columns, store the profile and relationships (inside the transaction).
        Returns the rows written, the rejected records (file, line), the notes, the stored profile and the links."""
        plan = self.plan
        loaded, rejected, empty_tail, separator_notes = self._write()
        # --drop-totals before the columns settle: a label in a date column ("Total" below the dates) then
        # no longer keeps it text; once more after, for a total of amounts read as numbers only then
        early, early_note, retyped, _ = self._drop_totals(loaded, plan.text_columns)
        loaded -= early
        appending = self.options.mode == "append"  # appended to, the table holds more than the rows read
        header_notes, own_names = _header_renames(plan)
        settled, units = self._settle(retyped, None if appending else loaded)
        notes = (
            separator_notes
            + header_notes
            + excel_note(plan.dialect)
            + settled
            + trailing_note(self.conn, self.files, self.options, plan.dialect)
        )
        notes += empty_tail_note(empty_tail)
        if plan.dialect and plan.dialect.hex_seen and plan.text_reader is not None:
            notes += hex_notes(self.conn, self.table, plan.text_reader, self._stored_to_original())
        notes += self._point_thousands()
        totals = None  # the totals rows kept, as the profile says them
        if self.options.drop_totals:
            # once more even after an early drop: one that found the notes alone (a total of amounts still
            # text above them) leaves the totals row last, found once the amounts read as numbers
            late, late_note, retyped, label = self._drop_totals(loaded, plan.text_columns)
            loaded -= late
            if late and label and not retyped:  # a label below text dates, dropped once the amounts read
                relabelled, label_units = self._settle_label(label, loaded, units)
                units |= label_units
                notes += relabelled
                retyped = [label] if relabelled else []
            # the label's column was text for the label alone: what the odd-value check said of it is moot
            notes = [n for n in notes if not any(n.startswith(f"{c} stayed text") for c in retyped)]
            notes += [n for n in (early_note, late_note) if n] or [NO_TOTALS]
        elif not appending:  # appended rows follow others: "the rows above" are not the file's
            totals_notes, totals, kept = totals_row_note(
                self.conn, self.table, loaded, plan.text_columns, said=notes
            )
            # a column kept text by a note below the table: --null, as the odd-value check advised, would
            # load the note as a row; the footer's note names --drop-footer instead
            notes = [
                n for n in notes if not any(n.startswith(f"{c} stayed text") for c in kept)
            ] + totals_notes
        profile, links = self._store(own_names, units, None if appending else loaded, totals)
        return loaded, rejected, notes, profile, links

    def _write(self) -> tuple[int, list[tuple[str, int]], int, list[str]]:
        """The rows written (less a trailing run of empty ones), the rejected lines, the empty rows
        dropped, and what ``--thousands`` says; refuses an empty load, and a misread ``--thousands``."""
        conn, plan, table = self.conn, self.plan, self.table
        loaded = write_rows(conn, table, plan, self.options.mode, list(self.before[0]))
        labels = {str(f): i.label for f, i in zip(self.files, self.inputs, strict=True)}
        kept = self.rejects.keep(conn, table, labels) if self.rejects else []
        rejected: list[tuple[str, int]] = []  # (file as named, line) of each record set aside
        reject_notes: list[str] = []
        if kept:
            from analytics_agent.db.load.line_numbers import renumber_rejects  # with set-aside records only

            rejected, reject_notes = renumber_rejects(
                conn, table, self.files, [i.label for i in self.inputs], plan.dialect
            )
        refuse_empty(conn, loaded, rejected, self.files, self.inputs, table, self.options)
        empty_tail = (
            drop_empty_tail(conn, table, plan.safe, loaded, self.files, plan.dialect.delimiter)
            if plan.dialect is not None
            else 0
        )
        return loaded - empty_tail, rejected, empty_tail, reject_notes + self._thousands_notes()

    def _thousands_notes(self) -> list[str]:
        """``separators.separator_notes`` when ``--thousands`` or ``--decimal`` is given: refuses a
        misread, says an ambiguous reading."""
        if self.plan.text_reader is None or not (self.options.thousands or self.options.decimal):
            return []
        from analytics_agent.db.load.settle.separators import separator_notes  # only then

        label = ", ".join(i.label for i in self.inputs)
        reader, names = self.plan.text_reader, self._stored_to_original()
        return separator_notes(self.conn, self.table, reader, names, self.options, label=label)

    def _stored_to_original(self) -> dict[str, str]:
        return dict(zip(self.plan.safe, self.plan.originals, strict=True))

    def _settle(self, retyped: list[str], rows: int | None) -> tuple[list[str], dict[str, str | None]]:
        """``settle_columns`` on the text columns (less a totals label's column already retyped)."""
        plan = self.plan
        return settle_columns(
            self.conn,
            self.table,
            text=[c for c in plan.text_columns if c not in retyped],
            flags=plan.flags,
            fixed=plan.fixed,
            recount=plan.recount,
            stored_to_original=self._stored_to_original(),
            tokens=self.options.nulls(),
            date_formats=plan.date_formats,
            decimal=self.options.decimal,
            rows=rows,
            stamps=self._stamps(),
            ahead=self.ahead,
        )

    def _point_thousands(self) -> list[str]:
        """``point_thousands.point_thousands_notes`` for a semicolon file read without --decimal/--thousands."""
        plan, options = self.plan, self.options
        if plan.dialect is None or plan.dialect.delimiter != ";" or plan.text_reader is None:
            return []
        if options.decimal or options.thousands:
            return []
        from analytics_agent.db.load.settle.point_thousands import point_thousands_notes  # ';' files only

        return point_thousands_notes(self.conn, self.table, plan.text_reader, self._stored_to_original())

    def _stamps(self) -> list[str]:
        """The TIMESTAMP columns DuckDB read with its own cast (no timestamp format sniffed)."""
        dialect = self.plan.dialect
        if dialect is None or dialect.timestamp_format:
            return []
        return [
            s
            for o, s in zip(self.plan.originals, self.plan.safe, strict=True)
            if dialect.columns.get(o) == "TIMESTAMP"
        ]

    def _store(
        self,
        own_names: dict[str, str],
        units: dict[str, str | None],
        rows: int | None,
        totals: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], list[Relationship]]:
        """Store the profile (the file's own names, the units dropped from amounts, the totals rows kept)
        and relationships."""
        conn, plan, table = self.conn, self.plan, self.table
        renamed = {s: o for o, s in zip(plan.originals, plan.safe, strict=True) if o != s}
        renamed |= own_names  # a repeated name's own cell, not DuckDB's a_1
        renamed = {s: o for s, o in renamed.items() if o and s != o}  # the file's a_1 stored as a_1; no name
        kept = {u: unit for u, unit in units.items() if unit}
        if self.options.mode == "append":
            before = get_profile(conn, table)
            renamed = {**before.get("original_names", {}), **renamed}
            kept = {**before.get("units", {}), **kept}
        catalog, meta = written = self._written()
        profile = store_profile(
            conn,
            table,
            original_names=renamed or None,
            units=kept or None,
            totals=totals,
            written=written,
            rows=rows,
        )
        links = store_relationships(conn, table, written=(catalog, meta | {"profiles"}))
        return profile, links

    def _settle_label(
        self, label: str, rows: int, units: dict[str, str | None]
    ) -> tuple[list[str], dict[str, str | None]]:
        """``settle_columns`` once more on the column of a totals label dropped only after the amounts
        read as numbers (``$8,326.38`` beside ``Total``): its text dates, kept text by the label, settle
        now. Nothing for a column the user typed or one already settled as other than text."""
        if label in self.plan.fixed or own_table_types(self.conn, self.table).get(label) != "VARCHAR":
            return [], {}
        return settle_columns(
            self.conn,
            self.table,
            text=[label],
            flags=[],
            fixed=self.plan.fixed,
            recount=None,
            stored_to_original=self._stored_to_original(),
            tokens=self.options.nulls(),
            date_formats=self.plan.date_formats,
            decimal=self.options.decimal,
            rows=rows,
            units_known=units,
        )

    def _drop_totals(self, loaded: int, text: Sequence[str]) -> tuple[int, str, list[str], str]:
        """``--drop-totals`` (``totals_row.drop_totals``); nothing without it."""
        if not self.options.drop_totals:
            return 0, "", [], ""
        return drop_totals(self.conn, self.table, loaded, text, self.plan.fixed)

    def _written(self) -> Written:
        """``written_tables`` after the write: the tables before it and the new table's own columns, with
        no catalog query (1.4 ms of CPU) unless the load also kept its rejected records in a table."""
        if self.rejects:
            return written_tables(self.conn)
        catalog, meta = self.before
        catalog = dict(sorted({**catalog, self.table: own_table_types(self.conn, self.table)}.items()))
        return catalog, meta

    def explain(self, message: str) -> str:
        """One line for a DuckDB failure (``load_failure``, imported on the error path only)."""
        from analytics_agent.db.load.failure import explain_failure

        return explain_failure(self.conn, message, self.plan, self.options, self.files, self.inputs)


def _named_member(item: Input) -> Input:
    """An archive input with its member named, so every message can say which file inside it."""
    return Input(item.path, member_name(item)) if is_archive(item.path) else item

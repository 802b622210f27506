"""What one load does inside its transaction, in order: write the rows, set aside the bad ones, settle the
text columns, drop or name totals rows, store the profile and the relationships (``run`` opens the
connection and the transaction around it, and tries again the plain way when ``ahead`` missed)."""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.catalog import Written, get_profile, own_table_types, store_profile, written_tables
from analytics_agent.db.load.options import Input, LoadOptions
from analytics_agent.db.load.plan import Plan, excel_note, stored_header
from analytics_agent.db.load.settle.amounts_ahead import Ahead
from analytics_agent.db.load.settle.columns import settle_columns
from analytics_agent.db.load.settle.compact_dates import compact_dates, date_named
from analytics_agent.db.load.settle.describing_rows import described_marker
from analytics_agent.db.load.settle.early_years import early_years, may_hold_dates, unsaid_dates
from analytics_agent.db.load.settle.group_sums import (
    drop_group_sums,
    find_group_sums,
    group_marker,
    group_sums_note,
)
from analytics_agent.db.load.settle.header_rows import NOTHING, UnderHeader, settle_header_rows
from analytics_agent.db.load.settle.hex_values import hex_notes
from analytics_agent.db.load.settle.odd_values import label_advice
from analytics_agent.db.load.settle.rejects import Rejects
from analytics_agent.db.load.settle.summary_rows import (
    drop_edge_rows,
    dropped_note,
    edge_marker,
    edge_rows_note,
    find_edge_rows,
)
from analytics_agent.db.load.settle.totals import (
    NO_TOTALS,
    drop_totals,
    moot_notes,
    totals_dropped,
    totals_row_note,
)
from analytics_agent.db.load.settle.trailing import trailing_note
from analytics_agent.db.load.write import drop_empty_tail, empty_tail_note, refuse_empty, write_rows
from analytics_agent.db.relationships import store_relationships
from analytics_agent.db.relationships_base import Relationship

Done = tuple[int, list[tuple[str, int]], list[str], dict[str, Any], list[Relationship]]
"""The rows written, the rejected records (file, line), the notes, the stored profile and the links."""


class LoadSteps(NamedTuple):  # not a dataclass: a tenth of the import cost
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

    def run(self) -> Done:
        """Write, settle the columns, store the profile and relationships (inside the transaction).
        Returns the rows written, the rejected records (file, line), the notes, the stored profile and the links."""
        plan = self.plan
        loaded, rejected, empty_tail, separator_notes, unrepeated, under = self._write()
        # --drop-totals before the columns settle: a label in a date column ("Total" below the dates) then
        # no longer keeps it text; once more after, for a total of amounts read as numbers only then
        early, early_note, retyped, early_label, filled = self._drop_totals(loaded, plan.text_columns)
        loaded -= early
        appending = self.options.mode == "append"  # appended to, the table holds more than the rows read
        header_notes, own_names = stored_header(plan.dialect, plan.originals, plan.safe)
        settled, units = self._settle(retyped + unrepeated, None if appending else loaded)
        if not appending:  # an appended table's types stand
            settled += self._compact_dates()
            early_notes, kept = self._early_years(settled)
            settled = unsaid_dates(settled, kept) + early_notes
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
            notes, loaded, pivot = self._dropped_rows(
                loaded, notes + filled, units, (early, early_note, early_label)
            )
        elif not appending:  # appended rows follow others: "the rows above" are not the file's
            notes, totals, pivot = self._kept_rows(loaded, notes)
        else:
            pivot = ""
        notes += self._pivot_blanks(pivot)
        if under.kept is not None:  # --keep-label-rows: their marks kept those columns text, no --null
            notes, totals = moot_notes(notes, under.kept.markers), totals or described_marker(under.kept)
        profile, links = self._store(own_names, units, None if appending else loaded, totals, under.labels)
        return loaded, rejected, notes, profile, links

    def _dropped_rows(
        self, loaded: int, notes: list[str], units: dict[str, str | None], early: tuple[int, str, str]
    ) -> tuple[list[str], int, str]:
        """``--drop-totals``: the footer dropped once more (``early``: the rows, note and label column of the
        drop before the columns settled), then the balance, summary and subtotal rows. Returns the notes, the rows
        left, and the label column of a totals row dropped (a pivot table's row labels start there)."""
        plan = self.plan
        # once more even after an early drop: one that found the notes alone (a total of amounts still
        # text above them) leaves the totals row last, found once the amounts read as numbers
        late, late_note, retyped, label, filled = self._drop_totals(loaded, plan.text_columns)
        loaded -= late
        notes = notes + filled
        if late and label and not retyped:  # a label below text dates, dropped once the amounts read
            relabelled, label_units = self._settle_label(label, loaded, units)
            units |= label_units
            notes += [n for n in relabelled if n not in notes]  # the date notes it says again
            retyped = [label] if relabelled else []
        # the label's column was text for the label alone: what the odd-value check said of it is moot
        notes = moot_notes(notes, retyped)
        gone = [c for c, n in ((early[2], early[1]), (label, late_note)) if c and totals_dropped(n)]
        notes = [n for n in notes if not label_advice(n, gone)]
        # subtotal rows a footer's stack took are gone; balance rows among the records are looked for still
        groups = find_group_sums(self.conn, self.table, plan.text_columns, subtotals=not (early[0] or late))
        dropped = [n for n in (early[1], late_note) if n]
        if groups is not None:
            dropped.append(drop_group_sums(self.conn, self.table, groups))
            loaded -= len(groups.rows)
        # balance rows among the records took in the opening one
        edges = (
            None
            if groups and groups.kind == "balance"
            else find_edge_rows(self.conn, self.table, plan.text_columns, loaded)
        )
        if edges is not None:
            drop_edge_rows(self.conn, self.table, edges)
            loaded -= len(edges.rows)
            dropped.append(dropped_note(edges))
        pivot = early[2] if totals_dropped(early[1]) else label if totals_dropped(late_note) else ""
        return notes + (dropped or [NO_TOTALS]), loaded, pivot

    def _kept_rows(self, loaded: int, notes: list[str]) -> tuple[list[str], dict[str, Any] | None, str]:
        """Totals, subtotal, balance and summary rows loaded as rows (no --drop-totals): said, the kind
        the profile marks for aggregate to refuse, and the label column of a footer totals row."""
        text = self.plan.text_columns
        fill = not self.options.keep_blank_labels
        totals_notes, totals, kept = totals_row_note(
            self.conn, self.table, loaded, text, said=notes, fill=fill
        )
        pivot = str(totals["column"]) if totals else ""
        # a column kept text by a note below the table: --null, as the odd-value check advised, would
        # load the note as a row; the footer's note names --drop-footer instead
        notes = moot_notes(notes, kept) + totals_notes
        groups = None if totals else find_group_sums(self.conn, self.table, text)
        if groups is not None:
            notes.append(group_sums_note(groups))
            totals = group_marker(groups)
        # balance rows among the records take in the opening one, which the edge check would say again
        edges = (
            None
            if groups and groups.kind == "balance"
            else find_edge_rows(self.conn, self.table, text, loaded)
        )
        if edges is not None:
            notes.append(edge_rows_note(edges))
            # the profile names one kind of rows for aggregate to refuse: the totals row's sums count
            # twice, an opening balance row (under a turnover row and a closing line) only is said
            totals = totals or edge_marker(edges)
        return notes, totals, pivot

    def _write(self) -> tuple[int, list[tuple[str, int]], int, list[str], list[str], UnderHeader]:
        """The rows written (less a trailing run of empty ones and the header's rows: repeated, labels, a
        row describing the columns), the rejected lines, the empty rows dropped, the notes so far, the
        columns typed again once the header's rows went, and those rows (``UnderHeader``); refuses an empty
        load, and a misread ``--thousands``."""
        conn, plan, table = self.conn, self.plan, self.table
        loaded = write_rows(conn, table, plan, self.options.mode, list(self.before[0]))
        named = {str(f): i.label for f, i in zip(self.files, self.inputs, strict=True)}
        kept = self.rejects.keep(conn, table, named) if self.rejects else []
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
        under = self._header_rows()
        notes = reject_notes + under.notes + self._thousands_notes()
        return loaded - empty_tail - under.dropped, rejected, empty_tail, notes, under.retyped, under

    def _header_rows(self) -> UnderHeader:
        """``header_rows.settle_header_rows`` on a new table of a file with a header, when every column is
        text (words among the records keep them so: repeated headers, a line of labels) or the file's first
        lines show a row that may describe the columns (``Dialect.describing``); nothing otherwise."""
        dialect, plan = self.plan.dialect, self.plan
        if dialect is None or not dialect.header or self.options.mode == "append":
            return NOTHING
        if not dialect.describing and not set(plan.safe) <= set(plan.text_columns):  # no query
            return NOTHING
        return settle_header_rows(
            self.conn,
            self.table,
            plan.safe,
            cells=dialect.header_cells or tuple(plan.originals),
            originals=self._stored_to_original(),
            may_describe=dialect.describing,
            keep=self.options.keep_label_rows,
            fixed=plan.fixed,
            marks={"decimal": self.options.decimal, "thousands": self.options.thousands},
        )

    def _pivot_blanks(self, label: str) -> list[str]:
        """``pivot_blanks.read_pivot_blanks`` on the row-label columns of a table with a footer totals row
        labelled in ``label`` (a pivot table's: its ``Grand Total``); nothing without one."""
        if not label:
            return []
        from analytics_agent.db.load.settle.pivot_blanks import read_pivot_blanks, row_labels  # rare

        columns = row_labels(own_table_types(self.conn, self.table), label)
        exact = "" in (self.options.null_tokens or ())
        return read_pivot_blanks(self.conn, self.table, columns, exact=exact)

    def _compact_dates(self) -> list[str]:
        """``compact_dates``: BIGINT columns named as dates whose values are ``%Y%m%d`` dates; asked only
        when a column's name says dates (no query otherwise)."""
        names = self._stored_to_original()
        if not any(date_named(o) for o in names.values()):
            return []
        types = own_table_types(self.conn, self.table)
        return compact_dates(self.conn, self.table, names, types, self.plan.fixed)

    def _early_years(self, said: Sequence[str]) -> tuple[list[str], list[str]]:
        """``early_years.settle_early_years`` when DuckDB typed a column as dates or a note ``said`` some
        column was stored as such (no query otherwise, nor for Parquet's dates, typed by its writer).
        Returns the notes and the columns turned back to text."""
        plan, dialect = self.plan, self.plan.dialect
        if dialect is None or not may_hold_dates(dialect.columns.values(), said):
            return [], []
        sniffed = {s: dialect.columns.get(o, "") for o, s in zip(plan.originals, plan.safe, strict=True)}
        formats = (dialect.date_format, dialect.timestamp_format)
        return early_years(self.conn, self.table, sniffed, formats, said, plan.fixed)

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
            negative=self.options.negative,
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
        labels: dict[str, str] | None = None,
    ) -> tuple[dict[str, Any], list[Relationship]]:
        """Store the profile (the file's own names, the units dropped from amounts, the totals rows kept,
        the labels of a line of them under the header) and relationships."""
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
            labels=labels or None,
            written=written,
            rows=rows,
        )
        links = store_relationships(
            conn, table, written=(catalog, meta | {"profiles"}), known={table: profile}
        )
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
            date_formats={},  # DuckDB's own dates settled in the first pass: read again, they swapped back
            decimal=self.options.decimal,
            rows=rows,
            units_known=units,
        )

    def _drop_totals(self, loaded: int, text: Sequence[str]) -> tuple[int, str, list[str], str, list[str]]:
        """``--drop-totals`` (``totals_row.drop_totals``); nothing without it."""
        if not self.options.drop_totals:
            return 0, "", [], "", []
        separators = (self.options.decimal, self.options.thousands)
        fill = not self.options.keep_blank_labels
        return drop_totals(self.conn, self.table, loaded, text, self.plan.fixed, separators, fill=fill)

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

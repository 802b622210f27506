"""A spreadsheet export often ends with a totals row (``Total,,300``), sometimes after subtotal rows
(``North Total,,120``). Loaded as rows, they make every sum over the table count the rows twice, without
a sign: the load names them, and ``--drop-totals`` leaves them out. Runs inside the load's transaction on
the freshly written table (its ``rowid`` follows the file's order).

A last row is a total only when a text cell is labelled as one and every number in it is an aggregate of
the rows above (a sum, to the cent, of at least two non-zero values; or their count or average): a brand
called "Total" with its own numbers is data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.footer import Notes, may_total, note_rows
from analytics_agent.db.load.settle.group_headers import group_headers
from analytics_agent.db.load.settle.total_labels import SUBTOTAL_SQL, is_total_label
from analytics_agent.db.rows import first_row


class Totals:
    """A footer totals row. (A plain class: a NamedTuple costs every load's import more.)"""

    __slots__ = ("also", "example", "headers", "label", "row", "stack", "subtotals", "sums", "text")

    def __init__(
        self, label: str, text: str | None, row: int, sums: list[str], subtotals: list[int], example: str
    ) -> None:
        self.label, self.text, self.row = label, text, row
        """The column holding the label, the label (None: the row has none, the column is empty there), and
        the row's rowid."""
        self.sums, self.subtotals, self.example = sums, subtotals, example
        """The columns the row sums; the rowids of subtotal rows above it (their sums add up to the total
        too), and one subtotal row's label."""
        self.headers: list[int] = []
        """The rowids of the rows that name a group its subtotal row closes (``group_headers``)."""
        self.also: list[int] = []
        self.stack: list[str] = []
        """The rowids of the other totals rows stacked with it at the table's end (``_stacked``), and the
        labels of all of them, in the file's order."""


def find_totals(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    rows: int,
    text_columns: Sequence[str],
    before: int | None = None,
    read: Notes | None = None,
) -> Totals | None:
    """The table's footer totals row (and the subtotal rows it counts), or None. ``before``: the rowid
    the note lines below the table start at (``footer.note_rows``); the totals row is the one above.
    ``read``: what ``note_rows`` read of the table's last rows, where that row is looked for first (a
    query for it cost a small load about 1 ms of CPU)."""
    if rows < 3 or not text_columns:
        return None
    candidate = _last_row(conn, table, text_columns, before, read)
    if candidate is None:
        return None
    row, cells, whole = candidate
    label = _label_column(text_columns, cells)
    if label is None:
        return _unnamed(conn, table, row, cells, whole, text_columns, read)
    # a last row labelled as totals or holding no text: its sums are read (most loads stop above)
    from analytics_agent.db.load.settle.stacked_totals import stacked
    from analytics_agent.db.load.settle.total_sums import aggregated, numbers_of, whole_row

    t = quote_ident(table)
    last = whole_row(conn, table, row, whole)
    numbers = numbers_of(last)
    if not numbers:
        return None
    col = quote_ident(label)
    sub = f"coalesce(regexp_full_match({col}, '{SUBTOTAL_SQL}'), false)"
    subtotals = [
        int(r[0]) for r in conn.execute(f"SELECT rowid FROM {t} WHERE rowid < {row} AND {sub}").fetchall()
    ]
    if subtotals:  # the rows the subtotals sum, and the subtotals themselves, each add up to the total
        sums = aggregated(conn, table, last, numbers, f"rowid < {row} AND NOT {sub}")
        if sums and sums == aggregated(
            conn, table, last, sums, f"rowid < {row} AND {sub}", counts=False, least=1
        ):
            found = Totals(
                label, last[label], row, sums, subtotals, _label_at(conn, table, label, subtotals[0])
            )
            others = [c for c in last if c != label]
            found.headers = group_headers(conn, table, label, others, found.subtotals, row)
            return found
    sums = aggregated(conn, table, last, numbers, f"rowid < {row}")
    if sums:
        return Totals(label, last[label], row, sums, [], "")
    stack = stacked(conn, table, label, row)
    if stack is None:
        return None
    at, whole, sums, labels = stack
    found = Totals(label, whole[label], at, sums, [], "")
    found.also, found.stack = [r for r in labels if r != at], list(labels.values())
    return found


def _unnamed(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    row: int,
    cells: Sequence[Any],
    whole: Mapping[str, Any] | None,
    text_columns: Sequence[str],
    read: Notes | None,
) -> Totals | None:
    """A last row of totals with no label (``unnamed_totals.blank_label_sums``), or labelled in words no list
    holds (``unnamed_sums``): the latter looked for only when the rows above it were read already and its
    numbers are as large as theirs (``footer.may_total``), as most last rows' are not."""
    texts = any(isinstance(cell, str) and cell.strip() for cell in cells)
    above = [row_cells for rowid, row_cells in (read.read.items() if read else ()) if rowid < row]
    if texts and (whole is None or not may_total(whole, above)):
        return None
    from analytics_agent.db.load.settle.total_sums import whole_row  # such a last row only
    from analytics_agent.db.load.settle.unnamed_totals import blank_label_sums, unnamed_sums

    last = whole_row(conn, table, row, whole)
    found = (unnamed_sums if texts else blank_label_sums)(conn, table, row, last, text_columns)
    if found is None:
        return None
    label, sums = found
    return Totals(label, last[label] if texts else None, row, sums, [], "")


def _label_column(text_columns: Sequence[str], cells: Sequence[Any]) -> str | None:
    """The text column whose cell in the last row is a totals label, if any. Pure."""
    return next(
        (
            c
            for c, cell in zip(text_columns, cells, strict=False)
            if isinstance(cell, str) and is_total_label(cell)
        ),
        None,
    )


def _last_row(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_columns: Sequence[str],
    before: int | None,
    read: Notes | None,
) -> tuple[int, Sequence[Any], Mapping[str, Any] | None] | None:
    """The row a totals row would be (the last, or the one above the notes at ``before``): its rowid, its
    text cells, and the whole row when ``read`` held it; None for an empty table."""
    seen = read.row_above(before) if read is not None else None
    if seen is not None:
        row, cells = seen
        return row, [cells.get(c) for c in text_columns], cells
    # rowids of rows written in this transaction start high: the last row is the one with the largest
    # (a rowid lookup, not a sort: 2.4 against 7 ms at 1M rows)
    t = quote_ident(table)
    labels = ", ".join(map(quote_ident, text_columns))  # the text cells first: a label is rare, and the
    found = conn.execute(  # whole row cost a 60-column table its every column of every row (3.7 ms)
        f"SELECT {labels}, rowid FROM {t} WHERE rowid = (SELECT max(rowid) FROM {t}"
        f"{'' if before is None else f' WHERE rowid < {before}'})"
    ).fetchone()
    if found is None:
        return None
    return int(found[-1]), found[:-1], None


def _label_at(conn: duckdb.DuckDBPyConnection, table: str, column: str, row: int) -> str:
    return str(
        first_row(
            conn.execute(f"SELECT {quote_ident(column)} FROM {quote_ident(table)} WHERE rowid = {row}")
        )[0]
    )


def find_footer(
    conn: duckdb.DuckDBPyConnection, table: str, rows: int, text_columns: Sequence[str]
) -> tuple[Totals | None, Notes]:
    """The footer below the table's data: its totals row (``find_totals``) and the note lines below it,
    or, with no totals row, the note lines that start like notes (``footer.note_rows``)."""
    notes = note_rows(conn, table)
    if notes.first is None:
        return find_totals(conn, table, rows, text_columns, read=notes), notes
    found = find_totals(conn, table, rows - len(notes.rows), text_columns, before=notes.first, read=notes)
    return (found, notes) if found is not None else (None, notes.starting_like_notes())


def totals_row_note(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    rows: int,
    text_columns: Sequence[str],
    said: Sequence[str] = (),
    *,
    fill: bool = True,
) -> tuple[list[str], dict[str, Any] | None, list[str]]:
    """One line when the table ends with a totals row or note lines (``find_footer``), what the profile
    keeps of a totals row (``totals_marker``), and the columns the kept note lines keep text: numbers in
    every other row, or one odd value alone, the note's, in what the load has ``said`` (``X stayed text
    because of 1 value like ...``). What the odd-value check said of those is moot: its ``--null`` would
    load the note as a row. ``fill``: a pivot table's blank group labels are filled (``group_labels``)."""
    found, notes = find_footer(conn, table, rows, text_columns)
    if found is None and not notes.rows:
        return [], None, []
    alone = [c for c in notes.columns if any(_one_odd_value(n, c) for n in said)]
    text = list(dict.fromkeys([*kept_text(conn, table, notes), *alone]))
    if found is None:
        return [_notes_kept(notes, text)], None, text
    holds = f" are totals: {found.text!r} holds" if found.stack else " holds"
    note = (
        f"{_last_rows(found)}{holds} the sums of the rows above in "
        f"{', '.join(found.sums)}{_subtotals(found)}{_below(notes)}; loaded as rows, a sum over the table "
        "counts them twice: add --drop-totals to load without them"
    )
    return [note, *group_labels(conn, table, found, fill)], totals_marker(conn, table, found, notes), text


def group_labels(conn: duckdb.DuckDBPyConnection, table: str, found: Totals, fill: bool) -> list[str]:
    """``pivot_groups.fill_group_labels`` for a totals row found with its subtotal rows (``fill``: not
    ``--keep-blank-labels``); nothing otherwise."""
    if not fill or not found.subtotals:
        return []
    from analytics_agent.db.load.settle.pivot_groups import fill_group_labels  # pivot tables only

    return fill_group_labels(conn, table, found.label, found.subtotals, found.row, headers=found.headers)


def _one_odd_value(note: str, column: str) -> bool:
    """Whether ``note`` keeps ``column`` text for one odd value alone (a number's, an amount's or a
    date's). Pure."""
    return note.startswith(f"{column} stayed text because of 1 value") or (
        note.startswith((f"{column} looks like dates", f"{column} stayed text: it holds amounts"))
        and (" but 1 value, " in note or " but 1 value does not read" in note)
    )


def moot_notes(notes: Sequence[str], kept: Sequence[str]) -> list[str]:
    """``notes`` less those that keep a column of ``kept`` text (``totals_row_note``'s third answer): a
    note line below the table is what keeps it so, and its ``--null`` would load the note as a row. Pure."""
    return [
        n for n in notes if not any(n.startswith((f"{c} stayed text", f"{c} looks like dates")) for c in kept)
    ]


def kept_text(conn: duckdb.DuckDBPyConnection, table: str, notes: Notes) -> list[str]:
    """The columns that hold numbers in every row but the notes: text only because of them."""
    if not notes.columns:
        return []
    t, below = quote_ident(table), ", ".join(map(str, notes.rows))
    parts = [
        f"count({c}) = count(TRY_CAST({c} AS DOUBLE)) AND count({c}) > 0"
        for c in map(quote_ident, notes.columns)
    ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {t} WHERE rowid NOT IN ({below})"))
    return [c for c, numbers in zip(notes.columns, found, strict=True) if numbers]


def _notes_kept(notes: Notes, text: list[str]) -> str:
    count = len(notes.rows)
    which = (
        f"the last line ({notes.texts[-1]!r}) is a note"
        if count == 1
        else (f"the last {count} lines ({notes.texts[-1]!r} …) are notes")
    )
    keeping = f", keeping {', '.join(text)} as text" if text else ""
    them = "it" if count == 1 else "them"
    return (
        f"{which} below the table, not data: loaded as {'a row' if count == 1 else 'rows'}{keeping}; "
        f"add --drop-footer to load without {them}"
    )


def _below(notes: Notes) -> str:
    if not notes.rows:
        return ""
    count = len(notes.rows)
    return f", and {count} note line{'s' if count > 1 else ''} below it such as {notes.texts[0]!r}"


def _labelled(found: Totals) -> str:
    """How a note names the totals row: by its label, or as the row without one. Pure."""
    if found.text is None:
        return f"no label, {found.label} empty"
    return f"{found.label} = {found.text!r}"


def _last_rows(found: Totals) -> str:
    """The totals row as a note names it, or the stack of them (``_stacked``): ``the last 3 rows
    (campaign_status = 'Total: Campaigns', 'Total: Account', 'Total: Search')``. Pure."""
    if not found.stack:
        return f"the last row ({_labelled(found)})"
    labels = ", ".join(map(repr, found.stack))
    return f"the last {len(found.stack)} rows ({found.label} = {labels})"


def totals_marker(
    conn: duckdb.DuckDBPyConnection, table: str, found: Totals, notes: Notes | None = None
) -> dict[str, Any]:
    """The kept totals rows as the stored profile says them: the label's column, the labels of the totals
    row and its subtotal rows, and the columns they sum. A query tool reads it to refuse an answer that
    would count them twice (``tools/aggregate/totals_rows``)."""
    if found.text is None:  # no label: the row is the one whose label's column is empty
        return {"column": found.label, "labels": [], "empty": True, "rows": 1, "sums": list(found.sums)}
    labels = {found.text}
    others = [*found.also, *found.subtotals, *found.headers, *(notes.rows if notes else [])]
    if others:
        ids = ", ".join(map(str, others))
        col = quote_ident(found.label)
        labels |= {
            str(r[0])
            for r in conn.execute(
                f"SELECT DISTINCT {col} FROM {quote_ident(table)} WHERE rowid IN ({ids}) AND {col} IS NOT NULL"
            ).fetchall()
        }
    return {
        "column": found.label,
        "labels": sorted(labels),
        "rows": 1 + len(others),
        "sums": list(found.sums),
    }


def drop_totals(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    rows: int,
    text_columns: Sequence[str],
    fixed: Sequence[str],
    separators: tuple[str | None, str | None] = (None, None),
    *,
    fill: bool = True,
) -> tuple[int, str, list[str], str, list[str]]:
    """``--drop-totals`` (``--drop-footer``): delete the footer, its totals row, its subtotal rows and the
    note lines below it (``find_footer``). Returns the rows deleted, the note (empty: none found), the
    columns that became number columns (text only for the label or the notes), and the label's column
    (a note's when there is no totals row; "" when nothing was found), and the note of a pivot table's
    blank group labels filled before its subtotal rows went (``group_labels``; ``fill``)."""
    found, notes = find_footer(conn, table, rows, text_columns)
    gone = ([found.row, *found.also, *found.subtotals, *found.headers] if found else []) + notes.rows
    if not gone:
        return 0, "", [], "", []
    filled = group_labels(conn, table, found, fill) if found else []
    from analytics_agent.db.load.settle.retype import retype_column  # a load that drops a footer only

    t = quote_ident(table)
    conn.execute(f"DELETE FROM {t} WHERE rowid IN ({', '.join(map(str, gone))})")
    label = found.label if found else notes.columns[0]
    retype = dict.fromkeys([*([found.label] if found else []), *notes.columns])
    decimal, thousands = separators  # the load's, as its reader read the other columns
    retyped = [
        r
        for c in retype
        if c not in fixed
        for r in retype_column(conn, table, c, decimal=decimal, thousands=thousands)
    ]
    rows_said = "row" if len(gone) == 1 else "rows"
    if found is None:
        it = "it" if len(gone) == 1 else "them"
        return (
            len(gone),
            (
                f"--drop-footer: dropped the note{'s' if len(gone) > 1 else ''} below the table "
                f"({notes.texts[-1]!r}; {len(gone)} {rows_said}); leave out --drop-footer to keep {it}"
            ),
            retyped,
            label,
            filled,
        )
    the_sums = f", totals: {found.text!r} the sums" if found.stack else ", the sums"
    note = (
        f"--drop-totals: dropped {_last_rows(found)}{the_sums} of the rows above in "
        f"{', '.join(found.sums)}{_subtotals(found)}{_below(notes)} ({len(gone)} {rows_said}); leave out "
        "--drop-totals to keep them"
    )
    return len(gone), note, retyped, label, filled


def totals_dropped(note: str) -> bool:
    """Whether ``drop_totals``' note says a totals row dropped (not the notes below the table alone). Pure."""
    return note.startswith("--drop-totals: dropped")


def _subtotals(found: Totals) -> str:
    if not found.subtotals:
        return ""
    count, headers = len(found.subtotals), len(found.headers)
    named = f" and {headers} row{'s' if headers > 1 else ''} naming their groups" if headers else ""
    return f", with {count} subtotal row{'s' if count > 1 else ''} such as {found.example!r}{named} above it"


NO_TOTALS = (
    "--drop-totals: the file ends with no totals row (a labelled row of the sums above) and no note lines "
    "below the table; nothing dropped"
)

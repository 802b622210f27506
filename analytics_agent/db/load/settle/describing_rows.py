"""Rows right under the header that describe the columns instead of being records: a Canvas gradebook's
``    Points Possible,,,,,10.00,25.00,(read only)`` (each assignment's maximum, ``(read only)`` over the
computed scores), its ``Manual Posting`` line, a line of units (``,kg,USD,%``). DuckDB reads each as the
first record: its maximums were averaged with the scores, and its marks kept the score columns text,
whose note then offered ``--null '(read only)'``, loading the row for good. Such a row is left out,
said, and its values kept in the profile beside their columns; ``--keep-label-rows`` loads it as a row,
said and marked for ``aggregate`` to refuse, as a kept totals row is.

Called one only on clear evidence, from the table's first rows: a label that says it alone (``Points
Possible``, ``Data type``), or a label a record could hold (``Units``) beside values no record of their
column has (text above numbers: ``kg``) or a key left empty; values no record of their column has in two
columns or more while the row leaves empty a column every record fills with its own value (a student's
ID); or a row of such values alone (a units line). A record with text in a number column keeps its key: it stays.
Runs inside the load's transaction on the freshly written table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.describing_cells import describing_label, number_like, numbers_below

_MOST = 3
"""Rows under the header that may describe the columns."""
_BODY = 50
"""Rows read below them: the records the evidence is taken from."""


class Described:
    """The rows found. (A plain class: a NamedTuple costs every load's import more.)"""

    __slots__ = ("gaps", "head", "heads", "ids", "labels", "markers", "values")

    def __init__(self, ids: list[int], head: str | None, heads: list[str], labels: dict[str, str]) -> None:
        self.ids = ids
        """Their rowids."""
        self.head, self.heads = head, heads
        """The column of the rows' label cells (``Student``) when each has one there, and each row's label
        as written (``    Points Possible``)."""
        self.labels = labels
        """Column -> what the rows say of it (``Points Possible: 10``), for the profile."""
        self.values: dict[str, str] = {}
        """Column -> the first row's value, as the note shows it."""
        self.markers: list[str] = []
        """The columns the rows alone keep text (numbers in every record below)."""
        self.gaps: list[str] = []
        """The columns every record fills with its own value and the rows leave empty."""


def find_describing_rows(
    conn: duckdb.DuckDBPyConnection, table: str, stored: Sequence[str], types: Mapping[str, str]
) -> Described | None:
    """The rows at the top of ``table`` (its columns ``stored``, their ``types``) that describe the
    columns, or None: reads the first rows only."""
    cols = ", ".join(map(quote_ident, stored))
    first = conn.execute(
        f"SELECT rowid, {cols} FROM {quote_ident(table)} ORDER BY rowid LIMIT {_MOST + _BODY}"
    ).fetchall()
    rows = [dict(zip(stored, r[1:], strict=True)) for r in first]
    count = described_count(rows, types)
    if not count:
        return None
    body = rows[count:]
    found = _described(rows[:count], body, types)
    found.ids = [int(r[0]) for r in first[:count]]
    found.markers = [c for c in stored if any(_marker(row, c, body, types) for row in rows[:count])]
    found.gaps = [c for c in stored if all(_gap(row, c, body) for row in rows[:count])]
    return found


def described_count(rows: Sequence[Mapping[str, Any]], types: Mapping[str, str]) -> int:
    """How many of the first ``rows`` describe the columns (each checked against the rows below them all).
    Pure."""
    for count in range(min(_MOST, len(rows) - 2), 0, -1):
        body = rows[count:]
        if all(_describes(row, body, types) for row in rows[:count]):
            return count
    return 0


def _describes(row: Mapping[str, Any], body: Sequence[Mapping[str, Any]], types: Mapping[str, str]) -> bool:
    """Whether ``row`` describes the columns, from the records ``body`` below it. Pure."""
    said = max((describing_label(v) for v in row.values() if isinstance(v, str)), default=0)
    if said == 2:
        return True
    markers = [c for c in row if _marker(row, c, body, types)]
    present = [c for c, v in row.items() if v is not None]
    if len(markers) >= 2 and markers == present:  # values no record has, and nothing else: a units line
        return True
    if said == 1 and markers:  # 'Units' over 'kg' and 'USD'; over numbers alone, a metric's row
        return True
    return (said == 1 or len(markers) >= 2) and any(_gap(row, c, body) for c in row)


def _marker(
    row: Mapping[str, Any], column: str, body: Sequence[Mapping[str, Any]], types: Mapping[str, str]
) -> bool:
    """Whether ``row`` holds text in ``column`` where every record below holds a number or date (or a
    statistics office's missing-value symbol, ``numbers_below``). Pure."""
    value = row[column]
    if value is None or types.get(column) != "VARCHAR" or number_like(str(value)):
        return False
    return numbers_below(str(r[column]) for r in body if r[column] is not None)


def _gap(row: Mapping[str, Any], column: str, body: Sequence[Mapping[str, Any]]) -> bool:
    """Whether ``row`` leaves ``column`` empty where every record below holds a value of its own (no two
    alike: a key, such as a student's ID). Pure."""
    if row[column] is not None or len(body) < 2:
        return False
    values = [r[column] for r in body]
    return all(v is not None for v in values) and len(set(map(str, values))) == len(values)


def _described(
    rows: Sequence[Mapping[str, Any]], body: Sequence[Mapping[str, Any]], types: Mapping[str, str]
) -> Described:
    """The rows' label cells (in each, the first text value that is no marker: ``Points Possible``) and
    what they say of each other column. Pure."""
    heads = [_head(row, body, types) for row in rows]
    labels: dict[str, list[str]] = {}
    for row, head in zip(rows, heads, strict=True):
        said = str(row[head]).strip() if head is not None else ""
        for column, value in row.items():
            if column != head and value is not None:
                labels.setdefault(column, []).append(f"{said}: {_shown(value)}" if said else _shown(value))
    same = heads[0] if heads[0] is not None and len(set(heads)) == 1 else None
    written = [str(row[same]) for row in rows] if same is not None else []
    found = Described([], same, written, {c: " / ".join(v) for c, v in labels.items()})
    found.values = {c: _shown(v) for c, v in rows[0].items() if v is not None and c != heads[0]}
    return found


def _head(row: Mapping[str, Any], body: Sequence[Mapping[str, Any]], types: Mapping[str, str]) -> str | None:
    """The column of ``row``'s label cell: its first text value that is no marker. Pure."""
    return next(
        (c for c, v in row.items() if isinstance(v, str) and v.strip() and not _marker(row, c, body, types)),
        None,
    )


def _shown(value: Any) -> str:
    """A value as the notes and the profile show it: ``10`` for the DOUBLE ``10.0``. Pure."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def drop_described(conn: duckdb.DuckDBPyConnection, table: str, found: Described) -> None:
    conn.execute(f"DELETE FROM {quote_ident(table)} WHERE rowid IN ({', '.join(map(str, found.ids))})")


def described_note(found: Described, originals: Mapping[str, str], *, kept: bool) -> str:
    """The load's one line for the rows, left out or (``kept``, ``--keep-label-rows``) loaded. Pure."""
    count = len(found.ids)
    which = "the line under the header" if count == 1 else f"the {count} lines under the header"
    named = f" ({', '.join(repr(h.strip()) for h in found.heads)})" if found.heads else ""
    verb = "describes" if count == 1 else "describe"
    shown = "; ".join(f"{originals.get(c, c)}: {v!r}" for c, v in _examples(found))
    what = f"{which}{named} {verb} the columns ({shown}, …), not {'a record' if count == 1 else 'records'}"
    it, row = ("it", "a row") if count == 1 else ("them", "rows")
    if not kept:
        return (
            f"{what}: not loaded as {row}, each value kept in the profile beside its column; add "
            f"--keep-label-rows to load {it} as {row}"
        )
    more = f" and {len(found.markers) - 3} more" if len(found.markers) > 3 else ""
    text = f", keeping {', '.join(found.markers[:3])}{more} as text" if found.markers else ""
    return (
        f"{what}: loaded as {row} (--keep-label-rows){text}; sums and counts include {it}: leave out "
        f"--keep-label-rows to load without {it}"
    )


def _examples(found: Described) -> list[tuple[str, str]]:
    """What the note shows of the first row: its first value and its first mark (``(read only)``). Pure."""
    shown = [c for c in found.values if c != found.head]
    picked = shown[:1] + [c for c in found.markers if c in found.values and c not in shown[:1]][:1]
    picked += [c for c in shown if c not in picked][: 2 - len(picked)]
    return [(c, found.values[c]) for c in picked]


def described_marker(found: Described) -> dict[str, Any] | None:
    """The kept rows as the stored profile says them (``tools/aggregate/totals_rows``): by their label, or
    as the rows whose key column is empty; None when neither tells them. Pure."""
    marker: dict[str, Any] = {"rows": len(found.ids), "sums": [], "kind": "label"}
    if found.head is not None and len(found.heads) == len(found.ids):
        return marker | {"column": found.head, "labels": sorted(set(found.heads))}
    if found.gaps:
        return marker | {"column": found.gaps[0], "labels": [], "empty": True}
    return None

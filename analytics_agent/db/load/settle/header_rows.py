"""The rows at a table's top that are no records but belong to its header: the header repeated at a
printed report's page breaks (``repeated_headers``), a line of labels under it (``label_rows``), a row
describing the columns (``describing_rows``: Canvas' ``Points Possible``). Each is found, left out (or
kept, with ``--keep-label-rows``) and said; the columns they kept text are typed again as DuckDB would
have typed them without them. Runs inside the load's transaction on the freshly written table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import own_table_types
from analytics_agent.db.load.settle.describing_rows import (
    Described,
    described_note,
    drop_described,
    find_describing_rows,
)
from analytics_agent.db.load.settle.label_rows import find_label_rows, label_rows_note
from analytics_agent.db.load.settle.repeated_headers import drop_repeated_headers, repeated_headers_note


class UnderHeader:
    """What the header's rows were. (A plain class: a NamedTuple costs every load's import more.)"""

    __slots__ = ("dropped", "kept", "labels", "notes", "retyped")

    def __init__(
        self,
        dropped: int = 0,
        notes: Sequence[str] = (),
        labels: Mapping[str, str] | None = None,
        kept: Described | None = None,
    ) -> None:
        self.dropped = dropped
        """The rows left out."""
        self.notes = list(notes)
        self.labels = dict(labels or {})
        """Column -> what the rows under the header say of it, for the profile."""
        self.kept = kept
        """The rows ``--keep-label-rows`` loaded: marked for ``aggregate``, their columns' --null advice moot."""
        self.retyped: list[str] = []
        """The columns typed again once the rows went."""


NOTHING = UnderHeader()


def settle_header_rows(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    stored: Sequence[str],
    *,
    cells: Sequence[str],
    originals: Mapping[str, str],
    may_describe: bool,
    keep: bool,
    fixed: Sequence[str],
    marks: Mapping[str, Any],
) -> UnderHeader:
    """Find, say and leave out (unless ``keep``) the header's rows of ``table`` (columns ``stored``,
    ``cells`` the header as written, ``originals`` stored -> the header's name); the describing rows only
    when ``may_describe`` (``read/under_header``). The columns typed again are those not ``fixed`` by the
    user, read with ``marks`` (the load's ``decimal`` and ``thousands``)."""
    types = own_table_types(conn, table)
    text = all(types.get(s) == "VARCHAR" for s in stored)
    repeated = drop_repeated_headers(conn, table, stored, cells, types) if text else 0
    ids, rows = find_label_rows(conn, table, stored, types) if text else ([], [])
    if ids:
        found: Described | None = labelled(ids, rows, stored)
        said = label_rows_note(rows, dict(originals), kept=keep)
    else:
        found = find_describing_rows(conn, table, stored, types) if may_describe else None
        said = [described_note(found, originals, kept=keep)] if found is not None else []
    if found is not None and not keep:
        drop_described(conn, table, found)
    dropped = repeated + (len(found.ids) if found is not None and not keep else 0)
    under = UnderHeader(dropped, repeated_headers_note(repeated) + said, found.labels if found else None)
    under.kept = found if keep else None
    if dropped:
        from analytics_agent.db.load.settle.retype import retype_column  # rows were dropped: rare

        free = [c for c in stored if c not in fixed]
        under.retyped = [r for c in free for r in retype_column(conn, table, c, **marks)]
    return under


def labelled(ids: list[int], rows: Sequence[Mapping[str, str]], stored: Sequence[str]) -> Described:
    """A line of labels (``label_rows``) as the describing rows are said: labelled by the first column's
    cell, each column's labels joined, every other column kept text by them. Pure."""
    head = stored[0] if all(stored[0] in row for row in rows) else None
    labels = {c: " / ".join(r[c] for r in rows if c in r) for c in stored}
    found = Described(
        ids, head, [r[head] for r in rows] if head else [], {c: v for c, v in labels.items() if v}
    )
    found.markers = [c for c in stored if c != head]
    return found

"""Which text columns had missing-value tokens (``NA``, ``NULL``) read as missing, how many, and which
tokens: the load's note for each, with the option that keeps them as text.

The write reads a token and an empty field alike as NULL, so the tokens come from the file, read a second
time (after ``token_scan`` found a token in it at all) as text, only the empty field missing. A table of up
to ``COUNTED_ROWS`` rows is compared value by value in one pass: each note counts its column's tokens and
names them. Past that, the first ``SAMPLE_ROWS`` rows name the tokens of the columns that show some there
("such as" those): the columns that show the same tokens share one note, and a column alone says how many
values it is missing in all (the table's own count). Only the columns whose NULLs the first rows do not explain are read to the file's
end: a token past them must not become NULL unsaid. Counting every token of every column read the whole
file once more (a 300k x 64 voter file: 0.53 s of a 3.0 s load, 44 columns read); its first rows leave 4
columns to read (0.03 + 0.30 s).
"""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
from collections.abc import Sequence
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.token_scan import Recount, may_hold_tokens
from analytics_agent.db.rows import first_row

SAMPLE_ROWS = 5_000
COUNTED_ROWS = 50_000
"""Up to this many rows (or when the count is not known) every value is compared in one pass: counts and
names exact, in one query where the first rows and the rest would be two."""
_MASK_TOKENS = 62
"""Up to this many tokens, which of them a column holds is one BIGINT bitmask (bit i: token i)."""


class Held(NamedTuple):
    values: int | None
    """Values that were one of the tokens; None when not counted (the tokens of a big table's first rows)."""
    tokens: list[str]
    """Which tokens: all of them, or (``values`` None) those of the file's first rows."""


def token_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    recount: Recount | None,
    stored_to_original: dict[str, str],
    tokens: Sequence[str],
    *,
    rows: int | None = None,
) -> list[str]:
    """Name each text column where values such as ``NA`` became NULL, with the count. ``rows``: the
    table's row count, when the caller knows it."""
    real = [t for t in tokens if t]
    if not text or recount is None or not real:
        return []
    nulls = first_row(
        conn.execute(
            f"SELECT {', '.join(f'count(*) - count({quote_ident(c)})' for c in text)} FROM {quote_ident(table)}"
        )
    )
    missing = {c: int(n) for c, n in zip(text, nulls, strict=True) if n}
    suspects = list(missing)
    if not suspects or not may_hold_tokens(conn, recount, real):
        return []
    try:  # on a cursor of its own: a failure here must not abort the load's transaction
        counted = rows is None or rows <= COUNTED_ROWS
        found = token_counts(conn, recount, [stored_to_original[c] for c in suspects], real, whole=counted)
    except duckdb.Error:
        return [f"{', '.join(suspects)}: values such as NA may have become NULL; add --null '' to keep them"]
    said: dict[tuple[str, str | None], list[str]] = {}  # each note's columns, in the table's order
    for name, held in zip(suspects, found, strict=True):
        if held.tokens:  # columns named from their first rows share a note when they show the same tokens
            said.setdefault((_held(held), None if held.values is None else name), []).append(name)
    return [_note(names, text, missing) for (text, _), names in said.items()]


def _held(held: Held) -> str:
    """What a column held: the tokens counted, or (``values`` None) those its first rows show. Pure."""
    shown = ", ".join(repr(v) for v in sorted(held.tokens)[:3])
    if held.values is None:
        return f"values such as {shown} read as missing (NULL)"
    return f"{held.values:,} {'value' if held.values == 1 else 'values'} {shown} read as missing (NULL)"


def _note(names: list[str], held: str, missing: dict[str, int]) -> str:
    """One note for the columns that held the same: a big table's columns whose first rows show the same
    tokens share one line (a voter file's 42 election columns), one alone says its missing count. Pure."""
    if len(names) == 1 and held.startswith("values such as"):
        held += f", among its {missing[names[0]]:,} missing values"
    return f"{', '.join(names)}: {held}; add --null '' to keep them as text"


def token_counts(
    conn: duckdb.DuckDBPyConnection, recount: Recount, columns: Sequence[str], real: list[str], *, whole: bool
) -> list[Held]:
    """Per column of the file (its own names): how many values were one of the tokens ``real``, and which.
    ``whole``: every value compared; otherwise a column whose first rows show a token is not counted
    (``Held.values`` None) and the others are compared to the file's end."""
    if whole or len(real) > _MASK_TOKENS or recount.sample is None:
        return _listed(conn, recount.source, recount.params, columns, real)
    sample_source, sample_params = recount.sample
    limited = f"(SELECT * FROM {sample_source} LIMIT {SAMPLE_ROWS})"
    read, first = _masks(conn, limited, sample_params, columns, real)
    if read < SAMPLE_ROWS:  # the first rows were all the rows
        return [Held(n, names) for n, names in first]
    unseen = [c for c, (n, _) in zip(columns, first, strict=True) if not n]
    # no token among their first rows: one past them would become NULL unsaid, so these are read whole
    exact = (
        dict(zip(unseen, _masks(conn, recount.source, recount.params, unseen, real)[1], strict=True))
        if unseen
        else {}
    )
    return [
        Held(*exact[c]) if c in exact else Held(None, names)
        for c, (_, names) in zip(columns, first, strict=True)
    ]


def _masks(
    conn: duckdb.DuckDBPyConnection, source: str, params: list[Any], columns: Sequence[str], real: list[str]
) -> tuple[int, list[tuple[int, list[str]]]]:
    """The rows read and, per column of the text reader ``source``, how many values are one of the tokens
    and which: a token's position in the list (``list_position``, NULL for any other value) is counted and
    OR-ed into a bitmask (1.1 s of CPU against 1.8 for a count and a ``list(DISTINCT …)`` filtered by
    ``IN`` on each of 60 columns of a 300k-row voter file)."""
    parts = ["count(*)"]
    for column in columns:
        at = f"list_position(?::VARCHAR[], {quote_ident(column)})"
        parts += [f"count({at})", f"bit_or(1::BIGINT << ({at} - 1))"]
    row = first_row(
        conn.cursor().execute(
            f"SELECT {', '.join(parts)} FROM {source}", [*([real] * 2 * len(columns)), *params]
        )
    )
    return int(row[0]), [
        (int(row[1 + 2 * i]), [t for bit, t in enumerate(real) if (row[2 + 2 * i] or 0) >> bit & 1])
        for i in range(len(columns))
    ]


def _listed(
    conn: duckdb.DuckDBPyConnection, source: str, params: list[Any], columns: Sequence[str], real: list[str]
) -> list[Held]:
    """``token_counts`` value by value: a filtered count and list per column (any number of tokens)."""
    if len(real) <= _MASK_TOKENS:
        return [Held(n, seen) for n, seen in _masks(conn, source, params, columns, real)[1]]
    marks = ", ".join("?" * len(real))
    parts = []
    for column in columns:
        col = quote_ident(column)
        parts += [
            f"count(*) FILTER (WHERE {col} IN ({marks}))",
            f"list(DISTINCT {col}) FILTER (WHERE {col} IN ({marks}))",
        ]
    row = first_row(
        conn.cursor().execute(
            f"SELECT {', '.join(parts)} FROM {source}", [*(real * 2 * len(columns)), *params]
        )
    )
    return [Held(int(row[2 * i]), list(row[2 * i + 1] or [])) for i in range(len(columns))]

"""Which text columns had missing-value tokens (``NA``, ``NULL``) read as missing, how many, and which
tokens: the load's note for each, with the option that keeps them as text.

The write reads a token and an empty field alike as NULL, so the count comes from the file, read a second
time (after ``token_scan`` found a token in it at all). That pass reads the text columns with the tokens
alone as missing, so a column's NULLs are its tokens, counted by DuckDB's own matching (the write's): on a
300k x 64 voter file 0.48 s of CPU, against 0.71 for comparing every value with the token list. Which tokens
a column held is then read from the first ``SAMPLE_ROWS`` rows; a column whose tokens all lie beyond them is
compared value by value over the whole file, and a note names the tokens "such as" when the sample did not
reach the file's end. Where a reading has NULLs no file wrote (a short row padded by ``--pad-short-rows``,
a column one of several files lacks), every value is compared, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.token_scan import Recount, may_hold_tokens
from analytics_agent.db.rows import first_row

SAMPLE_ROWS = 5_000
_MASK_TOKENS = 62
"""Up to this many tokens, which of them a column holds is one BIGINT bitmask (bit i: token i)."""


class Held(NamedTuple):
    values: int
    """Values that were one of the tokens."""
    tokens: list[str]
    """Which tokens: all of them (``whole``), or those of the file's first rows."""
    whole: bool = True


def token_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    recount: Recount | None,
    stored_to_original: dict[str, str],
    tokens: Sequence[str],
) -> list[str]:
    """Name each text column where values such as ``NA`` became NULL, with the count."""
    real = [t for t in tokens if t]
    if not text or recount is None or not real:
        return []
    nulls = first_row(
        conn.execute(
            f"SELECT {', '.join(f'count(*) - count({quote_ident(c)})' for c in text)} FROM {quote_ident(table)}"
        )
    )
    suspects = [c for c, n in zip(text, nulls, strict=True) if n]
    if not suspects or not may_hold_tokens(conn, recount, real):
        return []
    try:  # on a cursor of its own: a failure here must not abort the load's transaction
        found = token_counts(conn, recount, [stored_to_original[c] for c in suspects], real)
    except duckdb.Error:
        return [f"{', '.join(suspects)}: values such as NA may have become NULL; add --null '' to keep them"]
    notes = []
    for name, held in zip(suspects, found, strict=True):
        if held.values:
            shown = ", ".join(repr(v) for v in sorted(held.tokens)[:3])
            values = "value" if held.values == 1 else "values"
            such = "" if held.whole else "such as "
            notes.append(
                f"{name}: {held.values:,} {values} {such}{shown} read as missing (NULL); add --null '' to keep "
                "them as text"
            )
    return notes


def token_counts(
    conn: duckdb.DuckDBPyConnection, recount: Recount, columns: Sequence[str], real: list[str]
) -> list[Held]:
    """Per column of the file (its own names): how many values were one of the tokens ``real``, and which."""
    if len(real) > _MASK_TOKENS or recount.counted is None:
        return _listed(conn, recount.source, recount.params, columns, real)
    counted_source, counted_params = recount.counted
    parts = ", ".join(f"count(*) - count({quote_ident(c)})" for c in columns)
    counts = [
        int(n)
        for n in first_row(conn.cursor().execute(f"SELECT {parts} FROM {counted_source}", counted_params))
    ]
    if len(real) == 1:
        return [Held(n, list(real) if n else []) for n in counts]
    held = [c for c, n in zip(columns, counts, strict=True) if n]
    seen: dict[str, list[str]] = {}
    whole = True
    if recount.sample is not None and held:
        sample_source, sample_params = recount.sample
        limited = f"(SELECT * FROM {sample_source} LIMIT {SAMPLE_ROWS})"
        rows, masks = _masks(conn, limited, sample_params, held, real)
        whole = rows < SAMPLE_ROWS
        seen = {c: m[1] for c, m in zip(held, masks, strict=True) if m[1]}
    unseen = [c for c in held if c not in seen]
    # every token of these lies past the first rows: compared value by value, counts and names exact
    exact = (
        dict(zip(unseen, _masks(conn, recount.source, recount.params, unseen, real)[1], strict=True))
        if unseen
        else {}
    )
    return [
        Held(*exact[c]) if c in exact else Held(n, seen.get(c, []), whole)
        for c, n in zip(columns, counts, strict=True)
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

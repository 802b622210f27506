"""Subtotal rows inside a table with no grand total below them: a general ledger's ``Summa period`` after
each account's entries (Fortnox's huvudbok), a report's ``Total for …`` after each group. The footer
check reads only the last rows, so these loaded as records and every sum over the table counted each
account's entries twice, without a word. A row counts only when its label is a subtotal's and each of
its numbers is the sum, to the cent, of that column over the rows since the subtotal above it (two such
rows at least). Runs inside the load's transaction on the freshly written table, in DuckDB's SQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import own_table_types, quote_ident
from analytics_agent.db.load.settle.balance_runs import balance_rows, holds_balance_labels
from analytics_agent.db.load.settle.total_labels import (
    RUNNING_SQL,
    SUBTOTAL_SQL,
    holds_running_label,
    holds_subtotal_sql_label,
)

_NUMBER_TYPES = ("DOUBLE", "BIGINT", "INTEGER", "HUGEINT", "DECIMAL")
_HEAD_ROWS = 200


class GroupSums:
    """The subtotal rows found: their label's column, labels, rowids and the columns they sum."""

    __slots__ = ("column", "kind", "labels", "rows", "running", "sums")

    def __init__(
        self,
        column: str,
        labels: list[str],
        rows: list[int],
        sums: list[str],
        kind: str = "subtotals",
        running: Sequence[str] = (),
    ) -> None:
        self.column, self.labels, self.rows, self.sums = column, labels, rows, sums
        self.kind = kind
        """``subtotals``, or ``balance``: a statement's balance rows among its records (``balance_runs``)."""
        self.running = list(running)
        """The labels of running totals among them (``running_sums``), ``labels`` holding the rest."""


def find_group_sums(
    conn: duckdb.DuckDBPyConnection, table: str, text_columns: Sequence[str], *, subtotals: bool = True
) -> GroupSums | None:
    """The subtotal rows of ``table`` (``subtotals``: else none, a footer's stack took them), or else its
    balance rows among the records (``balance_runs``), or None: a query of its first rows for a subtotal's
    or a balance's label, and only when one holds it, one more of the whole table that checks them."""
    types = own_table_types(conn, table)
    numbers = [c for c, kind in types.items() if kind.startswith(_NUMBER_TYPES)]
    texts = [c for c in text_columns if types.get(c) == "VARCHAR"]
    if not numbers or not texts:
        return None
    t = quote_ident(table)
    # a ledger's first subtotal comes within its first accounts: the whole table is read only then. The
    # first rows are read here and asked in Python (the subquery limit: see odd_values.first_rows)
    head = conn.execute(
        f"SELECT {', '.join(map(quote_ident, texts))} FROM {t} LIMIT (SELECT {_HEAD_ROWS})"
    ).fetchall()
    columns = [[r[i] for r in head if r[i] is not None] for i in range(len(texts))]
    column = next(
        (
            c
            for c, values in zip(texts, columns, strict=True)
            if subtotals and (holds_subtotal_sql_label(values) or holds_running_label(values))
        ),
        None,
    )
    if column is not None:
        return _checked(conn, t, column, numbers)
    column = next((c for c, values in zip(texts, columns, strict=True) if holds_balance_labels(values)), None)
    found = balance_rows(conn, t, column, numbers) if column is not None else None
    if column is None or found is None:
        return None
    ids, labels, balance = found
    return GroupSums(column, labels, ids, [balance], "balance")


def _checked(conn: duckdb.DuckDBPyConnection, t: str, column: str, numbers: list[str]) -> GroupSums | None:
    """The labelled rows of ``column`` when, in some number column they fill, each subtotal's number is
    the sum of the records since the subtotal above it and each running total's is the one before it plus
    the records between (``running_sums``): per group (the subtotal rows before a row; a subtotal row
    closes the group it is counted in), each number column's sum over its records beside the value its
    subtotal row holds. Two such checks at least, and every one to the cent."""
    from analytics_agent.db.load.settle.running_sums import chained_columns, running_groups

    col = quote_ident(column)
    run = f"coalesce(regexp_full_match({col}, '{RUNNING_SQL}'), false)"
    label = f"(coalesce(regexp_full_match({col}, '{SUBTOTAL_SQL}'), false) AND NOT {run})"
    grouped = (
        f"SELECT rowid AS r, {label} AS sub, {run} AS run, {col} AS lab, {', '.join(map(quote_ident, numbers))}, "
        f"count(*) FILTER (WHERE {label}) OVER (ORDER BY rowid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) "
        f"AS grp, count(*) FILTER (WHERE {run}) OVER (ORDER BY rowid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
        f"PRECEDING) AS rgrp FROM {t}"
    )
    parts = ", ".join(
        f"sum({quote_ident(n)}) FILTER (WHERE NOT sub AND NOT run), max({quote_ident(n)}) FILTER (WHERE sub)"
        for n in numbers
    )
    rows = conn.execute(
        f"SELECT grp, count(*) FILTER (WHERE sub), list(r) FILTER (WHERE sub), list(lab) FILTER (WHERE sub), {parts} "
        f"FROM ({grouped}) GROUP BY grp"
    ).fetchall()
    closed = [row for row in rows if row[1]]
    runs = running_groups(conn, grouped, numbers)
    summed = []
    for i, name in enumerate(numbers):
        pairs = [(row[4 + 2 * i], row[5 + 2 * i]) for row in closed if row[5 + 2 * i] is not None]
        steps = chained_columns(runs, i)
        if steps is None or len(pairs) + steps < 2:
            continue
        if all(part is not None and abs(part - whole) < 0.005 for part, whole in pairs):
            summed.append(name)
    if not summed:
        return None
    ids = sorted([int(row[2][0]) for row in closed] + [int(g[1]) for g in runs])
    labels = sorted({str(row[3][0]) for row in closed})
    return GroupSums(column, labels, ids, summed, running=sorted({str(g[2]) for g in runs}))


def group_sums_note(found: GroupSums) -> str:
    """The load's note for subtotal rows kept. Pure."""
    if found.kind == "balance":
        return (
            f"{_balance_rows(found)} are a statement's balances, no records: {found.sums[0]} there is the one "
            "before moved by the rows between; loaded as rows, counts include them: add --drop-totals to load "
            "without them"
        )
    if found.running:
        return (
            f"{len(found.rows):,} rows labelled like {_labelled(found)} ({found.column}) hold the sums of "
            f"{', '.join(found.sums)}: {_running_said(found)}: loaded as rows, a sum over the table counts "
            "their rows again: add --drop-totals to load without them"
        )
    return (
        f"{len(found.rows):,} rows labelled like {found.labels[0]!r} ({found.column}) hold the sums of "
        f"{', '.join(found.sums)} over the rows above each of them, back to the one before: loaded as rows, "
        "a sum over the table counts those rows twice: add --drop-totals to load without them"
    )


def _labelled(found: GroupSums) -> str:
    """``'本期合计' or '本年累计'``: a subtotal's label and a running total's. Pure."""
    return " or ".join(repr(label) for label in (found.labels[:1] + found.running[:1]))


def _running_said(found: GroupSums) -> str:
    """What the rows sum, running totals among them. Pure."""
    running = f"each {found.running[0]!r} over all the records above it, a running total of the year so far"
    if not found.labels:
        return running
    return f"each {found.labels[0]!r} over the rows above it back to the one before, {running}"


def group_marker(found: GroupSums) -> dict[str, Any]:
    """The kept subtotal rows as the stored profile says them (``tools/aggregate/totals_rows``). Pure."""
    return {
        "column": found.column,
        "labels": found.labels + found.running,
        "rows": len(found.rows),
        "sums": found.sums,
        "kind": found.kind,
    }


def drop_group_sums(conn: duckdb.DuckDBPyConnection, table: str, found: GroupSums) -> str:
    """Delete the subtotal rows; the note that says so."""
    conn.execute(f"DELETE FROM {quote_ident(table)} WHERE rowid IN ({', '.join(map(str, found.rows))})")
    if found.kind == "balance":
        return (
            f"--drop-totals: dropped {_balance_rows(found)}, a statement's balances (each {found.sums[0]} the one "
            "before moved by the rows between); leave out --drop-totals to keep them"
        )
    if found.running:
        return (
            f"--drop-totals: dropped {len(found.rows):,} rows labelled like {_labelled(found)} ({found.column}), "
            f"the sums of {', '.join(found.sums)} ({_running_said(found)}); leave out --drop-totals to keep them"
        )
    return (
        f"--drop-totals: dropped {len(found.rows):,} rows labelled like {found.labels[0]!r} ({found.column}), "
        f"the sums of {', '.join(found.sums)} over the rows above each; leave out --drop-totals to keep them"
    )


def _balance_rows(found: GroupSums) -> str:
    """``14 rows labelled 'SALDO ANTERIOR' or 'SALDO DO DIA' (lancamento)``. Pure."""
    said = " or ".join(map(repr, found.labels[:3])) + (" …" if len(found.labels) > 3 else "")
    return f"{len(found.rows):,} rows labelled {said} ({found.column})"

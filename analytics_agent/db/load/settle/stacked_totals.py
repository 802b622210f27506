"""Totals rows stacked at a table's end, each labelled (Google Ads ends with ``Total: Campaigns``,
``Total: Account``, ``Total: Search``): the last one's numbers are no aggregate of the rows above it, the
other totals among them, so the single totals row's check (``totals``) finds none, and every sum over the
table counted them all. Or each totals a part, the rows above that hold its text (a statement's debits
and credits). Runs inside the load's transaction on the freshly written table."""

from __future__ import annotations

from typing import Any

import duckdb

from analytics_agent.db.amount_forms import literal
from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.total_labels import is_total_label
from analytics_agent.db.load.settle.total_sums import aggregated, numbers_of, whole_row

_STACK = 8
"""The most totals rows a footer stacks (Google Ads: ``Total: Account``, ``Total: Search``, ``Total:
Display``, … one a network)."""


def stacked(
    conn: duckdb.DuckDBPyConnection, table: str, label: str, row: int
) -> tuple[int, dict[str, Any], list[str], dict[int, str]] | None:
    """The stack of labelled rows ending at ``row`` (its label in column ``label``) when one of them holds
    the sums of the rows above the stack: that row's rowid, its cells and the columns it sums, and every
    row of the stack (rowid -> label, in the file's order); the others total parts of them (a network).
    None for a single labelled row (the caller's), or a stack none of whose rows holds the sums. A brand
    called "Total" above a real totals row is data: the caller tries the single row first."""
    t, col = quote_ident(table), quote_ident(label)
    above = conn.execute(
        f"SELECT rowid, {col} FROM {t} WHERE rowid < {row} ORDER BY rowid DESC LIMIT {_STACK - 1}"
    ).fetchall()
    stack = [row]
    for rowid, cell in above:
        if not (isinstance(cell, str) and is_total_label(cell)):
            break
        stack.insert(0, int(rowid))
    if len(stack) < 2:
        return None
    rows = [whole_row(conn, table, r, None) for r in stack]
    labels = {r: str(w[label]) for r, w in zip(stack, rows, strict=True)}
    for r, whole in zip(stack, rows, strict=True):
        sums = aggregated(conn, table, whole, numbers_of(whole), f"rowid < {stack[0]}")
        if sums:
            return r, whole, sums, labels
    parts = [_part_sums(conn, table, label, whole, stack[0]) for whole in rows]
    if all(parts):
        return stack[-1], rows[-1], parts[-1], labels
    return None


def _part_sums(
    conn: duckdb.DuckDBPyConnection, table: str, label: str, whole: dict[str, Any], first: int
) -> list[str]:
    """The columns ``whole`` (a labelled row of the stack) sums over the rows above the stack that hold
    its other text cells: a statement's ``Σύνολο Χρεώσεων`` with ``Χ`` in its debit-or-credit column
    totals the debits, ``Σύνολο Πιστώσεων`` with ``Π`` the credits (Alpha Bank). Without such a cell,
    the rows of its numbers' sign (``_sign_sums``). None when neither holds (every row of the stack must
    say which part it totals)."""
    cells = {c: v for c, v in whole.items() if c != label and isinstance(v, str) and v.strip()}
    if not cells:
        return _sign_sums(conn, table, whole, first)
    where = " AND ".join(f"{quote_ident(c)} = {literal(v)}" for c, v in cells.items())
    return aggregated(conn, table, whole, numbers_of(whole), f"rowid < {first} AND {where}")


def _sign_sums(conn: duckdb.DuckDBPyConnection, table: str, whole: dict[str, Any], first: int) -> list[str]:
    """The columns ``whole`` sums over the rows above the stack of its numbers' sign: Emirates NBD's
    ``Total Debits`` of ``72,047.89 Dr`` is the sum of the debits, its ``Total Credits`` of the credits,
    in one signed amount column. None unless each of its numbers is such a sum."""
    numbers = [c for c in numbers_of(whole) if whole[c]]
    summed = []
    for c in numbers:
        side = "<" if whole[c] < 0 else ">"
        summed += aggregated(conn, table, whole, [c], f"rowid < {first} AND {quote_ident(c)} {side} 0")
    return summed if summed and len(summed) == len(numbers) else []

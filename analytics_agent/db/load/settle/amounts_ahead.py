"""Amounts read as numbers in the write itself, for a big file whose first values show one plain form
(``$1,234.50``, ``($84.10)``, ``12%``: ``amount_counts.guess``). Written as text and then rewritten by
``ALTER … TYPE DOUBLE``, four such columns of 200k values cost 0.17 s of CPU beyond the write (the form's
check, the rewrites and a dearer commit); converted in the ``CREATE TABLE AS`` they cost 0.05 s, the
check included, because the text is never stored.

A guess from the first rows, proven on every value: a value the form does not match is written as NaN
(never a number the form reads), so ``proven_counts`` finds it once the columns settle and raises
``AheadMissed``; the load then rolls back and runs again with the plain write, the way every other load
runs. A column converted ahead is said, typed and profiled exactly as ``amounts.settle_amounts`` would have
done after a plain write: the same counts (``amount_counts.quick_counts``'), the same value SQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

if TYPE_CHECKING:
    from analytics_agent.db.load.options import LoadOptions
    from analytics_agent.db.load.plan import Plan
    from analytics_agent.db.load.settle.amount_counts import Form, RawCounts

AHEAD_BYTES = 4_000_000
"""Files smaller than this are written the plain way: reading their first rows ahead costs a few ms, about
what the rewrites of a million bytes of amounts cost."""
_FIRST = 50
"""The first rows read ahead: what ``columns._probe`` reads of the written table."""
_BUFFER = 1 << 20


class Ahead(NamedTuple):
    """The columns the write converts: their plain form and their first values, as text."""

    forms: dict[str, Form]
    probe: dict[str, list[str]]


class AheadMissed(Exception):
    """A column converted in the write is not what its first values suggested: load it the plain way."""


def plan_ahead(
    conn: duckdb.DuckDBPyConnection, plan: Plan, options: LoadOptions, files: Sequence[Path]
) -> tuple[Plan, Ahead] | None:
    """The plan whose write converts the amount columns of a big CSV file, and what it converts; None
    when nothing is converted ahead: a small file, an append (the table's types stand), records set
    aside, ``--decimal``, ``--thousands`` or ``--drop-totals`` (each reads amounts its own way first)."""
    if (
        plan.text_reader is None
        or plan.dialect is None
        or options.mode == "append"
        or options.skip_bad_rows
        or options.decimal is not None
        or options.thousands is not None
        or options.drop_totals
        or sum(f.stat().st_size for f in files) < AHEAD_BYTES
    ):
        return None
    columns = [c for c in plan.text_columns if c not in plan.flags and c not in plan.fixed]
    if not columns:
        return None
    forms, probe = _forms(conn, plan, columns)
    if not forms:
        return None
    parts = ", ".join(f"{checked_sql(quote_ident(n), f)} AS {quote_ident(n)}" for n, f in forms.items())
    return plan._replace(query=f"SELECT * REPLACE ({parts}) FROM ({plan.query})"), Ahead(forms, probe)


def _forms(
    conn: duckdb.DuckDBPyConnection, plan: Plan, columns: Sequence[str]
) -> tuple[dict[str, Form], dict[str, list[str]]]:
    """The plain forms the first rows of the text ``columns`` suggest (decimal point, or whole numbers),
    and those columns' first values."""
    from analytics_agent.db.load.settle.amount_counts import guess
    from analytics_agent.db.load.settle.amounts import candidates

    wanted = ", ".join(quote_ident(c) for c in columns)
    # the first rows alone: DuckDB's default buffer reads 16 MB of the file for them (6 against 2 ms)
    query = plan.query.replace("read_csv(?, ", f"read_csv(?, buffer_size = {_BUFFER}, ", 1)
    try:
        rows = conn.execute(f"SELECT {wanted} FROM ({query}) LIMIT {_FIRST}", plan.params).fetchall()
    except duckdb.Error:  # a line longer than the buffer: the write says what it says of the file
        return {}, {}
    probe = {name: [r[i] for r in rows if r[i] is not None] for i, name in enumerate(columns)}
    forms = {
        name: form
        for name, marks in candidates(probe).items()
        if (form := guess(marks, probe[name])) is not None and form.mark in (".", "0")
    }
    return forms, {name: probe[name] for name in forms}


def checked_sql(column: str, form: Form) -> str:
    """SQL: the number of a value of the quoted ``column`` written in ``form`` (``simple_value_sql``, as
    ``settle_amounts`` converts it), NULL for NULL, and NaN for any other value: no value the form reads
    is NaN (its digits cast to a finite number or to NULL), so a NaN is a value outside the form."""
    from analytics_agent.db.amount_forms import literal, simple, simple_value_sql

    fits = f"regexp_full_match({column}, {literal(simple(*form))})"
    return (
        f"CASE WHEN {column} IS NULL THEN NULL WHEN {fits} THEN {simple_value_sql(column, *form)} "
        "ELSE 'NaN'::DOUBLE END"
    )


def proven_counts(
    conn: duckdb.DuckDBPyConnection, relation: str, ahead: Ahead, columns: Mapping[str, str]
) -> dict[str, tuple[RawCounts, Form]]:
    """The counts of the columns converted ahead, as ``amount_counts.quick_counts`` gives them when every
    value has its form, once no value is NaN. Raises ``AheadMissed`` when one is, when a column holds no
    value any more, or when ``columns`` (the amount candidates now) lacks one."""
    from analytics_agent.db.load.settle.amount_counts import fitting_counts

    if not set(ahead.forms) <= set(columns):
        raise AheadMissed
    parts = []
    for name in ahead.forms:
        col = quote_ident(name)
        parts += [f"count({col})", f"count(*) FILTER (WHERE isnan({col}))"]
    row = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {relation}"))
    found: dict[str, tuple[RawCounts, Form]] = {}
    for i, (name, form) in enumerate(ahead.forms.items()):
        present, outside = int(row[2 * i]), int(row[2 * i + 1])
        if outside or not present:
            raise AheadMissed
        found[name] = (fitting_counts(present, form), form)
    return found

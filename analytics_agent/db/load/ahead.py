"""The write of a big CSV file planned to convert its amount columns itself (``settle/amounts_ahead``
says why and proves it): the first rows read ahead, the plain forms they suggest, the query that converts
them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.plan import Plan
from analytics_agent.db.load.settle.amounts_ahead import Ahead, checked_sql

if TYPE_CHECKING:
    from analytics_agent.db.load.settle.amount_counts import Form

AHEAD_BYTES = 4_000_000
"""Files smaller than this are written the plain way: reading their first rows ahead costs a few ms, about
what the rewrites of a million bytes of amounts cost."""
_FIRST = 50
"""The first rows read ahead: what ``columns._probe`` reads of the written table."""


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
    and those columns' first values, read in small buffers (``plan.first_rows``: an 8 MB or bigger share
    against 1 MB, 6 against 2 ms on the export file)."""
    from analytics_agent.db.load.settle.amount_counts import guess
    from analytics_agent.db.load.settle.amounts import candidates

    if plan.first_rows is None:
        return {}, {}
    wanted = ", ".join(quote_ident(c) for c in columns)
    query, params = plan.first_rows
    try:
        rows = conn.execute(f"SELECT {wanted} FROM ({query}) LIMIT {_FIRST}", params).fetchall()
    except duckdb.Error:  # the write says what it says of the file
        return {}, {}
    probe = {name: [r[i] for r in rows if r[i] is not None] for i, name in enumerate(columns)}
    forms = {
        name: form
        for name, marks in candidates(probe).items()
        if (form := guess(marks, probe[name])) is not None and _all_of(form, probe[name])
    }
    return forms, {name: probe[name] for name in forms}


def _all_of(form: Form, values: Sequence[str]) -> bool:
    """Whether every one of ``values`` is of ``form`` (decimal point or whole numbers): a guess from their
    characters alone (``5,000.00-``, ``$ 5``) would fail the proof on every value and write the file
    twice. Pure."""
    from analytics_agent.db.amount_forms import simple

    pattern = re.compile(simple(*form))
    return form.mark in (".", "0") and all(pattern.fullmatch(v) for v in values)

"""Amounts read as numbers in the write itself, for a big file whose first values show one plain form
(``$1,234.50``, ``($84.10)``, ``12%``: ``amount_counts.guess``). Written as text and then rewritten by
``ALTER … TYPE DOUBLE``, four such columns of 200k values cost 0.17 s of CPU beyond the write (the form's
check, the rewrites and a dearer commit); converted in the ``CREATE TABLE AS`` they cost 0.05 s, the
check included, because the text is never stored.

``load/ahead.py`` plans it; this module proves it. A guess from the first rows, proven on every value:
a value the form does not match is written as NaN (never a number the form reads), so ``proven_counts``
finds it once the columns settle and raises ``AheadMissed``; the load then rolls back and runs again with
the plain write, the way every other load runs. A column converted ahead is said, typed and profiled
exactly as ``amounts.settle_amounts`` would have done after a plain write: the same counts
(``amount_counts.fitting_counts``), the same value SQL (``amount_forms.simple_value_sql``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

if TYPE_CHECKING:
    from analytics_agent.db.load.settle.amount_counts import Form, RawCounts


class Ahead(NamedTuple):
    """The columns the write converts: their plain form and their first values, as text."""

    forms: dict[str, Form]
    probe: dict[str, list[str]]


class AheadMissed(Exception):
    """A column converted in the write is not what its first values suggested: load it the plain way."""


def checked_sql(column: str, form: Form) -> str:
    """SQL: the number of a value of the quoted ``column`` written in ``form``, NULL for NULL, and NaN for
    any other value: no value the form reads is NaN (its digits cast to a finite number or to NULL), so a
    NaN is a value outside the form. The number is the one ``settle_amounts`` stores after a plain write
    (``amount_forms.simple_value_sql``)."""
    from analytics_agent.db.amount_forms import literal, simple, simple_value_sql

    # NULL fails neither test: it reaches the last branch, whose cast gives NULL
    return (
        f"CASE WHEN NOT regexp_full_match({column}, {literal(simple(*form))}) THEN 'NaN'::DOUBLE "
        f"ELSE {simple_value_sql(column, *form)} END"
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

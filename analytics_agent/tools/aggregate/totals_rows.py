"""A table loaded with its spreadsheet's footer totals row (and subtotal rows) kept as rows: an answer over
rows that include them counts every sum twice, and a max or a count is off too. The load said so once; a
question asked later must not get the doubled number without a word. The stored profile names the rows
(``totals_rows``, written by the load's ``totals_marker``), and a call whose rows would include them is
refused with the filter that leaves them out. A call whose own filters already leave them out (a region,
a date range the totals row has no value in, the label itself) runs as asked."""

from __future__ import annotations

import json
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row
from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.query_plan import Params, QueryPlan
from analytics_agent.tools.aggregate.sql import from_clause, where_clause


def refuse_totals_rows(
    cursor: duckdb.DuckDBPyConnection, plan: QueryPlan, marker: dict[str, Any] | None
) -> None:
    """ToolError when the rows ``plan`` reads include the totals rows ``marker`` names; else nothing."""
    if not marker or not (marker.get("labels") or marker.get("empty") or marker.get("filled")):
        return
    column, labels = str(marker["column"]), [str(v) for v in marker.get("labels", [])]
    params = Params()
    where = where_clause(plan.filters, params)
    if marker.get("empty"):  # a totals row with no label: the one row whose label's column is empty
        totals = f"t.{quote_ident(column)} IS NULL"
    elif marker.get("filled"):  # a summary row: the one row that fills its column
        totals = f"t.{quote_ident(column)} IS NOT NULL"
    else:
        totals = f"t.{quote_ident(column)} IN ({', '.join(params.add(v) for v in labels)})"
    where = f"{where} AND {totals}" if where else f" WHERE {totals}"
    query = f"SELECT EXISTS (SELECT 1 FROM {from_clause(plan)}{where})"
    if not first_row(cursor.execute(query, params.values))[0]:
        return
    raise ToolError(totals_message(plan.table, marker))


def totals_message(table: str, marker: dict[str, Any]) -> str:
    """Why the call is refused and the filter to add, in one line. Pure."""
    column, labels = str(marker["column"]), [str(v) for v in marker.get("labels", [])]
    rows, kind = int(marker.get("rows", 1)), marker.get("kind")
    sums = ", ".join(map(str, marker.get("sums", []))) or "its number columns"
    said = f"{column} empty" if marker.get("empty") else f"{column} = {', '.join(repr(v) for v in labels)}"
    fix = json.dumps(
        {"column": column, "op": "is_null"}
        if kind == "summary"
        else {"column": column, "op": "not_null"}
        if marker.get("empty")
        else {"column": column, "op": "not_in", "value": labels}
    )
    if kind == "summary":
        what = f"its first row, a summary ({column} filled, the sum of {sums} below), loaded as a row: this answer would count it"
    elif kind == "balance":
        what = (
            f"a statement's balance rows ({said}), loaded as rows: {sums} there are balances, not movements"
        )
    elif kind == "subtotals":
        what = (
            f"{rows} subtotal rows ({said}), each the sum of {sums} over the rows above it, loaded as rows: this "
            "answer would count those rows twice"
        )
    elif kind == "label":
        which = "its first row" if rows == 1 else f"its first {rows} rows"
        return (
            f"{table} holds {which} ({said}), describing the columns (points possible, units), loaded as "
            f"{'a row' if rows == 1 else 'rows'} by --keep-label-rows: this answer would count "
            f"{'it' if rows == 1 else 'them'}. Add the filter {fix} (or reload the file without "
            "--keep-label-rows)"
        )
    elif kind == "total":
        what = f"its first row ({said}) with the sums of the rows below in {sums}, loaded as a row: this answer would count them twice"
    else:
        which = (
            "its last row" if rows == 1 else f"its last row and {rows - 1} subtotal or other footer row(s)"
        )
        what = f"{which} ({said}) with the sums of the rows above in {sums}, loaded as rows: this answer would count them twice"
    return f"{table} holds {what}. Add the filter {fix} (or reload the file with --drop-totals)"

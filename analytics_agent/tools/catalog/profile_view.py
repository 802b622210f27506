"""What ``describe_table`` shows of a stored profile, within the result's token budget. Pure.

Every column's name and type is always shown: detail goes first (value lists shortened, then dropped,
then min/max, then null counts), and a table too wide even for names and types is paged. The result says
what it left out, so a model knows to ask for a column's values another way (aggregate with group_by).
"""

from __future__ import annotations

from typing import Any

from analytics_agent.tools.results.shaping import MAX_TOKENS, dumps, estimate_tokens

SHORT_VALUES = 10
# Each level keeps less of every column, in this order; the last keeps only name and type.
LEVELS: tuple[tuple[str, ...], ...] = (
    (),
    ("values beyond 10",),
    ("values",),
    ("values", "min/max"),
    ("values", "min/max", "nulls"),
)


def fit_profile(
    profile: dict[str, Any],
    *,
    page: int = 1,
    max_tokens: int = MAX_TOKENS,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The profile as shown for ``page`` (1-based), with ``extra`` (related tables, named metrics) on
    every page. Raises ValueError for a page past the last."""
    extra = extra or {}
    original = profile.get("original_names", {})
    columns = [
        {**c, "original": original[c["name"]]} if c["name"] in original else c for c in profile["columns"]
    ]
    pages = paginate(profile, max_tokens, extra)
    if not 1 <= page <= len(pages):
        raise ValueError(
            f"page {page} does not exist; {profile['table']} has {len(pages)} page(s) of columns"
        )
    first, last = pages[page - 1]
    for omitted in LEVELS:
        shown = _view(profile, columns[first:last], omitted, page, len(pages)) | extra
        if estimate_tokens(dumps(shown)) <= max_tokens:
            return shown
    return shown


def paginate(profile: dict[str, Any], max_tokens: int, extra: dict[str, Any]) -> list[tuple[int, int]]:
    """Column ranges [first, last) such that each page's names and types fit the budget."""
    columns = profile["columns"]
    leanest = LEVELS[-1]
    overhead = estimate_tokens(dumps(_view(profile, [], leanest, 1, 2) | extra))  # with "next"
    pages, first, used = [], 0, overhead
    for i, column in enumerate(columns):
        cost = estimate_tokens(dumps(_column(column, leanest))) + 1
        if i > first and used + cost > max_tokens:
            pages.append((first, i))
            first, used = i, overhead
        used += cost
    pages.append((first, len(columns)))
    return pages


def _view(
    profile: dict[str, Any], columns: list[dict[str, Any]], omitted: tuple[str, ...], page: int, pages: int
) -> dict[str, Any]:
    shown: dict[str, Any] = {"table": profile["table"], "rows": profile["rows"]}
    totals = profile.get("totals_rows")
    # a summed column's max is the totals row's own number: shown, it reads as the largest value
    summed = set(totals.get("sums", [])) if totals else set()
    shown["columns"] = [_column(c, omitted, no_range=c["name"] in summed) for c in columns]
    if totals:
        shown["totals_rows"] = _totals_rows(totals)
    if pages > 1:
        shown.update(page=page, pages=pages, column_count=len(profile["columns"]))
        if page < pages:
            shown["next"] = f"describe_table with page={page + 1} for more columns"
    if omitted:
        shown["omitted"] = list(omitted)
    return shown


def _totals_rows(totals: dict[str, Any]) -> dict[str, Any]:
    """The rows a load kept that are no records (``totals_rows`` in the profile), as ``describe_table``
    shows them: their column, labels, and the filter that leaves them out."""
    if totals.get("kind") == "label":  # rows under the header describing the columns, kept by the load
        op = "not_null" if totals.get("empty") else "not_in"
        return {
            "column": totals["column"],
            **({} if totals.get("empty") else {"labels": totals["labels"]}),
            "note": "the first rows describe the columns (points possible, units), loaded as rows by "
            f"--keep-label-rows: filter them out ({op}) before summing, counting or ranking",
        }
    if totals.get("kind") == "summary":  # a summary row above the records fills its column alone
        return {
            "column": totals["column"],
            "note": "the first row is a summary of the rows below, loaded as a row, the one row with this "
            "column filled: filter it out (is_null) before summing, counting or ranking",
        }
    if totals.get("kind") == "balance":
        op = "not_null" if totals.get("empty") else "not_in"
        return {
            "column": totals["column"],
            **({} if totals.get("empty") else {"labels": totals["labels"]}),
            "note": f"a statement's opening (and closing) balance rows, loaded as rows: filter them out ({op}) "
            "before summing, counting or ranking the movements",
        }
    if totals.get("kind") == "subtotals":  # a ledger's subtotal rows, no grand total
        return {
            "column": totals["column"],
            "labels": totals["labels"],
            "note": "subtotal rows, each the sum of the rows above it, loaded as rows: filter them out (not_in) "
            "before summing, counting or ranking",
        }
    if totals.get("kind") == "total":  # a totals row above the records
        op = "not_null" if totals.get("empty") else "not_in"
        return {
            "column": totals["column"],
            **({} if totals.get("empty") else {"labels": totals["labels"]}),
            "note": f"the first row holds the totals of the rows below, loaded as a row: filter it out ({op}) "
            "before summing, counting or ranking; the columns it sums show no min/max (its own would be the total)",
        }
    if totals.get("empty"):  # a totals row with no label: its label's column is empty there
        return {
            "column": totals["column"],
            "note": "a footer totals row of the rows above, loaded as a row with this column empty: filter "
            "it out (not_null) before summing, counting or ranking; the columns it sums show no min/max",
        }
    # a spreadsheet's footer totals loaded as rows: a model must leave them out to sum
    return {
        "column": totals["column"],
        "labels": totals["labels"],
        "note": "footer totals of the rows above, loaded as rows: filter them out (not_in) before "
        "summing, counting or ranking; the columns they sum show no min/max (theirs would be the total)",
    }


def _column(column: dict[str, Any], omitted: tuple[str, ...], *, no_range: bool = False) -> dict[str, Any]:
    kept = {"name": column["name"], "type": column["type"]}
    if "unit" in column:  # the file wrote it beside each value ("%", "$"): an answer can say it again
        kept["unit"] = column["unit"]
    if "values" not in omitted and "original" in column:  # the file's own name, e.g. "Order Date"
        kept["original"] = column["original"]
    if "values" not in omitted and "label" in column:  # a line of labels under the file's header
        kept["label"] = column["label"]
    if "nulls" not in omitted and "nulls" in column:
        kept["nulls"] = column["nulls"]
    if "min/max" not in omitted and "min" in column and not no_range:
        kept["min"], kept["max"] = column["min"], column["max"]
    values = column.get("values")
    if values is not None and "values" not in omitted:
        kept["values"] = values[:SHORT_VALUES] if "values beyond 10" in omitted else values
    return kept

"""'Did you mean' hints and bounded lists of real names or values. Pure.

Both stay small whatever the database holds: a table of 10,000 columns lists 20 of them and says how
many more there are, and a "word" longer than any real name gets no hint (difflib on a 50 MB string
would take minutes and gigabytes)."""

from __future__ import annotations

from collections.abc import Iterable

MAX_LISTED = 20
MAX_WORD_CHARS = 200
MAX_RATIO_GAP = 0.15
"""A suggestion is offered only when it is about as close as the closest one."""


def listing(names: Iterable[object], *, limit: int = MAX_LISTED) -> str:
    """``a, b, c`` for a short list; the first ``limit`` and ``… and N more`` for a long one."""
    items = [str(n) for n in names]
    if len(items) <= limit:
        return ", ".join(items)
    return f"{', '.join(items[:limit])}, … and {len(items) - limit:,} more"


def with_article(word: str) -> str:
    """``a SELECT``, ``an INSERT``, ``an UPDATE``: the article by the first letter (statement kinds and
    column names, where a vowel letter is a vowel sound)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def clipped(text: str, *, limit: int = MAX_WORD_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: for echoing what was sent."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def closest(word: str, candidates: Iterable[str], *, n: int = 3) -> list[str]:
    if len(word) > MAX_WORD_CHARS:
        return []
    pool = [str(c) for c in candidates]
    by_case = {c.lower(): c for c in pool}
    if word.lower() in by_case:
        return [by_case[word.lower()]]
    import difflib  # only on the error path; kept off start-up

    # Close names only: a loose match (0.6-0.7) must also start with the same letter, so 'average' still
    # finds 'avg' while 'damage' is no longer offered 'name'.
    target = word.lower()
    scored = [
        (m, difflib.SequenceMatcher(None, target, m).ratio())
        for m in difflib.get_close_matches(target, list(by_case), n=n, cutoff=0.6)
    ]
    scored = [(m, r) for m, r in scored if m[:1] == target[:1] or r >= 0.7]
    # Only the close ones: beside 'orders' for 'ordrs' (0.91), 'order_items' (0.63) is noise.
    best = max((r for _, r in scored), default=0.0)
    return [by_case[m] for m, r in scored if r >= best - MAX_RATIO_GAP]


# Words a model writes for one of our choices that no spelling distance finds ('mean' is not close to
# 'avg'): aggregate functions, time grains and filter operators. A synonym is offered only when its
# target is among the choices of the place that refused the word.
_SYNONYMS = {
    "average": "avg", "mean": "avg", "avg_of": "avg", "total": "sum", "summation": "sum", "add": "sum",
    "distinct_count": "count_distinct", "count_unique": "count_distinct", "unique_count": "count_distinct",
    "nunique": "count_distinct", "n_unique": "count_distinct", "distinct": "count_distinct",
    "unique": "count_distinct", "ndv": "count_distinct", "approx_count_distinct": "count_distinct",
    "number": "count", "num": "count", "cnt": "count", "n": "count", "rows": "count", "size": "count",
    "minimum": "min", "maximum": "max", "lowest": "min", "highest": "max", "smallest": "min",
    "largest": "max", "std": "stddev", "stdev": "stddev", "std_dev": "stddev", "sd": "stddev",
    "standard_deviation": "stddev", "stddev_samp": "stddev", "percent": "pct", "percentage": "pct",
    "p50": "median", "percentile_50": "median", "med": "median",
    "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter", "yearly": "year",
    "annual": "year", "annually": "year", "hourly": "hour", "weekday": "day_of_week", "dow": "day_of_week",
    "day_of_the_week": "day_of_week", "dayofweek": "day_of_week", "month_name": "month_of_year",
    "calendar_month": "month_of_year", "years": "year", "months": "month", "days": "day", "weeks": "week",
    "==": "=", "eq": "=", "equals": "=", "equal": "=", "is": "=", "<>": "!=", "ne": "!=", "neq": "!=",
    "not_equal": "!=", "not_equals": "!=", "lt": "<", "less_than": "<", "lte": "<=", "le": "<=",
    "=<": "<=", "gt": ">", "greater_than": ">", "gte": ">=", "ge": ">=", "=>": ">=",
    "not in": "not_in", "notin": "not_in", "nin": "not_in", "isin": "in", "one_of": "in",
    "is null": "is_null", "isnull": "is_null", "null": "is_null", "is_none": "is_null",
    "is not null": "not_null", "is_not_null": "not_null", "notnull": "not_null", "not null": "not_null",
    "ilike": "like", "contains": "like", "range": "between",
}  # fmt: skip


def synonym(word: str, candidates: Iterable[str]) -> str | None:
    """The choice ``word`` is another name for, when that choice is among ``candidates``."""
    target = _SYNONYMS.get(word.strip().lower().replace("-", "_"))
    if target is None:
        target = _SYNONYMS.get(" ".join(word.lower().split()))
    return target if target is not None and target in {str(c) for c in candidates} else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    pool = [str(c) for c in candidates]
    meant = synonym(word, pool) if len(word) <= MAX_WORD_CHARS else None
    found = [meant] if meant else closest(word, pool)
    if not found:
        return ""
    return "; did you mean " + " or ".join(repr(f) for f in found) + "?"

"""Fetch a query's first rows with bounded time and memory: values are cut to size in SQL, before Python
sees them.

A result is at most ``MAX_ROWS`` rows and ``MAX_TOKENS`` tokens, but one value can be any size: ``SELECT
range(0, 50000000)`` is one row holding a 50-million-item list, and turning it into Python objects took a
minute and 7 GB before shaping cut it to nothing. So the query runs wrapped: ``LIMIT`` keeps DuckDB from
producing more rows than can be shown, text is cut to ``MAX_VALUE_CHARS``, a list to its first
``MAX_LIST_ITEMS``, other nested values (struct, map, union) travel as JSON text of at most
``MAX_VALUE_CHARS``, a blob as its size. Rows come in small batches and stop at ``MAX_FETCH_CHARS``.
What is cut says so in the value itself ("… 49999900 more", "…[truncated: 2,000,000 chars]").
"""

from __future__ import annotations

import itertools
import json
import threading
import weakref
from collections.abc import Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row
from analytics_agent.errors import ToolError
from analytics_agent.tools.results.literals import execute_arguments
from analytics_agent.tools.results.shaping import MAX_ROWS, Rows

MAX_VALUE_CHARS = 1000
"""Longer than any value a 1,000-token result could show."""
MAX_LIST_ITEMS = 100
MAX_FETCH_CHARS = 100_000
"""What the fetched rows may hold in all (a 1,000-token result shows far less); a wide table gets a
smaller cut per value so that one row stays within it."""
_BATCH_ROWS = 10
_MIN_VALUE_CHARS = 20
_TEXT = frozenset({"varchar", "bit"})
_LISTS = frozenset({"list", "array"})
_NESTED = frozenset({"struct", "map", "union", "variant"})


def fetch_rows(
    cursor: duckdb.DuckDBPyConnection,
    sql: str,
    params: Sequence[Any] | dict[str, Any] | None = None,
    *,
    max_rows: int = MAX_ROWS,
    hint: str | None = None,
    plans: dict[Any, FetchPlan] | None = None,
    learn: bool = True,
) -> Rows:
    """The first ``max_rows + 1`` rows of one SELECT with every value cut to size, and the total when cut.

    ``sql`` must already be known to be one SELECT; ToolError if its wrapped form is not. ``plans``: a
    cache owned by a tool whose SQL never changes (a ``.sql`` tool), so the query is bound for its column
    types on the first two uses per kind of arguments (the second learns its facts), not on every call;
    from then on a plan that reads only the database's own tables runs as a statement prepared once per
    cursor (``_run``). The tool is rebuilt when the database changes, and its cache with it. ``learn``
    False: a kept plan is reused as first made (its types), never learned or prepared (``aggregate``, whose
    queries are many and seldom repeated whole, keeps one per query text for calls that differ in values).
    """
    key = (max_rows, _signature(params))
    kept = plans.get(key) if plans is not None else None
    if kept is None or (learn and not kept.learned):
        # what DuckDB says of the query costs two more queries, repaid only by a plan used again: it is
        # learned on the second use (a one-shot `tools call` runs the full wrapper and never pays for it)
        kept = _plan(cursor, sql, params, max_rows, learn=learn and kept is not None)
        if plans is not None:
            plans[key] = kept
    _run(cursor, kept, params)
    names, kinds, value_chars = kept.names, kept.kinds, kept.value_chars
    rows, fetched = _fetch_bounded(cursor, kinds, value_chars, max_rows + 1)
    total = len(rows)
    if total > max_rows or fetched >= MAX_FETCH_CHARS:
        counting = _one_select(cursor, f"SELECT count(*) FROM ({_body(sql)})")
        total = first_row(cursor.execute(counting, params))[0]
    extra = {"hint": hint} if hint else {}
    return Rows(columns=names, rows=rows, total=total, **extra)


class FetchPlan:
    """Column names, how each travels (``_kind``; "param": a parameter the caller holds, cut in Python), the
    cut per value, the query to run (wrapped, or for a learned plan whose query returns at most one row with
    nothing to cut, the query itself), whether DuckDB's facts about the query (``fetch_facts``) shaped it,
    and, when DuckDB's plan says it may be kept prepared, the name it is prepared under (``_run``) and the
    cursors it is prepared on (a prepared statement belongs to one connection). A plain class: a NamedTuple
    or dataclass costs about 2 ms of start-up to define."""

    __slots__ = ("kinds", "learned", "names", "prepared_on", "query", "statement", "value_chars")

    def __init__(
        self,
        names: tuple[str, ...],
        kinds: list[str],
        value_chars: int,
        query: str,
        learned: bool,
        statement: str | None = None,
        prepared_on: weakref.WeakSet[duckdb.DuckDBPyConnection] | None = None,
    ) -> None:
        self.names, self.kinds, self.value_chars, self.query, self.learned = (
            names, kinds, value_chars, query, learned
        )  # fmt: skip
        self.statement, self.prepared_on = statement, prepared_on


class QueryPlans:
    """The fetch plans (``fetch_rows``' ``plans``) of the ``size`` query texts used last, for a tool that
    writes its SQL per call: a call that differs from an earlier one in values only binds nothing again."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._by_query: dict[str, dict[Any, FetchPlan]] = {}
        self._lock = threading.Lock()  # calls run on the executor's threads

    def get(self, sql: str) -> dict[Any, FetchPlan]:
        with self._lock:
            plans = self._by_query.pop(sql, None)
            if plans is None:
                plans = {}
                if len(self._by_query) >= self._size:
                    del self._by_query[next(iter(self._by_query))]  # the one used longest ago
            self._by_query[sql] = plans  # last in the order: used now
            return plans


_statement_numbers = itertools.count()  # each plan's own statement name, in every cursor it is prepared on


def _run(cursor: duckdb.DuckDBPyConnection, plan: FetchPlan, params: Any) -> None:
    """Run the plan's query. A kept plan is prepared on a cursor once and then executed by name, so
    DuckDB does not parse, bind and optimise the query (with its wrapper) on every call: about 0.2 ms of
    a ~2 ms point query. Its values go in as literals (``sql_literals``: ``EXECUTE`` takes no bound
    parameters); a value with no literal there runs the query with bound parameters, as any other plan."""
    arguments = None if plan.statement is None else execute_arguments(params)
    if arguments is None or plan.prepared_on is None:
        cursor.execute(plan.query, params)
        return
    if cursor not in plan.prepared_on:
        cursor.execute(f"PREPARE {plan.statement} AS {plan.query}")
        plan.prepared_on.add(cursor)
    cursor.execute(f"EXECUTE {plan.statement}{arguments}")


def _plan(
    cursor: duckdb.DuckDBPyConnection, sql: str, params: Any, max_rows: int, *, learn: bool
) -> FetchPlan:
    """``learn``: also ask DuckDB which parts of the wrapper this query cannot need (``fetch_facts``); two
    more queries, worth it only for a plan that is used again."""
    relation = cursor.sql(sql, params=params) if params else cursor.sql(sql)
    names = tuple(relation.columns)
    kinds = [_kind(t.id) for t in relation.types]
    value_chars = max(_MIN_VALUE_CHARS, min(MAX_VALUE_CHARS, MAX_FETCH_CHARS // max(1, len(names))))
    body = _body(sql)
    if not learn:
        query = _one_select(cursor, f"{_capped_select(kinds, value_chars, body)} LIMIT {max_rows + 1}")
        return FetchPlan(names, kinds, value_chars, query, learned=False)
    from analytics_agent.tools.results.facts import parameter_columns, plan_facts

    as_given = parameter_columns(cursor, body, len(kinds))
    kinds = ["param" if i in as_given and kind == "text" else kind for i, kind in enumerate(kinds)]
    facts = plan_facts(cursor, body, params)
    if facts.one_row and all(kind in ("plain", "param") for kind in kinds):
        query = _one_select(cursor, body)  # nothing to cut
    else:
        limit = "" if facts.one_row else f" LIMIT {max_rows + 1}"
        query = _one_select(cursor, f"{_capped_select(kinds, value_chars, body)}{limit}")
    if not facts.keepable:
        return FetchPlan(names, kinds, value_chars, query, learned=True)
    statement = f"analytics_agent_fetch_{next(_statement_numbers)}"
    return FetchPlan(names, kinds, value_chars, query, True, statement, weakref.WeakSet())


def _signature(params: Sequence[Any] | dict[str, Any] | None) -> tuple[Any, ...]:
    """What a query's column types can depend on besides its text: each argument's Python type."""
    if params is None:
        return ()
    if isinstance(params, dict):
        return tuple(sorted((name, type(value).__name__) for name, value in params.items()))
    return tuple(type(value).__name__ for value in params)


def _kind(type_id: str) -> str:
    """How a column travels: as is ("plain"), or as a (cut value, full size) pair decoded in Python."""
    if type_id in _TEXT:
        return "text"
    if type_id in _LISTS:
        return "list"
    if type_id in _NESTED:
        return "nested"
    return "blob" if type_id == "blob" else "plain"


def _body(sql: str) -> str:
    """The query on lines of its own, so a trailing ``-- comment`` cannot swallow the wrapper's ``)``."""
    return f"\n{sql.strip().rstrip(';')}\n"


def _capped_select(kinds: list[str], value_chars: int, body: str) -> str:
    """``SELECT <cut c0>, <size c0>, ... FROM (<body>) AS _q(c0, ...)``: positional names, so duplicate or
    odd column names in the query do not matter."""
    outputs = []
    for i, kind in enumerate(kinds):
        outputs += _column_sql(kind, f"_q.{quote_ident(f'c{i}')}", value_chars)
    aliases = ", ".join(quote_ident(f"c{i}") for i in range(len(kinds)))
    return f"SELECT {', '.join(outputs)} FROM ({body}) AS _q({aliases})"


def _column_sql(kind: str, col: str, value_chars: int) -> list[str]:
    keep = value_chars + 1  # one more than shown: the decoder knows it was cut
    if kind in ("plain", "param"):
        return [col]
    if kind == "text":
        return [f"left(CAST({col} AS VARCHAR), {keep})", f"length(CAST({col} AS VARCHAR))"]
    # to_json gives JSON, text to ``left`` as it is: a CAST to VARCHAR would be one more expression to bind
    if kind == "list":
        return [f"left(to_json({col}[1:{MAX_LIST_ITEMS}]), {keep})", f"len({col})"]
    if kind == "nested":
        return [f"left(to_json({col}), {keep})", "NULL"]
    return ["NULL", f"octet_length({col})"]  # blob: its size is all a model can use


def _one_select(cursor: duckdb.DuckDBPyConnection, sql: str) -> str:
    try:
        # the cursor's parser: ``duckdb.extract_statements`` opens the default in-memory database first,
        # about 25 ms of CPU, more than a small query costs
        statements = cursor.extract_statements(sql)
    except duckdb.Error as exc:
        raise ToolError(
            f"the query cannot be wrapped for a bounded fetch: {str(exc).splitlines()[0]}"
        ) from None
    if len(statements) != 1 or statements[0].type != duckdb.StatementType.SELECT:
        raise ToolError("the query must be exactly one SELECT statement")
    return sql


def _fetch_bounded(
    cursor: duckdb.DuckDBPyConnection, kinds: list[str], value_chars: int, limit: int
) -> tuple[list[tuple[Any, ...]], int]:
    """The rows, and the characters they hold (what stops the fetch early)."""
    rows: list[tuple[Any, ...]] = []
    fetched = 0
    per_batch = max(1, min(_BATCH_ROWS, MAX_FETCH_CHARS // (max(1, len(kinds)) * value_chars)))
    while len(rows) < limit and fetched < MAX_FETCH_CHARS:
        wanted = min(per_batch, limit - len(rows))
        batch = cursor.fetchmany(wanted)
        for raw in batch:
            row = _decode_row(raw, kinds, value_chars)
            rows.append(row)
            fetched += sum(len(str(v)) for v in row)
        if len(batch) < wanted:  # fetchmany is short only at the end: asking again costs a call
            break
    return rows, fetched


def _decode_row(raw: tuple[Any, ...], kinds: list[str], value_chars: int) -> tuple[Any, ...]:
    values = iter(raw)
    row = []
    for kind in kinds:
        if kind == "plain":
            row.append(next(values))
            continue
        if kind == "param":  # text the caller bound, so Python already held it: cut here, the same way
            given = next(values)
            row.append(
                None
                if given is None
                else decode_value("text", given[: value_chars + 1], len(given), value_chars)
            )
            continue
        cut, size = next(values), next(values)
        row.append(decode_value(kind, cut, size, value_chars))
    return tuple(row)


def decode_value(kind: str, cut: str | None, size: int | None, value_chars: int = MAX_VALUE_CHARS) -> Any:
    """One cut value back as what a model reads: text, a list, an object, or a blob's size. Pure."""
    if kind == "blob":
        return None if size is None else f"<{size} bytes>"
    if cut is None:
        return None
    if len(cut) > value_chars:
        shown = f"{size:,} chars" if kind == "text" and size is not None else "too long to show"
        return f"{cut[:value_chars]}…[truncated: {shown}]"
    if kind == "text":
        return cut
    try:
        value = json.loads(cut)
    except (ValueError, RecursionError):  # deeper than Python's parser goes: show the text
        return cut
    if kind == "list" and size is not None and size > len(value):
        value.append(f"… {size - len(value)} more")
    return value

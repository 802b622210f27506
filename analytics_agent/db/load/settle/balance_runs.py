"""Balance rows among a statement's records: Itaú's ``SALDO DO DIA`` after each day's movements, with its
``SALDO ANTERIOR`` first. They fill the balance column where the movements fill the amount, so the sums of
the amounts were right, but every count of transactions counted the balances too, without a word. Rows
count only when their label says a balance and, in one number column, each one's balance is the one
before it moved by the rows between (one amount column, or one less another): two such steps at least,
and every one to the cent. Runs inside the load's transaction on the freshly written table."""

import re
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.balance_labels import CLOSING, OPENING
from analytics_agent.db.load.settle.plain_words import may_hold

_DAILY = r"daily balance|end of day balance|saldo del d[ií]a|saldo di[aá]rio|tagessaldo|solde du jour"
"""A statement's balance at the end of each day, in the languages whose banks write one under its day."""
_BODY = "|".join(p.removeprefix("(?i)") for p in (OPENING, CLOSING, _DAILY))
_LABEL_PY = f"(?i)(?:{_BODY})"
_LABEL_SQL = _LABEL_PY.replace("'", "''")
_WORDS = (
    "saldo",
    "balance",
    "forward",
    "b/f",
    "c/f",
    "vortrag",
    "sold",
    "zustatek",
    "baki",
    "likutis",
    "atlikums",
)
"""A word every ASCII label ``_LABEL_PY`` matches holds, in lower case."""


def holds_balance_labels(values: list[str]) -> bool:
    """Whether two of a column's first ``values`` say a balance (the rows are asked again in SQL). Pure."""
    if len(values) < 2 or not may_hold("\n".join(values), _WORDS):
        return False
    said = (v for v in values if _said(v))
    return next(said, None) is not None and next(said, None) is not None


def _said(value: str) -> bool:
    """Whether ``value`` says a balance (``_LABEL_PY``). Pure."""
    return may_hold(value, _WORDS) and re.fullmatch(_LABEL_PY, value.strip(" :")) is not None


def balance_rows(
    conn: duckdb.DuckDBPyConnection, t: str, column: str, numbers: list[str]
) -> tuple[list[int], list[str], str] | None:
    """The rowids and labels of the rows of ``column`` labelled a balance, and the balance column, when
    each one's balance there is the one before plus the movements of the rows between; else None."""
    col = quote_ident(column)
    label = f"coalesce(regexp_full_match(trim({col}, ' :'), '{_LABEL_SQL}'), false)"
    grouped = (
        f"SELECT rowid AS r, {label} AS bal, {col} AS lab, {', '.join(map(quote_ident, numbers))}, "
        f"count(*) FILTER (WHERE {label}) OVER (ORDER BY rowid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) "
        f"AS grp FROM {t}"
    )
    parts = ", ".join(
        f"coalesce(sum({quote_ident(n)}) FILTER (WHERE NOT bal), 0), max({quote_ident(n)}) FILTER (WHERE bal)"
        for n in numbers
    )
    groups = conn.execute(
        f"SELECT grp, list(r) FILTER (WHERE bal), list(lab) FILTER (WHERE bal), {parts} "
        f"FROM ({grouped}) GROUP BY grp ORDER BY grp"
    ).fetchall()
    closed = [g for g in groups if g[1]]  # the last group, after the last balance row, closes none
    if len(closed) < 3:
        return None
    opens = [re.fullmatch(OPENING, str(g[2][0]).strip(" :")) is not None for g in closed]
    balance = _chained(closed, opens, len(numbers))
    if balance is None:
        return None
    ids = [int(g[1][0]) for g in closed]
    labels = sorted({str(g[2][0]) for g in closed})
    return ids, labels, numbers[balance]


def _chained(closed: list[tuple[Any, ...]], opens: list[bool], width: int) -> int | None:
    """The index of the number column whose balance rows chain (``balance_rows``), or None: each row not
    labelled an opening balance holds the balance of the row before it moved by the rows between (a
    ledger's accounts each open a chain of their own: Fortnox's ``Ingående saldo`` … ``Utgående saldo``).
    Pure."""
    for b in range(width):
        balances = [g[4 + 2 * b] for g in closed]
        if any(v is None for v in balances):
            continue
        checked = [
            (before, after, _steps(g, b, width))
            for before, after, g, opening in zip(
                balances[:-1], balances[1:], closed[1:], opens[1:], strict=True
            )
            if not opening
        ]
        if len(checked) < 2 or not any(abs(before - after) >= 0.005 for before, after, _ in checked):
            continue
        if all(any(abs(before + step - after) < 0.005 for step in steps) for before, after, steps in checked):
            return b
    return None


def _steps(group: tuple[Any, ...], b: int, width: int) -> set[float]:
    """What the rows of ``group`` may move balance column ``b`` by: one other column's sum, or one less
    another (a credit and a debit column). Pure."""
    sums = [group[3 + 2 * m] for m in range(width)]
    return {sums[m] for m in range(width) if m != b} | {
        sums[m] - sums[n] for m in range(width) for n in range(width) if len({m, n, b}) == 3
    }

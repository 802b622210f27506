"""Rows at a table's edges that are no records: a statement's opening and closing balance rows (Banco do
Brasil's ``Saldo Anterior`` first and ``S A L D O`` last, ``Balance brought forward`` …), whose amounts
are balances where every other row's is a movement, and a summary row above the records (an Amazon
settlement file's first row: the settlement's total in a column no other row fills). Loaded as rows, a
sum of the amounts adds the balances to the movements and a count is off. Each is called so only when
the numbers say it: the opening balance plus the movements between is the closing balance, the summary's
total is the sum of a column over the rows below. Runs inside the load's transaction."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.balance_labels import CLOSING, is_opening, label_of
from analytics_agent.db.load.settle.total_labels import is_total_label
from analytics_agent.db.rows import first_row

_NUMBER_TYPES = ("DOUBLE", "FLOAT", "BIGINT", "INTEGER", "HUGEINT", "SMALLINT", "TINYINT")


class EdgeRows:
    """Rows found at the table's edges. (A plain class: a NamedTuple costs every load's import 0.3 ms.)"""

    __slots__ = ("column", "kind", "labels", "rows", "sums", "what", "why")

    def __init__(
        self, rows: list[int], kind: str, column: str, labels: list[str], sums: list[str], what: str, why: str
    ) -> None:
        self.rows = rows
        """Their rowids."""
        self.kind = kind
        """``balance`` (opening and closing balance rows), ``summary`` (a summary row above the records) or
        ``total`` (a totals row above them)."""
        self.column = column
        """The label's column (a summary's: the column only it fills)."""
        self.labels = labels
        self.sums = sums
        """The number columns the check read."""
        self.what = what
        """What they are, as the notes name them (``the first row, a summary``)."""
        self.why = why
        """What the numbers say of them."""


def find_edge_rows(
    conn: duckdb.DuckDBPyConnection, table: str, text_columns: Sequence[str], rows: int
) -> EdgeRows | None:
    """The opening and closing balance rows, or the summary row, of ``table`` (``rows`` rows); None when
    there are none. Reads its first two rows, and its last only when a label of the first says an opening
    balance (no scan: a load of 200,000 rows paid 9 ms of CPU for ``min(rowid)`` and ``max(rowid)``); sums
    only when their labels or shape call for it."""
    if rows < 4:  # two records and a row at each end at least
        return None
    t = quote_ident(table)
    head = conn.execute(f"SELECT rowid, * FROM {t} LIMIT 2")
    described = (head.description or [])[1:]
    names = [d[0] for d in described]
    types = {d[0]: str(d[1]) for d in described}
    numbers = [c for c, kind in types.items() if kind in _NUMBER_TYPES or kind.startswith("DECIMAL")]
    if not numbers:
        return None
    edge = [(int(r[0]), dict(zip(names, r[1:], strict=True))) for r in head.fetchall()]
    if len(edge) < 2:
        return None
    first = edge[0]
    texts = [
        c
        for c in text_columns
        if types.get(c) == "VARCHAR" and first[1].get(c) is not None and is_opening(label_of(first[1][c]))
    ]
    if texts:
        # rowids rise in the order rows were written and stay when rows are deleted (before the commit they
        # start far from 0): the last row's is at least the first's plus rows - 1
        tail = conn.execute(f"SELECT rowid, * FROM {t} WHERE rowid >= {first[0] + rows - 2}").fetchall()
        ends = sorted((int(r[0]), dict(zip(names, r[1:], strict=True))) for r in tail)
        found = _balances(conn, t, texts, numbers, first, ends) if len(ends) > 1 else None
        if found is None:
            found = _running(texts, numbers, first, edge[1][1], ends)
        if found is not None:
            return found
    labels = [c for c in text_columns if types.get(c) == "VARCHAR" and first[1].get(c) is not None]
    return (
        _summary(conn, t, numbers, first, edge[1][1])
        or _first_total(conn, t, numbers, first, edge[1][1], labels)
        or _own_columns(conn, t, names, first, edge[1][1], rows)
    )


def _own_columns(
    conn: duckdb.DuckDBPyConnection,
    t: str,
    names: list[str],
    first: tuple[int, dict[str, Any]],
    second: dict[str, Any],
    rows: int,
) -> EdgeRows | None:
    """The first row, with the last when it is one too, when it fills only columns no record fills and
    leaves empty columns every record fills (Venmo's ``Beginning Balance`` row above the records, its
    ``Ending Balance`` row with the disclaimer below): no record, whatever its numbers say (the payments
    a bank funds leave that balance, so no sum checks it). The column every record fills names them."""
    own = [c for c, v in first[1].items() if v is not None]
    keys = [c for c, v in second.items() if v is not None and first[1].get(c) is None]
    if not own or len(keys) < 2 or any(second.get(c) is not None for c in own):
        return None
    # the last row's rowid is at least the first's plus rows - 1 (see find_edge_rows)
    tail = conn.execute(
        f"SELECT rowid, * FROM {t} WHERE rowid >= {first[0] + rows - 1} ORDER BY rowid DESC LIMIT 1"
    ).fetchall()
    last_id, last = int(tail[0][0]), dict(zip(names, tail[0][1:], strict=True))
    last_own = [c for c, v in last.items() if v is not None]
    wanted = list(dict.fromkeys([*own, *last_own, *keys]))
    counts = dict(
        zip(
            wanted,
            first_row(
                conn.execute(
                    f"SELECT {', '.join(f'count({quote_ident(c)})' for c in wanted)} FROM {t} "
                    f"WHERE rowid > {first[0]} AND rowid < {last_id}"
                )
            ),
            strict=True,
        )
    )
    if any(counts[c] for c in own):
        return None
    closing = bool(last_own) and not any(counts[c] for c in last_own)
    between = rows - 2
    key = next(
        (c for c in keys if counts[c] == between and (last.get(c) is None) == closing),
        None,
    )
    if key is None or (not closing and any(last.get(c) is not None for c in own)):
        return None
    ids = [first[0], last_id] if closing else [first[0]]
    filled = ", ".join(dict.fromkeys([*own, *(last_own if closing else [])]))
    what = f"the {'first and last rows' if closing else 'first row'} ({key} empty)"
    why = f"{'they fill' if closing else 'it fills'} only columns no record fills ({filled}), and no {key}"
    return EdgeRows(ids, "balance", key, [], own, what, why)


def _first_total(
    conn: duckdb.DuckDBPyConnection,
    t: str,
    numbers: list[str],
    first: tuple[int, dict[str, Any]],
    second: dict[str, Any],
    labels: list[str],
) -> EdgeRows | None:
    """The first row when its numbers are the sums of the rows below (a statistics office's ``Alls landið``
    or ``Total`` above the regions): in two number columns, or in one under a totals label. Summed only
    when the first row's numbers are bigger than the second's, as a total of positive parts is."""
    # no label: the totals row right under the header that an analytics export writes with its first
    # cell empty (Adobe's freeform table): named by that column, empty there alone
    empty = next((c for c, v in first[1].items() if v is None and second.get(c) is not None), None)
    if not labels and empty is None:
        return None
    label = str(first[1][labels[0]]).strip() if labels else ""
    need = 1 if labels and is_total_label(label) else 2
    bigger = [
        c
        for c in numbers
        if first[1].get(c) is not None
        and second.get(c) is not None
        and float(first[1][c]) > abs(float(second[c]))
    ]
    if len(bigger) < need:
        return None
    sums = first_row(
        conn.execute(
            f"SELECT {', '.join(f'sum({quote_ident(c)})' for c in bigger)} FROM {t} WHERE rowid > {first[0]}"
        )
    )
    summed = [c for c, s in zip(bigger, sums, strict=True) if s is not None and _same(s, first[1][c])]
    if len(summed) < need:
        return None
    why = f"its {', '.join(summed)} {'is the sum' if len(summed) == 1 else 'are the sums'} of the rows below"
    if not labels:
        return EdgeRows([first[0]], "total", str(empty), [], summed, f"the first row ({empty} empty)", why)
    what = f"the first row ({labels[0]} = {label!r})"
    return EdgeRows([first[0]], "total", labels[0], [label], summed, what, why)


def _running(
    texts: list[str],
    numbers: list[str],
    first: tuple[int, dict[str, Any]],
    second: dict[str, Any],
    ends: list[tuple[int, dict[str, Any]]],
) -> EdgeRows | None:
    """The opening balance row above a running balance (GCash's ``STARTING BALANCE``, KBank's ``Beginning
    Balance``): its balance plus the next row's movement (one column, or one less another) is the next
    row's balance; with the closing balance row when the last row is labelled so and repeats the balance
    of the row above it. Pure."""
    held = [b for b in numbers if _moves_to(first[1].get(b), second, b, numbers)]
    if not held:
        return None
    column, balance = texts[0], held[0]
    rows, labels = [first[0]], [str(first[1][column]).strip()]
    (_, above), (last_id, last) = ends[-2], ends[-1]
    closing = last.get(column)
    if (
        closing is not None
        and re.fullmatch(CLOSING, label_of(closing))
        and _same(last.get(balance), above.get(balance))
    ):
        rows.append(last_id)
        labels.append(str(closing).strip())
    what = (
        f"the {'opening and closing balance rows' if len(rows) > 1 else 'opening balance row'} ({column} = "
    )
    what += ", ".join(map(repr, labels)) + ")"
    why = f"{balance} there is the balance the next row's movement starts from" + (
        ", and the last repeats the balance above it" if len(rows) > 1 else ""
    )
    return EdgeRows(rows, "balance", column, sorted(set(labels)), [balance], what, why)


def _moves_to(start: Any, row: dict[str, Any], balance: str, numbers: list[str]) -> bool:
    """Whether ``row``'s ``balance`` is ``start`` moved by one of its other numbers, added or taken, or by
    one less another (a credit and a debit column). Pure."""
    if start is None or row.get(balance) is None:
        return False
    moves = [float(row[c]) for c in numbers if c != balance and row.get(c) is not None]
    steps = {m for m in moves} | {-m for m in moves} | {a - b for a in moves for b in moves if a is not b}
    return any(_same(float(start) + step, row[balance]) for step in steps)


def _same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and abs(float(a) - float(b)) < 0.005


def _balances(
    conn: duckdb.DuckDBPyConnection,
    t: str,
    texts: list[str],
    numbers: list[str],
    first: tuple[int, dict[str, Any]],
    ends: list[tuple[int, dict[str, Any]]],
) -> EdgeRows | None:
    """The first and last rows when one text column labels them an opening and a closing balance and, in
    a number column, the opening plus the rows between is the closing (to the cent). A turnover row right
    above the closing one (a Bulgarian statement's ``Общо обороти``: labelled a total, each of its numbers
    the sum of the rows above) is one of them too, and no movement."""
    last = ends[-1]
    column = _balance_labels(texts, first[1], last[1])
    if column is None:
        return None
    filled = [c for c in numbers if first[1].get(c) is not None and last[1].get(c) is not None]
    if not filled:
        return None
    turnover = ends[-2] if is_total_label(str(ends[-2][1].get(column) or "")) else None
    # every number column's sum: the balance may sit in one of the movement columns (Intesa's `Saldo
    # iniziale` under Entrate, moved by the Entrate and the signed Uscite between)
    sums = dict(
        zip(
            numbers,
            first_row(
                conn.execute(
                    f"SELECT {', '.join(f'coalesce(sum({quote_ident(c)}), 0)' for c in numbers)} FROM {t} "
                    f"WHERE rowid > {first[0]} AND rowid < {(turnover or last)[0]}"
                )
            ),
            strict=True,
        )
    )
    if turnover is not None and not all(
        _same(v, sums[c]) for c, v in turnover[1].items() if c in sums and v is not None
    ):
        return None
    held = [
        c
        for c in filled
        if any(
            abs(float(first[1][c]) + float(moved) - float(last[1][c])) < 0.005 for moved in _moves(sums, c)
        )
    ]
    if not held:
        return None
    edges = [first, *([turnover] if turnover else []), last]
    labels = [str(row[column]).strip() for _, row in edges]
    what = f"the opening and closing balance rows ({column} = {', '.join(map(repr, labels))})"
    why = f"{', '.join(held)} of the first plus the rows between is the last's" + (
        f", and {labels[1]!r} holds the sums of those rows" if turnover else ""
    )
    return EdgeRows([r for r, _ in edges], "balance", column, sorted(set(labels)), held, what, why)


def _balance_labels(texts: list[str], first: dict[str, Any], last: dict[str, Any]) -> str | None:
    """The text column labelling ``first`` an opening balance and ``last`` a closing one, if any. Pure."""
    return next(
        (
            c
            for c in texts
            if first.get(c) is not None
            and last.get(c) is not None
            and is_opening(label_of(first[c]))
            and re.fullmatch(CLOSING, label_of(last[c]))
        ),
        None,
    )


def _moves(sums: dict[str, Any], column: str) -> list[float]:
    """What the rows between may move ``column``'s balance by: its own sum, or its sum with another
    column's added or taken (a signed debit column beside it, or an unsigned one). Pure."""
    own = float(sums[column])
    others = [float(v) for c, v in sums.items() if c != column]
    return [own] + [own + o for o in others] + [own - o for o in others]


def _summary(
    conn: duckdb.DuckDBPyConnection,
    t: str,
    numbers: list[str],
    first: tuple[int, dict[str, Any]],
    second: dict[str, Any],
) -> EdgeRows | None:
    """The first row when it fills a number column the second leaves empty, leaves empty most columns the
    second fills, no other row fills that column, and its number there is the sum of another number column
    over the rows below."""
    own = [c for c in numbers if first[1].get(c) is not None and second.get(c) is None]
    filled = [c for c, v in second.items() if v is not None]
    if not own or 2 * sum(1 for c in filled if first[1].get(c) is None) < len(filled):
        return None
    others = [c for c in numbers if c not in own]
    if not others:
        return None
    parts = [f"count({quote_ident(c)})" for c in own] + [f"sum({quote_ident(c)})" for c in others]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {t} WHERE rowid > {first[0]}"))
    counts, sums = found[: len(own)], found[len(own) :]
    for column, count in zip(own, counts, strict=True):
        if count:
            continue
        total = first[1][column]
        summed = [
            c
            for c, s in zip(others, sums, strict=True)
            if s is not None and abs(float(s) - float(total)) < 0.005
        ]
        if summed:
            why = f"its {column}, {total:,}, is the sum of {summed[0]} over the rows below, and no other row fills it"
            return EdgeRows([first[0]], "summary", column, [], [summed[0]], "the first row, a summary", why)
    return None


def edge_rows_note(found: EdgeRows) -> str:
    """The load's note for rows kept. Pure."""
    them = "it" if len(found.rows) == 1 else "them"
    return (
        f"{'the first row is a summary, no record' if found.kind == 'summary' else found.what + _are(found)}: "
        f"{found.why}; loaded as {'a row' if them == 'it' else 'rows'}, sums and counts include {them}: add "
        f"--drop-totals to load without {them}"
    )


def _are(found: EdgeRows) -> str:
    return " is no record" if len(found.rows) == 1 else " are no records"


def dropped_note(found: EdgeRows) -> str:
    """The load's note for rows left out by ``--drop-totals``. Pure."""
    them = "it" if len(found.rows) == 1 else "them"
    return f"--drop-totals: dropped {found.what}: {found.why}; leave out --drop-totals to keep {them}"


def edge_marker(found: EdgeRows) -> dict[str, Any]:
    """The kept rows as the stored profile says them (``tools/aggregate/totals_rows``). Pure."""
    marker: dict[str, Any] = {"column": found.column, "labels": found.labels, "rows": len(found.rows)}
    marker |= {"sums": found.sums, "kind": found.kind}
    if found.kind == "summary":
        marker["filled"] = True
    if found.kind in ("total", "balance") and not found.labels:
        marker["empty"] = True  # the rows whose column is empty
    return marker


def drop_edge_rows(conn: duckdb.DuckDBPyConnection, table: str, found: EdgeRows) -> None:
    conn.execute(f"DELETE FROM {quote_ident(table)} WHERE rowid IN ({', '.join(map(str, found.rows))})")

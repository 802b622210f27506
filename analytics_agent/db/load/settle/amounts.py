"""Amounts as spreadsheets, ERPs and BI tools write them: ``$1,234.50``, ``3,50 €``, ``EUR 12``, ``12%``,
accounting negatives ``(5,000.00)`` and ``5,000.00-``. DuckDB reads them as text, so a sum over them fails;
a text column whose every value is such an amount becomes DOUBLE (said in one line per load, with the
``--type COLUMN=VARCHAR`` that keeps it text). Runs inside the load's transaction, in DuckDB's SQL.

A percent is stored as written (``12%`` -> 12, not 0.12) and its unit kept in the table's profile, as is a
column's currency: an answer can then say "12 %" or "$1,234.50". A column converts only when every value
reads, in one currency, all with a percent sign or none; otherwise it stays text and the load says how
many values did not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.amount_forms import (  # the reading a CSV source's view uses too
    COMMA,
    CURRENCY,
    KEPT_POINT,
    POINT,
    SAME,
    currency_sql,
    literal,
    plain_reads,
    shown,
    simple_value_sql,
    value_sql,
)
from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle import amount_errors
from analytics_agent.db.load.settle.amount_counts import Form, quick_counts
from analytics_agent.db.load.settle.amount_marks import amount_marks
from analytics_agent.db.load.settle.amounts_ahead import Ahead, proven_counts
from analytics_agent.db.load.settle.grouping import file_mark, grouped_column
from analytics_agent.db.rows import first_row

__all__ = ["COMMA", "CURRENCY", "POINT", "currency_sql", "value_sql"]
_POINT_CURRENCIES = {"$", "US$", "£", "¥", "₹", "USD", "GBP", "JPY", "INR", "CNY", "RMB", "CAD", "AUD"}
"""Currencies written with a decimal point: they decide ``$1,500`` (1500) when both readings fit."""
_SAMPLE = 50
_MOSTLY = 0.75
"""A column converts only if every value reads, but one whose values mostly do is named with the others."""


def candidates(probe: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """The columns whose first values (``probe``: non-null values of each text column) are mostly amounts,
    some of them marked as such: only these are read whole. Each with the decimal marks that read its
    first values (``.``, ``,`` or both). Pure."""
    found = {}
    for name, values in probe.items():
        shown = values[:_SAMPLE]
        # most text holds no digit: the patterns are compiled for the few columns that do
        if not shown or sum(1 for v in shown if any(c.isdigit() for c in v)) < _MOSTLY * len(shown):
            continue
        if _phone_numbers(shown):
            continue
        marks = [amount_marks(v) for v in shown]
        if not any(m is not None and m[1] for m in marks) and not grouped_column(shown):
            continue
        point = sum(1 for m in marks if m is not None and "." in m[0])
        comma = sum(1 for m in marks if m is not None and "," in m[0])
        if max(point, comma) >= _MOSTLY * len(shown):
            found[name] = ("." if point == len(shown) or point > comma else "") + (
                "," if comma == len(shown) or comma > point else ""
            )
    return found


def _phone_numbers(values: Sequence[str]) -> bool:
    """International phone numbers (``+420 646 149 637``): a plus, nine digits or more in groups, no
    decimal part, most of them as long as each other (a country's numbers are; amounts vary). Grouped by
    threes they read as a signed amount with thousands, and were stored as the number 420646149637. Pure."""
    digits = []
    for value in values:
        text = value.strip()
        if not text.startswith("+") or any(c not in "0123456789 -()\u00a0" for c in text[1:]):
            return False
        digits.append(sum(c.isdigit() for c in text))
    most = max(map(digits.count, set(digits)))
    return min(digits) >= 9 and 5 * most >= 4 * len(digits)


def _example(values: Sequence[str]) -> str:
    """The first value not written as a plain number (what the note shows), else the first. Pure."""
    return next((v for v in values if not re.fullmatch(r"\s*-?[0-9]*[.]?[0-9]+\s*", v)), values[0])


class Counts(NamedTuple):
    """What the whole column holds, counted in one scan."""

    present: int
    point: int
    """Values that read with a decimal point (0 when its first values did not)."""
    comma: int
    """Values that read with a decimal comma (0 when its first values did not)."""
    percent: int
    currencies: list[str]
    differ: int
    """Values both readings fit with different numbers (``1,500``: 1500 or 1.5)."""


class Decision(NamedTuple):
    mark: str | None
    """The decimal mark the column reads with; None: it stays text."""
    unit: str | None
    why: str
    """Why it stays text (a note), when ``mark`` is None and the note is due."""


def _either(counts: Counts) -> bool:
    """Whether every value reads with either decimal mark, some to different numbers (``1,500``), and no
    currency decides: the column stays text, unless the file's other amounts tell (``read_amounts``). Pure."""
    present, point, comma, _, currencies, differ = counts
    decided = bool(currencies) and currencies[0] in _POINT_CURRENCIES
    return bool(present and point == comma == present and differ and not decided)


def decide(name: str, counts: Counts, decimal: str | None, example: str) -> Decision:
    """How a column of amounts reads, or why it stays text. ``decimal``: the load's ``--decimal``. Pure."""
    present, point, comma, percent, currencies, differ = counts
    if not present:
        return Decision(None, None, "")
    if len(currencies) > 1:
        shown = ", ".join(sorted(currencies))
        return Decision(
            None, None, f"{name} stayed text: it holds amounts in more than one currency ({shown})"
        )
    if decimal in (",", ".") and (point if decimal == "." else comma):  # --decimal, unless no value reads so
        mark = decimal
    elif _either(counts):
        return Decision(
            None,
            None,
            f"{name} stayed text: amounts like {example!r} read either with a decimal point or with a "
            "decimal comma; add --decimal '.' or --decimal ',' to say which",
        )
    elif point == present and comma == present and differ:  # a currency written with a point decides
        mark = "."
    else:
        mark = "." if point >= comma else ","
    fits = point if mark == "." else comma
    # the unit most values are written in: a percent row under a column of amounts (Xero's "Percentage of
    # total") is the odd one out, not the 47 amounts above it
    unit = "%" if 2 * percent > present else (currencies[0] if currencies else None)
    if fits < present or 0 < percent < present:
        mostly = min(fits, max(percent, present - percent) if percent else fits) >= _MOSTLY * present
        return Decision(None, unit, "odd" if mostly else "")
    return Decision(mark, unit, "")


def count_sql(column: str, marks: str) -> list[str]:
    """The aggregates of ``Counts`` for one quoted column whose first values read with ``marks``: a
    reading they do not fit is not tried on the rest (each regular expression costs a scan's worth)."""
    point, comma = literal(POINT), literal(COMMA)
    both = f"regexp_matches({column}, '[0-9][.,][0-9]') AND regexp_full_match({column}, {point}) AND regexp_full_match({column}, {comma})"
    currency = currency_sql(column)
    return [
        f"count({column})",
        f"count(*) FILTER (WHERE regexp_full_match({column}, {point}))" if "." in marks else "0",
        f"count(*) FILTER (WHERE regexp_full_match({column}, {comma}))" if "," in marks else "0",
        f"count(*) FILTER (WHERE contains({column}, '%'))",
        f"[min({currency}), max({currency})]",
        f"count(*) FILTER (WHERE {both})" if marks == ".," else "0",
    ]


def read_amount(text: str, mark: str) -> float:
    """``value_sql`` in Python, for the note's example. Pure."""
    kept = KEPT_POINT if mark == "." else f"[^0-9{mark}]"  # as value_sql: ``ر.س``'s point, ``S/.``'s
    digits = re.sub(kept, "", text).replace(",", ".")
    return (-1 if re.search("[(\u2212-]", text) else 1) * float(digits) if digits else 0.0


Settled = tuple[dict[str, str | None], list[str], list[str], list[str]]
"""Converted columns -> their unit (``%``, a currency, or None for accounting negatives alone); the notes;
the columns kept as text with a note of their own (the odd-value check need not name them again); the
converted columns read with a decimal comma (``1.234.567``: ``--decimal ','`` reads them alike)."""


def settle_amounts(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    probe: Mapping[str, Sequence[str]],
    decimal: str | None,
    ahead: Ahead | None = None,
) -> Settled:
    """Convert the text columns of amounts to DOUBLE; say which, and why others stayed text. ``ahead``:
    the columns the write converted already (``amounts_ahead``), proven here."""
    target = quote_ident(table)
    errors = amount_errors.error_columns(probe)  # Excel's #N/A among them: read as missing, said
    if errors:
        probe = amount_errors.without_errors(probe, errors)
    readings, notes, noted = read_amounts(
        conn, amount_errors.masked(target, errors) if errors else target, probe, decimal, ahead
    )
    counted = amount_errors.counted_errors(conn, table, [n for n in errors if n in readings])
    for name, reading in readings.items():
        if ahead is not None and name in ahead.forms:
            continue
        col = quote_ident(name)
        number = _number_sql(col, reading, probe[name])
        number = amount_errors.read_past_errors(col, number) if name in errors else number
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE DOUBLE USING {number}")
    units = {name: reading.unit for name, reading in readings.items()}
    if units:
        notes.insert(0, converted_note(readings))
    notes += amount_errors.amount_errors_note(counted)
    # a column either mark reads alike (``19%``) no more stands in --decimal ','s way than one read so
    return units, notes, noted, [name for name, r in readings.items() if r.mark == "," or r.alike]


def _number_sql(column: str, reading: Reading, first: Sequence[str]) -> str:
    """SQL: the number of a value of the quoted ``column``: by a cast alone when every value has a plain
    form (``amount_counts``), else ``value_sql``, the cast tried first when it reads most first values."""
    form = reading.form
    if form is not None and form.mark in (reading.mark, "0"):
        return simple_value_sql(column, *form)
    plain = 2 * sum(plain_reads(v, reading.mark) for v in first) >= len(first)
    return value_sql(column, reading.mark, plain)


class Reading(NamedTuple):
    """How one column of amounts reads as numbers."""

    mark: str
    unit: str | None
    """``%``, its currency, or None (accounting negatives or grouped thousands alone)."""
    currency: str | None
    """The one currency its values are written in (``SAME``'s symbol), if any."""
    example: tuple[str, float]
    """Its first value not written as a plain number, and the number read from it."""
    form: Form | None = None
    """The plain form every value is written in, if one is (``amount_counts``)."""
    alike: bool = False
    """Every value reads the same with either decimal mark (``19%``, ``$1,234,567``)."""


def read_amounts(
    conn: duckdb.DuckDBPyConnection,
    relation: str,
    probe: Mapping[str, Sequence[str]],
    decimal: str | None,
    ahead: Ahead | None = None,
) -> tuple[dict[str, Reading], list[str], list[str]]:
    """How the text columns of amounts in ``relation`` (a quoted table or view) read as numbers, every
    value counted and nothing changed; the notes of those that stay text, and their names. ``ahead``:
    columns converted in the write, counted from their numbers (``amounts_ahead.proven_counts``)."""
    columns = candidates(probe)
    if not columns and ahead is None:
        return {}, [], []
    proven = proven_counts(conn, relation, ahead, columns) if ahead is not None else {}
    found, forms = _counts(conn, relation, {n: m for n, m in columns.items() if n not in proven}, probe)
    found |= {name: counts for name, (counts, _) in proven.items()}
    forms |= {name: form for name, (_, form) in proven.items()}
    readings: dict[str, Reading] = {}
    notes, noted = [], []
    counted = {}
    for name in columns:
        counts = Counts(*found[name])
        counted[name] = counts._replace(currencies=sorted({SAME.get(c, c) for c in counts.currencies if c}))
    witness = None if decimal else file_mark({n: (c.present, c.point, c.comma) for n, c in counted.items()})
    grouped: list[tuple[str, str]] = []  # columns of 1,500 read as the file's other amounts read
    for name, counts in counted.items():
        example = _example(probe[name])
        decision = decide(name, counts, decimal, example)
        if decision.mark is None and witness is not None and _either(counts):
            decision = decide(name, counts, witness[0], example)
            grouped.append((name, example))
        if decision.mark is not None:
            currency = counts.currencies[0] if counts.currencies else None
            shown = (example, read_amount(example, decision.mark))
            alike = counts.point == counts.comma == counts.present and not counts.differ
            readings[name] = Reading(decision.mark, decision.unit, currency, shown, forms.get(name), alike)
        elif decision.why:
            odd = decision.why == "odd"
            notes.append(_odd_note(conn, relation, name, counts, decision) if odd else decision.why)
            noted.append(name)
    if grouped and witness is not None:
        notes.append(_grouped_note(grouped, *witness, _proof(probe[witness[1]], witness[0])))
    return readings, notes, noted


def _grouped_note(grouped: Sequence[tuple[str, str]], mark: str, witness: str, written: str | None) -> str:
    """The columns whose values read either way (``2,018``), read as another column of the file shows
    its decimal mark (``written``: a value of it that reads one way only, if its first values hold one),
    and the option that reads them the other way. Pure."""
    example = grouped[0][1]
    other = "," if mark == "." else "."
    proof = f"{witness} ({written!r})" if written else witness
    return (
        f"{', '.join(n for n, _ in grouped)}: {example!r} read as {shown(read_amount(example, mark))}, "
        f"{other!r} grouping thousands, as {proof} shows; add --decimal {other!r} to read {other!r} as the "
        "decimal mark"
    )


def _proof(values: Sequence[str], mark: str) -> str | None:
    """A value that reads with ``mark`` as the decimal mark only: it holds the mark (``119,869.20``) or
    two of the other (``1,166,000원``, which ``11,000원`` beside it does not show). Pure."""
    other = "," if mark == "." else "."
    return next((v for v in values if mark in v or v.count(other) >= 2), None)


def _counts(
    conn: duckdb.DuckDBPyConnection,
    relation: str,
    columns: Mapping[str, str],
    probe: Mapping[str, Sequence[str]],
) -> tuple[dict[str, Sequence[Any]], dict[str, Form]]:
    """``Counts`` of each column (name -> its first values' decimal marks): ``amount_counts.quick_counts``
    where its first values suggest a plain form and every value has it (returned too), the full check
    for the others."""
    quick = quick_counts(conn, relation, columns, probe)
    found: dict[str, Sequence[Any]] = {name: counts for name, (counts, _) in quick.items()}
    rest = [name for name in columns if name not in found]
    if rest:
        parts = [p for name in rest for p in count_sql(quote_ident(name), columns[name])]
        row = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {relation}"))
        width = len(Counts._fields)
        found |= {name: row[width * i : width * (i + 1)] for i, name in enumerate(rest)}
    return found, {name: form for name, (_, form) in quick.items()}


def converted_note(readings: Mapping[str, Reading], type_flag: str = "--type") -> str:
    """The one line that says every amount column converted, with an example each and the undo
    (``type_flag``: the option that types a column, ``load``'s or ``sources add``'s). Pure."""
    parts = []
    for name, reading in readings.items():
        written, value = reading.example
        unit = reading.unit
        kind = f" (%, not {shown(value / 100)})" if unit == "%" else f" ({unit})" if unit else ""
        parts.append(f"{name} {written!r} -> {shown(value)}{kind}")
    first = next(iter(readings))
    return (
        f"amounts stored as numbers (DOUBLE), each column's unit kept in its profile: {'; '.join(parts)}; "
        f"add {type_flag} {first}=VARCHAR (for each such column) to keep them as text"
    )


def _odd_note(
    conn: duckdb.DuckDBPyConnection, relation: str, name: str, counts: Counts, decision: Decision
) -> str:
    """Why a column of amounts stayed text: how many values did not read as one, and the commonest."""
    col = quote_ident(name)
    fits = f"regexp_full_match({col}, {literal(POINT)}) OR regexp_full_match({col}, {literal(COMMA)})"
    if decision.unit == "%":
        fits = f"({fits}) AND contains({col}, '%')"
    elif counts.percent:
        fits = f"({fits}) AND NOT contains({col}, '%')"
    count, odd = first_row(
        conn.execute(
            f"SELECT sum(n), list(v ORDER BY n DESC, v)[1:3] FROM (SELECT {col} AS v, count(*) AS n "
            f"FROM {relation} WHERE {col} IS NOT NULL AND NOT ({fits}) GROUP BY 1)"
        )
    )
    count = int(count or 0)
    values = "value does" if count == 1 else "values do"
    unit = f" ({decision.unit})" if decision.unit else ""
    return (
        f"{name} stayed text: it holds amounts{unit} but {count:,} {values} not read as one, like "
        f"{', '.join(map(repr, odd or []))}; fix them (or add --null VALUE if one means missing) to store "
        "the column as numbers"
    )

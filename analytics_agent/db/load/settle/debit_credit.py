"""Amounts marked debit or credit by a suffix: a bank statement's ``49,633.80 CR`` and ``66,711.04 DR`` (India,
Australia), a ledger's ``1,234.00 Dr``. Which of the two is negative depends on whose books the file is: a
bank statement's debits leave the account, a ledger's credit balances are its negative ones. Without
``--negative`` the column stays text, said with both options; with it, the column is stored as numbers,
the marked ones negative, and said. Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.amount_forms import COMMA_NUMBER, POINT_NUMBER, literal, shown
from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

MARKS = ("DR", "CR", "DB")
"""``DB`` is Indonesian and Malay banks' debit (``1,587,000.00 DB``): read as ``DR``."""
_SUFFIX = "(?:CR|DR|DB|Cr|Dr|Db|cr|dr|db)[.]?"
_SAME = {"DR": "(dr|db)", "CR": "cr"}
"""The marks each ``--negative`` value names, as a pattern (any case)."""


def _marked(number: str) -> str:
    return f"^[ ]*[+-]?[ ]*{number}[ ]*(?:{_SUFFIX})?[ ]*$"


_POINT_MARKED, _COMMA_MARKED = _marked(POINT_NUMBER), _marked(COMMA_NUMBER)


def settle_debit_credit(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    probe: Mapping[str, Sequence[str]],
    negative: str | None,
    decimal: str | None,
) -> tuple[list[str], list[str], list[str]]:
    """The text columns whose every value is an amount, some marked ``CR`` or ``DR``: converted to DOUBLE
    (``negative``: the mark whose amounts are negative) or left text; returns those converted, the notes
    of all of them, and those left text (their note is said: the odd-value check need not name them)."""
    columns = [
        name
        for name, values in probe.items()
        if values
        and all(_reads(v) for v in values)
        and any(v.rstrip(" .")[-2:].upper() in MARKS for v in values)
    ]
    converted: list[str] = []
    examples: dict[str, str] = {}
    t = quote_ident(table)
    for name in columns:
        col = quote_ident(name)
        mark = decimal or _mark(probe[name])
        pattern = _POINT_MARKED if mark == "." else _COMMA_MARKED
        present, fits, example = first_row(
            conn.execute(
                f"SELECT count({col}), count(*) FILTER (WHERE regexp_full_match({col}, {literal(pattern)})), "
                f"min({col}) FILTER (WHERE regexp_matches({col}, '(?i)(dr|db)[.]? *$')) FROM {t}"
            )
        )
        if not present or fits < present:
            continue
        examples[name] = example or probe[name][0]
        if negative is not None:
            conn.execute(f"ALTER TABLE {t} ALTER {col} TYPE DOUBLE USING {_value_sql(col, mark, negative)}")
            converted.append(name)
    kept = [c for c in examples if c not in converted]
    return converted, _notes(examples, converted, kept, negative, decimal), kept


def _notes(
    examples: Mapping[str, str],
    converted: Sequence[str],
    kept: Sequence[str],
    negative: str | None,
    decimal: str | None,
) -> list[str]:
    """One line for the columns converted, one for those kept text. Pure."""
    notes = []
    if kept:
        which = f"{kept[0]} stayed text: its" if len(kept) == 1 else f"{', '.join(kept)} stayed text: their"
        notes.append(
            f"{which} amounts are marked CR or DR (like {examples[kept[0]]!r}), and which is negative "
            "depends on whose books these are; add --negative DR if debits (DR, DB) take away (a bank statement), "
            "or --negative CR if credits do (a ledger)"
        )
    if converted and negative is not None:
        other = "CR" if negative == "DR" else "DR"
        shown_ = [
            f"{c} {examples[c]!r} -> {shown(_read(examples[c], decimal or _mark([examples[c]]), negative))}"
            for c in converted
        ]
        notes.append(
            f"amounts marked {negative} stored as negative numbers, those marked {other} or unmarked as "
            f"positive (--negative {negative}): {'; '.join(shown_)}; add --type {converted[0]}=VARCHAR (for "
            "each such column) to keep them as text"
        )
    return notes


def _reads(value: str) -> bool:
    return re.fullmatch(_POINT_MARKED, value) is not None or re.fullmatch(_COMMA_MARKED, value) is not None


def _mark(values: Sequence[str]) -> str:
    """The decimal mark the values read with: a point unless only a comma reads them all. Pure."""
    return "." if all(re.fullmatch(_POINT_MARKED, v) for v in values) else ","


def _value_sql(col: str, mark: str, negative: str) -> str:
    """SQL: the signed number of a marked amount (TRY_CAST: rows deleted in this load are rewritten too)."""
    digits = f"regexp_replace({col}, '[^0-9{mark}]', '', 'g')"
    number = digits if mark == "." else f"replace({digits}, ',', '.')"
    minus = f"(regexp_matches({col}, '^ *-') <> regexp_matches({col}, '(?i){_SAME[negative]}[.]? *$'))"
    return f"(CASE WHEN {minus} THEN -1 ELSE 1 END) * TRY_CAST({number} AS DOUBLE)"


def _read(text: str, mark: str, negative: str) -> float:
    """``_value_sql`` in Python, for the note's example. Pure."""
    digits = re.sub(f"[^0-9{mark}]", "", text).replace(",", ".")
    minus = text.lstrip().startswith("-") != (re.search(f"(?i){_SAME[negative]}[.]? *$", text) is not None)
    return (-1 if minus else 1) * float(digits)

"""Amounts marked debit or credit by a suffix: a bank statement's ``49,633.80 CR`` and ``66,711.04 DR`` (India,
Australia), a ledger's ``1,234.00 Dr``, a ledger program's or a Greek bank's letters (``LETTERS``). Which of the two is negative depends on whose books the file is: a
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

LETTERS = {"B": "DR", "A": "CR", "S": "DR", "H": "CR", "Χ": "DR", "Π": "CR"}
"""One-letter marks, each the debit or credit it stands for: Turkish borç and alacak (``12.345,67 (B)``),
German Soll and Haben (``1.234,56 S``), Greek Χρέωση and Πίστωση (Piraeus' ``274,76 Χ``, capital Chi and Pi).
Read only as a pair of one language, in parentheses or after a space; after a space only after an amount
of cents (``12 S`` is a size). Not ``D`` and ``C`` (débito, crédito): after a decimal number they are
Statistics Canada's quality letters too (``stat_symbols``), read before these."""
_FAMILIES = ("DR", "CR"), ("B", "A"), ("S", "H"), ("Χ", "Π")
"""Debit's mark, then credit's. ``DB`` is Indonesian and Malay banks' debit (``1,587,000.00 DB``): read as
``DR``."""
_BANKS = frozenset(("DR", "Χ"))
"""Debit marks of banks' statements (their reading named first); ``B`` and ``S`` are ledger programs'."""
_CENTS = {
    ".": "(?:[0-9]{1,3}(?:[,' ][0-9]{3})+|[0-9]+)[.][0-9]{2}",
    ",": "(?:[0-9]{1,3}(?:[.' ][0-9]{3})+|[0-9]+),[0-9]{2}",
}
"""An amount with two decimals, which a letter after a space may mark."""


def _marked(family: tuple[str, str], mark: str) -> str:
    """A pattern (RE2 and Python alike) of a value of ``family``'s marks read with decimal ``mark``: an
    amount, marked or not. Pure."""
    number = POINT_NUMBER if mark == "." else COMMA_NUMBER
    if family == _FAMILIES[0]:
        return rf"^[ ]*[+-]?[ ]*{number}(?:[ ]*(?:CR|DR|DB|Cr|Dr|Db|cr|dr|db)[.]?)?[ ]*$"
    letters = "|".join(family)
    return rf"^[ ]*[+-]?[ ]*(?:{number}(?:[ ]*\((?:{letters})\))?|{_CENTS[mark]}[ ]+(?:{letters}))[ ]*$"


_PATTERNS = {(family, mark): _marked(family, mark) for family in _FAMILIES for mark in ".,"}
_MARK_AT_END = re.compile(r"(?i:(cr|dr|db))[.]?$|\(([BASHΧΠ])\)$|[0-9 ] ([BASHΧΠ])$")


def mark_of(value: str) -> str | None:
    """The debit or credit mark ``value`` ends in, upper case (``DB`` as ``DR``); None when unmarked. Pure."""
    found = _MARK_AT_END.search(value.rstrip(" "))
    if found is None:
        return None
    mark = next(g for g in found.groups() if g).upper()
    return "DR" if mark == "DB" else mark


def _family(values: Sequence[str]) -> tuple[str, str] | None:
    """The pair of marks ``values`` are marked with (some values at least, those of one pair only), each
    value an amount as the pair's marks are written after; None when none is marked or two pairs are
    mixed. Pure."""
    marks = {m for m in map(mark_of, values) if m is not None}
    family = next((f for f in _FAMILIES if marks and marks <= set(f)), None)
    return family if family is not None and all(_reads(v, family) for v in values) else None


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
    families = {name: family for name, values in probe.items() if values and (family := _family(values))}
    converted: list[str] = []
    examples: dict[str, str] = {}
    t = quote_ident(table)
    for name, family in families.items():
        col = quote_ident(name)
        mark = decimal or decimal_mark(probe[name])
        present, fits, example = first_row(
            conn.execute(
                f"SELECT count({col}), count(*) FILTER (WHERE regexp_full_match({col}, "
                f"{literal(_PATTERNS[family, mark])})), "
                f"min({col}) FILTER (WHERE regexp_matches({col}, {literal(_ends_in(family[0]))})) FROM {t}"
            )
        )
        if not present or fits < present:
            continue
        examples[name] = example or probe[name][0]
        if negative is not None:
            marks = family[0] if negative == "DR" else family[1]
            conn.execute(f"ALTER TABLE {t} ALTER {col} TYPE DOUBLE USING {_value_sql(col, mark, marks)}")
            converted.append(name)
    kept = [c for c in examples if c not in converted]
    return converted, _notes(examples, families, converted, kept, negative, decimal), kept


def _notes(
    examples: Mapping[str, str],
    families: Mapping[str, tuple[str, str]],
    converted: Sequence[str],
    kept: Sequence[str],
    negative: str | None,
    decimal: str | None,
) -> list[str]:
    """One line for the columns converted, one for those kept text. Pure."""
    notes = []
    if kept:
        notes.append(_kept_note(kept, examples[kept[0]], families[kept[0]]))
    if converted and negative is not None:
        signs = [families[c] if negative == "DR" else families[c][::-1] for c in converted]
        shown_ = [
            f"{c} {examples[c]!r} -> {shown(_read(examples[c], decimal or decimal_mark([examples[c]]), minus))}"
            for c, (minus, _) in zip(converted, signs, strict=True)
        ]
        minus, plus = signs[0]
        notes.append(
            f"amounts marked {minus} stored as negative numbers, those marked {plus} or unmarked as "
            f"positive (--negative {negative}): {'; '.join(shown_)}; add --type {converted[0]}=VARCHAR (for "
            "each such column) to keep them as text"
        )
    return notes


def _kept_note(kept: Sequence[str], example: str, family: tuple[str, str]) -> str:
    """The columns left text, and both ``--negative`` options: a bank's ``CR``/``DR`` first as a bank
    statement, a ledger program's letters (``(B)``/``(A)``, ``S``/``H``) first as a ledger. Pure."""
    which = f"{kept[0]} stayed text: its" if len(kept) == 1 else f"{', '.join(kept)} stayed text: their"
    debit, credit = family
    bank = f"--negative DR if debits ({'DR, DB' if debit == 'DR' else debit}) take away (a bank statement)"
    ledger = f"--negative CR if credits ({credit}) do (a ledger)"
    first, second = (bank, ledger) if debit in _BANKS else (ledger, bank)
    return (
        f"{which} amounts are marked {credit} or {debit} as credits or debits (like {example!r}), and which "
        f"is negative depends on whose books these are; add {first}, or {second}"
    )


def _reads(value: str, family: tuple[str, str]) -> bool:
    return any(re.fullmatch(_PATTERNS[family, mark], value) for mark in ".,")


def decimal_mark(values: Sequence[str]) -> str:
    """The decimal mark the values read with: a point unless only a comma reads them all. Pure."""
    family = _family(values) or _FAMILIES[0]
    return "." if all(re.fullmatch(_PATTERNS[family, "."], v) for v in values) else ","


def _ends_in(mark: str) -> str:
    """A pattern (RE2 and Python alike) of a value marked ``mark`` (``DR``: ``DB`` too). Pure."""
    if mark in LETTERS:
        return rf"(\({mark}\)|[0-9 ] {mark}) *$"
    return f"(?i)({'dr|db' if mark == 'DR' else 'cr'})[.]? *$"


def _value_sql(col: str, mark: str, minus_mark: str) -> str:
    """SQL: the signed number of a marked amount, those marked ``minus_mark`` negative (TRY_CAST: rows
    deleted in this load are rewritten too)."""
    digits = f"regexp_replace({col}, '[^0-9{mark}]', '', 'g')"
    number = digits if mark == "." else f"replace({digits}, ',', '.')"
    minus = f"(regexp_matches({col}, '^ *-') <> regexp_matches({col}, {literal(_ends_in(minus_mark))}))"
    return f"(CASE WHEN {minus} THEN -1 ELSE 1 END) * TRY_CAST({number} AS DOUBLE)"


def _read(text: str, mark: str, minus_mark: str) -> float:
    """``_value_sql`` in Python, for the note's example. Pure."""
    digits = re.sub(f"[^0-9{mark}]", "", text).replace(",", ".")
    minus = text.lstrip().startswith("-") != (re.search(_ends_in(minus_mark), text) is not None)
    return (-1 if minus else 1) * float(digits)

"""One value read as an amount, in Python: the decimal marks that read it and whether it is marked as one
(a currency, a percent sign, an accounting negative). What the load asks of a column's first values
(``amounts``) and of a value a refused read names (``reader_errors``). Pure."""

from __future__ import annotations

import re

from analytics_agent.db.amount_forms import COMMA_NUMBER, CURRENCY, POINT_NUMBER

# compiled once: ``amount_marks`` runs on each of a column's first values, twice a load (the patterns as
# strings cost a cache lookup of their text per call, 5 ms of a 200k-row export file's load)
_ACCOUNTING_ZERO = re.compile(f"{CURRENCY}[ \u00a0\u202f]*-")
_LEADING_CURRENCY = re.compile(CURRENCY)
_TRAILING_CURRENCY = re.compile(f"{CURRENCY}$")
_POINT_READS = re.compile(POINT_NUMBER)
_COMMA_READS = re.compile(COMMA_NUMBER)


_DECIMAL_PART = re.compile(r"[0-9][.,][0-9]+$")


def amount_marks(value: str) -> tuple[str, bool] | None:
    """The decimal marks that read ``value`` as an amount (``.``, ``,`` or both) and whether it is marked
    as one (a currency, a percent sign, an accounting negative); None when it is no amount. What ``POINT``
    and ``COMMA`` match, taken apart step by step: Python's backtracking ``re`` takes milliseconds on
    those patterns (DuckDB's RE2 does not). Pure."""
    text = value.strip(" \u00a0\u202f")
    marked = False
    if _ACCOUNTING_ZERO.fullmatch(text):  # Excel's accounting zero: `` $ -   ``
        return ".,", True
    if text.startswith("(") and text.endswith(")"):
        text, marked = text[1:-1].strip(" \u00a0\u202f"), True
    elif (text.endswith("-") and len(text) > 1) or (
        text.endswith("+") and _DECIMAL_PART.search(text[:-1].rstrip(" \u00a0\u202f"))
    ):
        text, marked = text[:-1].rstrip(" \u00a0\u202f"), True
    elif text[:1] in ("-", "\u2212", "+"):
        # the Unicode minus marks an amount: DuckDB's cast reads no number written with it
        text, marked = text[1:].lstrip(" \u00a0\u202f"), text[0] == "\u2212"
    currency = _LEADING_CURRENCY.match(text) or _TRAILING_CURRENCY.search(text)
    if currency:
        text = (text[: currency.start()] + text[currency.end() :]).strip(" \u00a0\u202f")
        marked = True
        if text[:1] in ("-", "\u2212"):  # $-5.00
            text = text[1:].lstrip(" \u00a0\u202f")
        elif text.startswith("(") and text.endswith(")"):  # $ (5.00), (17,625.24) ر.س
            text = text[1:-1].strip(" \u00a0\u202f")
    if text.endswith("%"):
        text, marked = text[:-1].rstrip(" \u00a0\u202f"), True
    elif text.startswith("%"):  # Turkish: ``%21,5``, ``%-3``
        text, marked = text[1:].lstrip(" \u00a0\u202f"), True
        if text[:1] in ("-", "\u2212"):
            text = text[1:].lstrip(" \u00a0\u202f")
    marks = ("." if _POINT_READS.fullmatch(text) else "") + ("," if _COMMA_READS.fullmatch(text) else "")
    return (marks, marked) if marks else None

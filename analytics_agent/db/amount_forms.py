"""How an amount is written (``$1,234.50``, ``3,50 €``, ``12%``, ``(84.10)``) and its number read in SQL.

One reading for the two places that turn such text into numbers: a load (``db.load.settle.amounts``
converts a column once, after checking every value) and a source of CSV files read in place
(``db.linked``, whose view reads the file at every question, so each value is checked as it is read and
one that does not read stops the query with its value named, never a NULL or another number). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from analytics_agent.db.currencies import LOCAL_UNITS, SYMBOLS

# Patterns work alike in Python's re (the sample check) and DuckDB's RE2 (the whole column): [0-9], not \d
# (Unicode digits in Python), and the spaces listed (RE2's \s has no no-break space).
SP = "[ \u00a0\u202f]*"
_CODES = (
    "USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|RMB|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|RUB|KRW|HKD|SGD|TRY"
    "|RON|IDR|PHP|NGN|KES|SAR|AED|EGP|THB|VND|MYR|CLP|COP|PEN|ARS|ILS|UAH|BGN|PYG|BOB|VES|DOP|PAB"
)
_LOCAL = "|".join(unit.replace(".", "\\.") for unit in LOCAL_UNITS)
CURRENCY = rf"(?:[A-Z]{{0,2}}\$|[{SYMBOLS}]|{_CODES}|{_LOCAL})"
"""A currency written before or after an amount: ``$``, ``US$``, ``R$``, a symbol, an ISO code, a local
abbreviation (``1 587 120,00 Ft``, ``36,818.15 ر.س``)."""
INDIAN = "[0-9]{1,2}(?:,[0-9]{2})+,[0-9]{3}"
"""Thousands grouped the Indian way (lakh and crore: ``1,23,45,678``), always with a decimal point."""
POINT_NUMBER = (
    "(?:(?:[0-9]{1,3}(?:[,'\u2019 \u00a0\u202f][0-9]{3})+|" + INDIAN + ")(?:[.][0-9]+)?"
    "|[0-9]+(?:[.][0-9]+)?|[.][0-9]+)"
)
COMMA_NUMBER = "(?:[0-9]{1,3}(?:[.' \u00a0\u202f][0-9]{3})+(?:,[0-9]+)?|[0-9]+(?:,[0-9]+)?|,[0-9]+)"
SAME = {
    "US$": "$", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "￥": "¥", "￡": "£",
    "S/.": "S/", "PEN": "S/", "Bs.": "Bs", "Gs.": "₲", "Gs": "₲", "PYG": "₲", "PAB": "B/.", "DOP": "RD$",
}  # fmt: skip
"""Two ways of writing one currency (``EUR 12`` beside ``3 €``): one unit, the symbol."""


MINUS = "[-\u2212]"
"""A minus sign: the hyphen, or the Unicode minus sign (U+2212) Nordic and Swiss exports write."""


def _full(number: str, decimals: str) -> str:
    """A whole value: an amount with an optional currency before or after it and a percent sign,
    negative by a leading minus, a trailing minus or parentheses (one of them), or marked positive by a
    leading plus (``+5.1 %``) or a trailing one after a decimal part (Maybank's ``6,250.00+`` beside
    ``908.41-``; ``10+`` is "ten or more", no amount): ``decimals`` is ``number`` with one. Excel's accounting format writes a currency with parentheses after it
    (`` $ (1,234.50)``) and zero as a currency and a dash (`` $ -   ``); a currency written after the
    number follows the parentheses (``(17,625.24) ر.س``). Turkish writes the percent sign first (``%21,5``,
    ``-%3``, ``%-3``)."""
    amount = f"(?:(?:{CURRENCY}{SP})?{number}{SP}%?(?:{SP}{CURRENCY})?|%{SP}{number})"
    signed = (
        f"\\({SP}{amount}{SP}\\)|{MINUS}{SP}{amount}|[+]{SP}{amount}|{amount}{SP}-|(?:{CURRENCY}{SP})?{decimals}{SP}[+]"
        f"|%{SP}{MINUS}{SP}{number}"
        f"|{CURRENCY}{SP}{MINUS}{SP}{number}{SP}%?|{CURRENCY}{SP}\\({SP}{number}{SP}\\)"
        f"|{CURRENCY}{SP}-|\\({SP}{number}{SP}\\){SP}{CURRENCY}|{amount}"
    )
    return f"^{SP}(?:{signed}){SP}$"


POINT = _full(
    POINT_NUMBER, "(?:[0-9]{1,3}(?:[,'\u2019 \u00a0\u202f][0-9]{3})+|" + INDIAN + "|[0-9]+)[.][0-9]+"
)
COMMA = _full(COMMA_NUMBER, "(?:[0-9]{1,3}(?:[.' \u00a0\u202f][0-9]{3})+|[0-9]+),[0-9]+")
_DOLLAR_STARTS = ("$", "($", "-$")


def currency_sql(column: str) -> str:
    """SQL: the first currency written in a quoted column's value (``CURRENCY``'s leftmost match), NULL
    for none. A value starting ``$``, ``($`` or ``-$`` has its leftmost match there and it is ``$`` (no
    other alternative starts with ``$`` and the letters of ``US$`` come before it): said without the
    regular expression, which cost half of the amount check (22 of 43 ms a column of 200k dollars)."""
    dollar = " OR ".join(f"starts_with({column}, '{s}')" for s in _DOLLAR_STARTS)
    return f"CASE WHEN {dollar} THEN '$' ELSE nullif(regexp_extract({column}, {literal(CURRENCY)}), '') END"


def value_sql(column: str, mark: str, plain: bool = False) -> str:
    """SQL: the number of a quoted column's amount read with decimal ``mark``. The value fits the shape,
    so a minus or a parenthesis can only be its sign, and its only digits and marks are the number's (no
    currency holds one). ``plain``: try ``_plain_sql`` first, for a column where it reads most values
    (where it reads none, it adds 0.04 s of CPU to 0.09 on 200k values ``1,234.50 €``)."""
    return (
        f"coalesce({_plain_sql(column, mark)}, {_read_sql(column, mark)})"
        if plain
        else _read_sql(column, mark)
    )


def plain_reads(value: str, mark: str) -> bool:
    """Whether ``_plain_sql`` reads ``value`` (as near as Python's own reading of a number says: it only
    decides whether the cast is tried first). Pure."""
    text = value.replace("$", "").replace("%", "").replace("," if mark == "." else ".", "")
    if text.startswith("("):
        text = text.replace("(", "").replace(")", "")
    text = text.replace(",", ".").strip(" ")
    return bool(text) and text.lstrip("-+").replace(".", "", 1).isdigit()


def _plain_sql(column: str, mark: str) -> str:
    """SQL: ``_read_sql``'s number for the commonest amounts (``$1,234.50``, ``-$5``, ``12%``) without a
    regular expression, NULL for any other: ``simple_value_sql`` with ``$`` and ``%`` both dropped. Of what
    a value of the shape can hold besides them (spaces, ``'``, letters of a currency, a trailing or
    Unicode minus) DuckDB's cast reads none, but a leading minus, the sign ``_read_sql`` gives too: the
    same number, or NULL. A third of the CPU of ``_read_sql`` (200k dollars: 0.025 s against 0.07; each
    regular expression pass costs a scan's worth)."""
    return simple_value_sql(column, mark, dollar=True, percent=True)


KEPT_POINT = "[A-Za-z/][.]|[^0-9.]|[.]([^0-9]|$)"
"""What ``_read_sql`` drops of an amount read with a decimal point: all but its digits and its decimal point."""


def _read_sql(column: str, mark: str) -> str:
    """SQL: ``value_sql`` for any value of the shape."""
    # a point not before a digit is no decimal mark: the riyal's ``ر.س`` after ``36,818.15``; nor one after a
    # letter or a slash, a currency's own (``S/.1,944.58``, ``Bs.12.50``)
    kept = KEPT_POINT if mark == "." else f"[^0-9{mark}]"
    digits = f"regexp_replace({column}, '{kept}', '', 'g')"
    number = digits if mark == "." else f"replace({digits}, ',', '.')"
    negative = f"regexp_matches({column}, '[-(\u2212]')"
    # TRY_CAST: rows deleted in this load (--drop-totals) are rewritten by the ALTER too. No digit at
    # all: Excel's accounting zero (`` $ - ``), the only amount written without one
    return (
        f"CASE WHEN NOT regexp_matches({column}, '[0-9]') THEN 0 "
        f"ELSE (CASE WHEN {negative} THEN -1 ELSE 1 END) * TRY_CAST({number} AS DOUBLE) END"
    )


_SIMPLE_NUMBERS = {
    ".": f"(?:[0-9]{{1,3}}(?:,[0-9]{{3}})+|{INDIAN})(?:[.][0-9]+)?|[0-9]+(?:[.][0-9]+)?|[.][0-9]+",
    ",": "[0-9]{1,3}(?:[.][0-9]{3})+(?:,[0-9]+)?|[0-9]+(?:,[0-9]+)?|,[0-9]+",
    "0": "[0-9]+",
}
"""``POINT_NUMBER`` and ``COMMA_NUMBER`` grouped with their other mark alone; whole numbers (both)."""


def simple(mark: str, dollar: bool, percent: bool) -> str:
    """A regular expression: amounts of ``POINT`` (``mark`` ``.``), ``COMMA`` (``,``) or both (``0``: whole
    numbers) written the plainest way, no space, negative by a leading minus or parentheses:
    ``$1,234.50``, ``-$5``, ``$-5``, ``($84.10)`` (``dollar``: ``$`` or nothing before the number; no
    other currency), ``12%``, ``(1,5%)`` (``percent``: a percent sign in every value, else in none),
    ``1.234,50``, Turkish ``%21,5``. ``simple_value_sql`` reads every value it matches; ``POINT`` (``COMMA``)
    matches each."""
    number = f"(?:{_SIMPLE_NUMBERS[mark]})"
    amount = ("[$]?" if dollar else "") + (f"(?:{number}%|%{number})" if percent else number)
    forms = [amount, f"-{amount}", f"\\({amount}\\)"] + ([f"[$]-{number}"] if dollar and not percent else [])
    return f"^(?:{'|'.join(forms)})$"


def simple_value_sql(column: str, mark: str, dollar: bool, percent: bool) -> str:
    """SQL: ``value_sql`` for a quoted column whose every value ``simple(mark, dollar, percent)`` matches:
    ``$``, ``%`` and the thousands mark dropped, what is left cast (``1234.50``), and a value in
    parentheses cast without them and negated (a correctly rounded cast reads ``-x`` as the negation of
    ``x``). No regular expression and no second reading: 0.1 s of CPU against 0.15 for four columns of
    200k values. TRY_CAST: rows deleted in this load are rewritten too, whatever they hold."""

    def number(text: str) -> str:
        for sign, written in (("$", dollar), ("%", percent)):
            if written:
                text = f"replace({text}, '{sign}', '')"
        if mark == ".":
            text = f"replace({text}, ',', '')"
        elif mark == ",":
            text = f"replace(replace({text}, '.', ''), ',', '.')"
        return f"TRY_CAST({text} AS DOUBLE)"

    negated = number(f"trim({column}, '()')")
    return f"CASE WHEN starts_with({column}, '(') THEN -{negated} ELSE {number(column)} END"


def spellings(currency: str | None) -> list[str]:
    """Every way of writing the currency ``currency`` (a unit as ``SAME`` names it). Pure."""
    if not currency:
        return []
    return sorted({currency, *(k for k, v in SAME.items() if v == currency)})


def checked_value_sql(column: str, mark: str, percent: bool, currencies: Iterable[str], said: str) -> str:
    """SQL: ``value_sql`` for a value written as the column's amounts were when their reading was decided
    (decimal ``mark``, with a percent sign or without, in ``currencies`` or none), and for any other value
    an error: ``said`` with the value, quoted, in place of its ``{}``. A value a load would not have read
    so is never a NULL or another number."""
    fits = [f"regexp_full_match({column}, {literal(POINT if mark == '.' else COMMA)})"]
    fits.append(f"{'' if percent else 'NOT '}contains({column}, '%')")
    written = ", ".join(literal(c) for c in currencies)
    currency = currency_sql(column)
    # a value without a currency beside a column's amounts in one is read, as a load reads it
    fits.append(
        f"(({currency}) IS NULL OR ({currency}) IN ({written}))" if written else f"({currency}) IS NULL"
    )
    before, after = said.split("{}", 1)
    shown = f"{literal(before)} || chr(39) || {column} || chr(39) || {literal(after)}"
    return (
        f"CASE WHEN {column} IS NULL THEN NULL WHEN {' AND '.join(fits)} THEN {value_sql(column, mark)} "
        f"ELSE error({shown}) END"
    )


def shown(number: float) -> str:
    """A number as a note shows it: every digit it was written with (``:g`` keeps six, and showed
    ``122 100,70`` read as 122101). Pure."""
    return f"{number:.15g}"


def literal(text: str) -> str:
    """A SQL string literal. Pure."""
    return "'" + text.replace("'", "''") + "'"

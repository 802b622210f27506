"""Whether the years a column of text dates would be read in are a date's: a load reads text as dates only
when they are. Loyverse's receipt numbers ``2-1017`` and ``1-1010`` fit ``%m-%Y`` and were stored as the
months of the years 1008-1040, said in a note, a wrong reading of ids. A year before 1900 from text is
read only under a name that says dates (a register's ``Birth date``), and said; a month written with its
number (``02-2024``, ``2024/02``), the commonest shape of ids and codes, also needs a name that says
months or periods, or years within those of the file's other dates. Its checks are pure but ``years_read``, which asks the
table for the years of its other date columns."""

from __future__ import annotations

import re

import duckdb

from analytics_agent.db.catalog import own_table_types, quote_ident
from analytics_agent.db.rows import first_row

EARLIEST = 1900
"""Years before this are read from text only under a name that says dates."""
NUMBER_MONTHS = ("%Y-%m", "%Y/%m", "%m/%Y", "%m-%Y")
"""Month periods written with the month's number: the shape of ids (``2-1017``) too."""
_PERIOD_WORDS = (
    "month",
    "period",
    "monat",
    "periode",
    "periodo",
    "mois",
    "mese",
    "maand",
    "manad",
    "maaned",
    "miesiac",
    "okres",
    "donem",
    "kuukausi",
    "kausi",
    "mes",
    "yyyymm",
    "yearmonth",
    "месяц",
    "период",
    "μήνας",
    "μηνας",
    "περίοδος",
    "περιοδος",
    "年月",
    "月份",
    "期間",
    "期间",
    "월",
    "기간",
)
"""Words of a column's name that say it holds months (English, German, Dutch, Spanish, Italian,
Portuguese, French, Swedish, Danish, Polish, Turkish, Finnish, Russian, Greek, Chinese, Japanese, Korean),
anywhere in it: compounds (``Abrechnungsmonat``, ``Buchungsperiode``) hold them."""
_LIFE_WORDS = ("birth", "born", "dob", "death", "died", "baptism", "geburt", "naissance", "nacimiento")
"""Words of a name that say dates of a life, which may be long past."""


def period_named(name: str) -> bool:
    """Whether a column's name says it holds months or periods (``Month``, ``Periode``, ``会计期间``); a
    short word only as a word of its own (``mes``, not ``times``). Pure."""
    low = name.lower()
    words = set(re.findall(r"[^\W\d_]+", low))
    return any(
        word in low if len(word) > 4 or not word.isascii() else word in words for word in _PERIOD_WORDS
    )


def dates_named(name: str) -> bool:
    """Whether a column's name says it holds dates, a date of a life among them (``Birth date``,
    ``geboren``). Pure."""
    from analytics_agent.db.load.settle.compact_dates import date_named

    low = name.lower()
    return date_named(name) or any(word in low for word in _LIFE_WORDS) or "datum" in low


def early_note(name: str, chosen: str, low: int, example: str) -> str:
    """The note of a column kept text because its dates would fall before ``EARLIEST``. Pure."""
    return (
        f"{name} stayed text: read as dates ({chosen}) its values would fall before {EARLIEST} (like "
        f"{example!r}, the year {low}) and its name does not say dates, as ids shaped like dates do; add "
        f"--date-format {name}={chosen} to read them as dates"
    )


def early_said(low: int) -> str:
    """What a date note adds for a column read with years before ``EARLIEST``, its name saying dates. Pure."""
    return f"; years from {low}, before {EARLIEST}, read as written: its name says dates"


def outside_note(name: str, chosen: str, years: tuple[int, int], others: tuple[int, int]) -> str:
    """The note of a column of month numbers kept text because its years lie outside the other dates'. Pure."""
    return (
        f"{name} stayed text: read as months ({chosen}) its values would fall in {_span(years)}, outside "
        f"the years of the file's other dates ({_span(others)}), and its name does not say months; add "
        f"--date-format {name}={chosen} to read them as months"
    )


def within(years: tuple[int, int], others: tuple[int, int]) -> bool:
    """Whether ``years`` (lowest, highest) lie within ``others``, a year either side allowed (a period
    before its invoice's date, a budget's next year). Pure."""
    return others[0] - 1 <= years[0] and years[1] <= others[1] + 1


def _span(years: tuple[int, int]) -> str:
    return str(years[0]) if years[0] == years[1] else f"{years[0]}-{years[1]}"


def years_read(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    name: str,
    chosen: str,
    years: tuple[int, int],
    earliest: str,
) -> tuple[str, str]:
    """Whether a column's dates, read with ``chosen`` in ``years`` (lowest, highest; ``earliest``: the
    value of the lowest as written), are dates (``date_years``): the note of a column kept text (then
    ``""`` read), else what its date note adds. Years below 1000 are ``early_years``' to settle."""
    low = years[0]
    if 1000 <= low < EARLIEST and "%Y" in chosen:
        return ("", early_said(low)) if dates_named(name) else (early_note(name, chosen, low, earliest), "")
    if chosen not in NUMBER_MONTHS or period_named(name) or dates_named(name):
        return "", ""
    others = other_years(conn, table, name)
    if others is None or within(years, others):
        return "", ""
    return outside_note(name, chosen, years, others), ""


def other_years(conn: duckdb.DuckDBPyConnection, table: str, name: str) -> tuple[int, int] | None:
    """The lowest and highest year of the table's other date and timestamp columns (as stored so far:
    DuckDB's and those read before), or None without one."""
    dated = [
        quote_ident(c)
        for c, kind in own_table_types(conn, table).items()
        if c != name and kind.startswith(("DATE", "TIMESTAMP"))
    ]
    if not dated:
        return None
    parts = [f"min(year({c})) FILTER (WHERE isfinite({c}))" for c in dated]
    parts += [f"max(year({c})) FILTER (WHERE isfinite({c}))" for c in dated]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    lows = [y for y in found[: len(dated)] if y is not None]
    highs = [y for y in found[len(dated) :] if y is not None]
    return (min(lows), max(highs)) if lows and highs else None

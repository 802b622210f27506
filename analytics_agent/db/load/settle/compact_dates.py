"""Dates written as eight digits (a Dutch bank's ``Datum`` ``20261129``, SAP's ``YYYYMMDD``): DuckDB reads
them as BIGINT, so no question of days or months could be asked of them. A BIGINT column whose name says
it holds dates (``Datum``, ``Booking Date``; not a ``date_key`` or a ``date_id``, which join a date table
by number) and whose every value is a real date from 1900 to 2099 is stored as DATE, and said with the
``--type`` that keeps the numbers. Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

_DATE_WORDS = frozenset(
    {"date", "datum", "fecha", "data", "dato", "dt", "tarih", "tarihi", "tanggal", "tarikh"}
)
"""A word of a column's name that says it holds dates (English, Dutch, German, Spanish, Portuguese,
Turkish, Indonesian, Malay …)."""
_DATE_PAST_ASCII = (
    "日付",
    "日期",
    "年月日",
    "일자",
    "날짜",
    "дата",
    "päivä",
    "dátum",
    "ημερομηνία",
    "ngày",
    "วันที่",
)
"""Words past ASCII that say dates in a name (Japanese, Chinese, Korean, Russian, Finnish, Hungarian and
Slovak, Greek, Vietnamese, Thai), anywhere in it: these write no spaces between words, or compounds."""
_DAY_ENDINGS = ("日", "일")
"""A Japanese or Korean name ending in day (``取引日``, ``出荷日``, ``거래일``) names a date; not a weekday
(``曜日``, ``요일``)."""
_KEY_WORDS = frozenset({"key", "id", "sk", "nr", "no", "num", "number", "code", "version"})
"""A word that says the number is a key or a code: ``date_key`` joins a date table by its number."""
_WORD = r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])"
_SERIALS = (20000, 80000)
"""Excel's day numbers a date column may hold: 1954-10-03 to 2119-01-10 (a ``yyyymmdd`` has eight digits)."""


def date_named(original: str) -> bool:
    """Whether a column's name (as the file wrote it) says dates and no key: ``Datum``, ``BookingDate``,
    ``posting_date``, a German or Dutch compound (``Abschlussdatum``, ``boekdatum``); not ``date_key``,
    ``DateID``. Pure."""
    low = original.lower()
    if not low.isascii() and _dated_past_ascii(low.strip()):
        return True
    if not any(word in low for word in _DATE_WORDS):  # most names: a plain test (a compound holds datum)
        return False
    words = {w.lower() for w in re.findall(_WORD, original)}
    compound = any(len(w) > 7 and w.endswith("datum") for w in words)
    return bool(words & _DATE_WORDS or compound) and not words & _KEY_WORDS


def _dated_past_ascii(low: str) -> bool:
    """``date_named`` for a name past ASCII (in lower case). Pure."""
    if any(word in low for word in _DATE_PAST_ASCII):
        return True
    return low.endswith(_DAY_ENDINGS) and not low.endswith(("曜日", "요일"))


_MINGUO = (1000101, 2001231)
"""Seven digits, ``YYYMMDD`` of the Republic of China (Minguo) calendar (a Taiwanese bank's ``1130105``,
2024-01-05): its years 100-200; plus 19110000 it is the Gregorian ``%Y%m%d``."""
_KINDS = ("compact", "minguo", "serial")


def compact_dates(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    originals: Mapping[str, str],
    types: Mapping[str, str],
    fixed: Sequence[str],
) -> list[str]:
    """Store as DATE the BIGINT columns named as dates whose every value is a ``%Y%m%d`` date, a Minguo
    ``YYYMMDD`` one or a spreadsheet serial; one note for each kind. ``originals``: stored name -> the
    file's; ``fixed``: columns the user typed."""
    named = [s for s, o in originals.items() if types.get(s) == "BIGINT" and s not in fixed and date_named(o)]
    if not named:
        return []
    t = quote_ident(table)
    parts = []
    for col in map(quote_ident, named):
        parts += [
            f"count({col})",
            f"count(TRY_STRPTIME({col}::VARCHAR, '%Y%m%d')) FILTER (WHERE {col} BETWEEN 19000101 AND 20991231)",
            f"count(TRY_STRPTIME(({col} + 19110000)::VARCHAR, '%Y%m%d')) "
            f"FILTER (WHERE {col} BETWEEN {_MINGUO[0]} AND {_MINGUO[1]})",
            f"count({col}) FILTER (WHERE {col} BETWEEN {_SERIALS[0]} AND {_SERIALS[1]})",
            f"min({col})",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {t}"))
    read: dict[str, list[tuple[str, int]]] = {kind: [] for kind in _KINDS}
    for i, name in enumerate(named):
        present, *fits, example = found[5 * i : 5 * i + 5]
        kind = next((k for k, n in zip(_KINDS, fits, strict=True) if present and n == present), None)
        if kind is None:
            continue
        col = quote_ident(name)
        # TRY: rows deleted in this load (a totals row) are rewritten too
        reads = {
            "compact": f"TRY_STRPTIME({col}::VARCHAR, '%Y%m%d')::DATE",
            "minguo": f"TRY_STRPTIME(({col} + 19110000)::VARCHAR, '%Y%m%d')::DATE",
            "serial": f"DATE '1899-12-30' + {col}::INTEGER",
        }
        conn.execute(f"ALTER TABLE {t} ALTER {col} TYPE DATE USING {reads[kind]}")
        read[kind].append((name, example))
    return [_note(kind, columns) for kind, columns in read.items() if columns]


def _note(kind: str, columns: list[tuple[str, int]]) -> str:
    """The line for the columns of one kind read as dates (the first one's example). Pure."""
    (first, example), names = columns[0], ", ".join(n for n, _ in columns)
    how = {
        "compact": f"eight-digit numbers like {example} stored as DATE (format %Y%m%d)",
        "minguo": f"seven-digit numbers like {example} stored as DATE, years of the Republic of China (Minguo) "
        "calendar (YYYMMDD, the year plus 1911: 113 is 2024)",
        "serial": f"spreadsheet serial numbers like {example} stored as DATE (days since 1899-12-30, as Excel "
        "counts them)",
    }[kind]
    return (
        f"{names}: {how}, as the column's name says it holds dates; add --type {first}=BIGINT (for each such "
        "column) to keep the numbers"
    )

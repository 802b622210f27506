"""The forms of dates and timestamps written as text that a load reads (``text_dates``, ``sniffed_dates``):
the patterns that pick the columns worth a check, the formats tried on them, and the century of two-digit
years. Pure."""

from __future__ import annotations

import re

# Patterns as text, compiled by ``re`` on first use (and kept in its cache): most loads have no column
# that looks like dates, and compiling them cost every load 0.27 ms.
# day, month (number or name) and year with one separator kind: 12/31/09, 31-Jan-2009, 2009.01.31
DATE_SHAPE = r"^(\d{1,2}([-/])(\d{1,2}|[A-Za-z]{3,9})\2\d{2,4}|\d{4}([-/.])(\d{1,2}|[A-Za-z]{3,9})\4\d{1,2}|\d{1,2}\.\d{1,2}\.\d{4})$"
ISO_DATE = r"^\d{4}-\d{1,2}-\d{1,2}$"
WRITTEN_DATE = (
    r"^(\d{1,4}|[A-Za-z]{3,9})[-/. ]+(\d{1,2}|[A-Za-z]{3,9})[-/., ]+\d{2,4}$|^\d{2}[A-Za-z]{3}\d{2}(\d{2})?$"
    r"|^\d{4}年\d{1,2}月\d{1,2}日$|^\d{4}\. ?\d{1,2}\. ?\d{1,2}\.$"
)
WRITTEN_STAMP = (
    r"^\d{1,2}([-/.])\d{1,2}\1(\d{4}|\d{2}),? \d{1,2}:\d{2}(:\d{2})?( ?[AaPp][Mm])?$"
    r"|^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}(:\d{2})? ?[AaPp][Mm]$"
)
NAMED_STAMP = r"^([A-Za-z]{3,9} \d{1,2},? \d{4}|\d{1,2}[-/ ][A-Za-z]{3,9}[-/ ]\d{2,4}),? \d{1,2}:\d{2}(:\d{2})?( ?[AaPp][Mm])?$"
ZONED_STAMP = r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})? [+-]\d{2}:?\d{2}$"
UTC_STAMP = r"^(\d{1,2}([-/.])\d{1,2}\2(\d{4}|\d{2})|\d{4}-\d{2}-\d{2}) \d{1,2}:\d{2}(:\d{2})? (UTC|GMT)$"
"""A timestamp written with the zone it is in, UTC or GMT (Amazon's settlement ``01.11.2026 02:31:56 UTC``):
the instant is known. Other zone names are not read (``IST`` is India's, Israel's and Ireland's)."""
YEAR_STAMP = (
    r"^\d{4}(([-/.]) ?\d{1,2}\2 ?\d{1,2}\.?|年\d{1,2}月\d{1,2}日) \d{1,2}:\d{2}(:\d{2})?( ?[AaPp][Mm])?$"
)
"""A year-first date and a time that DuckDB's sniffer leaves as text: the date with its trailing dot
(Hungarian ``2024.11.21. 05:51``, Korean ``2024. 11. 21. 5:51:00``), in words (``2024年8月1日 15:15``),
or with a 12-hour time (Korean Excel's ``2024. 8. 1. 오후 3:15:22`` once ``day_halves`` writes its mark
as ``PM``)."""

# Dates written as text that DuckDB's sniffer leaves as VARCHAR; day/month pairs are tried both ways.
TEXT_DATE_FORMATS = (
    "%b %d %Y",
    "%b %d, %Y",
    "%d %b %Y",
    "%d-%b-%Y",
    "%d-%b-%y",
    "%d/%b/%Y",
    "%d/%b/%y",
    "%d%b%Y",
    "%d%b%y",
    "%B %d %Y",
    "%B %d, %Y",
    "%d %B %Y",
    "%Y/%m/%d",
    "%Y.%m.%d",
    "%d.%m.%Y",
    "%m.%d.%Y",
    "%d/%m/%Y",
    "%m/%d/%Y",
    "%d-%m-%Y",
    "%m-%d-%Y",
    "%Y年%m月%d日",
    "%Y.%m.%d.",
    "%Y. %m. %d.",
)
NAMED_FORMATS = tuple(f for f in TEXT_DATE_FORMATS if "%b" in f)
"""The formats of a column whose month names ``month_names`` puts in English (``Mar``)."""
MONTH_FORMATS = ("%b-%Y", "%b %Y", "%B %Y", "%B-%Y", "%b-%y", "%Y-%m", "%Y/%m", "%m/%Y", "%m-%Y")
"""Months written as periods (``Jan-2024``, ``January 2024``, ``2024-01``, ``01/2024``, Excel's ``Jan-24``):
stored as the month's first day, so they sort and group as months (as text, ``Apr`` came before ``Feb``)."""
MONTH_PERIOD = r"^([A-Za-z]{3,9}[-/. ]+(\d{4}|\d{2})|[12]\d{3}[-/]\d{1,2}|\d{1,2}[-/][12]\d{3})$"
"""A month written as a period; its year starts with 1 or 2 (``0102-11`` is a product code)."""
TEXT_STAMP_FORMATS = tuple(
    f"{day} {time}"
    for day in (
        "%d/%m/%Y",
        "%m/%d/%Y",
        "%d.%m.%Y",
        "%d-%m-%Y",
        "%m-%d-%Y",
        "%d/%m/%y",
        "%m/%d/%y",
        "%d.%m.%y",
        "%Y-%m-%d",
    )
    for time in ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p")
)
"""Day/month timestamps DuckDB's sniffer leaves as text (it reads ``28.09.2021 03:21:00`` itself), with
four- or two-digit years (``3/15/24 2:05 PM``), and ISO dates with a 12-hour time (GCash's
``2024-03-01 07:07 PM``)."""
NAMED_STAMP_FORMATS = tuple(
    f"{day} {time}"
    for day in ("%b %d, %Y", "%b %d %Y", "%d %b %Y", "%d-%b-%Y", "%d/%b/%y", "%d/%b/%Y", "%d-%b-%y")
    for time in ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p")
)
"""Timestamps with a month name (Mailchimp's ``Jan 12, 2026 06:32 am``, Jira's ``06/Oct/26 2:21 PM``)."""
YEAR_DAY = r"\d{4}([-/.])( ?)\d{1,2}\1 ?\d{1,2}(\.?)"
"""``YEAR_STAMP``'s date: its separator, the space after each, the trailing dot."""


def year_stamp_formats(first: str) -> tuple[str, ...]:
    """The formats of a column of ``YEAR_STAMP`` timestamps whose first value is ``first``: its date as
    written (``2024. 8. 1.`` is ``%Y. %m. %d.``), its time 12-hour when ``first``'s is. Pure."""
    day = re.match(YEAR_DAY, first)
    sep, space, dot = day.groups() if day else ("-", "", "")
    date = "%Y年%m月%d日" if first[4:5] == "年" else f"%Y{sep}{space}%m{sep}{space}%d{dot}"
    times = ("%I:%M %p", "%I:%M:%S %p") if first[-1:] in "Mm" else ("%H:%M", "%H:%M:%S")
    return tuple(f"{date} {time}" for time in times)


COMMA_TIME = r", \d{1,2}:\d{2}"
"""A time written after the date and a comma (Allegro's ``9 stycznia 2024, 11:46``, a browser's
``1/12/2026, 6:32:00 AM``): read with ``commas``' formats."""


def commas(formats: tuple[str, ...]) -> tuple[str, ...]:
    """``formats`` with a comma between the date and the time. Pure."""
    return tuple(f.replace(" %H", ", %H").replace(" %I", ", %I") for f in formats)


ZONED_FORMATS = ("%Y-%m-%d %H:%M:%S %z", "%Y-%m-%d %H:%M %z", "%Y-%m-%dT%H:%M:%S %z", "%Y-%m-%dT%H:%M %z")
"""Timestamps with their UTC offset after a space (Shopify's ``2024-02-02 21:23:08 -0500``), which DuckDB's
sniffer and cast leave as text (``2024-02-02T21:23:08-05:00`` it reads itself): stored as the instants
they write (TIMESTAMP WITH TIME ZONE), as DuckDB stores the other form."""
UTC_FORMATS = tuple(f"{stamp} %Z" for stamp in TEXT_STAMP_FORMATS if "%p" not in stamp)
"""``UTC_STAMP``'s formats: stored as the instants they write (TIMESTAMP WITH TIME ZONE), as offsets are."""
ZONED_SAID = (
    "the instants their UTC offsets give; days and months counted in the business time zone, set with "
    "--timezone"
)
PIVOT = 30
"""Two-digit years below this are 20xx, the rest 19xx: Excel's, LibreOffice's and Google Sheets' rule
(1930-2029). DuckDB's own ``%y`` reads 00-68 as 20xx, so a birth date ``12-Mar-45`` would be in 2045."""


PIVOT_SAID = (
    f"two-digit years {PIVOT}-99 read as 19{PIVOT}-1999 and 00-{PIVOT - 1} as 2000-20{PIVOT - 1}, as spreadsheets "
    "read them"
)


def pivoted(value: str) -> str:
    """SQL: a date read with ``%y`` (DuckDB: 00-68 are 20xx) in the spreadsheet century (``PIVOT``)."""
    return f"(CASE WHEN year({value}) >= 20{PIVOT} THEN {value} - INTERVAL 100 YEAR ELSE {value} END)"

"""Excel's error values in a text column (a lookup's ``#N/A`` where it found no match): missing, as they are
in a column of numbers, said with the option that keeps them; a column of errors alone is kept and said."""

from __future__ import annotations

import datetime
from pathlib import Path

from tests.db.loaded import load_text as _load
from tests.db.loaded import stored_rows as _rows

LOOKUP = (
    "No.\tName\tCategory\tNet Change\n"
    "1110\tLand and Buildings\t#N/A\t87391.65\n"
    "1310\tVehicles\tAssets\t58605.50\n"
    "2410\tPrepaid Rent\t#N/A\t946.41\n"
    "5410\tVendors\tLiabilities\t-720.70\n"
    "6810\tDiscount Granted\t#REF!\t74.85\n"
)


def test_excel_errors_in_a_text_column_are_missing_and_said(tmp_path: Path) -> None:
    # '#N/A' was stored as a category: a count by category showed a '#N/A' group, a count of missing ones 0
    summary = _load(tmp_path, "tb.txt", LOOKUP)
    assert _rows(tmp_path, "SELECT category FROM t ORDER BY no") == [
        (None,),
        ("Assets",),
        (None,),
        ("Liabilities",),
        (None,),
    ]
    assert (
        "Excel error values in text columns stored as missing (NULL): category (3: #N/A, #REF!); add --type "
        "category=VARCHAR (for each such column) to keep them as text"
    ) in summary.notes, summary.notes
    _load(tmp_path, "tb.txt", LOOKUP, types={"Category": "VARCHAR"})
    assert _rows(tmp_path, "SELECT count(*) FROM t WHERE category = '#N/A'") == [(2,)]


def test_a_column_of_excel_errors_alone_is_kept_and_said(tmp_path: Path) -> None:
    # every row's formula failed: NULLs would hide a broken column as one with nothing to say
    text = "id,region,sales\n1,#REF!,10\n2,#REF!,20\n3,#REF!,30\n"
    summary = _load(tmp_path, "s.csv", text)
    assert _rows(tmp_path, "SELECT DISTINCT region FROM t") == [("#REF!",)]
    assert (
        "region: every value is an Excel error value (#REF!): kept as text, as the formula that filled the "
        "column failed on every row"
    ) in summary.notes, summary.notes


def test_dates_and_flags_beside_excel_errors_are_read_once_the_errors_are_missing(tmp_path: Path) -> None:
    # '#N/A' kept a column of ISO dates, of day-first dates and of Yes/No flags text
    text = (
        "id,due,paid_on,approved\n"
        "1,2024-01-31,31/01/2024,Yes\n"
        "2,#N/A,#N/A,No\n"
        "3,2024-02-15,15/02/2024,#N/A\n"
        "4,2024-02-16,16/02/2024,No\n"
    )
    summary = _load(tmp_path, "d.csv", text)
    assert _rows(tmp_path, "SELECT due, paid_on, approved FROM t ORDER BY id") == [
        (datetime.date(2024, 1, 31), datetime.date(2024, 1, 31), True),
        (None, None, False),
        (datetime.date(2024, 2, 15), datetime.date(2024, 2, 15), None),
        (datetime.date(2024, 2, 16), datetime.date(2024, 2, 16), False),
    ]
    assert summary.notes[0] == (
        "Excel error values in text columns stored as missing (NULL): due (1: #N/A); paid_on (1: #N/A); "
        "approved (1: #N/A); add --type due=VARCHAR (for each such column) to keep them as text"
    )

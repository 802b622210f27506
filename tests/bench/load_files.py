"""The load benchmark's generated files beside the orders CSV: a wide tab-separated voter file and an
export-style file of money, percents and US dates. Both are written by DuckDB from ``range()`` with values
from ``hash`` of the row number, so every run writes the same bytes, and kept in the benchmark cache.

The voter file is the shape of a state's voter roll: 64 columns (ids, county and precinct codes, names,
address parts, dates, party and status codes, forty election-history columns), many fields empty and some
holding the missing-value token ``NULL``. The export file is what a spreadsheet or an ERP writes: money
``$1,234.50``, accounting negatives ``($84.10)``, percents ``12%``, dates ``03/15/2024``.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from tests.bench.data import cache_dir

VOTER_ROWS = 300_000
EXPORT_ROWS = 200_000
_VERSION = 1
"""Bumped when a generator changes, so a cached file of the old shape is not reused."""


def _pick(options: list[str], salt: int) -> str:
    """A deterministic choice among ``options`` for row ``i`` (SQL text)."""
    listed = ", ".join("'" + o.replace("'", "''") + "'" for o in options)
    return f"[{listed}][1 + (hash(i, {salt}) % {len(options)})::INT]"


def _voter_select(rows: int) -> str:
    h = "hash(i, {})"
    first = ["JAMES", "MARY", "ROBERT", "PATRICIA", "JOHN", "JENNIFER", "MICHAEL", "LINDA", "DAVID", "MARIA"]
    last = [
        "SMITH",
        "JOHNSON",
        "WILLIAMS",
        "BROWN",
        "JONES",
        "GARCIA",
        "MILLER",
        "DAVIS",
        "O'BRIEN",
        "NGUYEN",
    ]
    cols = [
        "100000000 + i AS voter_id",
        f"lpad(({h.format(1)} % 100)::VARCHAR, 2, '0') AS county_code",
        f"{_pick(['ALAMANCE', 'BUNCOMBE', 'DURHAM', 'WAKE', 'GUILFORD', 'PITT'], 2)} AS county_desc",
        f"'P' || lpad(({h.format(3)} % 900)::VARCHAR, 3, '0') AS precinct_abbrv",
        f"{_pick(last, 4)} AS last_name",
        f"{_pick(first, 5)} AS first_name",
        f"CASE WHEN {h.format(6)} % 3 = 0 THEN NULL ELSE {_pick(first, 7)} END AS middle_name",
        f"CASE WHEN {h.format(8)} % 20 = 0 THEN 'JR' WHEN {h.format(8)} % 20 = 1 THEN 'NULL' END AS name_suffix",
        f"({h.format(9)} % 9000 + 1)::VARCHAR || ' ' || {_pick(['MAIN ST', 'OAK AVE', 'ELM RD', 'PINE LN'], 10)}"
        " AS res_street_address",
        f"{_pick(['RALEIGH', 'DURHAM', 'CARY', 'APEX', 'GREENVILLE'], 11)} AS res_city_desc",
        "'NC' AS state_cd",
        f"(27000 + {h.format(12)} % 900)::VARCHAR AS zip_code",
        f"CASE WHEN {h.format(13)} % 4 = 0 THEN NULL ELSE 'PO BOX ' || ({h.format(14)} % 999)::VARCHAR END"
        " AS mail_addr1",
        f"CASE WHEN {h.format(15)} % 2 = 0 THEN NULL ELSE '919' || lpad(({h.format(16)} % 10000000)::VARCHAR,"
        " 7, '0') END AS full_phone_number",
        f"{_pick(['A', 'I', 'R', 'D'], 17)} AS voter_status_cd",
        f"{_pick(['ACTIVE', 'INACTIVE', 'REMOVED', 'DENIED'], 18)} AS voter_status_desc",
        f"{_pick(['DEM', 'REP', 'UNA', 'LIB', 'GRE'], 19)} AS party_cd",
        f"{_pick(['M', 'F', 'U'], 20)} AS gender_code",
        f"{_pick(['W', 'B', 'A', 'I', 'O', 'U'], 21)} AS race_code",
        f"{_pick(['HL', 'NL', 'UN'], 22)} AS ethnic_code",
        f"strftime(DATE '1930-01-01' + ({h.format(23)} % 27000)::INT, '%m/%d/%Y') AS birth_date",
        f"strftime(DATE '1980-01-01' + ({h.format(24)} % 16000)::INT, '%m/%d/%Y') AS registr_dt",
        f"CASE WHEN {h.format(25)} % 10 = 0 THEN 'NULL' ELSE ({h.format(25)} % 100)::VARCHAR END AS ward",
        f"CASE WHEN {h.format(26)} % 5 = 0 THEN NULL ELSE 'CD' || ({h.format(26)} % 14)::VARCHAR END"
        " AS cong_dist_abbrv",
    ]
    cols += [
        f"CASE WHEN {h.format(100 + k)} % 3 = 0 THEN NULL ELSE "
        f"{_pick(['E', 'A', 'Y', 'M', 'NULL'], 200 + k)} END AS e{k:02d}_voted"
        for k in range(40)
    ]
    return f"SELECT {', '.join(cols)} FROM range({rows}) t(i)"


def _export_select(rows: int) -> str:
    h = "hash(i, {})"
    money = f"({h.format(1)} % 500000) / 100.0"
    return (
        "SELECT 'INV-' || lpad(i::VARCHAR, 7, '0') AS \"Invoice #\", "
        f'{_pick(["Acme Corp", "Globex", "Initech", "Umbrella", "Stark Ind."], 2)} AS "Customer", '
        f"strftime(DATE '2023-01-01' + ({h.format(3)} % 700)::INT, '%m/%d/%Y') AS \"Invoice Date\", "
        f"strftime(DATE '2023-02-01' + ({h.format(4)} % 700)::INT, '%m/%d/%Y') AS \"Due Date\", "
        f"'$' || format('{{:,.2f}}', {money}) AS \"Amount\", "
        f"CASE WHEN {h.format(5)} % 7 = 0 THEN '($' || format('{{:,.2f}}', ({h.format(6)} % 20000) / 100.0) || ')' "
        f"ELSE '$' || format('{{:,.2f}}', ({h.format(6)} % 20000) / 100.0) END AS \"Adjustment\", "
        f"({h.format(7)} % 40)::VARCHAR || '%' AS \"Discount\", "
        f"'$' || format('{{:,.2f}}', ({h.format(8)} % 90000) / 100.0) AS \"Tax\", "
        f'{_pick(["Paid", "Open", "Overdue", "Void"], 9)} AS "Status", '
        f'{_pick(["North", "South", "East", "West"], 10)} AS "Region" '
        f"FROM range({rows}) t(i)"
    )


def voter_file(*, rows: int = VOTER_ROWS, log=print) -> Path:
    """The wide tab-separated voter file (written once, then cached)."""
    return _written(f"voters-{rows}-v{_VERSION}.tsv", _voter_select(rows), "DELIMITER '\\t'", log)


def export_file(*, rows: int = EXPORT_ROWS, log=print) -> Path:
    """The export-style file of money, percents and US dates (written once, then cached)."""
    return _written(f"export-{rows}-v{_VERSION}.csv", _export_select(rows), "DELIMITER ','", log)


def _written(name: str, select: str, delimiter: str, log, folder: Path | None = None) -> Path:
    path = (folder or cache_dir()) / name
    if path.exists():
        return path
    log(f"writing {name}...")
    tmp = path.with_name(f".writing-{os.getpid()}-{name}")
    conn = duckdb.connect()
    try:
        # NULL writes an empty field; the text 'NULL' is the file's own missing-value token
        conn.execute(f"COPY ({select}) TO '{tmp}' (HEADER, {delimiter}, NULLSTR '')")
    finally:
        conn.close()
    os.replace(tmp, path)
    return path

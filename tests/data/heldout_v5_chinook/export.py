"""Regenerate the Chinook CSVs beside this file from the upstream SQLite script (not needed to run the questions).

    git -C <clone of github.com/lerocha/chinook-database> show HEAD:ChinookDatabase/DataSources/Chinook_Sqlite.sql > /tmp/Chinook_Sqlite.sql
    python tests/data/heldout_v5_chinook/export.py /tmp/Chinook_Sqlite.sql

Loads the script into an in-memory SQLite database and writes one CSV per table, the table and column names
turned from CamelCase into snake_case (InvoiceLine -> invoice_line, SupportRepId -> support_rep_id). Rows in
primary-key order; NULL as an empty field; values as SQLite holds them (dates as 'YYYY-MM-DD HH:MM:SS').
"""

from __future__ import annotations

import csv
import re
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def main(script: str) -> None:
    con = sqlite3.connect(":memory:")
    con.executescript(Path(script).read_text(encoding="utf-8-sig"))
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for t in tables:
        cols = [r[1] for r in con.execute(f"PRAGMA table_info([{t}])")]
        pk = [r[1] for r in sorted(con.execute(f"PRAGMA table_info([{t}])"), key=lambda r: r[5]) if r[5]]
        rows = con.execute(f"SELECT * FROM [{t}] ORDER BY {', '.join(f'[{c}]' for c in pk)}").fetchall()
        out = HERE / f"{snake(t)}.csv"
        with out.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow([snake(c) for c in cols])
            w.writerows(["" if v is None else v for v in row] for row in rows)
        print(out.name, len(rows), [snake(c) for c in cols])


if __name__ == "__main__":
    main(sys.argv[1])

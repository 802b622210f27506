"""Ground truth for the fifth held-out set, Chinook part: plain DuckDB over the CSVs beside this file.

Run: python tests/data/heldout_v5_chinook/truth.py   (prints each id and its rows)
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import yaml

HERE = Path(__file__).resolve().parent
FILES = (
    "artist.csv",
    "album.csv",
    "track.csv",
    "genre.csv",
    "media_type.csv",
    "playlist.csv",
    "playlist_track.csv",
    "customer.csv",
    "employee.csv",
    "invoice.csv",
    "invoice_line.csv",
)
N_QUESTIONS = 20


def table_name(file: str) -> str:
    stem = file.split(".", 1)[0]
    return re.sub(r"[^0-9A-Za-z]", "_", stem)


def connect() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for f in FILES:
        con.execute(f"CREATE TABLE {table_name(f)} AS FROM read_csv('{(HERE / f).as_posix()}')")
    return con


def questions() -> list[dict]:
    return yaml.safe_load((HERE / "questions.yaml").read_text())


def truth() -> dict[str, list[tuple]]:
    con = connect()
    return {q["id"]: con.execute(q["sql"]).fetchall() for q in questions() if not q.get("unanswerable")}


if __name__ == "__main__":
    qs = questions()
    res = truth()
    assert len(qs) == N_QUESTIONS and len({q["id"] for q in qs}) == N_QUESTIONS, len(qs)
    for q in qs:
        if q.get("unanswerable"):
            print(q["id"], "UNANSWERABLE:", q["why"])
            continue
        rows = res[q["id"]]
        assert rows and len(rows) <= 20, (q["id"], len(rows))
        print(q["id"], rows)

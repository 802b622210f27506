"""Ground truth for a held-out set: plain DuckDB over the set's CSVs (each file a table named after it:
stem, non-alphanumerics as ``_``), every answerable question's ``sql`` run and printed. Each set's
``truth.py`` calls ``main`` with its folder.
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import yaml


def table_name(file: str) -> str:
    stem = file.split(".", 1)[0]
    return re.sub(r"[^0-9A-Za-z]", "_", stem)


def connect(folder: Path) -> duckdb.DuckDBPyConnection:
    """The set's tables in memory. A set whose files plain ``read_csv`` cannot read as they mean (money
    as text, Windows-1252, a preamble) writes each table by hand in ``truth_tables.sql`` beside them
    (``{dir}`` is the folder); the others are DuckDB's own reading."""
    con = duckdb.connect()
    by_hand = folder / "truth_tables.sql"
    if by_hand.exists():
        con.execute(by_hand.read_text().replace("{dir}", folder.as_posix()))
        return con
    for f in sorted(p.name for p in folder.iterdir() if p.name.endswith((".csv", ".csv.gz"))):
        con.execute(f"CREATE TABLE {table_name(f)} AS FROM read_csv('{(folder / f).as_posix()}')")
    return con


def questions(folder: Path) -> list[dict]:
    return yaml.safe_load((folder / "questions.yaml").read_text())


def truth(folder: Path) -> dict[str, list[tuple]]:
    con = connect(folder)
    return {q["id"]: con.execute(q["sql"]).fetchall() for q in questions(folder) if not q.get("unanswerable")}


def main(folder: Path, *, expected: int, most_rows: int | None = None) -> None:
    """Print each question's rows; check the set has ``expected`` questions, each answer non-empty (and at
    most ``most_rows`` rows when given)."""
    qs = questions(folder)
    assert len(qs) == expected and len({q["id"] for q in qs}) == expected, len(qs)
    res = truth(folder)
    for q in qs:
        if q.get("unanswerable"):
            print(q["id"], "UNANSWERABLE:", q["why"])
            continue
        rows = res[q["id"]]
        assert rows and (most_rows is None or len(rows) <= most_rows), q["id"]
        print(q["id"], rows)

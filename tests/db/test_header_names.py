"""A stored column holds the numbers of the file column whose name it carries (issue 38, item 8: "header
renames can give one column's file name to another column's numbers"). DuckDB renames a repeated header
cell by numbering it (``a, a, a_1`` reads as ``a, a_1, a_1_1``), and we cleaned and numbered names in
file order: the second ``a`` was stored as ``a_1`` while the file's own ``a_1`` column became ``a_1_1``;
``Order Date`` took ``order_date`` from the file's ``order_date`` column. Each class in three or more
shapes, loaded for real: column i of the file holds 11 * i in every row, so a stored column's numbers say
which file column it came from, independently of how it was named."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.names import safe_identifier
from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files

HEADERS = {
    "repeated": ["a,a,a_1", "x,x_1,x", "a,A,a_2", "id,ID,Id,id_2", "n,n,n,n_2,n_3"],
    "clean to one": [
        "Order Date,order_date,order date",
        "Café,cafe,CAFE",
        "customerID,customer_id",
        "A B,a_b,a-b",
    ],
    "generated": [
        ",x,column0",
        ",,column1,column0",
        ",column0,x",
        "a,,column1",
        "a,a,a_2,a_3",
        ",column_1,x",
    ],
}


def load(tmp_path: Path, header: str):
    cells = next(csv.reader(io.StringIO(header)))
    values = ",".join(str(11 * i) for i in range(1, len(cells) + 1))
    path = tmp_path / "f.csv"
    path.write_text(f"{header}\n{values}\n{values}\n")
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t"))
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        row = conn.execute("SELECT * FROM t LIMIT 1").fetchone()
        stored = [d[0] for d in conn.execute("SELECT * FROM t LIMIT 0").description]
        [(profile,)] = conn.execute("SELECT profile FROM _agent.profiles").fetchall()
    came_from = {name: int(value) // 11 for name, value in zip(stored, row, strict=True)}  # 1-based
    return cells, came_from, summary, json.loads(profile).get("original_names", {})


@pytest.mark.parametrize(
    "header", [pytest.param(h, id=f"{kind}: {h}") for kind, hs in HEADERS.items() for h in hs]
)
def test_every_stored_column_holds_the_numbers_of_the_file_column_it_is_named_after(
    tmp_path: Path, header: str
) -> None:
    cells, came_from, summary, originals = load(tmp_path, header)
    assert sorted(came_from.values()) == list(range(1, len(cells) + 1))  # every file column, once
    for name, position in came_from.items():
        # a stored name that is a file column's own name holds that column
        owners = [p for p, cell in enumerate(cells, start=1) if cell == name]
        assert not owners or owners[0] == position, (name, position, owners)
        # its original name, as the table summary and describe_table say it, is the file's
        cell = cells[position - 1]
        said = originals.get(name, cell if cell.strip() else "")
        assert said == (cell if name != cell else said), (name, cell, originals)
        # a column not stored under its cleaned name is said in a note
        if cell.strip() and name != safe_identifier(cell):
            assert any(f"stored as {name}" in note or f", {name}" in note for note in summary.notes), (
                name,
                summary.notes,
            )

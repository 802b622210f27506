"""A CSV source reads amounts (``$1,234.50``, ``(84.10)``, ``12%``, ``3,50 €``) as ``load`` stores them, and
says so in the load's words; a local folder of CSV files is pinned like a glob.

Real CSV files, real databases, the real command line (a subprocess with this checkout's code). The
numbers are compared cell by cell with what ``load`` stored for the same file, and with the values the
file means, worked out by hand in ``MEANT`` (not copied from either output)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import duckdb
import pytest

from tests.cli.test_csv_source_reads_as_load import ok, run

MONEY = (
    "item,price,share,net,eur\n"
    'a,"$1,234.50",12%,(84.10),"3,50 €"\n'
    'b,$5.00,7.5%,"1,000.00","1.234,00 €"\n'
    'c,,1%,-2.00,"0,50 €"\n'
)
MEANT = [
    ("a", 1234.5, 12.0, -84.1, 3.5),  # 12% is 12 with its unit, as a load stores it (not 0.12)
    ("b", 5.0, 7.5, 1000.0, 1234.0),
    ("c", None, 1.0, -2.0, 0.5),
]
UNITS = {"price": "$", "share": "%", "eur": "€"}


def _notes(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("note: ")]


def _both(tmp_path: Path, text: str, *options: str) -> tuple[Path, Path, list[str], list[str]]:
    """The file loaded into one database and added as a source of another: both databases, both notes."""
    (tmp_path / "data.csv").write_text(text, encoding="utf-8")
    loaded, in_place = tmp_path / "loaded.duckdb", tmp_path / "in_place.duckdb"
    duckdb.connect(str(in_place)).close()
    load = ok(["--db", str(loaded), "load", "data.csv", "--table", "m", *options], tmp_path)
    add = ["--db", str(in_place), "sources", "add", "m", "--type", "files", "--path", "data.csv", *options]
    return loaded, in_place, _notes(load.stdout), _notes(ok(add, tmp_path).stdout)


def _view_rows(db: Path, table: str) -> list[tuple]:
    """The source's view as the tools' sandbox makes it (the real linking code), read row by row."""
    from analytics_agent.db.linked.link import link_sources
    from analytics_agent.db.linked.store import read_sources

    with duckdb.connect(str(db), read_only=True) as conn:
        link_sources(conn, [s for s in read_sources() if s.applies_to(db)])
        return conn.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()


def _described(db: Path, tmp_path: Path) -> dict[str, tuple[str, str | None]]:
    out = ok(["--db", str(db), "tools", "call", "describe_table", '{"table": "m"}'], tmp_path).stdout
    return {c["name"]: (c["type"], c.get("unit")) for c in json.loads(out)["columns"]}


def test_amounts_read_as_the_load_stores_them_cell_by_cell(tmp_path):
    loaded, in_place, _, _ = _both(tmp_path, MONEY)
    with duckdb.connect(str(loaded), read_only=True) as conn:
        stored = conn.execute("SELECT * FROM m ORDER BY ALL").fetchall()
    read = _view_rows(in_place, "m")
    assert len(read) == len(stored) == len(MEANT)
    for got, want, meant in zip(read, stored, MEANT, strict=True):
        assert got[0] == want[0] == meant[0]
        for g, w, m in zip(got[1:], want[1:], meant[1:], strict=True):
            assert (g, w) == ((None, None) if m is None else (pytest.approx(m), pytest.approx(m)))
    in_view, in_table = _described(in_place, tmp_path), _described(loaded, tmp_path)
    assert in_view == in_table
    assert {c: u for c, (t, u) in in_view.items() if u} == UNITS
    metric = {"table": "m", "metrics": [{"fn": "sum", "column": c} for c in ("price", "share", "net", "eur")]}
    sums = [
        json.loads(ok(["--db", str(db), "tools", "call", "aggregate", json.dumps(metric)], tmp_path).stdout)
        for db in (loaded, in_place)
    ]
    assert sums[0]["rows"] == sums[1]["rows"] == [[pytest.approx(v) for v in (1239.5, 20.5, 913.9, 1238)]]


def test_the_note_is_the_loads_own_line(tmp_path):
    _, _, load_notes, source_notes = _both(tmp_path, MONEY)
    said = [n for n in load_notes if n.startswith("note: amounts stored as numbers")]
    assert len(said) == 1 and "share '12%' -> 12 (%, not 0.12)" in said[0]
    # the same line; only the option that keeps a column text is sources add's own
    assert said[0].replace("add --type price=", "add --column-type price=") in source_notes


def test_a_column_that_stays_text_is_said_in_the_loads_words_and_stays_text(tmp_path):
    text = (
        "item,mixed,odd\n"
        + "".join(f"{i},{'$' if i % 2 else '€'}{i}.00,${i}.50\n" for i in range(1, 9))
        + "9,$9.00,TBD\n"
    )  # mixed: two currencies; odd: every value a dollar amount but one
    loaded, in_place, load_notes, source_notes = _both(tmp_path, text)
    for column in ("mixed", "odd"):
        said = [n for n in load_notes if n.startswith(f"note: {column} stayed text")]
        assert len(said) == 1 and said[0] in source_notes
    assert "more than one currency" in " ".join(load_notes) and "'TBD'" in " ".join(load_notes)
    assert _described(in_place, tmp_path) == _described(loaded, tmp_path)
    assert _described(in_place, tmp_path)["odd"] == ("VARCHAR", None)


def test_a_value_that_does_not_read_later_stops_the_question_naming_it(tmp_path):
    _, in_place, _, _ = _both(tmp_path, MONEY)
    metric = json.dumps({"table": "m", "metrics": [{"fn": "sum", "column": "price"}]})
    call = ["--db", str(in_place), "tools", "call", "aggregate", metric]
    assert json.loads(ok(call, tmp_path).stdout)["rows"] == [[pytest.approx(1239.5)]]  # profile cached
    with (tmp_path / "data.csv").open("a", encoding="utf-8") as fh:
        fh.write('d,"$1,2x",2%,1.00,"1,00 €"\n')  # no amount: never a NULL or another number
    failed = run(call, tmp_path)
    said = failed.stdout + failed.stderr
    assert failed.returncode == 1 and said.count("\n") == 1
    assert "price holds '$1,2x', not an amount as its values were when the source was added" in said
    assert "Traceback" not in said


def _config() -> dict:
    return tomllib.loads(
        (Path(os.environ["XDG_CONFIG_HOME"]) / "analytics-agent" / "sources.toml").read_text()
    )


def test_a_folder_of_csv_files_is_pinned_and_a_file_that_does_not_fit_is_named(tmp_path):
    folder = tmp_path / "exports"
    (folder / "2024").mkdir(parents=True)
    (folder / "a.csv").write_text("Sale Day;Net Amount\n01/02/2024;1,5\n", encoding="utf-8")
    (folder / "2024" / "b.csv").write_text("Sale Day;Net Amount\n28/02/2024;2,25\n", encoding="utf-8")
    in_place = tmp_path / "in_place.duckdb"
    duckdb.connect(str(in_place)).close()
    add = [
        "--db",
        str(in_place),
        "sources",
        "add",
        "exp",
        "--type",
        "files",
        "--path",
        "exports",
        "--decimal",
        ",",
    ]
    ok(add, tmp_path)
    read = _config()["exp"]["read"]
    assert read["delim"] == ";" and read["union_by_name"] is True
    assert read["types"] == {"Sale Day": "DATE", "Net Amount": "DOUBLE"}  # day-first, as a load reads them
    (folder / "c.csv").write_text("Sale Day;Net Amount\n03/03/2024;0,25\n", encoding="utf-8")  # fits
    metric = json.dumps(
        {"table": "exp", "metrics": [{"fn": "sum", "column": "net_amount"}], "group_by": ["sale_day"]}
    )
    call = ["--db", str(in_place), "tools", "call", "aggregate", metric]
    rows = json.loads(ok(call, tmp_path).stdout)["rows"]
    assert rows == [["2024-02-01", 1.5], ["2024-02-28", 2.25], ["2024-03-03", 0.25]]
    (folder / "d.csv").write_text("Sale Day,Net Amount\n04/03/2024,9\n", encoding="utf-8")  # commas
    listed = run(["--db", str(in_place), "tables"], tmp_path)
    said = [line for line in listed.stderr.splitlines() if "d.csv" in line]
    assert len(said) == 1 and "does not fit the reading pinned when the source was added" in said[0]
    assert "'Sale Day,Net Amount'" in said[0]
    assert run(call, tmp_path).returncode == 1  # no sum without the file's rows

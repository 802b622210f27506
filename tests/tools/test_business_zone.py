"""The database's business time zone set once (issue 20): ``load --timezone`` and the Python API's
``load(timezone=...)`` write it where the semantic layer reads it, so ``aggregate``, ``describe_table``
and the system prompt follow it; the load says so and how to change it; ``semantic init`` keeps it, and
proposes it from nycflights13-like data (a zoned ``time_hour`` beside the local ``hour``) spread over a
year with DST, whose first rows are all one winter month."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
import yaml
from typer.testing import CliRunner

import analytics_agent.api as aa
from analytics_agent.cli.app import app
from analytics_agent.tools.catalog.schema_text import schema_lines
from analytics_agent.tools.semantic.load import semantic_path_for
from analytics_agent.tools.semantic.zone_file import with_zone
from analytics_agent.workspace.workspace import Workspace

# 00:30 UTC on 2 Jan is still 1 Jan in New York
CSV = "ts,amount\n2013-01-02 00:30:00+00,5\n2013-01-02 15:00:00+00,7\n"


def run(db: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--db", str(db), *args])
    error = result.exception  # our errors reach the console entry point, which prints their one line
    said = "" if error is None or isinstance(error, SystemExit) else f"error: {error}"
    return result.exit_code, result.output + said


def days(db: Path) -> list[list[object]]:
    with Workspace.open(db, timezone="UTC") as ws:  # the machine's zone, which the database's overrides
        out = ws.executor.execute(
            "aggregate",
            json.dumps({"table": "t", "metrics": [{"fn": "sum", "column": "amount"}], "time_grain": "day"}),
        )
    assert not out.is_error, out.text
    return json.loads(out.text)["rows"]


def test_load_timezone_sets_the_zone_everything_reads_and_says_how_to_change_it(tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text(CSV, encoding="utf-8")
    db = tmp_path / "shop.duckdb"
    code, out = run(db, "load", str(csv), "--table", "t", "--timezone", "America/New_York")
    assert code == 0, out
    assert "business time zone set to America/New_York in new file shop.semantic.yaml" in out
    assert yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8")) == {
        "timezone": "America/New_York"
    }
    assert days(db) == [["2013-01-01", 5], ["2013-01-02", 7]]
    with Workspace.open(db, timezone="UTC") as ws:
        described = json.loads(ws.executor.execute("describe_table", '{"table": "t"}').text)
        _, prompt_zone = schema_lines(ws.registry)
    assert described["time_zone"].startswith("America/New_York") and prompt_zone == "America/New_York"

    code, out = run(db, "load", str(csv), "--table", "t", "--replace", "--timezone", "UTC")
    assert code == 0, out
    assert "(was America/New_York;" in out and "load --timezone America/New_York" in out
    assert days(db) == [["2013-01-02", 12]]


def test_an_unknown_zone_is_refused_before_anything_is_loaded(tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text(CSV, encoding="utf-8")
    db = tmp_path / "shop.duckdb"
    code, out = run(db, "load", str(csv), "--table", "t", "--timezone", "America/Nw_York")
    assert code != 0 and "'America/Nw_York' is not known" in out and "nothing was loaded" in out
    assert not semantic_path_for(db).exists()
    if db.exists():
        with duckdb.connect(str(db)) as conn:
            assert conn.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_name = 't'"
            ).fetchone() == (0,)


def test_the_python_api_load_sets_the_zone_and_keeps_the_rest_of_the_file(tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text(CSV, encoding="utf-8")
    db = tmp_path / "shop.duckdb"
    ws = aa.open(db)
    ws.load(csv, table="t")
    semantic_path_for(db).write_text("# mine\ntables:\n  t:\n    description: My table.\n", encoding="utf-8")
    loaded = ws.load(csv, table="t", replace=True, timezone="America/New_York")
    assert any("business time zone set to America/New_York" in n for n in loaded.notes)
    assert "America/New_York" in str(loaded)
    assert ws.describe("t").value["time_zone"].startswith("America/New_York")  # type: ignore[index]
    text = semantic_path_for(db).read_text(encoding="utf-8")
    assert text == "# mine\ntimezone: America/New_York\ntables:\n  t:\n    description: My table.\n"
    assert days(db) == [["2013-01-01", 5], ["2013-01-02", 7]]


def test_a_zone_only_file_keeps_the_sample_databases_shipped_model(sample_db):
    semantic_path_for(sample_db).write_text("timezone: Asia/Kolkata\n", encoding="utf-8")
    with Workspace.open(sample_db, timezone="UTC") as ws:
        described = json.loads(ws.executor.execute("describe_table", '{"table": "orders"}').text)
        assert not ws.problems
    assert described["metrics"] != "none"  # the shipped metrics are still there


def test_with_zone_replaces_only_the_top_level_line():
    text = 'timezone: UTC  # old\ntables:\n  t:\n    description: "timezone: x"\n'
    assert with_zone(text, "Asia/Tokyo") == (
        'timezone: Asia/Tokyo\ntables:\n  t:\n    description: "timezone: x"\n',
        "UTC",
    )
    assert with_zone(text, "UTC") == (text, "UTC")  # unchanged, its comment kept


def nyc_like(path: Path, zone: str) -> Path:
    """time_hour (TIMESTAMPTZ) and the local year/month/day/hour it was made from, every 3 hours of 2013,
    sorted: the first 2,000 rows are all winter. One row sits in the spring-forward gap (02:00 local on
    10 March does not exist; the instant is 03:00), as a generator writes it."""
    with duckdb.connect(str(path)) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        conn.execute(
            f"""CREATE TABLE flights AS SELECT year(l) AS year, month(l) AS month, day(l) AS day,
                hour(l) AS hour, l AT TIME ZONE '{zone}' AS time_hour, (i % 7) AS dep_delay,
                ['AA', 'UA', 'DL'][i % 3 + 1] AS carrier
            FROM (SELECT i, TIMESTAMP '2013-01-01 05:00:00' + INTERVAL (i * 3) HOUR AS l FROM range(2900) t(i))
            ORDER BY time_hour"""
        )
    return path


@pytest.mark.parametrize("zone", ["America/New_York", "Europe/London"])
def test_semantic_init_proposes_the_zone_of_nycflights13_like_data(tmp_path, zone):
    db = nyc_like(tmp_path / "nyc.duckdb", zone)
    code, out = run(db, "semantic", "init")
    assert code == 0, out
    assert f"Business time zone: {zone}" in out
    assert yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8"))["timezone"] == zone


def test_semantic_init_replaces_a_zone_only_file_and_keeps_its_zone(tmp_path):
    db = nyc_like(tmp_path / "nyc.duckdb", "America/New_York")
    semantic_path_for(db).write_text("timezone: Asia/Tokyo\n", encoding="utf-8")
    code, out = run(db, "semantic", "init")
    assert code == 0, out
    assert "Asia/Tokyo (kept from the previous nyc.semantic.yaml)" in out
    data = yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8"))
    assert data["timezone"] == "Asia/Tokyo" and "flights" in data["tables"]


def nyc_like_csv(path: Path, zone: str) -> Path:
    """``nyc_like``'s table as a CSV file, its instants written in UTC (``...Z``), as nycflights13 ships."""
    db = nyc_like(path.with_suffix(".duckdb"), zone)
    with duckdb.connect(str(db)) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        conn.execute(
            f"COPY (SELECT year, month, day, hour, strftime(time_hour, '%Y-%m-%dT%H:%M:%SZ') AS time_hour, "
            f"dep_delay, carrier FROM flights) TO '{path}' (HEADER)"
        )
    db.unlink()
    return path


@pytest.mark.parametrize("zone", ["America/New_York", "Europe/London"])
def test_a_plain_load_sets_the_zone_its_data_shows_and_says_it_in_one_line(tmp_path, zone):
    csv = nyc_like_csv(tmp_path / "flights.csv", zone)
    db = tmp_path / "nyc.duckdb"
    code, out = run(db, "load", str(csv))
    assert code == 0, out
    said = [line for line in out.splitlines() if "business time zone" in line]
    assert len(said) == 1 and f"set to {zone} in new file nyc.semantic.yaml, read from the data" in said[0]
    assert "--timezone ZONE" in said[0]
    assert yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8")) == {"timezone": zone}
    with Workspace.open(db, timezone="UTC") as ws:  # days counted in the business zone, not the machine's
        out = ws.executor.execute(
            "aggregate", {"table": "flights", "group_by": ["time_hour.hour"], "order_by": "time_hour.hour"}
        )
        hours = [r[0] for r in json.loads(out.text)["rows"]]
        truth = ws.cursor().execute("SELECT DISTINCT hour FROM flights ORDER BY 1").fetchall()
    # the local hour column's hours, not UTC's; in New York the one row in the spring-forward gap (02:00
    # does not exist) is the instant 03:00
    assert set(hours) - {3} == {h for (h,) in truth}


def test_a_zone_the_user_stated_is_kept_and_utc_data_sets_nothing(tmp_path):
    csv = nyc_like_csv(tmp_path / "flights.csv", "America/New_York")
    db = tmp_path / "nyc.duckdb"
    semantic_path_for(db).write_text("timezone: Asia/Tokyo\n", encoding="utf-8")
    code, out = run(db, "load", str(csv))
    assert code == 0 and "business time zone" not in out, out
    assert yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8")) == {"timezone": "Asia/Tokyo"}
    utc = nyc_like_csv(tmp_path / "utc.csv", "UTC")
    other = tmp_path / "other.duckdb"
    code, out = run(other, "load", str(utc))
    assert code == 0 and "business time zone" not in out and not semantic_path_for(other).exists()


def test_the_python_api_load_sets_the_zone_its_data_shows(tmp_path):
    csv = nyc_like_csv(tmp_path / "flights.csv", "America/New_York")
    db = tmp_path / "nyc.duckdb"
    with aa.open(db) as ws:
        loaded = ws.load(csv)
    assert any("set to America/New_York" in note for note in loaded.notes)
    assert yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8")) == {
        "timezone": "America/New_York"
    }

"""``semantic init`` as a useful starter (issues 20 and 25): what one row is, measures with their natural
aggregate and never sums of clock times, ids, zone offsets or years, dimensions that are labels not free
text, the business zone the data tells, the sample's shipped model kept, an existing file never replaced
silently."""

from __future__ import annotations

from pathlib import Path

import duckdb
import yaml
from real_data import build_real_db
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.tools.semantic.load import semantic_path_for


def init(db: Path, *extra: str) -> str:
    result = CliRunner().invoke(app, ["--db", str(db), "semantic", "init", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_starter_of_the_flights_exports_is_a_useful_model(tmp_path):
    db = build_real_db(tmp_path / "real.duckdb")
    out = init(db)
    data = yaml.safe_load(semantic_path_for(db).read_text(encoding="utf-8"))
    # time_hour at 05:00 New York time sits beside hour 5 on every row: the data tells the zone
    assert data["timezone"] == "America/New_York" and "America/New_York" in out
    flights = data["tables"]["flights"]
    metrics = {name: (m["fn"], m.get("column")) for name, m in flights["metrics"].items()}
    columns = {c for _, c in metrics.values()}
    assert metrics["avg_arr_delay"] == ("avg", "arr_delay") and metrics["total_distance"] == (
        "sum",
        "distance",
    )
    assert not columns & {"dep_time", "sched_dep_time", "arr_time", "year", "month", "day", "hour", "flight"}
    assert "tz" not in {m.get("column") for m in data["tables"]["airports"]["metrics"].values()}
    assert data["tables"]["airlines"]["description"].startswith("One row per carrier")
    assert "carrier" in data["tables"]["flights"]["dimensions"]
    assert "<unit" in semantic_path_for(db).read_text(encoding="utf-8")  # placeholders to fill in
    result = CliRunner().invoke(app, ["--db", str(db), "semantic", "check"])
    assert result.exit_code == 0, result.output


def test_free_text_is_not_a_dimension(tmp_path):
    db = tmp_path / "notes.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(
            "CREATE TABLE visits AS SELECT * FROM (VALUES ('north', 'the customer called twice about the late parcel', 3), "
            "('south', 'ok', 4)) t(region, comment, amount)"
        )
    from analytics_agent.db.catalog import get_profile
    from analytics_agent.tools.aggregate.tool import read_catalog
    from analytics_agent.tools.semantic.starter import starter_yaml

    with duckdb.connect(str(db)) as conn:
        catalog = read_catalog(conn)
        text = starter_yaml(catalog, [], {t: get_profile(conn, t) for t in catalog})
    dims = yaml.safe_load(text)["tables"]["visits"]["dimensions"]
    assert "region" in dims and "comment" not in dims


def test_init_on_the_sample_database_starts_from_its_shipped_model(sample_db, tmp_path):
    db = sample_db
    out = init(db)
    text = semantic_path_for(db).read_text(encoding="utf-8")
    assert "shipped" in out and "revenue:" in text  # the metric the docs promise is still there


def test_an_existing_file_is_replaced_only_with_force_and_kept_as_bak(sample_db, tmp_path):
    db = sample_db
    semantic_path_for(db).write_text("tables: {}\n", encoding="utf-8")
    refused = CliRunner().invoke(app, ["--db", str(db), "semantic", "init"])
    assert refused.exit_code != 0 and "already exists" in str(refused.exception)
    out = init(db, "--force")
    assert "kept as" in out
    assert (
        semantic_path_for(db).with_name(semantic_path_for(db).name + ".bak").read_text(encoding="utf-8")
        == "tables: {}\n"
    )


def test_check_prints_each_mistake_once_with_a_counted_noun(tmp_path):
    from cli_process import run_cli

    db = build_real_db(tmp_path / "real.duckdb")
    init(db)
    path = semantic_path_for(db)
    good = path.read_text(encoding="utf-8")
    path.write_text(good.replace("column: dep_delay,", "column: dep_delayx,"), encoding="utf-8")
    one = run_cli(["--db", str(db), "semantic", "check"], cwd=tmp_path)
    assert one.returncode == 1
    assert one.stderr.count("dep_delayx") == 1, one.stderr  # the workspace's warning is not printed too
    assert one.stdout.rstrip().endswith(", 1 problem"), one.stdout
    path.write_text(
        good.replace("column: dep_delay,", "column: dep_delayx,").replace(
            "column: distance,", "column: distancex,"
        ),
        encoding="utf-8",
    )
    two = run_cli(["--db", str(db), "semantic", "check"], cwd=tmp_path)
    assert two.stderr.count("error: ") == 2 and "warning" not in two.stderr, two.stderr
    assert two.stdout.rstrip().endswith(", 2 problems"), two.stdout


def test_numbers_the_data_shows_are_ids_or_clock_times_get_no_sum(tmp_path):
    db = tmp_path / "trips.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(
            "CREATE TABLE trips AS SELECT i AS ticket, (5 + i % 18) * 100 + (i * 7) % 60 AS depart, "
            "i % 90 + 10 AS fare_amount, i % 7 AS sample_number, 0.5 + i % 11 AS ratio_c13, "
            "(i * 37) % 360 AS wind_dir FROM range(200) t(i)"
        )
    init(db)
    text = semantic_path_for(db).read_text(encoding="utf-8")
    metrics = yaml.safe_load(text)["tables"]["trips"]["metrics"]
    fns = {m.get("column"): m["fn"] for m in metrics.values()}
    assert fns == {None: "count", "fare_amount": "sum", "ratio_c13": "avg"}, fns
    assert "# ticket: no measure, an id" in text and "# depart: no measure, a clock time" in text


def test_the_closing_hint_repeats_the_db_and_runs_as_printed(tmp_path, monkeypatch):
    """The hint named `analytics-agent semantic check` without the --db init was given: run as printed, it
    checked the default database's file, not this one's."""
    import shlex

    folder = tmp_path / "my data"
    folder.mkdir()
    db = build_real_db(folder / "real.duckdb")
    monkeypatch.chdir(tmp_path)
    out = init(db)
    hint = out.split("Edit it, then: ", 1)[1].splitlines()[0]
    assert hint == f"analytics-agent --db {shlex.quote(str(db))} semantic check"
    checked = CliRunner().invoke(app, shlex.split(hint)[1:])
    assert checked.exit_code == 0, checked.output
    assert checked.output.startswith(f"{semantic_path_for(db)}: ")


def test_init_on_your_own_orders_and_customers_starts_from_the_data(tmp_path):
    """Tables named like the sample's but with other columns: the shipped model does not fit (its columns
    are not there), so the starter is drawn from the data, and `semantic check` finds nothing to warn."""
    from tests.normalized_db import build_normalized_db

    db = tmp_path / "own.duckdb"
    build_normalized_db(db)
    out = init(db)
    assert "shipped" not in out and "Wrote" in out and "12 tables" in out
    text = semantic_path_for(db).read_text(encoding="utf-8")
    assert set(yaml.safe_load(text)["tables"]) >= {"orders", "customers", "order_lines"}
    checked = CliRunner().invoke(app, ["--db", str(db), "semantic", "check"])
    assert checked.exit_code == 0, checked.output
    assert "warning" not in checked.output and "no column" not in checked.output

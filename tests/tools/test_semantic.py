"""The semantic file: read with line numbers, checked against a real database with one sentence per
mistake, used by aggregate by name (enums, synonyms), and written as a starting file from the data."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import duckdb
import pytest
import yaml
from real_data import build_real_db

from analytics_agent.db.catalog import get_profile
from analytics_agent.db.relationships import read_relationships
from analytics_agent.errors import SemanticModelError
from analytics_agent.tools.aggregate.tool import read_catalog
from analytics_agent.tools.semantic.check import check_semantic
from analytics_agent.tools.semantic.model import parse_semantic
from analytics_agent.tools.semantic.starter import starter_yaml
from analytics_agent.workspace.workspace import Workspace


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_real_db(tmp_path_factory.mktemp("sem") / "real.duckdb")


def check(db: Path, text: str) -> tuple[object, list[str]]:
    with duckdb.connect(str(db), read_only=True) as conn:
        file = parse_semantic(textwrap.dedent(text), path="m.yaml")
        semantics, problems = check_semantic(file, read_catalog(conn), read_relationships(conn), conn)
    return semantics, [str(p) for p in problems]


def test_text_that_is_not_yaml_names_the_line_where_it_breaks():
    text = "tables:\n  flights:\n    metrics:\n      late: {fn: count\n    where: x\n"
    with pytest.raises(SemanticModelError) as info:
        parse_semantic(text, path="m.yaml")
    message = str(info.value)
    assert message.startswith("m.yaml:5: not valid YAML") and "\n" not in message


def test_a_key_given_twice_and_an_unknown_key_are_each_one_line_with_its_number():
    with pytest.raises(
        SemanticModelError,
        match=r"^m\.yaml:3: not valid YAML: 'flights' is defined twice \(first on line 2\)$",
    ):
        parse_semantic("tables:\n  flights: {}\n  flights: {}\n", path="m.yaml")
    file = parse_semantic("tables:\n  flights:\n    metircs:\n      n: {fn: count}\n", path="m.yaml")
    assert [str(p) for p in file.problems] == [
        "m.yaml:3: flights: unknown key 'metircs'; did you mean 'metrics'?; keys: description, time_column, "
        "relationships, dimensions, metrics"
    ]


def test_a_column_the_table_no_longer_has_is_one_clear_sentence(tmp_path):
    db = tmp_path / "shop.duckdb"
    text = """\
        tables:
          orders:
            metrics:
              revenue: {fn: sum, column: amount, where: "status != 'cancelled'"}
              orders: {fn: count}
        """
    with duckdb.connect(str(db)) as conn:
        conn.execute("CREATE TABLE orders AS SELECT 1 AS id, 10 AS amount, 'paid' AS status")
    assert check(db, text)[1] == []
    with duckdb.connect(str(db)) as conn:  # the column is renamed by a reload
        conn.execute("CREATE OR REPLACE TABLE orders AS SELECT 1 AS id, 10 AS amount_inr, 'paid' AS status")
    semantics, problems = check(db, text)
    assert problems == [
        "m.yaml:4: orders.metrics.revenue: orders has no column 'amount' (dropped or renamed?); "
        "did you mean 'amount_inr'?"
    ]
    assert list(semantics.metrics) == ["orders"]  # the rest of the file still works


def test_each_mistake_against_the_catalog_is_reported_on_its_own_line(real_db):
    with duckdb.connect(str(real_db), read_only=True) as conn:
        dupes = conn.execute("SELECT count(*) - count(DISTINCT year) FROM planes").fetchone()[0]
    _, problems = check(
        real_db,
        """\
        tables:
          flight:
            metrics: {n: {fn: count}}
          flights:
            time_column: carrier
            relationships:
              tailnum: planes.year
            dimensions:
              maker: {column: planez.manufacturer}
            metrics:
              late: {fn: pct, where: arr_dealy > 15}
              mean: {fn: average, column: arr_delay}
              per_mile: {ratio: [late, miles]}
        """,
    )
    assert problems == [
        "m.yaml:2: table 'flight' is not in the database; did you mean 'flights'?; its definitions are skipped",
        "m.yaml:4: flights.time_column: carrier is VARCHAR, not a date",
        f"m.yaml:7: flights.relationships.tailnum: planes.year is not a unique key ({dupes} rows repeat a value or "
        "are empty), so joining to it would repeat rows and double-count; point at a column with one row per value",
        "m.yaml:9: flights.dimensions.maker: no relationship or table 'planez'; did you mean 'planes'?",
        "m.yaml:11: flights.metrics.late: flights has no column 'arr_dealy'; did you mean 'arr_delay'?; "
        "columns: year, month, day, dep_time, sched_dep_time, dep_delay, arr_time, sched_arr_time, arr_delay, "
        "carrier, flight, tailnum, origin, dest, air_time, distance, hour, minute, time_hour; related: "
        "airlines.<column of airlines>, dest.<column of airports>, origin.<column of airports>, "
        "planes.<column of planes>; date parts: time_hour.<day|week|month|quarter|year|decade|day_of_week|hour|"
        "month_of_year>",
        "m.yaml:12: flights.metrics.mean: fn 'average' is not one of count, sum, avg, min, max, count_distinct, "
        "median, stddev, p90, p95, p99, pct; did you mean 'avg'?",
        "m.yaml:13: flights.metrics.per_mile: ratio names 'miles', not a metric of flights",
    ]


def test_a_declared_relationship_replaces_or_removes_an_inferred_one(real_db):
    semantics, problems = check(
        real_db,
        """\
        tables:
          flights:
            relationships: {dest: null, carrier: airlines.carrier}
          planes:
            relationships: {manufacturer: null}
        """,
    )
    assert problems == []
    links = {(r.table, r.column): r.declared for r in semantics.relationships}
    assert ("flights", "dest") not in links and links[("flights", "carrier")] is True
    assert links[("flights", "origin")] is False


@pytest.fixture
def real_ws(real_db, tmp_path):
    db = tmp_path / "real.duckdb"
    shutil.copyfile(real_db, db)
    (tmp_path / "real.semantic.yaml").write_text(
        (Path(__file__).parents[1] / "data" / "real.semantic.yaml").read_text(encoding="utf-8")
        + "      broken: {fn: sum, column: wingspan}\n",
        encoding="utf-8",
    )
    with Workspace.open(db, timezone="America/New_York") as ws:
        yield ws


def test_the_workspace_reports_the_files_problems_and_offers_its_good_metrics_as_an_enum(real_ws):
    path = real_ws.db_path.with_name("real.semantic.yaml")
    line = len(path.read_text(encoding="utf-8").splitlines())  # the broken metric is the last line
    assert [str(p) for p in real_ws.problems] == [
        f"{path}:{line}: penguins.metrics.broken: penguins has no column 'wingspan' (dropped or renamed?)"
    ]
    schema = real_ws.registry.schema("aggregate")
    names = schema["properties"]["metrics"]["items"]["properties"]["metric"]["enum"]
    assert "on_time_rate" in names and "broken" not in names


def test_named_metrics_and_dimension_synonyms_answer_like_the_sql(real_ws):
    call = {"table": "flights", "group_by": ["carrier name"], "metrics": [{"metric": "cancelled_pct"}]}
    out = real_ws.executor.execute("aggregate", json.dumps(call))
    got = dict(map(tuple, json.loads(out.text)["rows"]))
    rows = (
        real_ws.cursor()
        .execute(
            "SELECT a.name, 100.0 * count(*) FILTER (WHERE dep_time IS NULL) / count(*) FROM flights "
            "JOIN airlines a USING (carrier) GROUP BY 1"
        )
        .fetchall()
    )
    assert got.keys() == {n for n, _ in rows}
    assert all(abs(got[n] - v) < 1e-3 for n, v in rows)


def test_an_unknown_metric_or_dimension_is_one_sentence_with_the_real_names(real_ws):
    out = real_ws.executor.execute("aggregate", {"table": "flights", "metrics": [{"metric": "on_time"}]})
    assert out.is_error and "on_time_rate" in out.text and len(out.text.splitlines()) == 1
    out = real_ws.executor.execute(
        "aggregate", {"table": "penguins", "metrics": [{"metric": "on_time_rate"}]}
    )
    assert out.text == "Error: metrics: on_time_rate is a metric of flights; ask with table 'flights'"
    out = real_ws.executor.execute("aggregate", {"table": "flights", "group_by": ["airlin"]})
    assert "did you mean 'airline'" in out.text


def test_describe_table_lists_related_tables_metrics_and_dimensions(real_ws):
    out = json.loads(real_ws.executor.execute("describe_table", {"table": "flights"}).text)
    assert out["related"]["origin"] == "origin -> airports.faa"
    assert out["metrics"]["on_time_rate"].startswith("pct(arr_delay) where arr_delay <= 15")
    assert out["dimensions"]["carrier name"] == "airlines.name"


def test_the_starting_file_from_the_data_reads_and_checks_without_a_problem(real_db):
    with duckdb.connect(str(real_db), read_only=True) as conn:
        catalog = read_catalog(conn)
        text = starter_yaml(catalog, read_relationships(conn), {t: get_profile(conn, t) for t in catalog})
    data = yaml.safe_load(text)
    assert data["tables"]["flights"]["relationships"]["origin"] == "airports.faa"
    assert data["tables"]["flights"]["time_column"] == "time_hour"
    semantics, problems = check(real_db, text)
    assert problems == [] and "flights_count" in semantics.metrics


def test_the_sample_database_gets_the_bundled_revenue_definition(sample_db):
    with Workspace.open(sample_db) as ws:
        assert ws.problems == []
        out = json.loads(
            ws.executor.execute("aggregate", {"table": "orders", "metrics": [{"metric": "revenue"}]}).text
        )
        expected = (
            ws.cursor()
            .execute("SELECT sum(amount) FROM orders WHERE status NOT IN ('cancelled', 'returned')")
            .fetchone()[0]
        )
    assert out["rows"] == [[expected]]


def test_a_defined_metric_may_name_a_value_not_seen_yet_and_a_dimension_may_be_a_date_part(real_db, tmp_path):
    """The user's own definition is trusted (a status that has not happened yet), where the same condition
    sent by a model is refused as a likely misspelling; 'weekday' names a date part."""
    db = tmp_path / "own.duckdb"
    shutil.copyfile(real_db, db)
    (tmp_path / "own.semantic.yaml").write_text(
        "tables:\n  flights:\n    dimensions:\n      weekday: {column: time_hour.day_of_week}\n"
        "    metrics:\n      ua_or_zz: {fn: count, where: \"carrier in ('UA', 'ZZ')\"}\n",
        encoding="utf-8",
    )
    with Workspace.open(db, timezone="America/New_York") as ws:
        assert ws.problems == []
        call = {"table": "flights", "group_by": ["weekday"], "metrics": [{"metric": "ua_or_zz"}]}
        got = json.loads(ws.executor.execute("aggregate", json.dumps(call)).text)["rows"]
        want = (
            ws.cursor()
            .execute(
                "SELECT ['Mon','Tue','Wed','Thu','Fri','Sat','Sun'][isodow(make_date(year, month, day))], "
                "count(*) FILTER (WHERE carrier = 'UA') FROM flights GROUP BY isodow(make_date(year, month, day)) "
                "ORDER BY isodow(make_date(year, month, day))"
            )
            .fetchall()
        )
        assert got == [list(r) for r in want]
        own = {"table": "flights", "metrics": [{"fn": "count", "where": "carrier in ('UA', 'ZZ')"}]}
        assert ws.executor.execute("aggregate", json.dumps(own)).text == "Error: no rows where carrier = 'ZZ'"


def _copy_with_semantic(real_db: Path, folder: Path, text: str) -> Path:
    db = folder / "real.duckdb"
    shutil.copy(real_db, db)
    (folder / "real.semantic.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return db


def test_a_broken_semantic_file_is_named_in_the_error_the_model_reads(real_db, tmp_path):
    """Its one metric had a misspelt key, so it was skipped and no metric exists: the model asking for it
    read "metrics.0.metric: Extra inputs are not permitted" and nothing about the file."""
    db = _copy_with_semantic(
        real_db, tmp_path, "tables:\n  flights:\n    metrics:\n      late: {fn: count, colour: red}\n"
    )
    with Workspace.open(db) as ws:
        outcome = ws.executor.execute("aggregate", {"table": "flights", "metrics": [{"metric": "late"}]})
    assert outcome.is_error
    lines = outcome.text.removeprefix("Error: ").splitlines()
    assert lines[0] == (
        "metrics.0.metric: there is no named metric (the semantic file's metrics were skipped); "
        "give fn and column instead"
    )
    assert lines[1].startswith(f"the semantic file has problems: {tmp_path / 'real.semantic.yaml'}:4: ")
    assert "unknown key 'colour'" in lines[1] and "Extra inputs" not in outcome.text


def test_a_metric_skipped_beside_good_ones_is_explained_by_the_file(real_db, tmp_path):
    text = """\
        tables:
          flights:
            metrics:
              flights_flown: {fn: count}
              late: {fn: count, colour: red}
        """
    db = _copy_with_semantic(real_db, tmp_path, text)
    with Workspace.open(db) as ws:
        bad = ws.executor.execute("aggregate", {"table": "flights", "metrics": [{"metric": "late"}]})
        good = ws.executor.execute(
            "aggregate", {"table": "flights", "metrics": [{"metric": "flights_flown"}]}
        )
    assert bad.is_error and "real.semantic.yaml:5: " in bad.text and "unknown key 'colour'" in bad.text
    assert not good.is_error and json.loads(good.text)["rows"] == [[2909]]


def test_without_a_semantic_file_no_metric_says_to_give_fn_and_column(real_db, tmp_path):
    db = tmp_path / "real.duckdb"
    shutil.copy(real_db, db)
    with Workspace.open(db) as ws:
        outcome = ws.executor.execute("aggregate", {"table": "flights", "metrics": [{"metric": "late"}]})
    assert outcome.text == (
        "Error: metrics.0.metric: there is no named metric (none is defined); give fn and column instead"
    )

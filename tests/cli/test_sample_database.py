"""Without --db, a load goes into the sample database: the summary says so, and how to keep tables apart;
a sample table is not dropped without asking, and the refusal says how the sample comes back (issue 36)."""

from __future__ import annotations

import duckdb
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.paths import builtin_db_path

AIRLINES = "carrier,name\nUA,United\nAA,American\n"


def test_a_load_without_db_names_the_sample_database_it_went_into(tmp_path):
    csv = tmp_path / "airlines.csv"
    csv.write_text(AIRLINES, encoding="utf-8")
    result = CliRunner().invoke(app, ["load", str(csv)])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "sample database" in line]
    assert len(said) == 1 and str(builtin_db_path()) in said[0] and "--db FILE" in said[0]
    assert "analytics-agent drop airlines" in said[0]


def test_a_load_into_a_database_of_ones_own_says_nothing_of_the_sample(tmp_path):
    csv = tmp_path / "airlines.csv"
    csv.write_text(AIRLINES, encoding="utf-8")
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "own.duckdb"), "load", str(csv)])
    assert result.exit_code == 0 and "sample database" not in result.output


def test_a_sample_table_is_dropped_only_when_asked_and_the_refusal_says_how_to_get_it_back(tmp_path):
    runner = CliRunner()
    assert runner.invoke(app, ["tables"]).exit_code == 0  # makes the sample database
    refused = runner.invoke(app, ["drop", "orders"], input="")
    assert refused.exit_code == 1
    assert "orders is a sample table" in str(refused.exception) and "--yes" in str(refused.exception)
    assert f"remove {builtin_db_path()}" in str(refused.exception)
    with duckdb.connect(str(builtin_db_path()), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM orders").fetchone()[0] > 0  # still there
    dropped = runner.invoke(app, ["drop", "orders", "--yes"])
    assert dropped.exit_code == 0 and dropped.output.startswith("Dropped orders")

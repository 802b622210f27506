"""``tools call`` beyond the model's text: --chart, --chart-file, --sql, --csv, --json (real processes)."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET

import duckdb
import pytest
from cli_process import run_cli

TREND = ["tools", "call", "revenue_trend", '{"period": "2026-01-01..2026-10-31", "grain": "month"}']
RANKING = ["tools", "call", "city_ranking", '{"period": "2026-10-01..2026-10-31"}']
MONTHS = [f"2026-{m:02d}" for m in range(1, 11)]


@pytest.mark.parametrize("columns", [40, 80, 200])
def test_chart_draws_ten_months_under_the_result_within_the_terminal_width(sample_db, tmp_path, columns):
    result = run_cli(["--db", str(sample_db), *TREND, "--chart"], cwd=tmp_path, env={"COLUMNS": str(columns)})
    assert result.returncode == 0, result.stderr
    first, _, chart = result.stdout.partition("\n\n")
    assert len(json.loads(first)["rows"]) == 10
    lines = chart.splitlines()
    assert lines[0] == "revenue_trend: revenue by period"
    assert all(len(line) <= columns for line in lines)
    assert lines[-1].startswith("not drawn: orders")  # the measure left out is named under the chart
    labels = re.findall(r"2026-\d\d", lines[-2])
    assert labels[0] == "2026-01" and labels[-1] == "2026-10" and labels == sorted(labels)
    assert any(ch in chart for ch in "⠁⠂⠄⡀⠈⠐⠠⢀")  # braille dots drawn


def test_chart_file_svg_shows_the_same_ten_months(sample_db, tmp_path):
    path = tmp_path / "trend.svg"
    result = run_cli(["--db", str(sample_db), *TREND, "--chart-file", str(path)], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"Wrote the chart to {path}" in result.stderr
    root = ET.parse(path).getroot()
    points = root.findall(".//{http://www.w3.org/2000/svg}circle[@class='point']")
    assert [p.get("data-x")[:7] for p in points] == MONTHS
    with duckdb.connect(str(sample_db), read_only=True) as con:
        october = con.execute(
            "SELECT sum(amount) FROM orders WHERE status NOT IN ('cancelled', 'returned') "
            "AND day BETWEEN DATE '2026-10-01' AND DATE '2026-10-31'"
        ).fetchone()[0]
    assert float(points[-1].get("data-value")) == float(october)


def test_chart_file_html_opens_offline(sample_db, tmp_path):
    path = tmp_path / "rank.html"
    result = run_cli(["--db", str(sample_db), *RANKING, "--chart-file", str(path)], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page = path.read_text(encoding="utf-8")
    assert "<svg" in page and "Mumbai" in page and "http://" not in page.replace("http://www.w3.org", "")


def test_a_png_name_is_refused_with_what_to_do(sample_db, tmp_path):
    result = run_cli(["--db", str(sample_db), *TREND, "--chart-file", "trend.png"], cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("error: --chart-file trend.png: use a name ending in .svg")
    assert "rsvg-convert" in result.stderr and "Traceback" not in result.stderr


def test_a_result_that_makes_no_chart_says_so(sample_db, tmp_path):
    args = ["tools", "call", "sales_summary", '{"city": "Pune", "day": "2026-10-24"}', "--chart"]
    result = run_cli(["--db", str(sample_db), *args], cwd=tmp_path)
    assert result.returncode == 0
    assert result.stderr.startswith("no chart:")


def test_sql_prints_the_query_and_its_bound_values(sample_db, tmp_path):
    result = run_cli(["--db", str(sample_db), *TREND, "--sql"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("SELECT")
    assert '$period_start = "2026-01-01", $period_end = "2026-10-31", $grain = "month"' in result.stdout


def test_csv_has_a_header_and_every_row(sample_db, tmp_path):
    result = run_cli(["--db", str(sample_db), *RANKING, "--csv"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 10 and rows[0]["rank"] == "1"
    assert list(rows[0]) == ["rank", "city", "orders", "revenue", "revenue_pct", "avg_order_value"]


def test_json_carries_the_result_with_its_sql(sample_db, tmp_path):
    result = run_cli(["--db", str(sample_db), *TREND, "--json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["name"] == "revenue_trend" and data["arguments"]["grain"] == "month"
    assert len(data["result"]["rows"]) == 10 and "date_trunc" in data["sql"]
    assert data["params"] == {"period_start": "2026-01-01", "period_end": "2026-10-31", "grain": "month"}


def test_two_output_formats_at_once_are_refused(sample_db, tmp_path):
    result = run_cli(["--db", str(sample_db), *TREND, "--csv", "--json"], cwd=tmp_path)
    assert result.returncode == 2 and "choose one of --sql, --csv and --json" in result.stderr


def test_a_terminal_chart_never_mixes_into_csv_but_a_chart_file_can_go_with_it(sample_db, tmp_path):
    mixed = run_cli(["--db", str(sample_db), *RANKING, "--csv", "--chart"], cwd=tmp_path)
    assert mixed.returncode == 2 and "use --chart-file" in mixed.stderr and mixed.stdout == ""
    path = tmp_path / "rank.svg"
    both = run_cli(["--db", str(sample_db), *RANKING, "--csv", "--chart-file", str(path)], cwd=tmp_path)
    assert both.returncode == 0 and len(list(csv.reader(io.StringIO(both.stdout)))) == 11 and path.exists()

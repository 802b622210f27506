"""The Python API (``import analytics_agent as aa``) over real DuckDB files and a loopback model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from example_model import ExampleModel

import analytics_agent as aa
from analytics_agent.errors import AnalyticsAgentError, ConfigError, ExportError, LoadError, ToolError

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def test_import_stays_light() -> None:
    code = "import sys, analytics_agent; print(sorted(m for m in sys.modules if m.startswith(('analytics_agent.', 'duckdb'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"  # the API (and duckdb) load on first use of aa.open, not on import


def test_call_gives_columns_rows_sql_and_params(sample_db: Path) -> None:
    ws = aa.open(sample_db)
    r = ws.call("sales_summary", {"city": "Pune", "day": "2026-10-24"})
    assert r.value["orders"] == 3 and r.value["revenue"] == 4798
    assert r.columns[:3] == ["city", "day", "orders"]
    assert r.rows[0][:3] == ["Pune", "2026-10-24", 3]
    assert "FROM" in r.sql and "Pune" in json.dumps(r.params)


def test_load_then_aggregate_then_describe(tmp_path: Path) -> None:
    ws = aa.open(tmp_path / "flights.duckdb")
    assert ws.created
    loaded = ws.load(REAL / "flights.csv")
    assert (loaded.table, loaded.rows) == ("flights", 2909)
    assert ("time_hour", "TIMESTAMP WITH TIME ZONE") in loaded.columns
    r = ws.call("aggregate", {"table": "flights", "group_by": ["carrier"], "order_by": "-count", "limit": 3})
    assert r.columns == ["carrier", "count"]
    assert r.rows == [["UA", 535], ["B6", 499], ["EV", 421]]
    assert r.sql.startswith("SELECT") and "GROUP BY" in r.sql
    assert [row[0] for row in ws.tables().rows] == ["flights"]
    described = ws.describe("flights")
    assert described.columns[:3] == ["name", "type", "nulls"]
    assert described.rows[3][:3] == ["dep_time", "BIGINT", 75]


def test_a_load_returns_and_prints_the_links_it_found(tmp_path: Path) -> None:
    ws = aa.open(tmp_path / "flights.duckdb")
    ws.load(REAL / "flights.csv")
    loaded = ws.load(REAL / "airlines.csv")
    assert loaded.links == ("links: flights.carrier → airlines.carrier (by name)",)
    assert "links: flights.carrier → airlines.carrier (by name)" in str(loaded).splitlines()


def test_load_refuses_what_the_cli_refuses(tmp_path: Path) -> None:
    ws = aa.open(tmp_path / "x.duckdb")
    ws.load(REAL / "penguins.csv")
    with pytest.raises(LoadError, match="already exists"):
        ws.load(REAL / "penguins.csv")
    with pytest.raises(LoadError, match="contradict"):
        ws.load(REAL / "penguins.csv", replace=True, append=True)


def test_tools_lists_what_a_model_can_call(sample_db: Path) -> None:
    names = aa.open(sample_db).tools()
    assert "sales_summary" in names and "aggregate" in names and "run_sql" not in names
    assert "run_sql" in aa.open(sample_db, allow_sql=True).tools()


def test_a_failing_call_raises_the_models_message(sample_db: Path) -> None:
    ws = aa.open(sample_db)
    with pytest.raises(ToolError) as caught:
        ws.call("sales_summary", {"city": "Pune", "day": "24 Oct 2026"})
    assert str(caught.value) == "day: Input should be a valid date in YYYY-MM-DD format"
    assert isinstance(caught.value, AnalyticsAgentError)


def test_a_terminal_load_works_between_calls(tmp_path: Path) -> None:
    """The API lets go of the file after each call, so another process can write to it."""
    db = tmp_path / "shared.duckdb"
    ws = aa.open(db)
    ws.load(REAL / "airlines.csv")
    ws.call("list_tables", {})
    subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(db), "load", str(REAL / "penguins.csv")],
        check=True,
        capture_output=True,
    )
    assert sorted(row[0] for row in ws.tables().rows) == ["airlines", "penguins"]  # tools rebuilt


def test_frames_convert_a_real_result(sample_db: Path) -> None:
    """The test extra installs pandas, pyarrow and polars, so each conversion runs here (never skipped)."""
    r = aa.open(sample_db).call("city_ranking", {"period": "2026-10-01..2026-10-31"})
    assert r.rows and r.columns
    first = dict(zip(r.columns, r.rows[0], strict=True))
    frame = r.to_pandas()
    assert frame.shape == (len(r.rows), len(r.columns))
    assert frame.iloc[0].to_dict() == first
    table = r.to_arrow()
    assert table.num_rows == len(r.rows) and table.column_names == r.columns
    assert table.slice(0, 1).to_pylist() == [first]
    polars = r.to_polars()
    assert polars.shape == (len(r.rows), len(r.columns)) and polars.row(0, named=True) == first


@pytest.mark.parametrize(
    ("method", "library"), [("to_pandas", "pandas"), ("to_arrow", "pyarrow"), ("to_polars", "polars")]
)
def test_a_frame_without_its_library_says_what_to_install(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch, method: str, library: str
) -> None:
    r = aa.open(sample_db).call("city_ranking", {"period": "2026-10-01..2026-10-31"})
    monkeypatch.setitem(sys.modules, library, None)  # import raises ImportError, as when not installed
    with pytest.raises(ExportError, match=f"needs {library}, which is not installed: pip install {library}"):
        getattr(r, method)()


def test_repr_html_has_the_table_and_the_chart_file_svg(sample_db: Path) -> None:
    r = aa.open(sample_db).call("revenue_trend", {"period": "2026-01-01..2026-10-31", "grain": "month"})
    page = r._repr_html_()
    assert page.count("<tr>") == len(r.rows) + 1
    assert r.svg() is not None and r.svg() in page  # the SVG --chart-file writes
    assert "<td>2026-10-01</td>" in page
    assert str(r).splitlines()[0].split() == ["period", "orders", "revenue"]


def test_html_escapes_data(tmp_path: Path) -> None:
    csv = tmp_path / "evil.csv"
    csv.write_text('name,n\n"<script>alert(1)</script>",1\nok,2\n', encoding="utf-8")
    ws = aa.open(tmp_path / "e.duckdb")
    ws.load(csv)
    page = ws.call(
        "aggregate", {"table": "evil", "group_by": ["name"], "metrics": [{"fn": "sum", "column": "n"}]}
    )._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_ask_against_a_loopback_model(sample_db: Path) -> None:
    ws = aa.open(sample_db)
    with ExampleModel() as model:
        a = ws.ask("How did Pune do on 2026-10-24?", model="stand-in", base_url=model.url)
    assert a.text == "Pune had 3 orders and ₹4,798 revenue on 24 Oct 2026."
    assert a.unverified_numbers == []
    assert [c.name for c in a.calls] == ["sales_summary"] and "FROM" in a.calls[0].sql
    assert a.usage["input_tokens"] > 0 and a.steps == 2 and a.stop == "answer"
    assert str(a) == a.text


def test_ask_without_a_model_says_how_to_name_one(sample_db: Path) -> None:
    with pytest.raises(ConfigError, match="pass model="):
        aa.open(sample_db).ask("How did Pune do?")


def test_ask_on_an_empty_database_says_load_first(tmp_path: Path) -> None:
    with pytest.raises(AnalyticsAgentError, match="load one first"):
        aa.open(tmp_path / "empty.duckdb").ask("anything", model="m", base_url="http://127.0.0.1:9/v1")


def test_open_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(AnalyticsAgentError, match="is a folder"):
        aa.open(tmp_path)

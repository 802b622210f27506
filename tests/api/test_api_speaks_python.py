"""The Python API speaks Python: its notes and errors name keyword arguments (``replace=True``,
``null=['']``, ``max_steps=``), not the command line's flags; an error is raised from the call the user
made (one short message, the internal error chained); frames carry real dtypes; an answer carries the
command line's caveat, and ``ask`` reports each step as it happens."""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from example_model import ExampleModel
from loopback import LoopbackServer

import analytics_agent as aa
from analytics_agent.errors import ConfigError, LoadError
from analytics_agent.present.trace import NO_TOOL_CAVEAT
from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
API = Path(aa.__file__).parent / "api"


@contextmanager
def model_that(step: Step) -> Iterator[str]:
    """A loopback model that gives ``step`` to every request; yields its base URL."""

    def answer(path: str, headers: dict[str, str], content: bytes) -> tuple[int, dict[str, str], bytes]:
        return ScriptedModel([step]).respond("POST", path, headers, content)

    server = LoopbackServer(answer)
    try:
        yield server.url + "/v1"
    finally:
        server.close()


def test_a_load_error_names_the_keyword_arguments(tmp_path: Path) -> None:
    ws = aa.open(tmp_path / "x.duckdb")
    ws.load(REAL / "airlines.csv")
    with pytest.raises(LoadError) as caught:
        ws.load(REAL / "airlines.csv")
    message = str(caught.value)
    assert "add replace=True to overwrite it or append=True to add rows" in message
    assert "--" not in message


def test_an_api_error_is_raised_from_the_call_with_the_cause_chained(tmp_path: Path) -> None:
    ws = aa.open(tmp_path / "x.duckdb")
    ws.load(REAL / "airlines.csv")
    with pytest.raises(LoadError) as caught:
        ws.load(REAL / "airlines.csv")
    frames = traceback.extract_tb(caught.value.__traceback__)
    assert [Path(f.filename).parent for f in frames] == [Path(__file__).parent, API]  # this line, the API
    cause = caught.value.__cause__
    assert isinstance(cause, LoadError) and "add --replace" in str(cause)  # what the library raised
    assert cause.__traceback__ is None  # its internal frames are not shown to the caller
    shown = "".join(traceback.format_exception(caught.value))
    assert shown.count("File ") == 2, shown
    assert caught.value._render_traceback_() == [f"LoadError: {caught.value}"]  # IPython shows one line


def test_a_load_note_names_null_as_a_list(tmp_path: Path) -> None:
    csv = tmp_path / "codes.csv"
    csv.write_text("code,n\nNA,1\nUS,2\nIN,3\n", encoding="utf-8")  # NA: Namibia, read as missing
    loaded = aa.open(tmp_path / "x.duckdb").load(csv)
    assert loaded.notes == ["code: 1 value 'NA' read as missing (NULL); add null=[''] to keep them as text"]
    kept = aa.open(tmp_path / "y.duckdb").load(csv, null=[""])  # what the note says works as written
    assert kept.notes == []


def test_a_config_error_names_the_keyword(sample_db: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        aa.open(sample_db, timezone="Mars/Base")
    assert str(caught.value).startswith("timezone='Mars/Base' is not a known time zone")


def test_the_step_limit_names_max_steps(sample_db: Path) -> None:
    with model_that(Step(tool_calls=[ScriptedCall("list_tables", {})])) as url:
        a = aa.open(sample_db).ask("Anything?", model="m", base_url=url, max_steps=2)
    assert a.stop == "step_limit"
    assert a.text.startswith("I stopped after 2 steps without a final answer (max_steps=).")


def test_an_answer_without_a_tool_call_carries_the_clis_caveat(sample_db: Path) -> None:
    with model_that(Step(text="Revenue was 42 crore.")) as url:
        a = aa.open(sample_db).ask("What was revenue?", model="m", base_url=url)
    assert a.calls == [] and a.caveat == NO_TOOL_CAVEAT
    assert not a.grounded
    assert str(a).splitlines() == ["Revenue was 42 crore.", NO_TOOL_CAVEAT]
    assert NO_TOOL_CAVEAT in a._repr_html_()


def test_a_grounded_answer_has_no_caveat_and_progress_reports_each_step(sample_db: Path) -> None:
    lines: list[str] = []
    with ExampleModel() as model:
        a = aa.open(sample_db).ask("How did Pune do?", model="m", base_url=model.url, progress=lines.append)
    assert a.caveat is None and a.grounded
    assert [line.split()[0] for line in lines] == [
        "[step",
        "[step",
        "sales_summary",
        "[step",
        "[step",
        "[done]",
    ]
    call = next(line for line in lines if line.lstrip().startswith("sales_summary"))
    assert '"city":"Pune"' in call.replace(" ", "") and "->" in call


def test_progress_true_prints_to_stderr(sample_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ExampleModel() as model:
        aa.open(sample_db).ask("How did Pune do?", model="m", base_url=model.url, progress=True)
    err = capsys.readouterr().err
    assert "sales_summary" in err and "[done] 2 steps, 1 tool call" in err


def test_to_pandas_gives_dates_numbers_and_dicts(sample_db: Path) -> None:
    ws = aa.open(sample_db)
    trend = ws.call("revenue_trend", {"period": "2026-01-01..2026-10-31", "grain": "month"}).to_pandas()
    assert str(trend["period"].dtype).startswith("datetime64")
    assert trend["period"].iloc[0].isoformat() == "2026-01-01T00:00:00"
    assert str(trend["orders"].dtype) == "int64" and str(trend["revenue"].dtype) == "int64"
    summary = ws.call("sales_summary", {"city": "Pune", "day": "2026-10-24"})
    frame = summary.to_pandas()
    assert frame["by_status"].iloc[0] == {"cancelled": 1, "delivered": 1, "in_transit": 1}
    assert str(frame["day"].dtype).startswith("datetime64") and frame["city"].iloc[0] == "Pune"
    assert summary.rows[0][3] == json.dumps(summary.value["by_status"])  # the table on screen is as before


def test_zoned_timestamps_become_zoned_datetimes(tmp_path: Path) -> None:
    ws = aa.open(tmp_path / "f.duckdb", timezone="UTC")
    ws.load(REAL / "flights.csv")
    r = ws.call(
        "aggregate",
        {"table": "flights", "group_by": ["time_hour"], "order_by": "time_hour", "limit": 2},
    )
    frame = r.to_pandas()
    dtype = str(frame["time_hour"].dtype)  # [ns, UTC] in pandas 2, [us, UTC] in pandas 3
    assert dtype.startswith("datetime64[") and dtype.endswith(", UTC]"), dtype
    first = r.rows[0][0]
    assert frame["time_hour"].iloc[0].isoformat().replace("T", " ") == first.replace("+00:00", "") + "+00:00"
    assert r.to_arrow().schema.field("time_hour").type.tz is not None
    assert str(r.to_polars().schema["time_hour"]).startswith("Datetime")


def test_text_that_only_looks_like_a_date_stays_text(tmp_path: Path) -> None:
    csv = tmp_path / "codes.csv"
    csv.write_text("code,n\n2026-02-30,1\n2026-01-01,2\n", encoding="utf-8")  # not a date: 30 February
    ws = aa.open(tmp_path / "x.duckdb")
    ws.load(csv, types={"code": "VARCHAR"})
    frame = ws.call("aggregate", {"table": "codes", "group_by": ["code"], "order_by": "code"}).to_pandas()
    assert frame["code"].tolist() == ["2026-01-01", "2026-02-30"]


@pytest.mark.parametrize(
    ("cli", "api"),
    [
        ("add --null 'a' --null 'b' if they mean missing", "add null=['a', 'b'] if they mean missing"),
        ("add --type amount=VARCHAR to keep them", "add types={'amount': 'VARCHAR'} to keep them"),
        ("give its encoding, e.g. --encoding latin-1", "give its encoding, e.g. encoding='latin-1'"),
        ("add --decimal ',' --thousands '.' to read", "add decimal=',', thousands='.' to read"),
        ("give --delimiter (and --no-header if", "give delimiter= (and header=False if"),
        ("--skip takes a number, e.g. --skip 2", "skip= takes a number, e.g. skip=2"),
        ("add --date-format day=%d/%m/%y to", "add date_format='day=%d/%m/%y' to"),
        ("(--max-tokens-budget).", "(max_tokens_budget=)."),
        ("run analytics-agent --db x.duckdb --help", "run analytics-agent --db x.duckdb --help"),
    ],
)
def test_flags_become_keyword_arguments(cli: str, api: str) -> None:
    from analytics_agent.api.pythonic import python_words

    assert python_words(cli) == api

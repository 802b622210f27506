"""The results behind an answer (CSV, the answer's chart), colour rules, the spinner and the SQL lines."""

from __future__ import annotations

import csv
import io
import json
import time

from analytics_agent.agent.events import QuestionAsked, ToolCallRecord, ToolFinished
from analytics_agent.present.highlight import color_enabled, highlight_answer
from analytics_agent.present.progress import Spinner
from analytics_agent.present.results import CallResult, ResultLog, answer_chart, csv_text, result_table
from analytics_agent.present.trace import format_sql

TREND = json.dumps(
    {"columns": ["period", "revenue"], "rows": [["2026-01-01", 5], ["2026-02-01", 7]], "row_count": 2}
)
OBJECT = json.dumps({"city": "Pune", "orders": 3, "by_status": {"cancelled": 1}})


def finished(name: str, content: str, *, error: bool = False) -> ToolFinished:
    return ToolFinished(ToolCallRecord(1, "c1", name, "{}", error, sql="SELECT 1"), content)


def test_the_log_keeps_the_current_questions_successful_calls():
    log = ResultLog()
    log(finished("old", TREND))
    log(QuestionAsked("q", "openai", "m", "sys"))
    log(finished("revenue_trend", TREND))
    log(finished("broken", "Error: no", error=True))
    assert [c.name for c in log.calls] == ["revenue_trend"]
    assert log.calls[0].sql == "SELECT 1"


def test_the_answer_chart_comes_from_the_latest_result_that_makes_one():
    calls = [CallResult("revenue_trend", "{}", TREND), CallResult("sales_summary", "{}", OBJECT)]
    spec = answer_chart(calls)
    assert spec is not None and spec.title == "revenue_trend: revenue by period"
    assert answer_chart([CallResult("sales_summary", "{}", OBJECT)]) is None


def test_csv_of_rows_and_of_an_object_reads_back():
    rows = list(csv.reader(io.StringIO(csv_text(*result_table(TREND)))))
    assert rows == [["period", "revenue"], ["2026-01-01", "5"], ["2026-02-01", "7"]]
    obj = list(csv.DictReader(io.StringIO(csv_text(*result_table(OBJECT)))))
    assert obj == [{"city": "Pune", "orders": "3", "by_status": '{"cancelled": 1}'}]
    assert result_table("Error: nope") is None


def test_csv_quotes_commas_and_leaves_nulls_empty():
    text = csv_text(["name", "n"], [["Smith, J", None]])
    assert text == 'name,n\n"Smith, J",\n'


def test_colour_only_on_a_terminal_without_no_color_or_a_dumb_terminal():
    assert color_enabled(is_tty=True, env={})
    assert not color_enabled(is_tty=False, env={})
    assert not color_enabled(is_tty=True, env={"NO_COLOR": "1"})
    assert not color_enabled(is_tty=True, env={"TERM": "dumb"})
    assert color_enabled(is_tty=True, env={"NO_COLOR": ""})  # no-color.org: set and non-empty


def test_highlight_marks_whole_numbers_and_leaves_words_alone():
    text = highlight_answer("Pune had 3 orders, ₹4,798 revenue, 12.5% share, 5.6M in A-1042.", color=True)
    for number in ("3", "₹4,798", "12.5%", "5.6M"):
        assert f"\x1b[36m{number}\x1b[0m" in text
    assert "A-\x1b[36m" not in text and "\x1b[36m1042" not in text
    assert highlight_answer("3 orders", color=False) == "3 orders"


def test_spinner_line_shows_the_label_and_the_seconds_since_start():
    now = [100.0]
    written: list[str] = []
    spinner = Spinner(written.append, enabled=True, clock=lambda: now[0], interval=0.01, delay=1.0)
    spinner.start("waiting for m")
    time.sleep(0.1)
    assert written == []  # within the delay: nothing drawn, so a quick reply never flickers
    now[0] = 102.34
    deadline = time.monotonic() + 60  # a generous bound for a busy machine; the loop ends on the draw
    while not written and time.monotonic() < deadline:
        time.sleep(0.01)
    assert written[0].startswith("\r\x1b[K") and written[0].endswith(" waiting for m 2.3s")
    assert spinner.line(1, now[0]) == "⠙ waiting for m 2.3s"
    spinner.close()
    assert written[-1] == "\r\x1b[K"  # closing clears the line it drew


def test_a_disabled_spinner_writes_nothing():
    written: list[str] = []
    spinner = Spinner(written.append, enabled=False)
    spinner.start("x")
    spinner.close()
    assert written == []


def test_sql_lines_end_with_the_bound_values():
    text = format_sql(
        "SELECT *\nFROM t\nWHERE a = $a AND d = $d", {"a": "Pune", "d": "2026-10-01"}, indent=""
    )
    assert text.splitlines() == ["SELECT *", "FROM t", "WHERE a = $a AND d = $d",
                                 '-- parameters: $a = "Pune", $d = "2026-10-01"']  # fmt: skip
    assert format_sql("SELECT ? + ?", [1, 2], indent="").endswith("-- parameters: ?1 = 1, ?2 = 2")


def test_csv_keeps_formulas_from_running_in_a_spreadsheet_but_not_negative_numbers():
    text = csv_text(["note", "change"], [['=HYPERLINK("http://x")', -5], ["@SUM(A1)", 2.5], ["-x", None]])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ['\'=HYPERLINK("http://x")', "-5"]
    assert rows[2] == ["'@SUM(A1)", "2.5"] and rows[3] == ["'-x", ""]

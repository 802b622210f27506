"""Chart selection from a result's shape: what kind, which measure, what is left out and said so."""

from __future__ import annotations

import json

from analytics_agent.present.charts import parse_result, pick_chart
from analytics_agent.present.charts.pick import MAX_BARS, MAX_CATEGORIES


def months(n: int) -> list[str]:
    return [f"2026-{m:02d}-01" for m in range(1, n + 1)]


def test_a_time_series_is_a_line_in_date_order_even_when_the_rows_are_not():
    rows = [[d, 10 + i, 1000.0 * (i + 1)] for i, d in enumerate(months(10))]
    spec = pick_chart(["period", "orders", "revenue"], list(reversed(rows)))
    assert spec is not None and spec.kind == "line"
    assert spec.labels == tuple(months(10))
    assert spec.series[0].name == "revenue"  # money over counts; orders is 100x smaller, so not with it
    assert [s.name for s in spec.series] == ["revenue"]
    assert spec.series[0].values == tuple(1000.0 * (i + 1) for i in range(10))


def test_a_ranking_is_bars_in_the_rankings_order_and_rank_is_not_a_measure():
    rows = [[1, "Mumbai", 50, 900], [2, "Delhi", 70, 800], [3, "Pune", 10, 100]]
    spec = pick_chart(["rank", "city", "orders", "revenue"], rows)
    assert spec is not None and spec.kind == "bar"
    assert spec.labels == ("Mumbai", "Delhi", "Pune")
    assert spec.y_label == "revenue"  # the measure the rows are sorted by, not orders


def test_the_measure_the_rows_are_sorted_by_wins_over_the_name_hints():
    rows = [["pen", 90, 10], ["ink", 50, 300], ["pad", 20, 40]]
    spec = pick_chart(["product", "units", "revenue"], rows)
    assert spec is not None and spec.y_label == "units"


def test_a_single_value_or_a_single_row_draws_nothing():
    assert pick_chart(["revenue"], [[123]]) is None
    assert pick_chart(["city", "revenue"], [["Pune", 5]]) is None
    assert pick_chart(["a", "b"], [[1, 2], [3, 4]]) is None  # no dates, no categories


def test_too_many_categories_keeps_the_top_ones_by_value_and_says_so():
    rows = [[f"item{i}", float(i)] for i in range(45)]
    spec = pick_chart(["item", "revenue"], rows)
    assert spec is not None and len(spec.labels) == MAX_BARS
    assert spec.labels[0] == "item44" and spec.series[0].values[0] == 44.0
    assert spec.note == f"top {MAX_BARS} of 45 by revenue"


def test_far_too_many_categories_is_a_list_not_a_chart():
    rows = [[f"id{i}", i] for i in range(MAX_CATEGORIES + 1)]
    assert pick_chart(["customer", "revenue"], rows) is None


def test_negative_values_and_nulls_are_kept_as_they_are():
    rows = [["a", 5.0], ["b", -3.0], ["c", None]]
    spec = pick_chart(["region", "change"], rows)
    assert spec is not None and spec.series[0].values == (5.0, -3.0, None)


def test_rows_without_a_date_are_left_out_of_a_line_and_counted():
    rows = [["2026-01-01", 1], [None, 9], ["2026-02-01", 2], ["2026-03-01", 3]]
    spec = pick_chart(["day", "revenue"], rows)
    assert spec is not None and spec.labels == ("2026-01-01", "2026-02-01", "2026-03-01")
    assert spec.note == "1 row without a day left out"


def test_all_empty_measures_draw_nothing():
    assert pick_chart(["city", "revenue"], [["a", None], ["b", None]]) is None


def test_a_date_repeated_per_city_becomes_one_line_per_city():
    rows = [[d, c, v] for d in months(3) for c, v in (("Pune", 1), ("Goa", 2))]
    spec = pick_chart(["month", "city", "revenue"], rows)
    assert spec is not None and [s.name for s in spec.series] == ["Pune", "Goa"]
    assert spec.title == "revenue by month and city"
    assert spec.series[1].values == (2.0, 2.0, 2.0)


def test_percent_columns_carry_their_unit():
    spec = pick_chart(["channel", "revenue_pct"], [["web", 60.0], ["app", 40.0]])
    assert spec is not None and spec.unit == "%" and spec.y_title == "revenue_pct (%)"


def test_years_as_integers_are_a_time_axis():
    spec = pick_chart(["year", "revenue"], [[2025, 3], [2024, 1], [2026, 7]])
    assert spec is not None and spec.kind == "line" and spec.labels == ("2024", "2025", "2026")


def test_parse_result_reads_a_row_result_and_refuses_objects_and_errors():
    text = json.dumps({"columns": ["a", "b"], "rows": [[1, 2]], "row_count": 1})
    assert parse_result(text) == (["a", "b"], [[1, 2]])
    assert parse_result('{"city": "Pune", "orders": 3}') is None
    assert parse_result("Error: no such order") is None


def test_the_real_revenue_trend_result_is_a_ten_month_line(workspace):
    outcome = workspace.executor.execute(
        "revenue_trend", {"period": "2026-01-01..2026-10-31", "grain": "month"}
    )
    columns, rows = parse_result(outcome.text)
    spec = pick_chart(columns, rows)
    assert spec is not None and spec.kind == "line" and len(spec.labels) == 10
    expected = (
        workspace.cursor()
        .execute(
            "SELECT sum(amount) FROM orders WHERE status NOT IN ('cancelled', 'returned') "
            "AND day BETWEEN DATE '2026-03-01' AND DATE '2026-03-31'"
        )
        .fetchone()[0]
    )
    assert spec.series[0].values[2] == float(expected)

"""The bundled domain tools (sql/*.sql) answer what plain Python over the seed CSVs says they should.

Every expected value here is computed independently of the tools' SQL: the seed CSVs are read with the
``csv`` module and aggregated in Python (or, for a few, with differently shaped SQL on an in-memory
DuckDB). Revenue is the sum of ``amount`` over orders whose status is neither cancelled nor returned.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass

import bpe_openai
import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics_agent.resources import seeds_dir

SEEDS = seeds_dir()
O200K = bpe_openai.get_encoding("o200k_base")
RANGE_TOOLS = (
    "revenue_trend", "city_ranking", "top_products", "category_mix", "cancellation_rates",
    "average_order_value", "repeat_customers", "channel_mix",
)  # fmt: skip
OCT_DAYS = {"start": "2026-10-01", "end": "2026-10-31"}
OCT = {"period": "2026-10-01..2026-10-31"}


@dataclass(frozen=True)
class Order:
    order_id: str
    customer_id: str
    city: str
    day: dt.date
    status: str
    amount: int
    channel: str

    @property
    def paid(self) -> bool:
        """Counts towards revenue."""
        return self.status in ("delivered", "in_transit")


def _read(name: str) -> list[dict[str, str]]:
    with (SEEDS / f"{name}.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def orders() -> list[Order]:
    return [
        Order(r["order_id"], r["customer_id"], r["city"], dt.date.fromisoformat(r["day"]), r["status"],
              int(r["amount"]), r["channel"])
        for r in _read("orders")
    ]  # fmt: skip


@pytest.fixture(scope="module")
def items() -> list[tuple[str, str, str, int, int]]:
    """(order_id, product name, category, quantity, unit_price) per order line."""
    products = {p["product_id"]: (p["name"], p["category"]) for p in _read("products")}
    return [
        (r["order_id"], *products[r["product_id"]], int(r["quantity"]), int(r["unit_price"]))
        for r in _read("order_items")
    ]


def call(workspace, name: str, args: dict) -> dict:
    outcome = workspace.executor.execute(name, args)
    assert not outcome.is_error, outcome.text
    return json.loads(outcome.text)


def table(result: dict) -> list[dict]:
    assert not result.get("truncated"), result
    return [dict(zip(result["columns"], row, strict=True)) for row in result["rows"]]


def in_range(orders: list[Order], start: str, end: str) -> list[Order]:
    first, last = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    return [o for o in orders if first <= o.day <= last]


def pct(part: float, whole: float) -> float | None:
    return None if whole == 0 else 100 * part / whole


def near(actual: float | None, exact: float | None, places: int = 0) -> bool:
    """``actual`` is ``exact`` rounded to ``places`` decimals (either way at a tie)."""
    if actual is None or exact is None:
        return actual is None and exact is None
    return abs(actual - exact) <= 0.5 * 10**-places + 1e-9


# sales_summary and get_order


def test_sales_summary_gives_the_documented_pune_day_exactly(workspace):
    assert call(workspace, "sales_summary", {"city": "Pune", "day": "2026-10-24"}) == {
        "city": "Pune",
        "day": "2026-10-24",
        "orders": 3,
        "by_status": {"cancelled": 1, "delivered": 1, "in_transit": 1},
        "revenue": 4798,
    }


CITIES = [
    "Ahmedabad",
    "Bengaluru",
    "Chennai",
    "Delhi",
    "Hyderabad",
    "Jaipur",
    "Kolkata",
    "Lucknow",
    "Mumbai",
    "Pune",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(city=st.sampled_from(CITIES), day=st.dates(dt.date(2025, 12, 25), dt.date(2026, 11, 5)))
def test_sales_summary_agrees_with_python_for_any_city_and_day(workspace, orders, city, day):
    todays = [o for o in orders if o.city == city and o.day == day]
    expected = {
        "city": city,
        "day": day.isoformat(),
        "orders": len(todays),
        "by_status": dict(sorted(Counter(o.status for o in todays).items())),
        "revenue": sum(o.amount for o in todays if o.paid),
    }
    assert call(workspace, "sales_summary", {"city": city, "day": day.isoformat()}) == expected


def test_get_order_answers_the_reference_order_with_its_items(workspace, items):
    answer = call(workspace, "get_order", {"order_id": "A-1042"})
    assert (answer["city"], answer["day"], answer["status"], answer["amount"]) == (
        "Delhi", "2026-10-18", "delivered", 2499,
    )  # fmt: skip
    lines = sorted((name, q, p) for oid, name, _, q, p in items if oid == "A-1042")
    assert sorted((i["product"], i["quantity"], i["unit_price"]) for i in answer["items"]) == lines
    assert sum(q * p for _, q, p in lines) == 2499


# ranges


@pytest.mark.parametrize("grain", ["month", "week", "day"])
def test_revenue_trend_sums_each_period_like_python(workspace, orders, grain):
    start, end = ("2026-10-01", "2026-10-31") if grain == "day" else ("2026-03-15", "2026-10-31")
    periods: dict[dt.date, list[Order]] = defaultdict(list)
    for o in in_range(orders, start, end):
        if grain == "month":
            key = o.day.replace(day=1)
        elif grain == "week":
            key = o.day - dt.timedelta(days=o.day.weekday())
        else:
            key = o.day
        periods[key].append(o)
    expected = [
        {"period": k.isoformat(), "orders": len(v), "revenue": sum(o.amount for o in v if o.paid)}
        for k, v in sorted(periods.items())
    ]
    assert table(call(workspace, "revenue_trend", {"period": f"{start}..{end}", "grain": grain})) == expected


def test_revenue_trend_defaults_to_months(workspace):
    default = call(workspace, "revenue_trend", {"period": "2026-01-01..2026-10-31"})
    monthly = call(workspace, "revenue_trend", {"period": "2026-01-01..2026-10-31", "grain": "month"})
    assert default == monthly and default["row_count"] == 10


def test_revenue_trend_refuses_a_day_grain_longer_than_fifty_days(workspace):
    ok = call(workspace, "revenue_trend", {"period": "2026-09-01..2026-10-20", "grain": "day"})
    assert ok["row_count"] == 50
    outcome = workspace.executor.execute(
        "revenue_trend", {"period": "2026-09-01..2026-10-21", "grain": "day"}
    )
    assert outcome.is_error and "at most 50 days" in outcome.text and "use week or month" in outcome.text


@pytest.mark.parametrize("name", [*RANGE_TOOLS, "compare_periods"])
def test_every_range_tool_refuses_a_period_whose_first_day_is_after_its_last(workspace, name):
    args = {"period": "2026-10-31..2026-10-01"}
    if name == "compare_periods":
        args |= {"baseline": "2026-09-01..2026-09-30"}
    outcome = workspace.executor.execute(name, args)
    assert outcome.is_error
    assert outcome.text == "Error: period: The first day 2026-10-31 is after the last day 2026-10-01"


def test_compare_periods_says_when_the_baseline_is_reversed(workspace):
    args = {"period": "2026-10-01..2026-10-31", "baseline": "2026-09-30..2026-09-01"}
    outcome = workspace.executor.execute("compare_periods", args)
    assert outcome.text == "Error: baseline: The first day 2026-09-30 is after the last day 2026-09-01"


@pytest.mark.parametrize("name", RANGE_TOOLS)
def test_a_range_without_orders_gives_no_rows_or_zeros(workspace, name):
    result = call(workspace, name, {"period": "2027-01-01..2027-01-31"})
    if name == "repeat_customers":
        assert (result["customers"], result["revenue"], result["repeat_pct"]) == (0, 0, None)
    elif name in ("cancellation_rates", "average_order_value"):
        assert result["rows"] == [] or [r[0] for r in result["rows"]] == ["All"]
    else:
        assert result["rows"] == [] and result["row_count"] == 0


def test_city_ranking_ranks_cities_by_python_revenue(workspace, orders):
    per_city: dict[str, list[Order]] = defaultdict(list)
    for o in in_range(orders, **OCT_DAYS):
        per_city[o.city].append(o)
    revenue = {c: sum(o.amount for o in v if o.paid) for c, v in per_city.items()}
    total = sum(revenue.values())
    rows = table(call(workspace, "city_ranking", OCT))
    assert [r["city"] for r in rows] == sorted(revenue, key=lambda c: -revenue[c])
    assert [r["rank"] for r in rows] == list(range(1, 11))
    for r in rows:
        paid = [o for o in per_city[r["city"]] if o.paid]
        assert r["orders"] == len(per_city[r["city"]]) and r["revenue"] == revenue[r["city"]]
        assert near(r["revenue_pct"], pct(revenue[r["city"]], total), 1)
        assert near(r["avg_order_value"], revenue[r["city"]] / len(paid))


def _product_totals(orders, items, start, end) -> dict[str, tuple[str, int, int]]:
    paid = {o.order_id for o in in_range(orders, start, end) if o.paid}
    totals: dict[str, list] = {}
    for oid, name, category, quantity, price in items:
        if oid in paid:
            entry = totals.setdefault(name, [category, 0, 0])
            entry[1] += quantity
            entry[2] += quantity * price
    return {name: tuple(v) for name, v in totals.items()}


@pytest.mark.parametrize(("by", "top"), [("revenue", None), ("units", 5), ("revenue", 25)])
def test_top_products_match_python_totals(workspace, orders, items, by, top):
    totals = _product_totals(orders, items, **OCT_DAYS)
    measure = 1 if by == "units" else 2
    ranked = sorted(totals, key=lambda n: (-totals[n][measure], n))[: top or 10]
    args = {**OCT, "by": by} | ({"top": top} if top else {})
    rows = table(call(workspace, "top_products", args))
    assert [r["product"] for r in rows] == ranked
    for r in rows:
        assert (r["category"], r["units"], r["revenue"]) == totals[r["product"]]


def test_top_products_refuses_a_top_outside_one_to_fifty(workspace):
    outcome = workspace.executor.execute("top_products", {**OCT, "top": 26})
    assert outcome.is_error and outcome.text.startswith(
        "Error: top: Input should be less than or equal to 25"
    )


def test_category_mix_shares_add_up_and_match_python(workspace, orders, items):
    totals = _product_totals(orders, items, "2026-01-01", "2026-10-31")
    per_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for category, units, revenue in totals.values():
        per_category[category][0] += units
        per_category[category][1] += revenue
    all_revenue = sum(v[1] for v in per_category.values())
    assert all_revenue == sum(o.amount for o in orders if o.paid)  # item lines add up to order amounts
    rows = table(call(workspace, "category_mix", {"period": "2026-01-01..2026-10-31"}))
    assert [r["category"] for r in rows] == sorted(per_category, key=lambda c: -per_category[c][1])
    for r in rows:
        assert [r["units"], r["revenue"]] == per_category[r["category"]]
        assert near(r["revenue_pct"], pct(r["revenue"], all_revenue), 1)
    assert abs(sum(r["revenue_pct"] for r in rows) - 100) < 0.5


def test_cancellation_rates_per_city_and_overall_match_python(workspace, orders):
    chosen = in_range(orders, **OCT_DAYS)
    rows = table(call(workspace, "cancellation_rates", OCT))
    assert rows[0]["city"] == "All" and len(rows) == 11
    for r in rows:
        group = chosen if r["city"] == "All" else [o for o in chosen if o.city == r["city"]]
        cancelled = sum(o.status == "cancelled" for o in group)
        returned = sum(o.status == "returned" for o in group)
        assert (r["orders"], r["cancelled"], r["returned"]) == (len(group), cancelled, returned)
        assert near(r["cancelled_pct"], pct(cancelled, len(group)), 1)
        assert near(r["returned_pct"], pct(returned, len(group)), 1)
    assert [r["cancelled_pct"] for r in rows[1:]] == sorted(
        (r["cancelled_pct"] for r in rows[1:]), reverse=True
    )


@pytest.mark.parametrize("by", [None, "city", "channel"])
def test_average_order_value_per_group_matches_python(workspace, orders, by):
    paid = [o for o in in_range(orders, **OCT_DAYS) if o.paid]
    field = by or "city"  # city is the default
    rows = table(call(workspace, "average_order_value", {**OCT, **({"by": by} if by else {})}))
    assert rows[0]["group"] == "All"
    assert sorted(r["group"] for r in rows[1:]) == sorted({getattr(o, field) for o in paid})
    for r in rows:
        group = paid if r["group"] == "All" else [o for o in paid if getattr(o, field) == r["group"]]
        revenue = sum(o.amount for o in group)
        assert (r["orders"], r["revenue"]) == (len(group), revenue)
        assert near(r["avg_order_value"], revenue / len(group))


def _metrics(chosen: list[Order]) -> dict[str, float | None]:
    paid = [o for o in chosen if o.paid]
    revenue = sum(o.amount for o in paid)
    return {
        "orders": len(chosen),
        "revenue": revenue,
        "avg_order_value": revenue / len(paid) if paid else None,
        "customers": len({o.customer_id for o in chosen}),
        "cancelled_pct": pct(sum(o.status == "cancelled" for o in chosen), len(chosen)),
    }


def test_compare_periods_reports_each_metric_and_its_change(workspace, orders):
    args = {"period": "2026-10-01..2026-10-31", "baseline": "2026-09-01..2026-09-30"}
    period = _metrics(in_range(orders, "2026-10-01", "2026-10-31"))
    base = _metrics(in_range(orders, "2026-09-01", "2026-09-30"))
    rows = table(call(workspace, "compare_periods", args))
    assert [r["metric"] for r in rows] == list(period)
    for r in rows:
        places = 1 if r["metric"] == "cancelled_pct" else 0
        assert near(r["period"], period[r["metric"]], places) and near(
            r["baseline"], base[r["metric"]], places
        )
        assert r["change"] == pytest.approx(r["period"] - r["baseline"], abs=0.051)
        assert near(r["change_pct"], pct(r["period"] - r["baseline"], r["baseline"]), 1)
    assert rows[1]["period"] > rows[1]["baseline"]  # October outsells September in the seeds


def test_compare_periods_with_an_empty_baseline_has_no_percent_change(workspace):
    args = {"period": "2026-10-01..2026-10-31", "baseline": "2025-10-01..2025-10-31"}
    rows = table(call(workspace, "compare_periods", args))
    orders = rows[0]
    assert orders["baseline"] == 0 and orders["change"] == orders["period"] and orders["change_pct"] is None


def test_repeat_customers_counts_customers_with_two_or_more_orders(workspace, orders):
    start, end = "2026-07-01", "2026-09-30"
    per_customer: dict[str, list[Order]] = defaultdict(list)
    for o in in_range(orders, start, end):
        per_customer[o.customer_id].append(o)
    repeat = {c for c, v in per_customer.items() if len(v) >= 2}
    revenue = {c: sum(o.amount for o in v if o.paid) for c, v in per_customer.items()}
    total, repeat_revenue = sum(revenue.values()), sum(revenue[c] for c in repeat)
    answer = call(workspace, "repeat_customers", {"period": f"{start}..{end}"})
    assert answer["customers"] == len(per_customer) and answer["repeat_customers"] == len(repeat)
    assert answer["revenue"] == total and answer["repeat_revenue"] == repeat_revenue
    assert near(answer["repeat_pct"], pct(len(repeat), len(per_customer)), 1)
    assert near(answer["repeat_revenue_pct"], pct(repeat_revenue, total), 1)


def test_channel_mix_shares_match_python(workspace, orders):
    chosen = in_range(orders, **OCT_DAYS)
    total_revenue = sum(o.amount for o in chosen if o.paid)
    rows = table(call(workspace, "channel_mix", OCT))
    assert sorted(r["channel"] for r in rows) == ["app", "store", "web"]
    for r in rows:
        group = [o for o in chosen if o.channel == r["channel"]]
        revenue = sum(o.amount for o in group if o.paid)
        assert (r["orders"], r["revenue"]) == (len(group), revenue)
        assert near(r["orders_pct"], pct(len(group), len(chosen)), 1)
        assert near(r["revenue_pct"], pct(revenue, total_revenue), 1)
    assert [r["revenue"] for r in rows] == sorted((r["revenue"] for r in rows), reverse=True)


# single answers


def _sample_customer_ids(orders: list[Order]) -> list[str]:
    ordered = sorted({o.customer_id for o in orders})
    return ["C-00042", *random.Random(7).sample(ordered, 5)]


def test_customer_summary_matches_python_for_sampled_customers(workspace, orders, items):
    customers = {c["customer_id"]: c for c in _read("customers")}
    for customer_id in _sample_customer_ids(orders):
        mine = [o for o in orders if o.customer_id == customer_id]
        paid = {o.order_id for o in mine if o.paid}
        units: Counter[str] = Counter()
        for oid, _, category, quantity, _ in items:
            if oid in paid:
                units[category] += quantity
        favourite = min(units, key=lambda c: (-units[c], c)) if units else None
        assert call(workspace, "customer_summary", {"customer_id": customer_id}) == {
            "customer_id": customer_id,
            "name": customers[customer_id]["name"],
            "home_city": customers[customer_id]["city"],
            "segment": customers[customer_id]["segment"],
            "orders": len(mine),
            "revenue": sum(o.amount for o in mine if o.paid),
            "first_order": min(o.day for o in mine).isoformat(),
            "last_order": max(o.day for o in mine).isoformat(),
            "cities": sorted({o.city for o in mine}),
            "favourite_category": favourite,
        }


def test_customer_summary_of_a_customer_without_orders_is_zero_not_an_error(workspace, orders):
    customers = {c["customer_id"] for c in _read("customers")}
    idle = sorted(customers - {o.customer_id for o in orders})[0]
    answer = call(workspace, "customer_summary", {"customer_id": idle})
    assert (answer["orders"], answer["revenue"], answer["first_order"], answer["cities"]) == (0, 0, None, [])


def test_customer_summary_of_an_unknown_id_is_a_clear_error(workspace):
    outcome = workspace.executor.execute("customer_summary", {"customer_id": "C-99999"})
    assert outcome.is_error and outcome.text == "Error: no customer with id C-99999"


def _csv_sql(sql: str) -> list[tuple]:
    with duckdb.connect(":memory:") as con:
        files = {
            k: str(SEEDS / f"{n}.csv") for k, n in (("o", "orders"), ("c", "customers"), ("p", "products"))
        }
        return con.execute(sql, files).fetchall()


# sizes


TYPICAL_CALLS = [
    ("sales_summary", {"city": "Pune", "day": "2026-10-24"}),
    ("get_order", {"order_id": "A-1042"}),
    ("revenue_trend", {"period": "2026-01-01..2026-10-31", "grain": "week"}),
    ("revenue_trend", {"period": "2026-09-12..2026-10-31", "grain": "day"}),
    ("city_ranking", {"period": "2026-01-01..2026-10-31"}),
    ("top_products", {"period": "2026-01-01..2026-10-31", "top": 25}),
    ("category_mix", {"period": "2026-01-01..2026-10-31"}),
    ("customer_summary", {"customer_id": "C-00042"}),
    ("cancellation_rates", {"period": "2026-01-01..2026-10-31"}),
    ("average_order_value", {"period": "2026-01-01..2026-10-31"}),
    ("compare_periods", {"period": "2026-10-01..2026-10-31", "baseline": "2026-09-01..2026-09-30"}),
    ("repeat_customers", {"period": "2026-01-01..2026-10-31"}),
    ("channel_mix", {"period": "2026-01-01..2026-10-31"}),
]  # fmt: skip


def test_typical_calls_cover_every_bundled_domain_tool(workspace):
    bundled = {t.name for t in workspace.registry if hasattr(t, "spec")}  # the SQL-file tools
    assert bundled == {name for name, _ in TYPICAL_CALLS} and len(bundled) >= 12


@pytest.mark.parametrize(
    ("name", "args"), TYPICAL_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(TYPICAL_CALLS)]
)
def test_typical_results_are_whole_and_within_1000_o200k_tokens(workspace, name, args):
    outcome = workspace.executor.execute(name, args)
    assert not outcome.is_error and not outcome.truncated, outcome.text
    assert len(O200K.encode(outcome.text)) <= 1000


def test_all_tool_specs_together_stay_within_1800_o200k_tokens(workspace):
    for payload in (workspace.registry.openai_tools(), workspace.registry.bedrock_tool_config()):
        assert (
            len(O200K.encode(json.dumps(payload, separators=(",", ":")))) <= 1800
        )  # issue 34: the spec set's bound


def test_every_description_that_mentions_revenue_defines_it(workspace):
    for tool in workspace.registry:
        if "revenue" in tool.description:
            assert "cancelled/returned" in tool.description, tool.name

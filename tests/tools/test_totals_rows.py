"""A spreadsheet's footer totals row kept by a load (the default: ``--drop-totals`` leaves it out) must not
double a later answer without a word: ``aggregate`` refuses a call whose rows include it, naming the
filter that leaves it out, and ``describe_table`` shows it. Real CSV files through the real loader into a
DuckDB file in a temp dir; the right numbers are summed in Python from the rows written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.workspace.workspace import Workspace

REGIONS = ["East", "West", "East", "South", "West", "East", "South", "West"]
AMOUNTS = [1200.5, 310.25, 98.0, 4500.75, 220.0, 1310.0, 75.5, 640.25]


def _money(value: float) -> str:
    return f'"${value:,.2f}"'


def _file(tmp_path: Path, *, subtotals: bool = False, label: str = "Total") -> Path:
    lines = ["Region,Customer,Amount"]
    rows = list(zip(REGIONS, (f"c{i}" for i in range(len(REGIONS))), AMOUNTS, strict=True))
    if subtotals:  # grouped by region, each group followed by its subtotal, as Excel's Subtotal command does
        for region in sorted(set(REGIONS)):
            mine = [r for r in rows if r[0] == region]
            lines += [f"{r[0]},{r[1]},{_money(r[2])}" for r in mine]
            lines.append(f"{region} Total,,{_money(sum(r[2] for r in mine))}")
    else:
        lines += [f"{r[0]},{r[1]},{_money(r[2])}" for r in rows]
    lines.append(f"{label},,{_money(sum(AMOUNTS))}")
    path = tmp_path / "sales.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _load(tmp_path: Path, path: Path, **options: Any) -> Path:
    db = tmp_path / "t.duckdb"
    load_files(db, [str(path)], load_options(table="sales", replace=True, **options))  # type: ignore[arg-type]
    return db


def _call(ws: Workspace, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    out = ws.executor.execute(tool, json.dumps(args))
    return out.is_error, out.text


SUM = {"table": "sales", "metrics": [{"fn": "sum", "column": "amount"}]}


def test_a_sum_over_a_kept_totals_row_is_refused_with_the_filter_that_gives_the_right_number(tmp_path):
    db = _load(tmp_path, _file(tmp_path))
    with Workspace.open(db) as ws:
        error, said = _call(ws, "aggregate", SUM)
        fix = json.loads(said[said.index("{") : said.index("}") + 1])
        fixed_error, fixed = _call(ws, "aggregate", {**SUM, "filters": [fix]})
    assert error and "count them twice" in said and "--drop-totals" in said
    assert fix == {"column": "region", "op": "not_in", "value": ["Total"]}
    assert not fixed_error and json.loads(fixed)["rows"] == [[pytest.approx(sum(AMOUNTS))]]


def test_subtotal_rows_are_named_too_and_the_filter_leaves_every_one_out(tmp_path):
    db = _load(tmp_path, _file(tmp_path, subtotals=True))
    with Workspace.open(db) as ws:
        error, said = _call(ws, "aggregate", {**SUM, "group_by": ["region"]})
        fix = json.loads(said[said.index("{") : said.index("}") + 1])
        _, fixed = _call(
            ws, "aggregate", {**SUM, "group_by": ["region"], "filters": [fix], "order_by": "region"}
        )
    assert error and "3 subtotal or other footer row(s)" in said
    assert sorted(fix["value"]) == ["East Total", "South Total", "Total", "West Total"]
    by_region = {r: sum(a for g, a in zip(REGIONS, AMOUNTS, strict=True) if g == r) for r in set(REGIONS)}
    assert json.loads(fixed)["rows"] == [[r, pytest.approx(by_region[r])] for r in sorted(by_region)]


def test_a_call_whose_own_filters_leave_the_totals_out_runs_as_asked(tmp_path):
    db = _load(tmp_path, _file(tmp_path))
    with Workspace.open(db) as ws:
        error, said = _call(
            ws, "aggregate", {**SUM, "filters": [{"column": "region", "op": "=", "value": "East"}]}
        )
    east = sum(a for g, a in zip(REGIONS, AMOUNTS, strict=True) if g == "East")
    assert not error and json.loads(said)["rows"] == [[pytest.approx(east)]]


def test_describe_table_names_the_totals_rows(tmp_path):
    db = _load(tmp_path, _file(tmp_path))
    with Workspace.open(db) as ws:
        _, said = _call(ws, "describe_table", {"table": "sales"})
    described = json.loads(said)
    shown = described["totals_rows"]
    assert (shown["column"], shown["labels"]) == ("region", ["Total"]) and "not_in" in shown["note"]
    # the summed column's max would be the total itself, read as the largest sale (a relay model's catch)
    amount = next(c for c in described["columns"] if c["name"] == "amount")
    assert "max" not in amount and amount["type"] == "DOUBLE"


@pytest.mark.parametrize("case", ["dropped", "not a total"])
def test_no_refusal_when_no_totals_row_was_kept(tmp_path, case):
    """Dropped by ``--drop-totals``, or a last row labelled 'Total' whose numbers are not the sums (a
    brand called Total): the sum runs over every row there is."""
    if case == "dropped":
        db, expected = _load(tmp_path, _file(tmp_path), drop_totals=True), sum(AMOUNTS)
    else:
        path = _file(tmp_path)
        lines = path.read_text().splitlines()
        lines[-1] = 'Total,brand,"$12.00"'
        path.write_text("\n".join(lines) + "\n")
        db, expected = _load(tmp_path, path), sum(AMOUNTS) + 12.0
    with Workspace.open(db) as ws:
        error, said = _call(ws, "aggregate", SUM)
        _, described = _call(ws, "describe_table", {"table": "sales"})
    assert not error and json.loads(said)["rows"] == [[pytest.approx(expected)]]
    assert "totals_rows" not in json.loads(described)


def _unlabelled(tmp_path: Path, rate: str = "48.33%") -> Path:
    """A Google Analytics export's end: a blank line, then a totals row with no label at all, whose rate is
    weighted by a column the file does not hold (no aggregate of the rates above)."""
    units = [3, 5, 2, 7, 1, 4, 6, 2]
    lines = ["Landing Page,Sessions,Bounce Rate,Revenue"]
    lines += [
        f'/p{i},"{u * 1000 + i:,}",{10 + i}.5%,{_money(a)}'
        for i, (u, a) in enumerate(zip(units, AMOUNTS, strict=True))
    ]
    sessions = sum(u * 1000 + i for i, u in enumerate(units))
    lines += ["", f',"{sessions:,}",{rate},{_money(sum(AMOUNTS))}']
    path = tmp_path / "pages.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_totals_row_with_no_label_is_named_and_left_out_by_not_null(tmp_path):
    path = _unlabelled(tmp_path)
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="sales", replace=True))
    (note,) = [n for n in summary.notes if "last row" in n]
    assert (
        "(no label, landing_page empty)" in note and "sessions, revenue" in note and "--drop-totals" in note
    )
    with Workspace.open(tmp_path / "t.duckdb") as ws:
        error, said = _call(ws, "aggregate", {**SUM, "metrics": [{"fn": "sum", "column": "revenue"}]})
        fix = json.loads(said[said.index("{") : said.index("}") + 1])
        _, fixed = _call(
            ws, "aggregate", {**SUM, "metrics": [{"fn": "sum", "column": "revenue"}], "filters": [fix]}
        )
        _, described = _call(ws, "describe_table", {"table": "sales"})
    assert error and "landing_page empty" in said and fix == {"column": "landing_page", "op": "not_null"}
    assert json.loads(fixed)["rows"] == [[pytest.approx(sum(AMOUNTS))]]
    assert json.loads(described)["totals_rows"]["column"] == "landing_page"
    summary = load_files(
        tmp_path / "t.duckdb", [str(path)], load_options(table="sales", replace=True, drop_totals=True)
    )
    assert summary.rows_loaded == len(AMOUNTS)


def test_a_last_row_with_no_label_and_one_sum_is_data(tmp_path):
    """One column summing by chance is no totals row: a row with no label needs two sums."""
    text = _unlabelled(tmp_path).read_text().splitlines()
    last = text[-1].split(",")
    path = tmp_path / "pages.csv"
    path.write_text("\n".join([*text[:-1], ",".join([*last[:-2], '"$1.00"'])]) + "\n")
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="sales", replace=True))
    assert not any("last row" in n for n in summary.notes), summary.notes


def test_stacked_totals_rows_are_named_and_left_out_together(tmp_path):
    # Google Ads ends a report with 'Total: Campaigns', 'Total: Account', 'Total: Search', each the sum of
    # the rows above them: the last one's numbers are no sum of the rows above it (the other two are among
    # them), so none was named, and every sum over the table came out four times the truth
    lines = ["Campaign\tImpr.\tClicks\tCTR"]
    lines += [f"c{i}\t{a * 10:.0f}\t{a:.0f}\t{a / 100:.2f}%" for i, a in enumerate(AMOUNTS)]
    impr, clicks = sum(round(a * 10) for a in AMOUNTS), sum(round(a) for a in AMOUNTS)
    for label in ("Total: Campaigns", "Total: Account", "Total: Search"):
        lines.append(f"{label}\t{impr}\t{clicks}\t{clicks / impr * 100:.2f}%")
    path = tmp_path / "ads.tsv"
    path.write_text("\n".join(lines) + "\n")
    db = _load(tmp_path, path)
    with Workspace.open(db) as ws:
        error, said = _call(
            ws, "aggregate", {"table": "sales", "metrics": [{"fn": "sum", "column": "clicks"}]}
        )
        fix = json.loads(said[said.index("{") : said.index("}") + 1])
        _, fixed = _call(
            ws,
            "aggregate",
            {"table": "sales", "metrics": [{"fn": "sum", "column": "clicks"}], "filters": [fix]},
        )
    assert error and sorted(fix["value"]) == ["Total: Account", "Total: Campaigns", "Total: Search"]
    assert json.loads(fixed)["rows"] == [[clicks]]
    summary = load_files(
        tmp_path / "t.duckdb", [str(path)], load_options(table="sales", replace=True, drop_totals=True)
    )
    (note,) = [n for n in summary.notes if n.startswith("--drop-totals")]
    assert (
        "dropped the last 3 rows (campaign = 'Total: Campaigns', 'Total: Account', 'Total: Search')" in note
    )
    assert summary.rows_total == len(AMOUNTS)


def test_a_data_row_labelled_total_above_a_totals_row_stays_data(tmp_path):
    # a brand called "Total" right above the real totals row: the single row's check comes first, so the
    # two are not taken for a stack of totals
    lines = ["Brand,Units", "Acme,10", "Zeta,20", "Total,5", "Total,35"]
    path = tmp_path / "brands.csv"
    path.write_text("\n".join(lines) + "\n")
    summary = load_files(
        tmp_path / "t.duckdb", [str(path)], load_options(table="sales", replace=True, drop_totals=True)
    )
    assert summary.rows_total == 3
    (note,) = [n for n in summary.notes if n.startswith("--drop-totals")]
    assert "dropped the last row (brand = 'Total')" in note

"""Rows right under the header that describe the columns instead of being records (a gradebook's points
possible, a line of units), and an Excel pivot table saved as CSV (report filters above its header,
subtotal rows, ``(blank)`` row labels, ``#N/A`` among its amounts). Each file is written here as such an
export writes it, loaded through the real loader into a DuckDB file in a temp dir, and checked cell by
cell against what it means."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.db.catalog import get_profile
from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.read.under_header import may_describe
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError
from analytics_agent.workspace.workspace import Workspace


def _load(tmp_path: Path, text: str | bytes, name: str = "export.csv", **options: Any):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    options.setdefault("table", "t")
    options.setdefault("replace", True)
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(**options))


def _rows(tmp_path: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def _types(summary: Any) -> dict[str, str]:
    return {c.name: c.type for c in summary.columns}


def _profile(tmp_path: Path) -> dict[str, Any]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return get_profile(conn, "t")


# 1. A row that describes the columns


GRADEBOOK = (
    "Student,ID,SIS Login ID,Section,Essay (5501),Lab (5502),Quiz (5503),Current Score,Final Grade\n"
    "    Points Possible,,,,20.00,50.00,10.00,(read only),(read only)\n"
    '"Ito, Ken",7001,kito,BIO 1,15.00,41.50,8.00,81.25,B-\n'
    '"Moreau, Lea",7002,lmoreau,BIO 1,18.50,EX,9.50,94.00,A\n'
    '"Okoye, Ada",7003,aokoye,BIO 2,12.00,30.00,6.00,60.00,D-\n'
    '"Silva, Rui",7004,rsilva,BIO 2,19.00,47.00,10.00,95.00,A\n'
)


def test_a_points_possible_row_is_left_out_and_kept_beside_its_columns(tmp_path: Path) -> None:
    # loaded as a student, its maximums were averaged with the scores and its '(read only)' kept the
    # scores text, with a note advising --null '(read only)'
    summary = _load(tmp_path, GRADEBOOK, null=("EX",))
    assert _rows(tmp_path, "SELECT count(*), avg(essay_5501), avg(quiz_5503), sum(current_score) FROM t") == [
        (4, 16.125, 8.375, 330.25)
    ]
    assert _types(summary)["current_score"] == "DOUBLE"
    assert _rows(tmp_path, "SELECT student FROM t ORDER BY id LIMIT 1") == [("Ito, Ken",)]
    (note,) = [n for n in summary.notes if "under the header" in n]
    assert note == (
        "the line under the header ('Points Possible') describes the columns (Essay (5501): '20'; Current "
        "Score: '(read only)', …), not a record: not loaded as a row, each value kept in the profile beside "
        "its column; add --keep-label-rows to load it as a row"
    )
    assert not [n for n in summary.notes if "--null '(read only)'" in n]
    columns = {c["name"]: c for c in _profile(tmp_path)["columns"]}
    assert columns["essay_5501"]["label"] == "Points Possible: 20"
    assert columns["current_score"]["label"] == "Points Possible: (read only)"


def test_a_manual_posting_line_above_the_points_is_left_out_with_it(tmp_path: Path) -> None:
    lines = GRADEBOOK.splitlines(keepends=True)
    text = lines[0] + ",,,,Manual Posting,,,,\n" + "".join(lines[1:])
    summary = _load(tmp_path, text, null=("EX",))
    assert _rows(tmp_path, "SELECT count(*), sum(essay_5501), sum(lab_5502) FROM t") == [(4, 64.5, 118.5)]
    (note,) = [n for n in summary.notes if "under the header" in n]
    assert note.startswith("the 2 lines under the header describe the columns (")
    assert note.endswith("not records: not loaded as rows, each value kept in the profile beside its column; "
                         "add --keep-label-rows to load them as rows")  # fmt: skip
    label = {c["name"]: c for c in _profile(tmp_path)["columns"]}["essay_5501"]["label"]
    assert label == "Manual Posting / Points Possible: 20.00"  # as written: the column was text then


def test_a_points_row_of_numbers_alone_is_told_by_its_label(tmp_path: Path) -> None:
    # no '(read only)' column, no ID column: only the label says what the row holds
    text = "Student,HW 1,HW 2\nPoints Possible,10,20\nAda,7,15\nBo,9,18\nCy,4,11\n"
    summary = _load(tmp_path, text)
    assert _rows(tmp_path, "SELECT count(*), sum(hw_1), sum(hw_2) FROM t") == [(3, 20, 44)]
    assert _types(summary)["hw_1"] == "BIGINT"
    assert [n for n in summary.notes if n.startswith("the line under the header ('Points Possible')")]


@pytest.mark.parametrize(
    ("text", "sums"),
    [
        # a units line over a name column: the name no record leaves empty is empty in it
        ("Product,Weight,Price,Share\n,kg,USD,%\nApple,1.5,2.40,10\nPear,0.5,1.10,20\nFig,2,3.00,5\n", (4.0, 6.5)),
        # a units line over numbers only, one column without a unit
        ("Time,Count,Weight\ns,,kg\n0,5,1.5\n10,7,0.5\n20,9,2\n", (21, 4.0)),
        # a units line labelled so, its units above numbers
        ("Item,Weight,Price\nUnits,kg,USD\nApple,1.5,2.40\nPear,0.5,1.10\nFig,2,3.00\n", (4.0, 6.5)),
    ],
)  # fmt: skip
def test_a_line_of_units_is_left_out_and_the_numbers_read(tmp_path: Path, text: str, sums: tuple) -> None:
    summary = _load(tmp_path, text)
    second = summary.columns[2].name
    assert _rows(tmp_path, f"SELECT count(*), sum({summary.columns[1].name}), sum({second}) FROM t") == [
        (3, *sums)
    ]
    assert [n for n in summary.notes if n.startswith("the line under the header ")]  # a label line, or units


def test_a_line_of_units_over_a_statistics_offices_marks_is_left_out(tmp_path: Path) -> None:
    # Destatis (held-out round ten): '.' and '...' for missing figures (and its 'x' and '/', locked and
    # unreliable) among the numbers below 'Anzahl', 'Tage' and '%' hid the units line, which then kept
    # every column text (and --null 'Anzahl' advised)
    text = (
        "Land;Monat;Ankünfte;Dauer;Veränderung\n;;Anzahl;Tage;%\n"
        "Bayern;Januar 2024;1936915;3,4;3,7\nBerlin;Januar 2024;745521;...;.\n"
        "Bremen;Januar 2024;...;2,8;...\nHessen;Januar 2024;881220;3,3;-7,8\n"
        "Sachsen;Januar 2024;418514;1,9;-6,7\nThüringen;Januar 2024;198731;x;/\n"
    )
    summary = _load(tmp_path, text)
    assert _rows(
        tmp_path, "SELECT count(*), sum(ankunfte), round(sum(dauer), 2), round(sum(veranderung), 2) FROM t"
    ) == [(6, 4_180_901, 11.4, -10.8)]
    assert _types(summary)["ankunfte"] == "BIGINT" and _types(summary)["veranderung"] == "DOUBLE"
    (note,) = [n for n in summary.notes if "under the header" in n]
    assert note == (
        "the line under the header describes the columns (Ankünfte: 'Anzahl'; Dauer: 'Tage', …), not a "
        "record: not loaded as a row, each value kept in the profile beside its column; add "
        "--keep-label-rows to load it as a row"
    )
    assert not [n for n in summary.notes if "--null 'Anzahl'" in n]
    assert {c["name"]: c for c in _profile(tmp_path)["columns"]}["veranderung"]["label"] == "%"


@pytest.mark.parametrize(
    "text",
    [
        # a first record with text in two number columns keeps its ID: a record, named by the odd values
        "Student,ID,Essay,Lab,Quiz\nAda,7001,absent,absent,8\nBo,7002,12,30,9\nCy,7003,15,41,7\n",
        # one text value in a number column and a missing ID: a record all the same
        "Student,ID,Essay,Lab\nAda,,absent,30\nBo,7002,12,31\nCy,7003,15,41\n",
        # words in its text column, a number in the other: no units line
        "Product,Weight,Price\nApple,kg,2.40\nPear,0.5,1.10\nFig,2,3.00\n",
    ],
)
def test_a_first_record_with_text_in_a_number_column_is_kept(tmp_path: Path, text: str) -> None:
    summary = _load(tmp_path, text)
    assert _rows(tmp_path, "SELECT count(*) FROM t") == [(3,)]
    assert not [n for n in summary.notes if "under the header" in n]
    assert [n for n in summary.notes if "stayed text" in n]  # the odd value is named, as before


def test_a_metric_named_like_a_label_with_numbers_of_its_own_is_a_record(tmp_path: Path) -> None:
    # 'Units' is a word a units line starts with, but here a metric's row with its own numbers
    summary = _load(tmp_path, "Metric,Jan,Feb\nUnits,120,130\nRevenue,5000,5200\nMargin,30,31\n")
    assert _rows(tmp_path, "SELECT metric, jan FROM t ORDER BY jan") == [
        ("Margin", 30),
        ("Units", 120),
        ("Revenue", 5000),
    ]
    assert not [n for n in summary.notes if "under the header" in n]


def test_keep_label_rows_loads_the_row_said_and_refused_in_a_sum(tmp_path: Path) -> None:
    summary = _load(tmp_path, GRADEBOOK, null=("EX",), keep_label_rows=True)
    assert _rows(tmp_path, "SELECT count(*) FROM t") == [(5,)]
    (note,) = [n for n in summary.notes if "under the header" in n]
    assert note.endswith(
        "not a record: loaded as a row (--keep-label-rows), keeping current_score as text; "
        "sums and counts include it: leave out --keep-label-rows to load without it"
    )
    # its '(read only)' kept current_score text: --null '(read only)' would load the row for good
    assert not [n for n in summary.notes if "(read only)" in n and "--null" in n]
    ask = {"table": "t", "metrics": [{"fn": "sum", "column": "essay_5501"}]}
    with Workspace.open(tmp_path / "t.duckdb") as ws:
        refused = ws.executor.execute("aggregate", json.dumps(ask))
        fix = json.loads(refused.text[refused.text.index("{") : refused.text.index("}") + 1])
        fixed = ws.executor.execute("aggregate", json.dumps({**ask, "filters": [fix]}))
        shown = json.loads(ws.executor.execute("describe_table", json.dumps({"table": "t"})).text)
    assert refused.is_error and "--keep-label-rows" in refused.text
    assert fix == {"column": "student", "op": "not_in", "value": ["    Points Possible"]}
    assert json.loads(fixed.text)["rows"] == [[64.5]]
    assert shown["totals_rows"]["column"] == "student"


def test_a_line_of_labels_names_the_option_that_keeps_it(tmp_path: Path) -> None:
    text = (
        "GEO_ID,NAME,B01,B02\nGeography,Area Name,Estimate!!Total,Margin of Error!!Total\n"
        "0500US01,Autauga,58805,120\n0500US02,Baldwin,231767,340\n"
    )
    summary = _load(tmp_path, text)
    (note,) = [n for n in summary.notes if "label for each column" in n]
    assert note.endswith("add --keep-label-rows to load it as a row")
    assert _types(summary)["b01"] == "BIGINT"
    kept = _load(tmp_path, text, keep_label_rows=True)
    assert _rows(tmp_path, "SELECT count(*) FROM t") == [(3,)]
    (note,) = [n for n in kept.notes if "label for each column" in n]
    assert "loaded as a row (--keep-label-rows)" in note
    assert not [n for n in kept.notes if "--null" in n]


@pytest.mark.parametrize(
    ("text", "may"),
    [
        (GRADEBOOK, True),
        ("Time,Count,Weight\ns,,kg\n0,5,1.5\n10,7,0.5\n20,9,2\n", True),
        ("name,units,price\nAcme,10,2.5\nZeta,20,3.5\nMu,30,4.5\n", False),  # records from the first
        ("first,last\nAda,Lovelace\nAlan,Turing\nGrace,Hopper\n", False),  # text columns alone
        # a units line over numbers with a statistics office's missing marks ('..', '.')
        ("Region,Count,Change\n,Number,%\nA,12,3.5\nB,11,3.1\nC,14,..\nD,..,.\nE,15,2.5\nF,16,1.5\n", True),
    ],
)
def test_the_quick_look_reads_the_first_lines_only(text: str, may: bool) -> None:
    assert may_describe(text, ",", '"') is may


# 2. An Excel pivot table saved as CSV


def _pivot(blank: str = "(blank)", grand: str = "Grand Total") -> bytes:
    lines = [
        "Fiscal Year,FY2024,,,,",
        "Channel,(All),,,,",
        ",,,,,",
        "Region,Store,Sum of Net Sales,Sum of Gross Margin,Margin %,Target",
        'Central,Chicago \u2013 Loop,"$1,200.50",$375.76,31.3%,#N/A',
        "Central,St. Louis,$800.00,$320.00,40.0%,$900.00",
        'Central Total,,"$2,000.50",$695.76,34.8%,',
        "East,Outlet (closed),$0.00,($85.40),#DIV/0!,#N/A",
        'East,Boston,"$1,500.25",$445.57,29.7%,"$1,400.00"',
        'East Total,,"$1,500.25",$360.17,24.0%,',
        f"{blank},{blank},$312.50,($12.75),-4.1%,#N/A",
        f"{blank} Total,,$312.50,($12.75),-4.1%,",
        f'{grand},,"$3,813.25","$1,043.18",27.4%,',
    ]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def test_a_pivot_tables_report_filters_name_the_skip_to_its_header(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, _pivot())
    assert str(refused.value).endswith(
        "lines 1-3 are a title or notes ('Fiscal Year') above the header (line 4, 6 fields); add --skip 3 "
        "to start at the header"
    )


def test_a_pivot_table_loads_what_it_means(tmp_path: Path) -> None:
    summary = _load(tmp_path, _pivot(), skip=3, drop_totals=True)
    assert _types(summary)["margin"] == "DOUBLE" and _types(summary)["target"] == "DOUBLE"
    assert _rows(tmp_path, "SELECT region, store, sum_of_net_sales, margin, target FROM t") == [
        ("Central", "Chicago \u2013 Loop", 1200.5, 31.3, None),
        ("Central", "St. Louis", 800.0, 40.0, 900.0),
        ("East", "Outlet (closed)", 0.0, None, None),
        ("East", "Boston", 1500.25, 29.7, 1400.0),
        (None, None, 312.5, -4.1, None),
    ]
    assert (
        "Excel error values stored as missing (NULL), the rest of each column as numbers: margin (1: "
        "#DIV/0!); target (3: #N/A); add --type margin=VARCHAR (for each such column) to keep them as text"
    ) in summary.notes
    assert (
        "region, store: 2 values '(blank)' (an Excel pivot table's row label for an empty field) read as "
        "missing (NULL); add --null '' to keep them as text"
    ) in summary.notes
    (dropped,) = [n for n in summary.notes if n.startswith("--drop-totals")]
    assert "'Grand Total'" in dropped and "3 subtotal rows such as 'Central Total'" in dropped


def test_a_pivot_tables_totals_kept_are_said_and_its_blanks_read(tmp_path: Path) -> None:
    summary = _load(tmp_path, _pivot(), skip=3)
    assert _rows(tmp_path, "SELECT count(*), count(region) FROM t") == [(9, 8)]
    assert [n for n in summary.notes if "add --drop-totals" in n and "'Grand Total'" in n]
    kept = _load(tmp_path, _pivot(), skip=3, null=("",))  # --null '': only the empty field is missing
    assert _rows(tmp_path, "SELECT count(*) FROM t WHERE region = '(blank)'") == [(1,)]
    assert not [n for n in kept.notes if "pivot table's row label" in n]


def test_a_german_pivot_tables_blanks_and_subtotals_are_read(tmp_path: Path) -> None:
    text = _pivot(blank="(Leer)", grand="Gesamtergebnis").decode("cp1252").replace(" Total,", " Ergebnis,")
    summary = _load(tmp_path, text.encode("cp1252"), skip=3, drop_totals=True)
    assert _rows(tmp_path, "SELECT count(*), count(region), sum(sum_of_net_sales) FROM t") == [
        (5, 4, 3813.25)
    ]
    assert [n for n in summary.notes if "'(Leer)' (an Excel pivot table's row label" in n]


def test_a_pivot_corner_under_the_filters_is_no_header(tmp_path: Path) -> None:
    text = (
        "Year,2024,,\n,,,\nSum of Sales,Column Labels,,\nRow Labels,East,West,Grand Total\n"
        "Apples,10,20,30\nPears,5,6,11\nGrand Total,15,26,41\n"
    )
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, text)
    assert "add --skip 3 to start at the header" in str(refused.value)


def test_blank_in_parentheses_is_text_in_a_table_without_totals_rows(tmp_path: Path) -> None:
    summary = _load(tmp_path, "answer,score\n(blank),1\nyes,2\nno,3\n")
    assert _rows(tmp_path, "SELECT count(answer) FROM t") == [(3,)]
    assert not [n for n in summary.notes if "pivot" in n]


def test_excel_errors_among_amounts_of_two_currencies_stay_text(tmp_path: Path) -> None:
    # the amounts do not read as one column of numbers: the error values stay as written
    summary = _load(tmp_path, 'item,price\na,"$1,200.00"\nb,€5.00\nc,#N/A\nd,$3.00\n')
    assert _types(summary)["price"] == "VARCHAR"
    assert _rows(tmp_path, "SELECT count(*) FROM t WHERE price = '#N/A'") == [(1,)]
    assert not [n for n in summary.notes if n.startswith("Excel error values")]

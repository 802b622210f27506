"""Tables as statistics offices publish them: a symbol for a missing value (Eurostat's ``:`` and ``: c``,
StatCan's ``..``, ``x`` and ``F``, the ONS's ``[x]``, the ABS's ``np``, the World Bank's and PX-Web's
``..``) and a flag after a number (Eurostat's ``12.3 p``, the ONS's ``123 [r]``, StatCan's ``12.3E``).
Each file is written here as such an export writes it (small, made up), loaded through the real loader
into a DuckDB file in a temp dir, and checked cell by cell and by its note; and the columns a wrong
guess would spoil (sizes, sexes, codes, house numbers, units, a lone ``X``) stay text."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics_agent.db.load.settle.stat_first import marked_columns
from analytics_agent.db.load.settle.stat_marks import Counts, Reading, corroborated, read_as
from analytics_agent.db.load.settle.stat_symbols import may_hold_marks, may_mark
from tests.db.loaded import load_text as _load
from tests.db.loaded import stored_rows as _rows
from tests.db.loaded import stored_types as _types


def _marks_notes(summary) -> list[str]:
    return [n for n in summary.notes if "statistics office" in n]


# 1. Each office's marks


EUROSTAT = (
    "unit,geo\\TIME_PERIOD\t2021 \t2022 \t2023 \n"
    "CP_MEUR,BE\t502313.1 \t549455.8 \t583612.9 p\n"
    "CP_MEUR,BG\t71077.1 \t84056.4 e\t93948.9 p\n"
    "CP_MEUR,MT\t15074.6 \t: c\t19318.5 p\n"
    "CP_MEUR,IS\t: \t25730.2 b\t28160.3 \n"
)
"""SDMX-TSV as Eurostat's bulk download writes it: a space after every value, a flag after some, ``:``
(with a flag) for a missing one."""


def test_eurostat_flags_and_colons_load_as_numbers_and_are_said(tmp_path: Path) -> None:
    summary = _load(tmp_path, "nama.tsv", EUROSTAT)
    assert _types(summary) | {"unit_geo_time_period": "VARCHAR"} == {
        "unit_geo_time_period": "VARCHAR",
        "c_2021": "DOUBLE",
        "c_2022": "DOUBLE",
        "c_2023": "DOUBLE",
    }
    assert _rows(tmp_path, "SELECT c_2021, c_2022, c_2023 FROM t") == [
        (502313.1, 549455.8, 583612.9),
        (71077.1, 84056.4, 93948.9),
        (15074.6, None, 19318.5),
        (None, 25730.2, 28160.3),
    ]
    assert _marks_notes(summary) == [
        "c_2021, c_2022, c_2023: numbers with a statistics office's marks, stored as DOUBLE: 2 values ':', "
        "': c' read as missing (NULL), and the flags after 5 numbers ('b', 'e', 'p') dropped; add --type "
        "c_2021=VARCHAR (for each such column) to keep them as text"
    ]


STATCAN = (
    '"Geography","Characteristics","January 2024","February 2024"\r\n'
    '"Canada","Population","33,136.8","33,208.5"\r\n'
    '"Newfoundland and Labrador","Employment","273.6","x"\r\n'
    '"Prince Edward Island","Unemployment rate","F","6.6"\r\n'
    '"Yukon","Population","..","45.2"\r\n'
)


def test_statcan_symbols_among_grouped_numbers_are_missing(tmp_path: Path) -> None:
    summary = _load(tmp_path, "14100287.csv", STATCAN)
    assert _rows(tmp_path, 'SELECT "january_2024", "february_2024" FROM t') == [
        (33136.8, 33208.5),
        (273.6, None),
        (None, 6.6),
        (None, 45.2),
    ]
    (note,) = _marks_notes(summary)
    assert "3 values '..', 'F', 'x' read as missing (NULL)" in note and "flags" not in note
    assert note.endswith("add --type january_2024=VARCHAR (for each such column) to keep them as text")
    assert not any("stayed text" in n for n in summary.notes)


def test_the_type_option_the_note_names_keeps_the_text(tmp_path: Path) -> None:
    summary = _load(
        tmp_path, "14100287.csv", STATCAN, types=["january_2024=VARCHAR", "february_2024=VARCHAR"]
    )
    assert _rows(tmp_path, "SELECT january_2024, february_2024 FROM t")[2] == ("F", "6.6")
    assert not _marks_notes(summary)


def test_the_ons_shorthand_in_brackets_alone_and_after_a_number(tmp_path: Path) -> None:
    text = (
        "Area code,Area name,2022,2023\n"
        "E06000001,Hartlepool,93.1 [p],[x]\n"
        "E06000002,Middlesbrough,[c],145.0[r][p]\n"
        "E06000003,Redcar and Cleveland,137.2,138.0\n"
    )
    summary = _load(tmp_path, "ons.csv", text)
    assert _rows(tmp_path, "SELECT area_code, c_2022, c_2023 FROM t") == [
        ("E06000001", 93.1, None),
        ("E06000002", None, 145.0),
        ("E06000003", 137.2, 138.0),
    ]
    (note,) = _marks_notes(summary)
    assert "2 values '[c]', '[x]' read as missing" in note
    assert "the flags after 2 numbers ('[p]', '[r][p]') dropped" in note


def test_abs_np_and_na_and_whole_numbers_stored_as_bigint(tmp_path: Path) -> None:
    summary = _load(
        tmp_path, "abs.csv", "State,Persons,Dwellings\nNSW,8072,3059\nVic.,np,2532\nQld,5217,na\n"
    )
    assert _types(summary)["persons"] == "BIGINT" and _types(summary)["dwellings"] == "BIGINT"
    assert _rows(tmp_path, "SELECT persons, dwellings FROM t") == [(8072, 3059), (None, 2532), (5217, None)]
    (note,) = _marks_notes(summary)
    assert "stored as BIGINT: 2 values 'na', 'np' read as missing (NULL)" in note


def test_world_bank_dots_even_where_most_years_are_missing(tmp_path: Path) -> None:
    """DataBank writes ``..`` for every missing year: an early year holds few numbers, and is still one
    of numbers (``..`` is no text a column of words holds)."""
    text = "Country Name,Country Code,1990 [YR1990],2020 [YR2020]\n"
    text += "Aruba,ABW,..,2481857952.5\nAfghanistan,AFG,..,20143441379.3\nAngola,AGO,..,..\n"
    text += "Albania,ALB,2028553750.2,15131866270.7\n"
    summary = _load(tmp_path, "wdi.csv", text)
    assert _types(summary)["c_1990_yr1990"] == "DOUBLE"
    assert _rows(tmp_path, "SELECT sum(c_1990_yr1990), count(c_2020_yr2020) FROM t") == [(2028553750.2, 3)]
    assert "4 values '..' read as missing" in _marks_notes(summary)[0]


def test_px_web_dots_with_decimal_commas_and_space_thousands(tmp_path: Path) -> None:
    text = '"region";"2021";"2022"\n"Stockholm";"2 415 139,5";".."\n"Uppsala";"395 026,0";"399 115,5"\n'
    text += '"Gotland";"..";"60 124,0"\n'
    _load(tmp_path, "scb.csv", text)
    assert _rows(tmp_path, 'SELECT "c_2021", "c_2022" FROM t') == [
        (2415139.5, None),
        (395026.0, 399115.5),
        (None, 60124.0),
    ]


def test_ine_points_grouping_thousands_and_a_lone_dot(tmp_path: Path) -> None:
    _load(
        tmp_path,
        "ine.csv",
        "Provincia;2022;2023\nMadrid;6.751.251,0;6.871.903,0\nSoria;..;88.747,0\nTeruel;134.176,0;.\n",
    )
    assert _rows(tmp_path, "SELECT c_2022, c_2023 FROM t") == [
        (6751251.0, 6871903.0),
        (None, 88747.0),
        (134176.0, None),
    ]


def test_statcan_quality_letters_after_a_decimal_are_dropped(tmp_path: Path) -> None:
    summary = _load(
        tmp_path,
        "q.csv",
        'Geography,Estimate\nCanada,"1,234.5A"\nOntario,456.7E\nQuebec,F\nManitoba,12.3 B\n',
    )
    assert _rows(tmp_path, "SELECT estimate FROM t") == [(1234.5,), (456.7,), (None,), (12.3,)]
    assert "the flags after 3 numbers ('A', 'B', 'E') dropped" in _marks_notes(summary)[0]


# 2. Marks below the first rows the load reads ahead


def _late(values: dict[int, str], size: int = 120) -> list[str]:
    return [values.get(i, f"{1000 + 7 * i}.{i % 10}") for i in range(size)]


def test_marks_past_the_first_rows_of_plain_and_grouped_numbers(tmp_path: Path) -> None:
    """The first 50 values show nothing: the column of plain numbers stays text for its odd values, the
    grouped one for values that do not read as amounts; both are then read with the marks."""
    plain = _late({80: "x"})
    grouped = [f'"{i:,}.5"' for i in range(10_000, 10_120)]
    grouped[90] = '".."'
    text = "geo,plain,grouped\n" + "".join(
        f"G{i},{p},{g}\n" for i, (p, g) in enumerate(zip(plain, grouped, strict=True))
    )
    summary = _load(tmp_path, "late.csv", text)
    assert _types(summary)["plain"] == "DOUBLE" and _types(summary)["grouped"] == "DOUBLE"
    assert _rows(
        tmp_path, "SELECT plain, grouped FROM t WHERE geo IN ('G80', 'G90', 'G91') ORDER BY geo"
    ) == [
        (None, 10080.5),
        (1630.0, None),
        (1637.1, 10091.5),
    ]
    notes = _marks_notes(summary)
    assert any(n.startswith("grouped: ") and "1 value '..'" in n for n in notes)
    assert any(n.startswith("plain: ") and "1 value 'x'" in n for n in notes)
    assert not any("stayed text" in n for n in summary.notes)


def test_eurostat_flags_past_the_first_rows(tmp_path: Path) -> None:
    first = _late({80: "1.5 e", 100: ": "}, 200)
    second = _late({150: "2.5 p"}, 200)
    text = "geo\\TIME_PERIOD\t2022 \t2023 \n" + "".join(
        f"G{i}\t{a} \t{b} \n" for i, (a, b) in enumerate(zip(first, second, strict=True))
    )
    summary = _load(tmp_path, "late.tsv", text)
    sql = "SELECT geo_time_period, c_2022, c_2023 FROM t WHERE geo_time_period IN ('G80', 'G100', 'G150')"
    assert sorted(_rows(tmp_path, sql)) == [
        ("G100", None, 1700.0),
        ("G150", 2050.0, 2.5),
        ("G80", 1.5, 1560.0),
    ]
    (note,) = _marks_notes(summary)
    assert "1 value ':' read as missing (NULL), and the flags after 2 numbers ('e', 'p') dropped" in note


# 3. Numbers that read either way


IBGE = "Municipio;Area plantada;Rendimento\nA;1.234;X\nB;..;567\nC;...;1.200\nD;88;90\n"
"""``1.234`` is 1234 with a decimal comma, 1.234 with a point: nothing in the file says which."""


def test_numbers_that_read_either_way_stay_text_naming_decimal(tmp_path: Path) -> None:
    summary = _load(tmp_path, "ibge.csv", IBGE)
    assert _types(summary)["area_plantada"] == "VARCHAR"
    assert summary.notes == [
        "area_plantada, rendimento stayed text: numbers like '1.234' read either with a decimal point or "
        "with a decimal comma, beside a statistics office's marks; add --decimal ',' or --decimal '.' to "
        "say which"
    ]


def test_the_decimal_option_named_reads_them(tmp_path: Path) -> None:
    summary = _load(tmp_path, "ibge.csv", IBGE, decimal=",")
    assert _rows(tmp_path, "SELECT area_plantada, rendimento FROM t") == [
        (1234.0, None),
        (None, 567.0),
        (None, 1200.0),
        (88.0, 90.0),
    ]
    assert "3 values '..', '...', 'X' read as missing" in _marks_notes(summary)[0]


def test_either_way_numbers_read_as_the_other_columns_show(tmp_path: Path) -> None:
    text = "Provincia;2022;2023\nMadrid;6.751.251,5;1.234\nSoria;..;88.747\nTeruel;134.176,0;..\n"
    _load(tmp_path, "ine.csv", text)
    assert _rows(tmp_path, "SELECT c_2022, c_2023 FROM t") == [
        (6751251.5, 1234.0),
        (None, 88747.0),
        (134176.0, None),
    ]


# 4. What stays text


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("item,size,qty\na,8,1\nb,10,2\nc,x,3\nd,12,4\n", "size"),  # a size column's x
        ("COL1,COL2\n1,A\nX,Y\n2,B\n3,C\nX,Y\n", "col1"),  # DuckDB's own test of a mismatch
        ("id,sex,age\n1,F,34\n2,M,45\n3,F,23\n", "sex"),  # F for female
        ("code,name\n007,a\n..,b\n012,c\n", "code"),  # codes
        ("street,number\nMain,12\nMain,12 b\nOak,14\nOak,3\n", "number"),  # a house number
        ("run,time\n1,1.2 s\n2,0.8 s\n3,2.5 s\n", "time"),  # a unit after every value
        ("order_no,qty\n4200001234567890123,1\n..,2\n4200001234567890125,3\n", "order_no"),  # long ids
        ("id,reading\n1,x\n2,x\n3,12.5\n4,x\n", "reading"),  # letters more than half the values
        ("id,note\n1,..\n2,see 3.1\n3,4.5\n", "note"),  # a value that is no number nor mark
    ],
)
def test_columns_a_wrong_guess_would_spoil_stay_text(tmp_path: Path, text: str, column: str) -> None:
    summary = _load(tmp_path, "t.csv", text)
    assert _types(summary)[column] == "VARCHAR"
    assert not _marks_notes(summary)


def test_a_lone_x_among_whole_numbers_is_named_with_null_not_guessed(tmp_path: Path) -> None:
    summary = _load(tmp_path, "t.csv", "item,size,qty\na,8,1\nb,10,2\nc,x,3\nd,12,4\n")
    assert "size stayed text because of 1 value like 'x'; add --null 'x' if it means missing" in summary.notes


def test_eurostat_flags_after_whole_numbers_need_a_second_column(tmp_path: Path) -> None:
    """``12 b`` alone may be a house number; two columns flagged with two letters are a table's."""
    one = _load(tmp_path, "one.tsv", "geo\t2023 \nAT\t12 \nBE\t14 b\nBG\t16 \n")
    assert _types(one)["c_2023"] == "VARCHAR"
    two = _load(tmp_path, "two.tsv", "geo\t2022 \t2023 \nAT\t12 \t13 \nBE\t14 b\t15 \nBG\t16 \t17 p\n")
    assert _types(two)["c_2022"] == "BIGINT" and _types(two)["c_2023"] == "BIGINT"
    assert _rows(tmp_path, "SELECT c_2022, c_2023 FROM t") == [(12, 13), (14, 15), (16, 17)]


# 5. The pure parts


@pytest.mark.parametrize(
    "value",
    ["..", ":", ": c", "x", "np", "[x]", "12.3 p", "275115.6 b", "0.5 bep", "12.3E", "1,234.5 A", "123 [r]"],
)
def test_may_mark_lets_every_mark_through(value: str) -> None:
    assert may_mark(value)


@pytest.mark.parametrize(
    "value", ["12.3", "400000 Product Sales", "350 Oak Avenue", "08A", "9E", "302 S 700 E", "Engaged 90d"]
)
def test_may_mark_stops_what_is_no_mark(value: str) -> None:
    assert not may_mark(value)


def test_may_hold_marks_wants_a_number_beside_a_symbol() -> None:
    assert not may_hold_marks(["/", "/about"]) and not may_hold_marks(["F", "M"])
    assert may_hold_marks(["..", "12.5"])


def test_marked_columns_reads_the_first_values() -> None:
    probe = {"a": ["1.5", ".."], "b": ["1.5", "2.5"], "c": ["..", "word"], "d": ["12.3 p", "4"]}
    assert marked_columns(probe) == ["a", "d"]


def _counts(**found: object) -> Counts:
    base: dict[str, object] = dict(
        present=10,
        symbols=0,
        letters=0,
        weak=0,
        point=10,
        comma=10,
        either=0,
        stripped=0,
        flagged=0,
        sure=0,
        whole=0,
        coded=0,
        seen=[],
        flags=[],
        example=None,
    )
    return Counts(**(base | found))  # type: ignore[arg-type]


def test_read_as_and_corroborated() -> None:
    dots = _counts(symbols=2, seen=[".."], point=8, comma=8)
    assert read_as(dots, None) == Reading(".", "DOUBLE", True)
    assert read_as(_counts(symbols=2, point=8, comma=8, coded=1), None) is None
    assert read_as(_counts(symbols=6, letters=6, weak=6, point=4, comma=4), None) is None
    assert read_as(_counts(symbols=2, point=8, comma=8, either=3), None).mark == ""  # type: ignore[union-attr]
    lone_x = _counts(symbols=1, letters=1, weak=1, seen=["X"], point=9, comma=9, whole=9)
    reading = read_as(lone_x, None)
    assert reading == Reading(".", "BIGINT", False)
    assert corroborated({"a": (reading, lone_x)}) == {}
    assert corroborated({"a": (reading, lone_x)}, seen=True) == {"a": (reading, lone_x)}


def test_odd_values_that_cannot_be_marks_are_not_counted_as_marks(tmp_path: Path, monkeypatch) -> None:
    """weather.csv's ``T`` (a trace of rain) among the precipitation numbers: no office writes it, so the
    marks are not counted over the column (which cost the load 5 ms of CPU); the note names the value
    as before. The same column with ``..`` below its first rows is counted and read."""
    from analytics_agent.db.load.settle import stat_marks

    called: list[list[str]] = []
    real = stat_marks.settle_stat_marks

    def spy(conn, table, columns, *args, **kwargs):
        called.append(list(columns))
        return real(conn, table, columns, *args, **kwargs)

    monkeypatch.setattr(stat_marks, "settle_stat_marks", spy)
    rows = "".join(f"{d}-1-2016,0.{d:02d}\n" for d in range(1, 61))
    summary = _load(tmp_path, "weather.csv", f"date,precipitation\n{rows}61-1-2016,T\n62-1-2016,T\n")
    assert called == [] and _types(summary)["precipitation"] == "VARCHAR"
    assert any(n.startswith("precipitation stayed text because of 2 values like 'T'") for n in summary.notes)
    summary = _load(tmp_path, "weather.csv", f"date,precipitation\n{rows}61-1-2016,..\n62-1-2016,..\n")
    assert called == [["precipitation"]] and _types(summary)["precipitation"] == "DOUBLE"


def test_marks_below_the_first_rows_read_with_the_decimal_comma_given(tmp_path: Path) -> None:
    """INE's tables (round eleven): ``;``, decimal commas and a ``..`` deep down. Under the ``--decimal ','``
    the load had named, each number failed DuckDB's cast (it knows only the point): the column stayed text
    with no note."""
    lines = [f"Grupo {i % 12:02d};2024M0{1 + i % 2};{100 + i},{i % 10}" for i in range(150)]
    lines[140] = "Grupo 08;2024M02;.."
    summary = _load(tmp_path, "ine.csv", "Grupo;Periodo;Total\n" + "\n".join(lines) + "\n", decimal=",")
    assert _types(summary)["total"] == "DOUBLE"
    assert _rows(tmp_path, "SELECT count(total), sum(total) FROM t") == [
        (149, sum(100 + i + (i % 10) / 10 for i in range(150) if i != 140))
    ]
    assert "1 value '..' read as missing" in _marks_notes(summary)[0]


def test_other_odd_values_under_the_decimal_comma_given_are_named(tmp_path: Path) -> None:
    lines = [f"{i};{100 + i},5" for i in range(150)]
    lines[140] = "140;k.A."
    summary = _load(tmp_path, "p.csv", "id;price\n" + "\n".join(lines) + "\n", decimal=",")
    assert _types(summary)["price"] == "VARCHAR"
    assert (
        "price stayed text because of 1 value like 'k.A.'; add --null 'k.A.' if it means missing"
        in summary.notes
    )


ELSTAT = (
    "Περιφέρεια;Έτος;Αφίξεις;Πληρότητα %\n"
    "Αττική;2022;196.042;75,4\n"
    "Αττική;2023;2.872.610*;42,1\n"
    "Κρήτη;2022;x;..\n"
    "Κρήτη;2023;3.080.212*;51,0\n"
)
"""ELSTAT's table (held-out round fourteen): an asterisk after a provisional figure, beside ``x`` and
``..``: the column stayed text."""


def test_an_asterisk_after_a_provisional_number_is_a_flag(tmp_path: Path) -> None:
    summary = _load(tmp_path, "elstat.csv", ELSTAT)
    assert _rows(tmp_path, "SELECT αφίξεις, πληρότητα FROM t") == [
        (196042, 75.4),
        (2872610, 42.1),
        (None, None),
        (3080212, 51.0),
    ]
    assert "the flags after 2 numbers ('*') dropped" in _marks_notes(summary)[0]


def test_an_asterisk_after_numbers_with_no_office_mark_beside_it_stays_text(tmp_path: Path) -> None:
    """A footnote's star alone among whole numbers may be anything (a receipt's discounted line)."""
    summary = _load(tmp_path, "r.csv", "item,qty\nA,3*\nB,4\nC,12\n")
    assert _types(summary)["qty"] == "VARCHAR"

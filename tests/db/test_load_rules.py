"""Load rules added for the suites' remaining cases (issue 21): empty fields past the header, short records,
mixed line ends, per-column date formats, and the one builder of the options for the CLI and the API."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import check_options, load_options
from analytics_agent.db.load.read.newlines import normalise
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError


def _load(tmp_path: Path, text: str | bytes, **flags: object):
    path = tmp_path / "f.csv"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", **flags))  # type: ignore[arg-type]


def _rows(tmp_path: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def test_empty_fields_past_the_header_are_dropped_and_counted(tmp_path: Path) -> None:
    summary = _load(tmp_path, "a,b,c\n1,2,3,,\n4,5,6\n7,8,9,\n")
    assert _rows(tmp_path, "SELECT * FROM t ORDER BY a") == [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    assert any(n.startswith("2 records have empty fields past the header's 3 columns") for n in summary.notes)


def test_a_value_past_the_header_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="line 2 has 5 fields where the header has 3") as caught:
        _load(tmp_path, "a,b,c\n1,2,3,,x\n4,5,6\n")
    assert "--skip-bad-rows" in str(caught.value)


def test_a_file_with_no_good_record_is_not_offered_skip_bad_rows(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="nothing can load") as caught:
        _load(tmp_path, "a,b\n1,2,3\n")
    assert "--skip-bad-rows" not in str(caught.value)


def test_a_short_record_is_padded_when_asked(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="add --pad-short-rows"):
        _load(tmp_path, "i,j\n7\n")
    _load(tmp_path, "i,j\n7\n", pad_short_rows=True)
    assert _rows(tmp_path, "SELECT * FROM t") == [(7, None)]


def test_a_comment_line_below_the_header_names_comment(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="add --comment '#'"):
        _load(tmp_path, "a,b,c\n1,2,3\n# note\n4,5,6\n")
    _load(tmp_path, "a,b,c\n1,2,3\n# note\n4,5,6\n", comment="#")
    assert _rows(tmp_path, "SELECT count(*) FROM t") == [(2,)]


def test_mixed_line_ends_are_named_and_newline_any_reads_them(tmp_path: Path) -> None:
    text = b"a,b,c\n1,2,3\r\n4,5,6\n7,8,9\r10,11,12\n"
    with pytest.raises(LoadError, match=r"mixes line endings .*add --newline any"):
        _load(tmp_path, text)
    summary = _load(tmp_path, text, newline="any")
    assert summary.rows_loaded == 4
    assert _rows(tmp_path, "SELECT sum(c) FROM t") == [(30,)]


def test_normalise_keeps_a_crlf_split_across_chunks(tmp_path: Path) -> None:
    import io

    source, target = io.BytesIO(b"a\r\nb\rc\n"), io.BytesIO()
    normalise(source, target)
    assert target.getvalue() == b"a\nb\nc\n"


def test_a_column_date_format_reads_that_column(tmp_path: Path) -> None:
    text = "id,day\n1,12/31/09\n2,01/15/09\n"
    _load(tmp_path, text, date_format=["day=%m/%d/%y"])
    assert _rows(tmp_path, "SELECT day FROM t ORDER BY id") == [
        (datetime.date(2009, 12, 31),),
        (datetime.date(2009, 1, 15),),
    ]
    with pytest.raises(LoadError, match='"12/31/09" does not match the --date-format %d/%m/%y'):
        _load(tmp_path, text, date_format=["day=%d/%m/%y"], replace=True)


def test_an_ambiguous_text_date_names_the_other_reading_per_column(tmp_path: Path) -> None:
    text = "id,seen\n1,03/04/2024\n2,05/06/2024\n"
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, text)
    assert "--date-format seen=%m/%d/%Y" in str(refused.value) and "--date-format seen=%d/%m/%Y" in str(
        refused.value
    )
    _load(tmp_path, text, date_format=["seen=%m/%d/%Y"])
    assert _rows(tmp_path, "SELECT seen FROM t ORDER BY id")[0] == (datetime.date(2024, 3, 4),)


def test_a_date_shaped_column_that_stays_text_names_the_option(tmp_path: Path) -> None:
    summary = _load(tmp_path, "id,when_seen\n1,2009-Jan-31\n2,2010-Feb-01\n")
    assert any(
        n.startswith("when_seen looks like dates") and "--date-format when_seen=FORMAT" in n
        for n in summary.notes
    )
    _load(
        tmp_path,
        "id,when_seen\n1,2009-Jan-31\n2,2010-Feb-01\n",
        date_format=["when_seen=%Y-%b-%d"],
        replace=True,
    )
    assert _rows(tmp_path, "SELECT max(when_seen) FROM t") == [(datetime.date(2010, 2, 1),)]


def test_one_builder_for_both_front_doors() -> None:
    options = load_options(
        table="t", append=True, types=["amount=VARCHAR"], null=["-"], date_format=["%d/%m/%Y", "d=%Y"]
    )
    assert (options.mode, dict(options.types), options.null_tokens) == (
        "append",
        {"amount": "VARCHAR"},
        ("-",),
    )
    assert (options.date_format, dict(options.column_date_formats)) == ("%d/%m/%Y", {"d": "%Y"})
    with pytest.raises(LoadError, match="contradict"):
        load_options(replace=True, append=True)
    with pytest.raises(LoadError, match="--type 'amount': write COLUMN=TYPE"):
        load_options(types=["amount"])
    with pytest.raises(LoadError, match="--date-format given twice"):
        load_options(date_format=["%d/%m/%Y", "%m/%d/%Y"])


def test_newline_takes_any_only() -> None:
    with pytest.raises(LoadError, match="--newline takes any"):
        check_options(load_options(newline="crlf"), "csv")
    with pytest.raises(LoadError, match="--newline any reads utf-8 and latin-1"):
        check_options(load_options(newline="any", encoding="utf-16"), "csv")


def test_a_header_quoted_across_lines_with_an_unusual_character_names_that_quote(tmp_path: Path) -> None:
    """PapaParse's case 110: ``.`` quotes the header's first field over two lines, which no sniffer tries, so
    every record seems to have one field too many; the refusal names --quote '.', and that loads."""
    text = ".a\na.,b\nc,d\ne,f\ng,h\n"
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, text)
    assert "add --quote '.'" in str(refused.value) and "\n" not in str(refused.value)
    _load(tmp_path, text, quote=".")
    assert _rows(tmp_path, "SELECT * FROM t ORDER BY 1") == [("c", "d"), ("e", "f"), ("g", "h")]


@pytest.mark.parametrize(
    "head",
    [
        "a,b\nc,d,e\nf,g,h\n",  # a plain short header: no character quotes it
        ".a.,b\nc,d,e\nf,g,h\n",  # quoted on one line: the header still has two fields
        ".a\na.,b\nc,d,e\n",  # the records below do not all have the fields the quote gives the header
        '"a\na",b\nc,d,e\n',  # a double quote is DuckDB's own candidate: never the unusual one
    ],
)
def test_no_unusual_quote_is_named_where_none_explains_the_header(head: str) -> None:
    from analytics_agent.db.load.reader_errors import quote_around_header

    assert quote_around_header(head, ",", 3) is None
    assert quote_around_header(".a\na.,b\nc,d\ne,f", ",", 2) == "."  # the cut last line is left out


@pytest.mark.parametrize(
    ("text", "skip", "rows"),
    [
        ("some notes...\nnumber,text,date\n345.0,TEST3,2000-12-13\n", 1, [(345.0, "TEST3")]),
        (
            "Report\nmore notes,...\nnumber,text,date\n1.5,a,2000-12-13\n2.5,b,2000-12-14\n",
            2,
            [(1.5, "a"), (2.5, "b")],
        ),
    ],
)
def test_a_title_above_the_header_is_named_with_the_skip_that_reads_the_file(
    tmp_path: Path, text: str, skip: int, rows: list[tuple]
) -> None:
    """DuckDB's sniffer skips a title or note above the header quietly; the load names those lines and the
    --skip that starts at the header (it was: "line 2 has 3 fields where the header has 1 ... fix the
    header"), and that option loads the file."""
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, text)
    message = str(refused.value)
    assert f"add --skip {skip} to start at the header" in message and "\n" not in message
    assert f"(line {skip + 1}, 3 fields)" in message
    _load(tmp_path, text, skip=skip)
    assert _rows(tmp_path, "SELECT number, text FROM t ORDER BY 1") == rows


def test_a_tab_file_whose_values_hold_commas_loads_with_tabs(tmp_path: Path) -> None:
    """DuckDB's sniffer reads such a file with commas by skipping its header (DuckDB's bug_7578.csv); every
    line agrees with the first under tabs, so tabs it is."""
    values = '{"note": "one, two, three, four", "more": "a, b"}'
    text = "id\tamount\ttags\n" + "".join(f"{i}\t{i}.5\t{values}\n" for i in range(1, 4))
    _load(tmp_path, text)
    assert _rows(tmp_path, "SELECT id, amount, tags FROM t ORDER BY 1")[0] == (1, 1.5, values)


@pytest.mark.parametrize(
    ("text", "skipped"),
    [
        ("one,two,three\n1,2,3,4\n1,2,3,4\n", 1),  # a header one field short (row names): not a title
        ("title\nnumber,text\n", 1),  # no record below the header to agree with it
        ("title\nnumber,text\n1,2,3\n", 1),  # the record does not agree with the header
        ("a,b,c,d\nnumber,text\n1,2\n", 1),  # the line above is wider than the header
        ("n\n" * 11 + "number,text\n1,2\n", 11),  # eleven lines above: another table, not a title
    ],
)
def test_no_title_is_named_where_the_lines_above_do_not_look_like_one(text: str, skipped: int) -> None:
    from analytics_agent.db.load.read.titles import title_above_header

    assert title_above_header(text, ",", '"', skipped) is None
    assert title_above_header("title\nnumber,text\n1,2\n", ",", '"', 1) is not None


def test_the_agreeing_delimiter_is_the_one_only_delimiter_every_first_line_agrees_with() -> None:
    from analytics_agent.db.load.read.peek import agreeing_delimiter

    assert agreeing_delimiter("a\tb\tc\n1\t2,3\t4\n5\t6\t7,8,9\n") == "\t"
    assert agreeing_delimiter("a,b;c\n1,2;3\n") is None  # two delimiters agree: no choice made
    assert agreeing_delimiter("a,b\n1,2,3\n") is None  # none agrees
    assert agreeing_delimiter("a,b\n") is None  # one line says nothing


def test_bytes_that_duckdbs_latin_1_refuses_are_explained_in_one_line(tmp_path: Path) -> None:
    """0x80-0x9f are Windows-1252 punctuation, which DuckDB's latin-1 refuses: the refusal says so and
    names the encoding that reads them, where it passed on "Invalid Input Error: File is not latin-1
    encoded"; a byte Windows-1252 lacks too (0x81) is told to be converted."""
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, b"a,b\n1,\x82x\n", encoding="latin-1")
    message = str(refused.value)
    assert "not UTF-8 but Windows-1252" in message and "add --encoding windows-1252" in message
    assert "Error:" not in message and "\n" not in message
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, b"a,b\n1,\x82x\x81\n", encoding="latin-1")
    message = str(refused.value)
    assert "is not latin-1 either" in message and "iconv -f cp1252" in message
    assert "Error:" not in message and "\n" not in message


def test_a_line_past_duckdbs_limit_names_the_max_line_size_that_reads_it(tmp_path: Path) -> None:
    """DuckDB reads lines of at most 2,000,000 bytes; a longer one (a huge JSON cell) was refused in DuckDB's
    words with nothing to do about it. The refusal names the line, its length and a --max-line-size that
    reads it, and that loads the file."""
    big = "x" * 2_100_000
    text = f"id,payload\n1,small\n2,{big}\n"
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, text)
    message = str(refused.value)
    assert "has a line of 2,100,00" in message and "add --max-line-size 5000000" in message
    assert "\n" not in message and "Error" not in message
    _load(tmp_path, text, max_line_size=5_000_000)
    assert _rows(tmp_path, "SELECT id, strlen(payload) FROM t ORDER BY 1") == [(1, 5), (2, 2_100_000)]


@pytest.mark.parametrize("size", [0, -1, 2**31])
def test_max_line_size_takes_a_sensible_number_of_bytes(size: int) -> None:
    from analytics_agent.db.load.options import LoadOptions

    with pytest.raises(LoadError, match="--max-line-size takes a number of bytes"):
        check_options(LoadOptions(max_line_size=size), "csv")


@pytest.mark.parametrize(
    ("day", "note"),
    [
        # day-first dates with two odd values: the format is recognised, the odd values are named (it said
        # "in a form not recognised; add --date-format day=FORMAT", which does not load it)
        (
            lambda i: f"{i % 28 + 1:02d}/01/2020",
            "day looks like dates (%d/%m/%Y) but 2 values such as 'bad' do not fit",
        ),
        # ISO dates with two odd values: one note, the odd-value check's (the date note was wrong and doubled it)
        (lambda i: f"2020-01-{i % 28 + 1:02d}", "day stayed text because of 2 values like 'bad'"),
    ],
)
def test_a_date_column_kept_text_by_a_few_odd_values_names_them_once(tmp_path: Path, day, note: str) -> None:
    text = "id,day\n" + "".join(f"{i},{day(i)}\n" for i in range(200)) + "201,bad\n202,bad\n"
    summary = _load(tmp_path, text)
    about_day = [n for n in summary.notes if n.startswith("day ")]
    assert len(about_day) == 1 and about_day[0].startswith(note), summary.notes
    assert "add --null 'bad'" in about_day[0] and "not recognised" not in about_day[0]
    _load(tmp_path, text, null=["bad"], replace=True)
    assert _rows(tmp_path, "SELECT typeof(day), count(*) - count(day) FROM t GROUP BY 1") == [("DATE", 2)]


@pytest.mark.parametrize("text", ["sep=;\na;b\n", "\ufeffsep=;\r\na;b\r\n", "sep=;"])
def test_excels_sep_line_names_the_delimiter_and_is_skipped(text: str) -> None:
    from analytics_agent.db.load.read.peek import excel_delimiter

    assert excel_delimiter(text) == ";"


@pytest.mark.parametrize("first", ["sep=;x\n", "sep=\n", "a;b\nsep=;\n", "Sep=;\n", "sep=\r\n"])
def test_a_line_that_is_not_excels_sep_line_names_no_delimiter(first: str) -> None:
    from analytics_agent.db.load.read.peek import excel_delimiter

    assert excel_delimiter(first) is None


def test_an_excel_export_with_its_sep_line_loads_from_the_header_below_it_and_says_so(tmp_path: Path) -> None:
    summary = _load(tmp_path, "sep=;\r\nName;Qty\r\nA;3\r\nB;4\r\n")
    assert _rows(tmp_path, "SELECT * FROM t ORDER BY 1") == [("A", 3), ("B", 4)]
    assert "line 1 ('sep=;') is Excel's note of the delimiter, not data: skipped; the delimiter is ';'" in (
        summary.notes
    )


def test_files_loaded_together_must_all_have_the_sep_line_or_none(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("sep=;\nName;Qty\nA;3\n")
    (tmp_path / "b.csv").write_text("Name;Qty\nB;4\n")
    with pytest.raises(LoadError, match=r"a\.csv and b\.csv do not start alike"):
        load_files(tmp_path / "t.duckdb", [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")], load_options())
    assert not (tmp_path / "t.duckdb").exists()  # nothing half-made


def test_numbers_with_a_decimal_comma_are_named_with_the_options_that_read_them(tmp_path: Path) -> None:
    text = "id;amount;ratio\n1;1.234,50;0,5\n2;2,00;0,25\n3;10,5;1\n"
    summary = _load(tmp_path, text)
    assert summary.notes == [
        "amount, ratio stayed text: their values are numbers with a decimal comma, like '1.234,50'; "
        "add --decimal ',' --thousands '.' to read them as numbers"
    ]
    (tmp_path / "t.duckdb").unlink()
    advised = _load(tmp_path, text, decimal=",", thousands=".")
    assert advised.notes == []
    assert _rows(tmp_path, "SELECT amount, ratio FROM t ORDER BY id") == [
        (1234.5, 0.5),
        (2.0, 0.25),
        (10.5, 1.0),
    ]


def test_thousands_by_points_are_offered_only_when_every_point_groups_thousands(tmp_path: Path) -> None:
    # --thousands '.' reads 5.25 as 525: with such a value only --decimal is offered
    [note] = _load(tmp_path, "v\n1.234,5\n12,5\n5.25\n").notes
    assert note.endswith("like '1.234,5'; add --decimal ',' to read them as numbers")


def test_no_decimal_comma_advice_when_another_column_has_decimal_points(tmp_path: Path) -> None:
    # --decimal applies to every column: the points' column would turn to text
    summary = _load(tmp_path, "a;b\n1,5;2.5\n2,25;3.5\n")
    assert [c.type for c in summary.columns] == ["VARCHAR", "DOUBLE"] and summary.notes == []


def test_a_few_decimal_commas_among_numbers_are_named_with_the_decimal_option(tmp_path: Path) -> None:
    lines = ["v"] + [str(i) for i in range(30)] + ['"2,5"']
    [note] = _load(tmp_path, "\n".join(lines) + "\n").notes
    assert (
        note == "v stayed text because of 1 value like '2,5'; add --decimal ',' if ',' is their decimal mark"
    )


def test_an_ambiguous_comma_alone_is_not_taken_for_a_decimal_comma(tmp_path: Path) -> None:
    # 1,234 may be a thousand or 1.234: the column stays text, and the note names both readings, not one
    # (it was text with no note at all, like an Excel column of "1,234" thousands)
    summary = _load(tmp_path, 'v;w\n"1,234";a\n"5,678";b\n')
    assert [c.type for c in summary.columns] == ["VARCHAR", "VARCHAR"]
    (note,) = [n for n in summary.notes if "decimal" in n]
    assert note.startswith("v stayed text") and "--decimal '.' or --decimal ','" in note


def test_a_stray_decimal_comma_among_decimal_points_is_not_answered_with_the_decimal_option(
    tmp_path: Path,
) -> None:
    lines = ["v"] + [f"{i}.5" for i in range(30)] + ['"2,5"']
    [note] = _load(tmp_path, "\n".join(lines) + "\n").notes
    assert note.startswith("v stayed text because of 1 value like '2,5'") and "--decimal" not in note


def test_a_thousands_separator_outside_a_group_of_three_is_refused_not_dropped(tmp_path: Path) -> None:
    # DuckDB drops the separator wherever it stands: 1,2 would be stored as 12
    with pytest.raises(LoadError) as caught:
        _load(tmp_path, 'a,b\n"1,234",x\n"1,2",y\n', thousands=",")
    assert str(caught.value) == (
        "f.csv: column a: --thousands ',' would read '1,2' as '12', which is not a number grouped in "
        "thousands; leave --thousands out, or fix the value"
    )
    assert not (tmp_path / "t.duckdb").exists()
    with pytest.raises(LoadError, match=r"would read '5\.25' as '525'.* or check --decimal"):
        _load(tmp_path, "v\n1.234,5\n5.25\n", thousands=".", decimal=",")


def test_thousands_that_group_three_digits_load_as_numbers(tmp_path: Path) -> None:
    summary = _load(tmp_path, 'a,b\n"1,234",x\n"12,345.5",y\n-7,z\n', thousands=",")
    assert [c.type for c in summary.columns] == ["DOUBLE", "VARCHAR"]
    assert _rows(tmp_path, "SELECT a FROM t ORDER BY a") == [(-7.0,), (1234.0,), (12345.5,)]


def test_a_header_cell_duckdb_renamed_is_said_and_keeps_its_own_name(tmp_path: Path) -> None:
    # pandas writes its row index under an empty header cell; spreadsheets repeat names
    summary = _load(tmp_path, ",a,A,b,a_1\n0,1,2,3,4\n")
    assert summary.notes == [
        "column 1 has no name in the header; stored as column0",
        "column 3 repeats an earlier name ('a'); stored as a_2",
    ]
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        [(stored,)] = conn.execute("SELECT profile FROM _agent.profiles").fetchall()
    # the file's own a_1 keeps its name (issue 38: it was stored as a_1_1 and a_1 held column 3's numbers)
    assert json.loads(stored)["original_names"] == {"a_2": "A"}
    assert _rows(tmp_path, "SELECT a, a_2, a_1 FROM t") == [(1, 2, 4)]


def test_header_renames_say_each_kind_once_and_cut_long_lists() -> None:
    from analytics_agent.db.load.names import header_renames

    cells = ["x"] * 9 + ["", ""]
    names = ["x"] + [f"x_{i}" for i in range(1, 9)] + ["column9", "column10"]
    notes, originals = header_renames(cells, names, names)
    assert notes == [
        "columns 10, 11 have no name in the header; stored as column9, column10",
        "columns 2, 3, 4, 5, 6 and 3 more repeat an earlier name ('x'); stored as x_1, x_2, x_3, x_4, x_5 and 3 more",
    ]
    assert originals == {f"x_{i}": "x" for i in range(1, 9)} | {"column9": "", "column10": ""}
    assert header_renames(["a", " b"], ["a", "b"], ["a", "b"]) == ([], {})  # spaces trimmed: no rename


@pytest.mark.parametrize(
    ("thousands", "decimal", "value", "grouped"),
    [(",", None, "-1,234,567.25", True), (",", None, "1,2", False), (" ", ",", "1 234,5", True),
     (" ", ",", "1 2", False), ("'", None, "1'234.5", True), ("'", None, "12'3", False), (".", ",", "5.25", False)],
)  # fmt: skip
def test_the_thousands_pattern_is_read_by_duckdbs_regular_expressions(
    thousands, decimal, value, grouped
) -> None:
    from analytics_agent.db.load.settle.separators import grouping

    with duckdb.connect() as conn:
        assert conn.execute(
            "SELECT regexp_full_match(?, ?)", [value, grouping(thousands, decimal)]
        ).fetchone() == (grouped,)


def test_a_last_row_of_totals_is_named_because_sums_would_count_it_twice(tmp_path: Path) -> None:
    summary = _load(
        tmp_path,
        "region;sales;share;n\nNorth;100,5;0,25;7\nSouth;200;0,75;9\nSumme:;300,5;1;2\n",
        decimal=",",
    )
    assert summary.notes == [
        "the last row (region = 'Summe:') holds the sums of the rows above in sales, share; loaded as rows, a "
        "sum over the table counts them twice: add --drop-totals to load without them"
    ]
    assert _rows(tmp_path, "SELECT sum(sales) FROM t") == [(601.0,)]  # loaded as it is: said, not changed


@pytest.mark.parametrize(
    "text",
    [
        "region,sales\nNorth,100\nSouth,200\nTotal,250\n",  # not the sum of the rows above
        "region,sales\nNorth,100\nSouth,200\nWest,300\n",  # no total's label
        "region\nNorth\nSouth\nTotal\n",  # no number
    ],
)
def test_a_last_row_that_is_not_a_total_of_the_rows_above_is_not_named(tmp_path: Path, text: str) -> None:
    assert not any("last row" in n for n in _load(tmp_path, text).notes)


def test_a_wide_tables_last_row_is_a_total_only_when_labelled_as_one() -> None:
    """Thirty number columns: an ordinary last row gets no note, one labelled 'Total' whose cells are the
    sums does."""
    from analytics_agent.db.load.settle.totals import totals_row_note

    with duckdb.connect() as conn:
        wide = ", ".join(f"range AS n{i}" for i in range(30))
        conn.execute(f"CREATE TABLE t AS SELECT 'day ' || range AS label, {wide} FROM range(10)")
        assert totals_row_note(conn, "t", 10, ["label"]) == ([], None, [])
        conn.execute("INSERT INTO t SELECT 'Total', " + ", ".join(["45"] * 30))
        notes, marker, _ = totals_row_note(conn, "t", 11, ["label"])
        assert notes[0].startswith("the last row (label = 'Total')")
        assert marker == {
            "column": "label",
            "labels": ["Total"],
            "rows": 1,
            "sums": [f"n{i}" for i in range(30)],
        }


def test_appended_rows_are_not_checked_against_the_rows_loaded_before(tmp_path: Path) -> None:
    _load(tmp_path, "region,sales\nNorth,100\nSouth,200\n")
    (tmp_path / "f.csv").write_text("region,sales\nEast,1\nWest,2\nTotal,303\n")
    summary = load_files(
        tmp_path / "t.duckdb", [str(tmp_path / "f.csv")], load_options(table="t", append=True)
    )
    assert not any("last row" in n for n in summary.notes)


def test_one_missing_marker_given_as_a_string_is_that_marker() -> None:
    """A notebook's ``load(..., null='NA')`` is one marker, not the letters 'N' and 'A'."""
    assert load_options(null="NA").null_tokens == ("NA",)
    assert load_options(null=["NA", "-"]).null_tokens == ("NA", "-")

"""Terminal tables: aligned, and never broken by a value."""

from __future__ import annotations

from analytics_agent.present.tables import plural, table, width


def test_columns_align_and_numbers_get_thousands_separators():
    lines = table(["city", "orders"], [("Pune", 1234), ("Ahmedabad", 7)], right=(1,)).splitlines()
    assert lines[0] == "city       orders"
    assert lines[2] == "Pune        1,234"
    assert lines[3] == "Ahmedabad       7"


def test_a_value_with_line_breaks_stays_on_its_row():
    text = table(["note", "values"], [("multi\nline", ["a\r\nb", "c\td"])])
    assert len(text.splitlines()) == 3
    assert "multi\\nline" in text and "a\\r\\nb, c\\td" in text


def test_long_value_lists_are_cut_with_an_ellipsis_and_nulls_are_blank():
    text = table(["values", "x"], [([f"value{i}" for i in range(20)], None)])
    row = text.splitlines()[2]
    assert row.endswith("...") and len(row) == 60


def test_wide_characters_take_two_cells_so_columns_still_align():
    lines = table(["note", "n"], [("備考メモ", 1), ("plain", 22), ("é😀", 3)], right=(1,)).splitlines()
    # every row's second column ends in the same terminal cell
    ends = {width(line) for line in lines}
    assert len(ends) == 1
    assert lines[2] == "備考メモ   1" and lines[3] == "plain     22" and lines[4] == "é😀        3"


def test_width_counts_terminal_cells():
    assert width("abc") == 3 and width("備考") == 4 and width("😀") == 2 and width("e\u0301") == 1


def test_years_print_without_separators_and_counts_with():
    text = table(["year", "flights", "model_year"], [(2013, 336776, 1999)])
    assert text.splitlines()[2].split() == ["2013", "336,776", "1999"]


def test_one_row_is_singular():
    assert (
        plural(1, "row") == "1 row" and plural(0, "row") == "0 rows" and plural(1234, "row") == "1,234 rows"
    )

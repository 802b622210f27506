"""Terminal tables: aligned, and never broken by a value."""

from __future__ import annotations

from analytics_agent.present.tables import table


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

"""The .sql tool file format: what parses, and errors that name file and line."""

from __future__ import annotations

import pytest

from analytics_agent.errors import ToolDefinitionError
from analytics_agent.resources import sql_dir
from analytics_agent.tools.sqlfile.parse import parse_sql_tool
from analytics_agent.tools.sqlfile.tool import check_single_select

GOOD = """\
-- name: city_day
-- description: Orders for a city on a day.
--   Use for one day only.
-- tables: orders
-- param city: enum(from orders.city) | City, e.g. "Pune".
-- param day: date | Day, e.g. "2026-10-24".
-- param top: integer(1, 50) = 10 | How many rows.
-- param status: enum(delivered, cancelled) = null | Only this status.
-- param order_id: pattern(^[A-Z]-[0-9]{4}$) = A-1042 | An order id.
-- returns: object
-- empty: nothing for {city} on {day}
SELECT count(*) FROM orders
WHERE city = $city AND day = $day AND ($status IS NULL OR status = $status)
  AND order_id <> $order_id LIMIT $top;
"""


def test_a_complete_header_parses_into_typed_parameters():
    spec = parse_sql_tool(GOOD, path="city_day.sql")
    assert spec.name == "city_day"
    assert spec.description == "Orders for a city on a day. Use for one day only."
    assert spec.tables == ("orders",)
    assert spec.returns == "object"
    assert spec.empty == "nothing for {city} on {day}"
    params = {p.name: p for p in spec.params}
    assert params["city"].choices_from == ("orders", "city") and params["city"].required
    assert params["day"].type == "date" and params["day"].required
    assert (params["top"].minimum, params["top"].maximum, params["top"].default) == (1, 50, 10)
    assert params["status"].choices == ("delivered", "cancelled") and params["status"].default is None
    assert params["order_id"].pattern == "^[A-Z]-[0-9]{4}$" and params["order_id"].default == "A-1042"
    assert spec.sql.endswith("LIMIT $top")  # the trailing semicolon is dropped


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("-- name: bad name\n-- description: x\nSELECT 1", 1, "must match"),
        ("-- name: t\nSELECT 1", 1, "description"),
        ("-- name: t\n-- description: d\n-- colour: red\nSELECT 1", 3, "unknown header key 'colour'"),
        ("-- name: t\n-- description: d\n-- param x: string\nSELECT $x", 3, "needs a description"),
        ("-- name: t\n-- description: d\n-- param x: float | d\nSELECT $x", 3, "unknown type 'float'"),
        ("-- name: t\n-- description: d\n-- param x: integer = ten | d\nSELECT $x", 3, "bad default"),
        ("-- name: t\n-- description: d\n-- param x: enum(a, b) = c | d\nSELECT $x", 3, "not one of"),
        ("-- name: t\n-- description: d\n-- param x: pattern([) | d\nSELECT $x", 3, "parameter 'x'"),
        (
            "-- name: t\n-- description: d\n-- param x: string | d\n-- param x: string | d\nSELECT $x",
            4,
            "twice",
        ),
        ("-- name: t\n-- description: d\nSELECT $y", 3, "undeclared parameters: y"),
        ("-- name: t\n-- description: d\n-- param x: string | d\nSELECT 1", 4, "never used in the SQL: x"),
        ("-- name: t\n-- description: d\n", 3, "no SQL"),
        ("-- name: t\n-- description: d\n-- returns: table\nSELECT 1", 1, "returns must be"),
    ],
)
def test_malformed_files_name_the_file_and_line(text, line, fragment):
    with pytest.raises(ToolDefinitionError) as info:
        parse_sql_tool(text, path="tools/t.sql")
    assert info.value.line == line
    assert str(info.value).startswith(f"tools/t.sql:{line}: ")
    assert fragment in str(info.value)


def test_every_bundled_tool_file_parses_and_uses_bound_parameters_only():
    files = sorted(sql_dir().glob("*.sql"))
    assert len(files) >= 2
    for path in files:
        spec = parse_sql_tool(path.read_text(encoding="utf-8"), path=str(path))
        assert spec.name == path.stem, f"{path.name}: the file name and tool name differ"
        assert check_single_select(spec.sql) is None, path.name  # start-ups skip this for bundled tools
        assert "{" not in spec.sql.replace("{'", "").replace("{}", ""), f"{path.name}: looks like formatting"


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("SELECT 1; DROP TABLE orders", "exactly one statement, found 2"),
        ("DELETE FROM orders", "only SELECT/WITH statements may run, not DELETE"),
        ("SELEC 1", "does not parse"),
    ],
)
def test_the_sql_of_a_tool_must_be_one_select_by_duckdbs_parser(sql, fragment):
    assert fragment in check_single_select(sql)


def test_a_semicolon_inside_a_string_literal_is_fine():
    assert check_single_select("SELECT 'a; b' AS x") is None

"""The portable schema subset (docs/portable-schemas.md): every schema we render stays inside it, and the
checker catches what real servers reject."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from real_data import build_real_db

from analytics_agent.errors import ToolDefinitionError
from analytics_agent.tools.args.portable import pattern_problems, schema_problems
from analytics_agent.tools.sqlfile.parse import parse_sql_tool
from analytics_agent.workspace.workspace import Workspace

DATA = Path(__file__).parents[1] / "data"
USER_TOOL = """\
-- name: visits_by_code
-- description: Visits for one region code.
-- tables: orders
-- param code: pattern(^[A-Z]{2}-[0-9]{3,}$) | A code, e.g. "NO-123".
-- param label: string(20) = x | A label.
-- param top: integer(1, 5) = 3 | How many.
-- param day: date = null | A day.
-- param period: period = null | A range.
SELECT $code AS code, $label AS label, $top AS top, $day AS day, $period_start AS a, $period_end AS b
"""


@pytest.fixture
def every_tool(sample_db: Path, tmp_path: Path):
    """Domain tools, catalog tools, aggregate, run_sql and a user tool with every parameter type."""
    tools_dir = tmp_path / "tools"
    tools_dir.mkdir()
    (tools_dir / "visits_by_code.sql").write_text(USER_TOOL)
    with Workspace.open(sample_db, tool_dirs=[tools_dir], allow_sql=True) as ws:
        assert {"visits_by_code", "aggregate", "run_sql", "get_order"} <= set(ws.registry.names)
        yield ws.registry


def test_every_rendered_schema_is_inside_the_portable_subset(every_tool):
    for tool in every_tool.openai_tools():
        assert schema_problems(tool["function"]["parameters"]) == [], tool["function"]["name"]
    for tool in every_tool.openai_tools(strict=True):
        assert schema_problems(tool["function"]["parameters"], strict=True) == [], tool["function"]["name"]
    for entry in every_tool.bedrock_tool_config()["tools"]:
        spec = entry["toolSpec"]
        assert schema_problems(spec["inputSchema"]["json"]) == [], spec["name"]


def test_the_order_id_pattern_uses_a_character_class_and_still_matches_real_ids(every_tool):
    pattern = every_tool.schema("get_order")["properties"]["order_id"]["pattern"]
    assert "\\" not in pattern
    assert re.fullmatch(pattern, "A-1042") and not re.fullmatch(pattern, "A-12")


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "object", "properties": {"v": {"type": ["string", "number"]}}}, "needs one type"),
        ({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}, "format 'date'"),
        ({"type": "object", "properties": {"v": {"description": "untyped"}}}, "needs one type"),
        ({"type": "object", "properties": {"a": {"type": "array"}}}, "needs 'items'"),
        ({"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]}}}, "enum"),
        ({"type": "object", "properties": {"c": {"const": "x", "type": "string"}}}, "'const'"),
        ({"type": "object", "properties": {"r": {"$ref": "#/$defs/X"}}}, "'$ref'"),
        ({"type": "object", "properties": {"o": {"type": "object", "properties": {}}}}, "needs properties"),
        ({"anyOf": [{"type": "object"}, {"type": "null"}]}, "the root must be"),
        (
            {"type": "object", "properties": {"s": {"type": "string", "pattern": "^\\d{4}$"}}},
            "escape \\d is not portable; write [0-9]",
        ),
        (
            {
                "type": "object",
                "properties": {
                    "o": {
                        "type": "object",
                        "properties": {"a": {"type": "string"}},
                        "additionalProperties": False,
                    }
                },
            },
            "additionalProperties",
        ),
        (
            {
                "type": "object",
                "properties": {"v": {"anyOf": [{"anyOf": [{"type": "string"}]}, {"type": "null"}]}},
            },
            "nested anyOf",
        ),
    ],
)
def test_the_checker_names_what_real_servers_reject(schema, expected):
    problems = schema_problems(schema)
    assert any(expected in p for p in problems), problems


def test_strict_mode_wants_closed_fully_required_objects_without_defaults():
    loose = {"type": "object", "properties": {"a": {"type": "integer", "default": 1}}}
    problems = " ".join(schema_problems(loose, strict=True))
    assert "additionalProperties" in problems and "'required'" in problems and "'default'" in problems
    assert schema_problems(loose) == []


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("[A-Z]-[0-9]{4}", "anchor it"),
        ("^[A-Z]\\.[0-9]$", "write [.]"),
        ("^\\w+$", "write [A-Za-z0-9_]"),
        ("^(?=a)a$", "(?…) groups"),
        ("^(?:ab)+$", "(?…) groups"),
        ("^a+?$", "lazy"),
        ("^a{,3}$", "quantifier"),
        ("^a$b$", "only as the first/last"),
        ("^[\\d]$", "escape \\d"),
        ("^(a$", "not a regular expression"),
        ("^$", "empty string"),
    ],
)
def test_patterns_outside_the_grammar_subset_are_named(pattern, expected):
    problems = pattern_problems(pattern)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    "pattern",
    ["^[A-Z]-[0-9]{4,}$", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "^(ab|cd)*[^x]?$", "^a\\+b\\(c\\)$", "^[.-]+$"],
)
def test_patterns_inside_the_subset_pass(pattern):
    assert pattern_problems(pattern) == []


@given(st.text(max_size=30))
def test_the_pattern_checker_never_raises_and_only_passes_compilable_anchored_patterns(text):
    problems = pattern_problems(text)
    if not problems:
        re.compile(text)
        assert text.startswith("^") and text.endswith("$") and "\\d" not in text


def test_a_user_tool_with_a_pattern_servers_reject_is_refused_at_load_with_file_and_line():
    text = USER_TOOL.replace("^[A-Z]{2}-[0-9]{3,}$", "^[A-Z]{2}-\\d{3,}$")
    with pytest.raises(ToolDefinitionError) as caught:
        parse_sql_tool(text, path="visits_by_code.sql")
    message = str(caught.value)
    assert message.startswith("visits_by_code.sql:4:") and "write [0-9] instead" in message


def test_schemas_with_a_semantic_model_and_loaded_tables_stay_inside_the_subset(tmp_path):
    """Metrics, dimensions and enums from the semantic model shape aggregate's schema: still portable."""
    shutil.copyfile(DATA / "real.semantic.yaml", tmp_path / "real.semantic.yaml")
    with Workspace.open(build_real_db(tmp_path / "real.duckdb"), timezone="America/New_York") as ws:
        assert not ws.problems, ws.problems
        for tool in ws.registry.openai_tools():
            assert schema_problems(tool["function"]["parameters"]) == [], tool["function"]["name"]
        for tool in ws.registry.openai_tools(strict=True):
            assert schema_problems(tool["function"]["parameters"], strict=True) == [], tool["function"][
                "name"
            ]

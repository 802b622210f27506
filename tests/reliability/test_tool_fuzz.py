"""Fuzzing every tool's arguments from its own JSON Schema, and raw tool-call payloads of every shape.

The executor must never raise, must always answer with text, and when the arguments are wrong the error
must name the field to fix. Strategies are built from the schemas the model sees, so a new tool or a new
parameter is fuzzed without touching this file.
"""

from __future__ import annotations

import datetime as dt
import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics_agent.tools.args.models import DATE_PATTERN
from analytics_agent.workspace.workspace import Workspace

_WORKSPACES: dict[Path, Workspace] = {}
# Their schema admits free text (column names, SQL) that only the data can judge: covered by the bad-field
# and raw-payload tests here and by test_injection.py, not by "schema-valid means accepted".
FREE_TEXT_TOOLS = ("aggregate", "run_sql")


def shared_workspace(path: Path) -> Workspace:
    """One workspace per seeded template for all examples (hypothesis cannot use function fixtures)."""
    if path not in _WORKSPACES:
        params = inspect.signature(Workspace.open).parameters
        _WORKSPACES[path] = Workspace.open(path, **{k: True for k in ("generic", "allow_sql") if k in params})
    return _WORKSPACES[path]


@pytest.fixture(scope="module", autouse=True)
def _close_workspaces():
    yield
    for ws in _WORKSPACES.values():
        ws.close()
    _WORKSPACES.clear()


# --- strategies from JSON Schema ------------------------------------------------------------------


def valid_value(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a schema accepts (for the parameter kinds our tools declare)."""
    if "anyOf" in schema:
        return st.one_of([valid_value(s) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "integer":
        return st.integers(schema.get("minimum", -(10**6)), schema.get("maximum", 10**6))
    if kind == "number":
        low, high = schema.get("minimum", -1e6), schema.get("maximum", 1e6)
        return st.floats(low, high, allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = valid_value(schema.get("items", {"type": "string"}))
        return st.lists(items, min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 4), 4))
    if kind == "object":
        return valid_arguments(schema)
    if schema.get("pattern") == DATE_PATTERN:
        return st.dates(dt.date(2025, 12, 1), dt.date(2026, 11, 30)).map(dt.date.isoformat)
    if _is_period(schema):
        days = st.dates(dt.date(2025, 12, 1), dt.date(2026, 11, 30))
        return st.tuples(days, days).map(lambda d: f"{min(d).isoformat()}..{max(d).isoformat()}")
    if "pattern" in schema:
        limit = schema.get("maxLength", 200)
        return st.from_regex(schema["pattern"], fullmatch=True).filter(lambda s: len(s) <= limit)
    return st.text(max_size=schema.get("maxLength", 200))


def _is_period(schema: dict[str, Any]) -> bool:
    """A day range written as text; its format is stated in the description (it costs no schema tokens)."""
    return schema.get("type") == "string" and "YYYY-MM-DD..YYYY-MM-DD" in schema.get("description", "")


def constrained(schema: dict[str, Any]) -> bool:
    """Whether the schema pins the value down, so that any value it admits must be accepted. Free text
    (a customer id, a column name) may still be refused by what the data holds."""
    return (
        any(k in schema for k in ("enum", "format", "pattern"))
        or schema.get("type") in ("integer", "number", "boolean")
        or _is_period(schema)
    )


def valid_arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {k: valid_value(v) for k, v in properties.items() if k in required},
        optional={k: valid_value(v) for k, v in properties.items() if k not in required},
    )


def invalid_value(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a schema refuses: wrong JSON types always; out of range, unknown enum members, bad dates,
    too long or off-pattern strings where the schema says so."""
    wrong_types = [st.just([1, 2]), st.just({"nested": {"deep": [None]}})]
    if schema.get("type") != "boolean":
        wrong_types.append(st.booleans())
    if "anyOf" in schema:
        return st.one_of(wrong_types)
    kind = schema.get("type")
    if kind in ("integer", "number"):
        choices = [*wrong_types, st.just("twelve")]
        if kind == "integer":
            choices.append(st.just(2.5))
        if "maximum" in schema:
            choices.append(st.integers(int(schema["maximum"]) + 1, int(schema["maximum"]) + 10**9))
        if "minimum" in schema:
            choices.append(st.integers(int(schema["minimum"]) - 10**9, int(schema["minimum"]) - 1))
        return st.one_of(choices)
    if kind == "string":
        choices = [*wrong_types, st.integers(), st.floats(allow_nan=False)]
        if "enum" in schema:
            choices.append(st.text(max_size=30).filter(lambda s: s not in schema["enum"]))
        if schema.get("pattern") == DATE_PATTERN or _is_period(schema):
            choices += [st.sampled_from(["24 Oct 2026", "2026-02-30", "2026/10/24", "", "yesterday"])]
        if "maxLength" in schema:
            choices.append(st.text(min_size=schema["maxLength"] + 1, max_size=schema["maxLength"] + 50))
        if "pattern" in schema:
            choices.append(st.sampled_from(["", "a-1042", "A1042", "A-1042; DROP TABLE orders", "A-12"]))
        return st.one_of(choices)
    return st.one_of(wrong_types)


def _tool_names(path: Path) -> list[str]:
    return shared_workspace(path).registry.names


# --- tests ----------------------------------------------------------------------------------------


def _example_tool(data, seeded_template) -> tuple[Workspace, str, dict[str, Any]]:
    ws = shared_workspace(seeded_template)
    name = data.draw(st.sampled_from(ws.registry.names), label="tool")
    return ws, name, ws.registry.schema(name)


def _argument_problem_lines(text: str, fields: list[str]) -> list[str]:
    lines = text.removeprefix("Error: ").splitlines()
    return [
        line for line in lines if any(line.startswith(f"{f}:") or line.startswith(f"{f}.") for f in fields)
    ]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_arguments_that_fit_the_schema_are_never_refused_as_arguments(seeded_template, data):
    ws, name, schema = _example_tool(data, seeded_template)
    if name in FREE_TEXT_TOOLS:
        return
    arguments = data.draw(valid_arguments(schema), label="arguments")
    outcome = ws.executor.execute(name, json.dumps(arguments))
    assert outcome.text
    if outcome.is_error:  # a domain answer such as "no order with id …" is fine; a schema complaint is not
        assert outcome.text.startswith("Error: ")
        pinned = [k for k, v in schema.get("properties", {}).items() if constrained(v)]
        assert not _argument_problem_lines(outcome.text, pinned), (arguments, outcome.text)
        assert "failed unexpectedly" not in outcome.text, (name, arguments)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_one_bad_field_is_refused_and_named(seeded_template, data):
    ws, name, schema = _example_tool(data, seeded_template)
    properties = schema.get("properties", {})
    arguments = data.draw(valid_arguments(schema), label="valid")
    if properties:
        field = data.draw(st.sampled_from(sorted(properties)), label="field")
        arguments[field] = data.draw(invalid_value(properties[field]), label="bad value")
    else:
        field = data.draw(st.sampled_from(["x", "city", "'; DROP TABLE orders; --"]), label="extra key")
        arguments[field] = 1
    outcome = ws.executor.execute(name, json.dumps(arguments))
    assert outcome.is_error, (name, arguments, outcome.text)
    assert outcome.text.startswith("Error: ")
    assert any(field in line for line in outcome.text.splitlines()), (field, outcome.text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(), key=st.text(min_size=1, max_size=40).filter(lambda k: k.strip() == k and k.isprintable())
)
def test_an_unknown_key_is_refused_and_named(seeded_template, data, key):
    ws, name, schema = _example_tool(data, seeded_template)
    if key in schema.get("properties", {}):
        return
    arguments = {**data.draw(valid_arguments(schema)), key: "x"}
    outcome = ws.executor.execute(name, json.dumps(arguments))
    assert outcome.is_error and "Extra inputs are not permitted" in outcome.text
    assert key in outcome.text or repr(key)[1:-1] in outcome.text


@pytest.mark.parametrize("key", ["\x1f", " "])
def test_an_unknown_blank_or_control_key_is_still_named(workspace, key):
    outcome = workspace.executor.execute("list_tables", {key: 1})
    assert outcome.is_error
    assert repr(key) in outcome.text or outcome.text.startswith(f"Error: {key}:")


_json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40)
_json_any = st.recursive(
    _json_leaf,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=10), c, max_size=4),
    max_leaves=30,
)
_raw_payloads = st.one_of(
    st.text(max_size=300),  # mostly not JSON at all
    _json_any.map(json.dumps),  # JSON of every type, objects or not
    st.dictionaries(st.text(max_size=20), _json_any, max_size=6),  # objects with odd keys and values
    st.sampled_from(
        [
            "{",
            '{"city": "Pune"',
            '{"city": "Pune", "city": "Delhi", "day": "2026-10-24"}',
            '{"city": "\\ud800"}',
            "[]",
            "null",
            '""',
            "NaN",
            '{"a": ' * 60 + "1" + "}" * 60,
            "\x00\x01\x02",
            '{"order_id": "' + "A" * 100_000 + '"}',
            '{"city": "Pune\u202e", "day": "2026-10-24"}',
        ]
    ),
    st.integers(0, 10**6).map(lambda n: json.dumps({"deep": [[[[[[n]]]]]]})),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), raw=_raw_payloads)
def test_the_executor_answers_any_payload_with_text_and_never_raises(seeded_template, data, raw):
    ws = shared_workspace(seeded_template)
    name = data.draw(st.sampled_from([*ws.registry.names, "", "nope", "sales_summary\x00", "a" * 300]))
    outcome = ws.executor.execute(name, raw)
    assert isinstance(outcome.text, str) and outcome.text.strip()
    if outcome.is_error:
        assert outcome.text.startswith("Error: ")
        assert "Traceback" not in outcome.text and "failed unexpectedly" not in outcome.text
        assert len(outcome.text) < 5_000  # the error for a 100 kB string must not echo it whole


def test_a_huge_string_is_refused_without_echoing_it(workspace):
    outcome = workspace.executor.execute("get_order", {"order_id": "A" * 100_000})
    assert outcome.is_error and outcome.text.startswith("Error: order_id:")
    assert len(outcome.text) < 1_000


def test_a_payload_that_is_not_an_object_says_so(workspace):
    for raw in ("[1, 2]", '"Pune"', "42", "null"):
        outcome = workspace.executor.execute("sales_summary", raw)
        assert outcome.is_error
        assert "must be a JSON object" in outcome.text or "city" in outcome.text, (raw, outcome.text)

"""The text protocol's reader: calls found in prose, fences, several calls, broken JSON, unknown tools.

Property tests: whatever prose surrounds correctly written calls, exactly those calls come back, in order,
with the prose as the turn's text; no input makes the reader raise.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from analytics_agent.providers.text.protocol import (
    UNNAMED,
    parse_reply,
    render_call,
    render_result,
)

NAMES = ("sales_summary", "get_order", "list_tables")

names = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20))
arguments = st.dictionaries(st.text(min_size=1, max_size=10), scalars, max_size=4)
calls = st.lists(st.tuples(names, arguments), min_size=1, max_size=4)
prose = st.text(max_size=80).filter(
    lambda s: "<" not in s and "```" not in s  # what the reader would take for the start of a call
)


def written(name: str, args: dict) -> str:
    return render_call(name, json.dumps(args, ensure_ascii=False))


@given(before=prose, between=prose, after=prose, wanted=calls)
def test_calls_among_arbitrary_prose_come_back_exactly_in_order(before, between, after, wanted):
    blocks = [written(name, args) for name, args in wanted]
    reply = before + blocks[0] + between + "\n".join(blocks[1:]) + after
    parsed = parse_reply(reply, NAMES)
    assert [(c.name, json.loads(c.arguments)) for c in parsed.calls] == wanted
    assert all(not c.error for c in parsed.calls)
    pieces = (before, between, after) if len(blocks) > 1 else (before, between + after)
    assert parsed.text == "\n".join(p.strip() for p in pieces if p.strip())


@given(wanted=calls, language=st.sampled_from(["", "json", "xml"]))
def test_fences_around_blocks_or_around_the_json_inside_them_are_tolerated(wanted, language):
    inner = "\n".join(
        f"<tool_call>\n```{language}\n{json.dumps({'name': n, 'arguments': a})}\n```\n</tool_call>"
        for n, a in wanted
    )
    parsed = parse_reply(f"Checking.\n```{language}\n{inner}\n```\nDone.", NAMES)
    assert [(c.name, json.loads(c.arguments)) for c in parsed.calls] == wanted
    assert parsed.text == "Checking.\nDone."


@given(wanted=calls)
def test_several_calls_in_one_block_as_an_array_or_one_after_another(wanted):
    objects = [{"name": n, "arguments": a} for n, a in wanted]
    for body in (json.dumps(objects), "\n".join(json.dumps(o) for o in objects)):
        parsed = parse_reply(f"<tool_call>{body}</tool_call>", NAMES)
        assert [(c.name, json.loads(c.arguments)) for c in parsed.calls] == wanted


@given(text=st.text(max_size=300))
def test_the_reader_never_raises_and_a_reply_without_calls_is_kept_whole(text):
    parsed = parse_reply(text, NAMES)
    if not parsed.calls:
        assert parsed.text == text


@given(before=prose, junk=st.text(min_size=1, max_size=60).filter(lambda s: "<" not in s))
def test_a_block_that_is_not_json_becomes_one_unreadable_call_with_the_format_in_its_error(before, junk):
    body = "{" + junk  # starts like JSON, never valid: an unclosed object
    parsed = parse_reply(f"{before}<tool_call>{body}</tool_call>", NAMES)
    assert len(parsed.calls) == 1
    call = parsed.calls[0]
    assert call.error.startswith("your tool call could not be read")
    assert '<tool_call>{"name": "TOOL", "arguments": {...}}</tool_call>' in call.error
    assert call.arguments == body.strip()
    assert parsed.text == before.strip()


def test_a_call_to_an_unknown_tool_is_still_a_call_for_the_executor_to_refuse():
    parsed = parse_reply('<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>', NAMES)
    assert [(c.name, c.arguments, c.error) for c in parsed.calls] == [("delete_everything", "{}", "")]


def test_a_last_block_without_its_closing_tag_and_prose_after_calls_are_read():
    reply = 'Let me look.\n<tool_call>\n{"name": "get_order", "arguments": {"order_id": "A-1042"}}'
    parsed = parse_reply(reply, NAMES)
    assert [(c.name, json.loads(c.arguments)) for c in parsed.calls] == [
        ("get_order", {"order_id": "A-1042"})
    ]
    assert parsed.text == "Let me look."


def test_argument_spellings_and_string_arguments_are_accepted():
    reply = (
        '<tool_call>{"name": "get_order", "parameters": {"order_id": "A-1"}}</tool_call>'
        '<tool_call>{"name": "get_order", "arguments": "{\\"order_id\\": \\"A-2\\"}"}</tool_call>'
        '<tool_call>{"function": {"name": "list_tables"}}</tool_call>'
    )
    parsed = parse_reply(reply, NAMES)
    assert [(c.name, c.arguments) for c in parsed.calls] == [
        ("get_order", '{"order_id": "A-1"}'),
        ("get_order", '{"order_id": "A-2"}'),
        ("list_tables", "{}"),
    ]


def test_without_blocks_only_json_naming_a_known_tool_is_a_call():
    fenced = 'Sure:\n```json\n{"name": "get_order", "arguments": {"order_id": "A-1042"}}\n```'
    parsed = parse_reply(fenced, NAMES)
    assert [c.name for c in parsed.calls] == ["get_order"] and parsed.text == "Sure:"
    answer = 'Revenue was {"name": "Pune", "revenue": 4798} on that day.'
    assert parse_reply(answer, NAMES).calls == ()
    unknown = '{"name": "weather", "arguments": {}}'
    assert parse_reply(unknown, NAMES).calls == ()


def test_broken_json_that_plainly_calls_a_known_tool_is_an_unreadable_call():
    reply = 'Checking.\n{"name": "get_order", "arguments": {"order_id": "A-1042"'
    parsed = parse_reply(reply, NAMES)
    assert len(parsed.calls) == 1 and parsed.calls[0].name == "get_order"
    assert "its JSON does not parse" in parsed.calls[0].error
    assert parsed.text == "Checking."


def test_a_block_without_a_tool_name_is_unreadable_and_named_as_such():
    parsed = parse_reply('<tool_call>{"arguments": {"x": 1}}</tool_call>', NAMES)
    assert parsed.calls[0].name == UNNAMED and 'no "name"' in parsed.calls[0].error


def test_rendered_calls_and_results_read_back():
    block = render_call("get_order", '{"order_id": "A-1042"}')
    assert parse_reply(block, NAMES).calls[0].arguments == '{"order_id": "A-1042"}'
    assert render_result("get_order", "Error: no such order", is_error=True) == (
        '<tool_result name="get_order" error="true">\nError: no such order\n</tool_result>'
    )

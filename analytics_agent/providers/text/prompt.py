"""Text mode's side of the conversation: the tools as compact text in the system prompt, and the neutral
conversation rewritten without native tool blocks. Pure functions.

The rewritten conversation has only user and assistant text, so any chat endpoint takes it: past calls
become ``<tool_call>`` blocks in the assistant's text, and each step's results one user message of
``<tool_result>`` blocks (roles still alternate, which Bedrock requires). The specs are read from the
OpenAI-format payloads (``ToolPayloads.openai_tools()``): one line per tool and per parameter.
"""

from __future__ import annotations

import json
from typing import Any

from analytics_agent.conversation import AssistantTurn, Conversation, Message, ToolResults, UserTurn
from analytics_agent.providers.text.protocol import (
    CALL_CLOSE,
    CALL_OPEN,
    render_call,
    render_raw_call,
    render_result,
)

MAX_ENUM_SHOWN = 25
DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
RESULTS_TAIL = "Answer the question from these results, or call another tool if you need more."

INSTRUCTIONS = f"""\
# Tools
You cannot see the database; the tools below can. To call a tool, reply with a block like this and \
nothing after it:
{CALL_OPEN}
{{"name": "TOOL_NAME", "arguments": {{"PARAMETER": "VALUE"}}}}
{CALL_CLOSE}
Use one block per call; several blocks in one reply are fine. The results come back in <tool_result> \
blocks. When you have what you need, answer in plain text with no {CALL_OPEN} block."""


def tools_prompt(specs: list[dict[str, Any]]) -> str:
    """The tools section of the system prompt, from OpenAI-format tool payloads ("" when there are none)."""
    if not specs:
        return ""
    lines = [INSTRUCTIONS, "", "Available tools (? marks an optional parameter):"]
    for spec in specs:
        function = spec.get("function", spec)
        lines.append(f"- {function['name']}: {' '.join(str(function.get('description', '')).split())}")
        schema = function.get("parameters") or {}
        required = set(schema.get("required", []))
        for name, prop in (schema.get("properties") or {}).items():
            mark = "" if name in required else "?"
            note = " ".join(str(prop.get("description", "")).split())
            lines.append(f"    {name}{mark}: {describe_type(prop)}{' - ' + note if note else ''}")
    example = _example(specs)
    if example:
        lines += ["", "Example:", example]
    return "\n".join(lines)


def describe_type(prop: dict[str, Any]) -> str:
    """A parameter's type in a few words: ``one of "a", "b"``, ``integer 1..25``, ``date YYYY-MM-DD``."""
    if "anyOf" in prop:
        return " or ".join(describe_type(b) for b in prop["anyOf"] if b.get("type") != "null")
    if "enum" in prop:
        values = [json.dumps(v, ensure_ascii=False) for v in prop["enum"]]
        more = f", ... ({len(values) - MAX_ENUM_SHOWN} more)" if len(values) > MAX_ENUM_SHOWN else ""
        return "one of " + ", ".join(values[:MAX_ENUM_SHOWN]) + more
    kind = prop.get("type", "any")
    if prop.get("pattern") == DATE_PATTERN:
        text = "date YYYY-MM-DD"
    elif "pattern" in prop:
        text = f"string matching {prop['pattern']}"
    elif kind == "array":
        text = f"list of {describe_type(prop.get('items') or {})}"
    elif kind == "object" and "properties" in prop:
        required = set(prop.get("required", []))
        inner = ", ".join(
            f"{k}{'' if k in required else '?'}: {describe_type(v)}" for k, v in prop["properties"].items()
        )
        text = "{" + inner + "}"
    else:
        text = str(kind)
    if "minimum" in prop or "maximum" in prop:
        text += f" {_number(prop.get('minimum', ''))}..{_number(prop.get('maximum', ''))}"
    if "default" in prop:
        text += f" (default {json.dumps(prop['default'], ensure_ascii=False)})"
    return text


def _number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _example(specs: list[dict[str, Any]]) -> str:
    """A call to the first tool that takes required parameters, with placeholder-like values."""
    for spec in specs:
        function = spec.get("function", spec)
        schema = function.get("parameters") or {}
        required = schema.get("required") or []
        if required:
            props = schema.get("properties", {})
            arguments = {name: _sample(props.get(name, {})) for name in required}
            return render_call(function["name"], json.dumps(arguments, ensure_ascii=False))
    return ""


def _sample(prop: dict[str, Any]) -> Any:
    if prop.get("enum"):
        return prop["enum"][0]
    if prop.get("type") == "integer":
        return int(prop.get("minimum", 1))
    if prop.get("type") == "number":
        return prop.get("minimum", 1)
    if prop.get("pattern") == DATE_PATTERN:
        return "YYYY-MM-DD"
    return "..."


def text_conversation(conversation: Conversation, tools_text: str) -> Conversation:
    """The conversation as plain text turns: calls in the assistant's text, results as user text."""
    system = "\n\n".join(part for part in (conversation.system, tools_text) if part)
    messages: list[Message] = []
    names: dict[str, str] = {}
    for message in conversation.messages:
        if isinstance(message, AssistantTurn):
            names.update((call.id, call.name) for call in message.tool_calls)
            messages.append(_assistant_text(message))
        elif isinstance(message, ToolResults):
            blocks = [
                render_result(names.get(r.call_id, "tool"), r.content, is_error=r.is_error)
                for r in message.results
            ]
            messages.append(UserTurn("\n".join([*blocks, RESULTS_TAIL])))
        else:
            messages.append(message)
    return Conversation(system=system, messages=messages)


def _assistant_text(turn: AssistantTurn) -> AssistantTurn:
    if not turn.tool_calls:
        return turn
    blocks = [
        render_raw_call(c.arguments) if c.error else render_call(c.name, c.arguments) for c in turn.tool_calls
    ]
    text = "\n".join(part for part in (turn.text.strip(), *blocks) if part)
    return AssistantTurn(text=text, extras=turn.extras, truncated=turn.truncated)

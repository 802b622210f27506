"""The Converse conversation rules Bedrock enforces server-side and botocore never checks.

``problems(request)`` lists every broken rule of one request (API params or the JSON body on the wire);
``check_request`` fails the test with that list. Sources: the reference notes, part A.5 (server error texts
from public threads) and the service model's patterns, which botocore's validator skips.
"""

from __future__ import annotations

import functools
import re
from typing import Any

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_ID = re.compile(r"^[a-zA-Z0-9_.:-]{1,64}$")
ASSISTANT_ONLY = {"reasoningContent", "toolUse", "citationsContent"}


def check_request(request: dict[str, Any]) -> None:
    found = problems(request)
    assert not found, "request breaks Bedrock's rules:\n" + "\n".join(found)


def check_against_service_model(request: dict[str, Any], operation: str = "Converse") -> None:
    """botocore's own validation of API params (types, required, unions, minimums), without a client."""
    from botocore.validate import ParamValidator

    report = ParamValidator().validate(request, _service_model().operation_model(operation).input_shape)
    assert not report.has_errors(), report.generate_report()


@functools.cache
def _service_model() -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model("bedrock-runtime")


def problems(request: dict[str, Any]) -> list[str]:
    messages = request.get("messages") or []
    found = _system_problems(request.get("system") or [])
    found += _tool_config_problems(request, messages)
    if not messages:
        return [*found, "messages is empty"]
    if messages[0].get("role") != "user":
        found.append("the first message is not a user message")
    if messages[-1].get("role") != "user":
        found.append("the last message is not a user message")
    previous_uses: list[str] = []
    for n, message in enumerate(messages):
        role = message.get("role")
        if role not in ("user", "assistant"):
            found.append(f"messages.{n}.role is {role!r}")
        if n and role == messages[n - 1].get("role"):
            found.append(f"messages.{n}: two {role} messages in a row")
        content = message.get("content") or []
        if not content:
            found.append(f"messages.{n}.content is empty")
        found += _block_problems(n, role, content)
        found += _pairing_problems(n, role, content, previous_uses)
        previous_uses = [b["toolUse"]["toolUseId"] for b in content if "toolUse" in b and _client_tool(b)]
    return found


def _system_problems(system: list[dict[str, Any]]) -> list[str]:
    return [
        f"system.{i} has blank text" for i, b in enumerate(system) if "text" in b and not b["text"].strip()
    ]


def _tool_config_problems(request: dict[str, Any], messages: list[dict[str, Any]]) -> list[str]:
    found = []
    uses_tools = any("toolUse" in b or "toolResult" in b for m in messages for b in m.get("content") or [])
    config = request.get("toolConfig")
    if uses_tools and not config:
        found.append("history holds tool blocks but toolConfig is missing")
    if config is not None:
        tools = config.get("tools") or []
        if not tools:
            found.append("toolConfig.tools is empty")
        for i, tool in enumerate(tools):
            spec = tool.get("toolSpec") or {}
            if not TOOL_NAME.match(spec.get("name", "")):
                found.append(f"toolConfig.tools.{i}.toolSpec.name {spec.get('name')!r} breaks the pattern")
            if not str(spec.get("description", "")).strip():
                found.append(f"toolConfig.tools.{i} has no description")
            if (spec.get("inputSchema") or {}).get("json", {}).get("type") != "object":
                found.append(f"toolConfig.tools.{i} input schema root is not an object")
    return found


def _block_problems(n: int, role: str | None, content: list[dict[str, Any]]) -> list[str]:
    found = []
    for i, block in enumerate(content):
        where = f"messages.{n}.content.{i}"
        if len(block) != 1:
            found.append(f"{where} has {len(block)} keys, a union needs exactly one")
            continue
        kind = next(iter(block))
        if kind == "text" and not block["text"].strip():
            found.append(f"{where}: the text field is blank")
        if kind in ASSISTANT_ONLY and role != "assistant":
            found.append(f"{where}: {kind} in a {role} message")
        if kind == "toolUse":
            found += _tool_use_problems(where, block["toolUse"])
        if kind == "toolResult" and role == "user":
            found += _tool_result_problems(where, block["toolResult"])
    return found


def _tool_use_problems(where: str, use: dict[str, Any]) -> list[str]:
    found = []
    if not TOOL_ID.match(use.get("toolUseId", "")):
        found.append(f"{where}.toolUse.toolUseId {use.get('toolUseId')!r} breaks the pattern")
    if not TOOL_NAME.match(use.get("name", "")):
        found.append(f"{where}.toolUse.name {use.get('name')!r} breaks the pattern")
    if not isinstance(use.get("input"), dict):
        found.append(f"{where}.toolUse.input is not an object")
    return found


def _tool_result_problems(where: str, result: dict[str, Any]) -> list[str]:
    found = []
    if not TOOL_ID.match(result.get("toolUseId", "")):
        found.append(f"{where}.toolResult.toolUseId {result.get('toolUseId')!r} breaks the pattern")
    if result.get("status") not in ("success", "error"):
        found.append(f"{where}.toolResult.status is {result.get('status')!r}")
    content = result.get("content") or []
    if not content:
        found.append(f"{where}.toolResult.content is empty")
    for j, item in enumerate(content):
        if "json" in item and (not isinstance(item["json"], dict) or _has_type_key(item["json"])):
            found.append(f"{where}.toolResult.content.{j}.json is not a plain JSON object")
        if "text" in item and not item["text"].strip():
            found.append(f"{where}.toolResult.content.{j}.text is blank")
    return found


def _pairing_problems(n: int, role: str | None, content: list[dict[str, Any]], uses: list[str]) -> list[str]:
    results = [b["toolResult"]["toolUseId"] for b in content if "toolResult" in b]
    if role != "user":
        return []
    found = []
    if sorted(results) != sorted(uses):
        found.append(f"messages.{n}: toolResult ids {results} do not answer the toolUse ids {uses}")
    leading = 0
    while leading < len(content) and "toolResult" in content[leading]:
        leading += 1
    if leading != len(results):
        found.append(f"messages.{n}: toolResult blocks are not at the start of the message")
    return found


def _client_tool(block: dict[str, Any]) -> bool:
    return block["toolUse"].get("type", "tool_use") == "tool_use"


def _has_type_key(value: Any) -> bool:
    if isinstance(value, dict):
        return "__type" in value or any(_has_type_key(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_type_key(v) for v in value)
    return False

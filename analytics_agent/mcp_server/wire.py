"""The handshake-era lifecycle in plain JSON, without the SDK: what the stdio front answers. Pure.

``import mcp.server`` costs about 1.7 s of CPU (docs/performance.md), more than twice all of
``tools list``, so the stdio server answers the start of a session itself: ``initialize``,
``notifications/initialized``, ``ping`` and ``tools/list``, with the bytes the SDK's server writes for
them. Every message that is not exactly one of those, in the state where the SDK would answer it the
same way, is left to the SDK (``classify`` returns None): a conservative front is slower on odd input,
never different. ``tests/mcp_server/test_front.py`` compares every answer here with the SDK's own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

SERVER_NAME = "analytics-agent"
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
"""The revisions reachable through ``initialize``, as the SDK's ``mcp_types.version`` lists them."""
LATEST_HANDSHAKE_VERSION = HANDSHAKE_VERSIONS[-1]
INSTRUCTIONS = (
    "analytics-agent answers business questions from a DuckDB database through curated, aggregate-first "
    "tools on a read-only sandbox. Use the tools for every number; never guess one. Pass dates as "
    "YYYY-MM-DD and periods as YYYY-MM-DD..YYYY-MM-DD (both days included). If a tool returns an error, fix "
    "what it names and call again. Prefer a domain tool; use describe_table then aggregate for anything else."
)
# What the SDK's server declares for our handlers (tools, resources, prompts; no logging, completions or
# resource subscriptions), with list_changed on for tools and resources: ``server._Server``.
CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": True, "subscribe": False},
    "tools": {"listChanged": True},
}
TOOLS_CHANGED = "notifications/tools/list_changed"
RESOURCES_CHANGED = "notifications/resources/list_changed"

# The SDK dumps its wire models' declared fields in declaration order (alphabetical by wire name), then a
# model's extra keys in their own order, without None; a free-form dict (a schema's properties) keeps its
# order. Only these shapes occur in our tool list.
_TOOL_FIELDS = ("_meta", "annotations", "description", "execution", "icons", "inputSchema", "name",
                "outputSchema", "title")  # fmt: skip
_SCHEMA_FIELDS = ("$schema", "properties", "required", "type")
_ANNOTATION_FIELDS = ("destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint", "title")
_META_KEYS = frozenset({"progressToken"})


def server_version() -> str:
    try:
        return version("analytics-agent")
    except PackageNotFoundError:  # a checkout that was never installed
        return "0"


def negotiate(requested: str) -> str:
    """The client's version when we speak it, else our latest (the MCP lifecycle's rule, as the SDK
    applies it: a 2026-07-28 ``initialize`` also gets the latest handshake revision)."""
    return requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE_VERSION


def initialize_result(protocol_version: str, server_version: str) -> dict[str, Any]:
    return {
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "protocolVersion": protocol_version,
        "serverInfo": {"name": SERVER_NAME, "version": server_version},
    }


def tools_list_result(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """``registry.mcp_tools()`` as the SDK's server writes it."""
    return {"tools": [_tool(t) for t in tools]}


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    shaped = _declared(tool, _TOOL_FIELDS, extra=False)
    for key in ("inputSchema", "outputSchema"):
        if key in shaped:
            shaped[key] = _declared(shaped[key], _SCHEMA_FIELDS, extra=True)
    if "annotations" in shaped:
        shaped["annotations"] = _declared(shaped["annotations"], _ANNOTATION_FIELDS, extra=False)
    return shaped


def _declared(value: dict[str, Any], fields: tuple[str, ...], *, extra: bool) -> dict[str, Any]:
    shaped = {k: value[k] for k in fields if value.get(k) is not None}
    if extra:
        shaped.update((k, v) for k, v in value.items() if k not in fields and v is not None)
    return shaped


def response(request_id: int | str, result: dict[str, Any]) -> bytes:
    """One JSON-RPC response as a stdio line: compact, UTF-8 as is, one newline (JSON escapes any
    newline inside a string, so a message never spans lines)."""
    return _line({"jsonrpc": "2.0", "id": request_id, "result": result})


def request(request_id: int | str, method: str, params: dict[str, Any] | None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return _line(message)


def notification(method: str) -> bytes:
    return _line({"jsonrpc": "2.0", "method": method})


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


@dataclass(frozen=True)
class Message:
    """A single, plain JSON-RPC request (``id`` set) or notification from the client."""

    method: str
    params: dict[str, Any] | None
    id: int | str | None = None


def parse(line: bytes) -> Message | None:
    """The message on ``line`` when it is one the front may answer; None for anything else (invalid
    JSON or UTF-8, a batch, a response, a lone carriage return the SDK's reader would split on, odd
    ids or keys): the SDK then reads the line itself and answers as it always did."""
    if line.endswith(b"\r"):  # CRLF: the SDK's text reader reads it as one newline
        line = line[:-1]
    if b"\r" in line:  # a lone CR ends a line for that reader, not for ours
        return None
    try:
        value = json.loads(line.decode("utf-8"), parse_constant=_refuse)
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested past Python's stack: the SDK refuses it
        return None
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0" or not set(value) <= _ENVELOPE:
        return None
    method, params, request_id = value.get("method"), value.get("params"), value.get("id")
    if not isinstance(method, str) or not (params is None or isinstance(params, dict)):
        return None
    if "id" in value and not (isinstance(request_id, str) or _is_int(request_id)):
        return None  # null, float or bool ids: the SDK's coercion or refusal decides
    return Message(method, params, request_id if "id" in value else None)


_ENVELOPE = frozenset({"jsonrpc", "id", "method", "params"})


def _refuse(constant: str) -> None:
    raise ValueError(constant)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def plain_params(params: dict[str, Any] | None, *allowed: str) -> bool:
    """Whether ``params`` holds only ``allowed`` keys as strings and at most a ``_meta`` with a progress
    token: the shapes every SDK version reads the same way (a 2026-07-28 envelope in ``_meta`` is not one)."""
    if params is None:
        return True
    if not set(params) <= {*allowed, "_meta"}:
        return False
    if not all(isinstance(params[k], str) for k in allowed if params.get(k) is not None):
        return False
    meta = params.get("_meta")
    if meta is None:
        return "_meta" not in params
    if not isinstance(meta, dict) or not set(meta) <= _META_KEYS:
        return False
    token = meta.get("progressToken")
    return token is None or isinstance(token, str) or _is_int(token)


def plain_initialize(params: dict[str, Any] | None) -> str | None:
    """The requested protocol version when ``params`` is an ``initialize`` the SDK accepts as it is (a
    version, capabilities as objects, client name and version as text); None otherwise."""
    if params is None or not set(params) <= {"protocolVersion", "capabilities", "clientInfo"}:
        return None
    requested, capabilities, client = (
        params.get(k) for k in ("protocolVersion", "capabilities", "clientInfo")
    )
    if not isinstance(requested, str) or not isinstance(capabilities, dict):
        return None
    if not all(_plain_capability(k, v) for k, v in capabilities.items()):
        return None
    if not isinstance(client, dict) or not set(client) <= {"name", "version", "title"}:
        return None
    if not all(isinstance(client.get(k), str) for k in ("name", "version")):
        return None
    return requested if client.get("title") is None or isinstance(client["title"], str) else None


def _plain_capability(name: str, value: object) -> bool:
    """Only ``roots`` holds a flag (``listChanged``); every other client capability holds objects."""
    if not isinstance(value, dict):
        return False
    kind = bool if name == "roots" else dict
    return all(isinstance(v, kind) for v in value.values())

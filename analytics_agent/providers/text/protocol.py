"""The text protocol for models without native tool calling: how a call is written, and how we read it.

Pure functions. The format the model is told (``providers.text_prompt``) is strict: one block per call, ::

    <tool_call>
    {"name": "sales_summary", "arguments": {"city": "Pune", "day": "2026-10-24"}}
    </tool_call>

and results come back as ``<tool_result name="sales_summary">…</tool_result>`` in a user message. The
reader is tolerant, because small models rarely write exactly that:

* blocks may be wrapped in code fences, and the JSON inside them too; a last block may lack its ``</tool_call>``;
* prose before, between and after the blocks is kept as the turn's text (never parsed as a call);
* one block may hold several calls (a JSON array, or objects one after another);
* ``parameters``/``args``/``input`` are read as ``arguments``; arguments given as a JSON string are kept as is;
* without any block, a JSON object ``{"name": <a known tool>, "arguments": {...}}`` (bare or fenced) is a call;
* a block that cannot be read, or a JSON call to a known tool that does not parse, becomes a call with an
  ``error`` (its raw text kept), so the model is told what is wrong, as a tool error would be;
* a name we do not know is still returned as a call: the executor answers it with the tools that exist.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

CALL_OPEN = "<tool_call>"
CALL_CLOSE = "</tool_call>"
UNNAMED = "tool_call"
"""The name a call gets when the model's text names no tool (it is never run: it carries an error)."""
_FENCE = r"(?:```[\w-]*[ \t]*\n?[ \t]*)"
_BLOCK = re.compile(
    rf"{_FENCE}?<\s*tool_call\s*>(?P<body>.*?)(?:<\s*/\s*tool_call\s*>|(?=<\s*tool_call\s*>)|\Z)(?:\s*```)?",
    re.IGNORECASE | re.DOTALL,
)
_FENCED_BODY = re.compile(r"^\s*```[\w-]*\s*(?P<inner>.*?)\s*```\s*$", re.DOTALL)
_NAME_KEYS = ("name", "tool", "function")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
FORMAT_HINT = (
    f'write each call as {CALL_OPEN}{{"name": "TOOL", "arguments": {{...}}}}{CALL_CLOSE} '
    "with a JSON object inside"
)


@dataclass(frozen=True)
class ParsedCall:
    name: str
    arguments: str
    """JSON text; for a call that could not be read, the raw text the model wrote."""
    error: str = ""
    """Why the call could not be read ("" when it could)."""


@dataclass(frozen=True)
class ParsedReply:
    text: str
    """The prose outside the calls (the whole reply when there are none)."""
    calls: tuple[ParsedCall, ...] = ()


def render_call(name: str, arguments: str) -> str:
    """One call in the documented format (how past calls are shown to the model again)."""
    # Valid JSON holds ``<`` only inside strings, where ``\\u003c`` means the same: a past call's
    # arguments can then never close its block early.
    shown = arguments.strip() or "{}"
    shown = shown.replace("<", "\\u003c") if _is_json(shown) else escape_markup(shown)
    return f'{CALL_OPEN}\n{{"name": {json.dumps(name)}, "arguments": {shown}}}\n{CALL_CLOSE}'


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def render_raw_call(raw: str) -> str:
    """A call that could not be read, shown back exactly as the model wrote it."""
    return f"{CALL_OPEN}\n{escape_markup(raw.strip())}\n{CALL_CLOSE}"


def render_result(name: str, content: str, *, is_error: bool = False) -> str:
    """One tool result, as the user message of the next step carries it.

    The result is data (it may hold text from the user's files): any of our own markup inside it is
    escaped, so a value such as ``</tool_result><tool_call>…`` can neither end the block nor pose as a call.
    """
    marker = ' error="true"' if is_error else ""
    return (
        f'<tool_result name="{_attribute(name)}"{marker}>\n{escape_markup(content.strip())}\n</tool_result>'
    )


_MARKUP = re.compile(r"<(\s*/?\s*tool_(?:result|call))", re.IGNORECASE)


def escape_markup(text: str) -> str:
    """``text`` with every opening or closing ``tool_result``/``tool_call`` tag defused (``&lt;``)."""
    return _MARKUP.sub(r"&lt;\1", text) if "<" in text else text


def _attribute(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def parse_reply(text: str, known_names: Collection[str] = ()) -> ParsedReply:
    """Read the calls in a model's reply. Never raises.

    Args:
        text: the reply.
        known_names: the tools on offer; a JSON call outside any block counts only for these names.
    """
    blocks = list(_BLOCK.finditer(text))
    if blocks:
        calls = [call for block in blocks for call in _read_block(block["body"])]
        return ParsedReply(_prose(text, [b.span() for b in blocks]), tuple(calls))
    return _parse_bare(text, known_names)


def _read_block(body: str) -> list[ParsedCall]:
    inner = _unfence(body)
    values, rest = _json_values(inner)
    if not values or rest.strip():
        why = "text after the JSON object" if values else "its JSON does not parse"
        if not values and not inner.lstrip().startswith(("{", "[")):
            why = "its text is not JSON"
        return [ParsedCall(_guess_name(inner) or UNNAMED, inner.strip(), _unreadable(why, inner))]
    calls: list[ParsedCall] = []
    for value in values:
        for item in value if isinstance(value, list) else [value]:
            calls.append(_call_from(item, raw=inner))
    return calls or [ParsedCall(UNNAMED, inner.strip(), _unreadable("it holds no call", inner))]


def _call_from(item: Any, *, raw: str) -> ParsedCall:
    if isinstance(item, dict) and isinstance(item.get("function"), dict):
        item = item["function"]  # {"function": {"name": ..., "arguments": ...}}, the OpenAI wire shape
    name = next((item[k] for k in _NAME_KEYS if isinstance(item, dict) and isinstance(item.get(k), str)), "")
    if not name.strip():
        return ParsedCall(UNNAMED, raw.strip(), _unreadable('the JSON has no "name" of a tool', raw))
    arguments = next((item[k] for k in _ARGUMENT_KEYS if k in item), None)
    return ParsedCall(name.strip(), _arguments_text(arguments))


def _arguments_text(value: Any) -> str:
    if value is None:
        return "{}"
    if isinstance(value, str):
        return value  # JSON text already (the executor says so if it is not)
    return json.dumps(value, ensure_ascii=False)


def _parse_bare(text: str, known_names: Collection[str]) -> ParsedReply:
    """No block: a JSON call to a known tool, fenced or bare, still counts; so does a broken one."""
    names = set(known_names)
    spans: list[tuple[int, int]] = []
    calls: list[ParsedCall] = []
    decoder = json.JSONDecoder()
    i = 0
    failed = 0
    while failed < _MAX_FAILED_STARTS and (i := _next_json_start(text, i)) >= 0:
        try:
            value, end = decoder.raw_decode(text, i)
        except RecursionError:  # nested past Python's stack: nothing after this is a call we can read
            break
        except json.JSONDecodeError as exc:
            # A failed attempt costs up to the whole reply (the error counts lines from its start), so
            # only so many are tried, and the next starts where this one failed: retrying every '{' of
            # 2 MB of '{' was quadratic and ran past 300 s.
            failed += 1
            i = max(i + 1, exc.pos)
            continue
        except ValueError:
            i += 1
            continue
        found = [
            _call_from(item, raw=text[i:end])
            for item in (value if isinstance(value, list) else [value])
            if isinstance(item, dict) and _names_a_tool(item, names)
        ]
        if found:
            calls += found
            spans.append(_with_fence(text, i, end))
        i = end
    if calls:
        return ParsedReply(_prose(text, spans), tuple(calls))
    attempt = _broken_attempt(text, names)
    if attempt is None:
        return ParsedReply(text)
    call, start = attempt
    return ParsedReply(text[:start].strip(), (call,))


def _names_a_tool(item: dict[str, Any], names: set[str]) -> bool:
    if isinstance(item.get("function"), dict):
        item = item["function"]
    return any(item.get(k) in names for k in _NAME_KEYS) and set(item) <= {
        *_NAME_KEYS,
        *_ARGUMENT_KEYS,
        "type",
    }


def _broken_attempt(text: str, names: set[str]) -> tuple[ParsedCall, int] | None:
    """A reply that clearly tries to call a known tool in JSON, but whose JSON does not parse; and where
    the attempt starts (the prose before it is kept)."""
    match = re.search(r'"(?:name|tool|function)"\s*:\s*"([^"]+)"', text)
    if not match or match[1] not in names:
        return None
    start = text.rfind("{", 0, match.start())
    start = start if start >= 0 else match.start()
    fence = re.search(r"```[\w-]*\s*$", text[:start])
    raw = text[start:].strip().removesuffix("```").strip()
    return ParsedCall(
        match[1], raw, _unreadable("its JSON does not parse", raw)
    ), fence.start() if fence else start


def _json_values(text: str) -> tuple[list[Any], str]:
    """Every JSON value at the start of ``text``, one after another (commas between are fine)."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    i = 0
    while True:
        while i < len(text) and (text[i].isspace() or text[i] == ","):
            i += 1
        if i >= len(text) or text[i] not in "[{":
            return values, text[i:]
        try:
            value, i = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):  # RecursionError: nested past Python's stack
            return values, text[i:]
        values.append(value)


def _next_json_start(text: str, start: int) -> int:
    """The next '{' or '['; one search, so its cost is the distance to it (two ``find`` calls scanned
    to the end for the bracket that is absent, on every step)."""
    match = _JSON_START.search(text, start)
    return match.start() if match else -1


# Where JSON can start: '{' before a key or '}', '[' before a value or ']' ("{{{" starts nothing).
_JSON_START = re.compile(r'\{\s*["}]|\[\s*[-0-9"\[{\]tfn]')
_MAX_FAILED_STARTS = 64


def _with_fence(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a bare call's span over a code fence around it (so no empty fence is left as prose)."""
    before = re.search(r"```[\w-]*\s*$", text[:start])
    after = re.match(r"\s*```", text[end:])
    if before and after:
        return before.start(), end + after.end()
    return start, end


def _unfence(body: str) -> str:
    match = _FENCED_BODY.match(body)
    return match["inner"] if match else body.strip()


def _prose(text: str, spans: list[tuple[int, int]]) -> str:
    pieces, last = [], 0
    for start, end in sorted(spans):
        pieces.append(text[last:start])
        last = max(last, end)
    pieces.append(text[last:])
    return "\n".join(piece.strip() for piece in pieces if piece.strip())


def _guess_name(raw: str) -> str:
    match = re.search(r'"(?:name|tool|function)"\s*:\s*"([^"]+)"', raw)
    return match[1] if match else ""


def _unreadable(why: str, raw: str) -> str:
    shown = " ".join(raw.split())
    shown = shown if len(shown) <= 120 else shown[:119] + "…"
    return (
        f"your tool call could not be read: {why} ({shown!r}); {FORMAT_HINT}, and nothing else in the block"
    )

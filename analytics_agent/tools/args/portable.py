"""The JSON Schema subset every model server we support accepts, as a checker. Pure functions.

Why each rule exists, with its source, is in ``docs/portable-schemas.md``. In short: OpenAI (strict and
not), Bedrock (Claude, Nova), Gemini's OpenAI-compatible endpoint, llama.cpp / llama-cpp-python grammars,
vLLM guided decoding and Ollama each reject (or crash on) a different corner of JSON Schema, so every
schema we render stays in the part they all take:

* the root is ``{"type": "object", "properties": …}``; nested objects have at least one property;
* every node has one ``type`` (no type lists) or an ``anyOf`` of typed branches; ``null`` only as a branch;
* ``enum`` only on strings, with string values; ``format`` only ``date-time``; arrays have ``items``;
* ``additionalProperties`` only ``false``, only at the root (strict: on every object);
* no ``$ref``/``$defs``, ``oneOf``/``allOf``/``not``, ``const``, ``title``, ``examples`` ...;
* strict payloads also: every property required, no ``default``/``minLength``/``maxLength``;
* ``pattern`` is ``^…$`` in the regex subset grammar converters translate (``pattern_problems``).
"""

from __future__ import annotations

import re
from typing import Any

TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object"})
FORMATS = frozenset({"date-time"})
_BASE_KEYS = frozenset(
    {
        "type", "description", "enum", "properties", "required", "items", "anyOf", "minimum", "maximum",
        "minItems", "maxItems", "pattern", "format", "minLength", "maxLength", "default",
        "additionalProperties",
    }
)  # fmt: skip
_NOT_STRICT = frozenset({"default", "minLength", "maxLength"})
_KEYS_FOR_TYPE = {
    "enum": "string",
    "pattern": "string",
    "format": "string",
    "minLength": "string",
    "maxLength": "string",
    "items": "array",
    "minItems": "array",
    "maxItems": "array",
    "properties": "object",
    "required": "object",
    "additionalProperties": "object",
}
_NUMERIC_KEYS = ("minimum", "maximum")

# Escapes grammar converters turn into literals (llama.cpp's json-schema-to-grammar keeps any other
# escape as is, and its GBNF parser then fails: "unknown escape at \d").
_LITERAL_ESCAPES = frozenset("[](){}|*+?\\")
_CLASS_ESCAPES = frozenset("[]\\")
_QUANTIFIER = re.compile(r"\{(\d+)(,(\d*))?\}")


def schema_problems(schema: Any, *, strict: bool = False) -> list[str]:
    """What keeps ``schema`` (a tool's parameters) out of the portable subset; [] when it is inside.

    Args:
        schema: the JSON Schema object a provider sends as a tool's parameters / input schema.
        strict: check the OpenAI strict-mode variant (closed, fully required objects; no defaults).
    """
    problems: list[str] = []
    if not isinstance(schema, dict) or schema.get("type") != "object" or "properties" not in schema:
        return ['the root must be {"type": "object", "properties": {...}}']
    for key in ("anyOf", "enum"):
        if key in schema:
            problems.append(f"the root must not have {key!r}")
    _check_node(schema, "$", problems, strict=strict, root=True)
    return problems


def _check_node(node: Any, where: str, problems: list[str], *, strict: bool, root: bool = False) -> None:
    if not isinstance(node, dict):
        problems.append(f"{where}: a schema must be an object, not {type(node).__name__}")
        return
    allowed = _BASE_KEYS - _NOT_STRICT if strict else _BASE_KEYS
    for key in sorted(set(node) - allowed):
        problems.append(f"{where}: keyword {key!r} is not portable")
    if "anyOf" in node:
        _check_any_of(node, where, problems, strict=strict)
        return
    kind = node.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        problems.append(f"{where}: needs one type from {sorted(TYPES)} (or anyOf), not {kind!r}")
        return
    for key, owner in _KEYS_FOR_TYPE.items():
        if key in node and kind != owner:
            problems.append(f"{where}: {key!r} only belongs on type {owner}")
    if any(key in node for key in _NUMERIC_KEYS) and kind not in ("integer", "number"):
        problems.append(f"{where}: minimum/maximum only belong on integer or number")
    _check_values(node, where, problems)
    if kind == "array":
        if "items" not in node:
            problems.append(f"{where}: an array needs 'items'")
        else:
            _check_node(node["items"], f"{where}[]", problems, strict=strict)
    elif kind == "object":
        _check_object(node, where, problems, strict=strict, root=root)


def _check_any_of(node: dict[str, Any], where: str, problems: list[str], *, strict: bool) -> None:
    branches = node["anyOf"]
    if "type" in node or not isinstance(branches, list) or len(branches) < 2:
        problems.append(f"{where}: anyOf needs two or more branches and no 'type' beside it")
        return
    if set(node) - {"anyOf", "description"}:
        problems.append(f"{where}: only 'description' may sit beside anyOf")
    for i, branch in enumerate(branches):
        if isinstance(branch, dict) and branch == {"type": "null"}:
            continue
        if isinstance(branch, dict) and "anyOf" in branch:
            problems.append(f"{where}.anyOf[{i}]: nested anyOf is not portable; flatten it")
            continue
        _check_node(branch, f"{where}.anyOf[{i}]", problems, strict=strict)


def _check_values(node: dict[str, Any], where: str, problems: list[str]) -> None:
    if "enum" in node:
        values = node["enum"]
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            problems.append(f"{where}: enum must be a non-empty list of strings")
    if "format" in node and node["format"] not in FORMATS:
        problems.append(f"{where}: format {node['format']!r} is not portable (only {sorted(FORMATS)})")
    if "pattern" in node:
        for problem in pattern_problems(node["pattern"]):
            problems.append(f"{where}: pattern {node['pattern']!r}: {problem}")


def _check_object(node: dict[str, Any], where: str, problems: list[str], *, strict: bool, root: bool) -> None:
    properties = node.get("properties")
    if not isinstance(properties, dict) or (not properties and not root):
        problems.append(f"{where}: an object needs properties (Gemini rejects empty nested objects)")
        return
    required = node.get("required", [])
    if not isinstance(required, list) or set(required) - set(properties):
        problems.append(f"{where}: 'required' must list some of its properties")
    closed = node.get("additionalProperties")
    if closed not in (None, False):
        problems.append(f"{where}: additionalProperties may only be false")
    if strict:
        if closed is not False:
            problems.append(f"{where}: strict mode needs additionalProperties: false on every object")
        if sorted(required) != sorted(properties):
            problems.append(f"{where}: strict mode needs every property in 'required'")
    elif "additionalProperties" in node and not root:
        problems.append(f"{where}: additionalProperties only at the root (Gemini rejects it nested)")
    for name, sub in properties.items():
        _check_node(sub, f"{where}.{name}", problems, strict=strict)


def pattern_problems(pattern: Any) -> list[str]:
    """What keeps a ``pattern`` out of the regex subset every grammar converter translates.

    Allowed: ``^`` first and ``$`` last, literals, ``.``, classes ``[a-z0-9_]`` / ``[^…]``, groups
    ``(…)``, ``|``, and the greedy quantifiers ``* + ? {n} {n,} {n,m}``. Escapes only for the characters
    ``[ ] ( ) { } | * + ? \\`` (in a class: ``[ ] \\``): write ``[0-9]`` for ``\\d``, ``[.]`` for ``\\.``.
    """
    if not isinstance(pattern, str):
        return ["a pattern must be a string"]
    try:
        re.compile(pattern)
    except re.error as exc:
        return [f"not a regular expression ({exc})"]
    if not (pattern.startswith("^") and pattern.endswith("$") and not pattern.endswith("\\$")):
        return ["anchor it: start with ^ and end with $ (grammar converters require both)"]
    if len(pattern) <= 2:
        return ["the pattern matches nothing but the empty string"]
    return _scan(pattern[1:-1])


def _scan(body: str) -> list[str]:
    problems: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            escaped = body[i + 1 : i + 2]
            if escaped not in _LITERAL_ESCAPES:
                problems.append(_escape_problem(escaped))
            i += 2
        elif char == "[":
            i = _scan_class(body, i, problems)
        elif char == "(" and body[i + 1 : i + 2] == "?":
            problems.append("(?…) groups (non-capturing, lookaround, named, flags) are not portable")
            i += 2
        elif char in "^$":
            problems.append(f"{char!r} only as the first/last character (or escape it: \\{char})")
            i += 1
        elif char == "{":
            i = _scan_quantifier(body, i, problems)
        elif char in "*+?" and body[i + 1 : i + 2] in ("?", "+"):
            problems.append("lazy or possessive quantifiers (*? +? ?? *+ ...) are not portable")
            i += 2
        else:
            i += 1
    return problems


def _scan_class(body: str, start: int, problems: list[str]) -> int:
    i = start + 1
    if body[i : i + 1] == "^":
        i += 1
    if body[i : i + 1] == "]":
        i += 1  # a literal ']' first in the class
    while i < len(body) and body[i] != "]":
        if body[i] == "\\":
            escaped = body[i + 1 : i + 2]
            if escaped not in _CLASS_ESCAPES:
                problems.append(_escape_problem(escaped, in_class=True))
            i += 2
        else:
            i += 1
    return i + 1


def _scan_quantifier(body: str, start: int, problems: list[str]) -> int:
    match = _QUANTIFIER.match(body, start)
    if not match:
        problems.append("a '{' must start a quantifier {n}, {n,} or {n,m} (escape a literal one: \\{)")
        return start + 1
    end = match.end()
    if body[end : end + 1] in ("?", "+"):
        problems.append("lazy or possessive quantifiers ({n,m}? ...) are not portable")
        end += 1
    return end


_SHORTHANDS = {"d": "[0-9]", "w": "[A-Za-z0-9_]", "s": "[ ]", ".": "[.]", "-": "[-]"}


def _escape_problem(escaped: str, *, in_class: bool = False) -> str:
    better = _SHORTHANDS.get(escaped)
    if in_class and escaped in ("-", "."):
        better = f"a plain {escaped} (first or last in the class for -)"
    hint = f"; write {better} instead" if better else ""
    return f"escape \\{escaped} is not portable{hint} (llama.cpp grammars reject it)"

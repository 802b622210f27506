"""Turn a pydantic arguments model into the JSON Schemas providers accept. Pure functions.

Both providers take the same clean schema: root ``type: object``, ``additionalProperties: false``, no
``title`` noise, no ``$defs``/``$ref`` (inlined: Amazon Nova rejects them). OpenAI's strict mode also
wants every property required, optional ones nullable, and no ``default``.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

_DROP_KEYS = {"title", "$schema", "$id"}


def clean_schema(model: type[BaseModel]) -> dict[str, Any]:
    raw = model.model_json_schema(mode="validation")
    defs = raw.pop("$defs", {})
    schema = _clean(_inline_refs(raw, defs))
    schema.pop("description", None)  # the tool's own description carries it
    _drop_nested_closed_markers(schema)
    schema["type"] = "object"
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    if not schema.get("required"):
        schema.pop("required", None)
    return schema


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAI strict variant: every property required, optional ones nullable, no defaults; on nested
    objects too (array items, ``anyOf`` branches), since strict mode checks every object."""
    strict = copy.deepcopy(schema)
    _strict_object(strict)
    return strict


def _strict_object(node: dict[str, Any]) -> None:
    required = set(node.get("required", []))
    for name, prop in node.get("properties", {}).items():
        prop.pop("default", None)
        if name not in required and not _is_nullable(prop):
            node["properties"][name] = {"anyOf": [prop, {"type": "null"}]}
            if "description" in prop:
                node["properties"][name]["description"] = prop.pop("description")
        for branch in node["properties"][name].get("anyOf", []):
            branch.pop("default", None)
        _strict_nested(node["properties"][name])
    node["required"] = list(node.get("properties", {}))
    node["additionalProperties"] = False


def _strict_nested(node: dict[str, Any]) -> None:
    """Apply the strict rules to every object below a property: array items and anyOf branches."""
    if node.get("type") == "object" and "properties" in node:
        _strict_object(node)
    if isinstance(node.get("items"), dict):
        _strict_nested(node["items"])
    for branch in node.get("anyOf", []):
        _strict_nested(branch)


def _drop_nested_closed_markers(schema: dict[str, Any]) -> None:
    """Nested ``additionalProperties: false`` tells a model nothing the validator does not enforce anyway,
    and costs tokens in every request; the strict variant puts it back where strict mode needs it."""
    for prop in schema.get("properties", {}).values():
        for node in (prop, prop.get("items"), *prop.get("anyOf", [])):
            if isinstance(node, dict) and node.get("type") == "object":
                node.pop("additionalProperties", None)
                _drop_nested_closed_markers(node)


def _is_nullable(prop: dict[str, Any]) -> bool:
    return any(branch.get("type") == "null" for branch in prop.get("anyOf", []))


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return _inline_refs({**target, **siblings}, defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


def _clean(node: Any, *, in_properties: bool = False) -> Any:
    """Drop noise keys from schema objects; names under ``properties`` are kept whatever they are."""
    if isinstance(node, dict):
        if in_properties:
            return {name: _clean(sub) for name, sub in node.items()}
        cleaned = {}
        for key, value in node.items():
            if key in _DROP_KEYS:
                continue
            cleaned[key] = _clean(value, in_properties=(key == "properties"))
        if "const" in cleaned and "enum" not in cleaned:
            cleaned["enum"] = [cleaned.pop("const")]
        return cleaned
    if isinstance(node, list):
        return [_clean(item) for item in node]
    return node

"""Turn a pydantic arguments model into the JSON Schemas providers accept. Pure functions.

Both providers take the same clean schema: root ``type: object``, no ``additionalProperties`` (Gemini
rejects it; the validator forbids unknown keys anyway), no ``title`` noise, no ``$defs``/``$ref`` (inlined:
Amazon Nova rejects them). OpenAI's strict mode also wants every object closed, every property required,
optional ones nullable, and no ``default``. Every schema stays in the portable subset (``tools.portable``).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the models come built; rendering them needs no import of pydantic here
    from pydantic import BaseModel

_DROP_KEYS = {"title", "$schema", "$id"}


def clean_schema(model: type[BaseModel]) -> dict[str, Any]:
    raw = model.model_json_schema(mode="validation")
    defs = raw.pop("$defs", {})
    schema: dict[str, Any] = _clean(_inline_refs(raw, defs))
    schema.pop("description", None)  # the tool's own description carries it
    _drop_closed_markers(schema)
    _drop_null_defaults(schema)
    schema["type"] = "object"
    schema.setdefault("properties", {})
    if not schema.get("required"):
        schema.pop("required", None)
    return schema


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAI strict variant: every property required, optional ones nullable, no defaults; on nested
    objects too (array items, ``anyOf`` branches), since strict mode checks every object."""
    strict = copy.deepcopy(schema)
    _strict_object(strict)
    return strict


_NOT_IN_STRICT = ("default", "minLength", "maxLength")
"""Rejected by OpenAI strict mode (``default``) or reported rejected (the lengths; wire-shapes.md B.4)."""


def _strict_object(node: dict[str, Any]) -> None:
    required = set(node.get("required", []))
    for name, prop in node.get("properties", {}).items():
        if name not in required and not _is_nullable(prop):
            node["properties"][name] = _nullable(prop)
        for part in (node["properties"][name], *node["properties"][name].get("anyOf", [])):
            for key in _NOT_IN_STRICT:
                part.pop(key, None)
        _strict_nested(node["properties"][name])
    node["required"] = list(node.get("properties", {}))
    node["additionalProperties"] = False


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    """``prop`` or null, as one flat anyOf (a nested anyOf is outside the portable subset)."""
    branches = prop.pop("anyOf") if "anyOf" in prop else [prop]
    nullable: dict[str, Any] = {"anyOf": [*branches, {"type": "null"}]}
    if "description" in prop:
        nullable["description"] = prop.pop("description")
    return nullable


def _strict_nested(node: dict[str, Any]) -> None:
    """Apply the strict rules to every object below a property: array items and anyOf branches."""
    if node.get("type") == "object" and "properties" in node:
        _strict_object(node)
    if isinstance(node.get("items"), dict):
        _strict_nested(node["items"])
    for branch in node.get("anyOf", []):
        _strict_nested(branch)


def _drop_closed_markers(schema: dict[str, Any]) -> None:
    """``additionalProperties: false`` tells a model nothing the validator does not enforce anyway, costs
    tokens in every request, and Gemini rejects it; the strict variant puts it back where strict mode
    needs it. (Grammar converters treat a missing one as closed too.)"""
    schema.pop("additionalProperties", None)
    for prop in schema.get("properties", {}).values():
        for node in (prop, prop.get("items"), *prop.get("anyOf", [])):
            if isinstance(node, dict) and node.get("type") == "object":
                _drop_closed_markers(node)


def _drop_null_defaults(schema: dict[str, Any]) -> None:
    """An optional ``X | None = None`` is told as plain ``X``: leaving it out means the default, and the
    null branch (with a ``default`` beside an ``anyOf``) is outside the portable subset. The strict variant
    makes it nullable again."""
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        if name in required or "default" not in prop or prop["default"] is not None:
            continue
        branches = [b for b in prop.get("anyOf", []) if b != {"type": "null"}]
        if len(branches) == len(prop.get("anyOf", [])):
            continue
        del prop["default"], prop["anyOf"]
        if len(branches) == 1:
            prop.update(branches[0])
        else:
            prop["anyOf"] = branches


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

"""What a model is told about parameters declared as ``ParamSpec``s: their JSON Schema, rendered from the
specs without pydantic. Pure.

The specs are the one definition: ``arguments.arguments_model`` builds the pydantic model that validates
from them, and this renders the schema ``schema.clean_schema`` would read from that model, key for key and
in the same order (``tests/tools/test_param_schema.py`` compares the two for every bundled tool and every
kind of parameter). The MCP server's first ``tools/list`` answer thus needs no pydantic: importing it and
building the first model cost more CPU than the rest of that answer (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from analytics_agent.tools.args.spec import ParamSpec

DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
"""What the model is told a date looks like: a pattern, not ``format: date``, which Gemini rejects and
grammar-constrained servers (llama.cpp, vLLM) then enforce as they decode."""


def params_schema(params: tuple[ParamSpec, ...], choices: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    """The clean JSON Schema of a tool's parameters; ``choices``: enum values read from the data."""
    schema: dict[str, Any] = {
        "properties": {p.name: _property(p, choices.get(p.name) or p.choices) for p in params}
    }
    required = [p.name for p in params if p.required]
    if required:
        schema["required"] = required
    schema["type"] = "object"
    return schema


def _property(param: ParamSpec, choices: tuple[str, ...]) -> dict[str, Any]:
    # keys sorted, as pydantic sorts them; a null default is told as leaving the parameter out
    prop: dict[str, Any] = {}
    if not param.required and param.default is not None:
        prop["default"] = param.default
    if param.description:
        prop["description"] = param.description
    prop.update(_told_type(param, choices))
    return prop


def _told_type(param: ParamSpec, choices: tuple[str, ...]) -> dict[str, Any]:
    kind = param.type
    if kind == "enum":
        return enum_schema(choices)
    if kind in ("integer", "number"):
        whole = kind == "integer"  # an integer's bounds are told (and checked) as whole numbers
        told: dict[str, Any] = {}
        for key, bound in (("maximum", param.maximum), ("minimum", param.minimum)):
            if bound is not None:
                told[key] = int(bound) if whole else bound
        return {**told, "type": kind}
    if kind == "date":
        return {"pattern": DATE_PATTERN, "type": "string"}
    if kind == "pattern":
        return {"pattern": param.pattern, "type": "string"}
    if kind == "string" and param.max_length:
        return {"maxLength": param.max_length, "type": "string"}
    return {"type": "string"}  # a period is told as text (its form is in the description)


def enum_schema(choices: Sequence[str]) -> dict[str, Any]:
    """Choices of text. One choice is a ``const`` to pydantic, which ``clean_schema`` tells as an enum
    after the other keys; several are an ``enum`` in its sorted place."""
    if len(choices) == 1:
        return {"type": "string", "enum": list(choices)}
    return {"enum": list(choices), "type": "string"}

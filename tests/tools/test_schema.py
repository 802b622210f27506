"""Schemas providers accept: clean for both, and a strict variant for OpenAI."""

from __future__ import annotations

from typing import Literal

from json_nodes import json_dicts
from pydantic import BaseModel, ConfigDict, Field

from analytics_agent.tools.args.schema import clean_schema, strict_schema


class Place(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str = Field(description="City name")


class Args(BaseModel):
    """A docstring that must not leak into the schema root."""

    model_config = ConfigDict(extra="forbid")
    place: Place = Field(description="Where")
    title: str = Field(default="x", description="A property that is literally named title")
    mode: Literal["fast"] = "fast"
    limit: int | None = None


def test_clean_schema_inlines_refs_and_drops_titles_but_keeps_a_property_named_title():
    schema = clean_schema(Args)
    assert schema["type"] == "object" and "additionalProperties" not in schema
    assert "$defs" not in schema and "description" not in schema
    assert not any("$ref" in node for node in json_dicts(schema))
    assert "title" in schema["properties"]  # a field name, not noise
    assert not any("title" in node and isinstance(node.get("title"), str) for node in json_dicts(schema))
    assert schema["properties"]["place"]["properties"]["city"] == {
        "description": "City name",
        "type": "string",
    }
    assert schema["properties"]["place"]["description"] == "Where"
    assert schema["properties"]["mode"]["enum"] == ["fast"]  # const becomes a one-value enum


def test_strict_schema_requires_every_property_makes_optional_ones_nullable_and_drops_defaults():
    strict = strict_schema(clean_schema(Args))
    assert strict["required"] == ["place", "title", "mode", "limit"]
    assert not any("default" in node for node in json_dicts(strict))
    assert {"type": "null"} in strict["properties"]["title"]["anyOf"]
    assert strict["properties"]["title"]["description"] == "A property that is literally named title"
    limit_types = [branch.get("type") for branch in strict["properties"]["limit"]["anyOf"]]
    assert limit_types == ["integer", "null"]
    assert strict["additionalProperties"] is False


def test_strict_schema_leaves_the_clean_schema_untouched():
    clean = clean_schema(Args)
    before = repr(clean)
    strict_schema(clean)
    assert repr(clean) == before

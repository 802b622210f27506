"""A tool whose arguments are declared as ``ParamSpec``s (every ``.sql`` tool, ``list_tables``,
``describe_table``): the specs are the one definition of both the pydantic model that validates a call
(built on first use) and the JSON Schema every client is told (rendered without pydantic)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from analytics_agent.tools.args.params import params_schema
from analytics_agent.tools.args.spec import ParamSpec
from analytics_agent.tools.base import Tool

if TYPE_CHECKING:  # pydantic: only a call the quick check cannot settle builds the model
    from analytics_agent.tools.args.models import ToolArguments


class DeclaredTool(Tool):
    params: tuple[ParamSpec, ...] = ()
    choices: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    """Enum values read from the data, by parameter name (``enum(from TABLE.COLUMN)``)."""

    @cached_property
    def arguments(self) -> type[ToolArguments]:  # type: ignore[override]  # lazy stand-in for the attribute
        # Built on first use: listing the tools, or a call the quick check settles, needs no model.
        from analytics_agent.tools.args.models import arguments_model

        return arguments_model(self.name, self.params, dict(self.choices))

    def json_schema(self) -> dict[str, Any]:
        return params_schema(self.params, self.choices)

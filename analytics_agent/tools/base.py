"""What every tool is: a name, a description, an arguments model, and a run on a DuckDB cursor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import duckdb

from analytics_agent.tools.results.shaping import Rows

if TYPE_CHECKING:  # pydantic: imported by the first tool that builds its model, not by every import
    from analytics_agent.tools.args.models import ToolArguments


@dataclass(frozen=True)
class ToolValue:
    """A tool's answer before shaping: an object (one answer) or rows (a capped table), plus its SQL."""

    value: dict[str, Any] | Rows
    sql: str = ""
    params: dict[str, Any] | list[Any] | None = None
    """The values bound to the SQL's parameters (``$name`` as a dict, ``?`` as a list), as run."""


@dataclass(frozen=True)
class Prepared:
    """A call's validated arguments, ready to run: ``run`` on a cursor, and the arguments as JSON."""

    run: Callable[[duckdb.DuckDBPyConnection], ToolValue]
    arguments: dict[str, Any]


class Tool:
    """Base class. Subclasses set the three attributes and implement ``run``; errors they raise as
    ``ToolError`` are shown to the model, anything else is logged and reported as a failure."""

    name: str
    description: str
    arguments: type[ToolArguments]
    returns: Literal["object", "rows"] = "object"
    """``rows``: the answer is always the table envelope (``ROWS_SCHEMA``), so clients may rely on its shape."""

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        """The arguments' clean JSON Schema, what every client is told (the registry keeps it). Tools that
        can render it without building their pydantic model override this (``declared``)."""
        from analytics_agent.tools.args.schema import clean_schema

        return clean_schema(self.arguments)

    def prepare(self, data: dict[str, Any]) -> Prepared:
        """Validate decoded arguments against ``arguments`` (raises ArgumentError, one line per problem)."""
        from analytics_agent.tools.args.models import validate_arguments

        args = validate_arguments(self.arguments, data)
        return Prepared(lambda cursor: self.run(cursor, args), args.model_dump(mode="json"))

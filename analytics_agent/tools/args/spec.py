"""A declared parameter (``ParamSpec``): what a ``.sql`` tool's header, ``list_tables`` and ``describe_table``
declare about each argument. The schema a model reads and both validators are rendered from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

ParamType = Literal["string", "integer", "number", "date", "period", "enum", "pattern"]
NO_DEFAULT = object()


@dataclass(frozen=True)
class ParamSpec:
    name: str
    type: ParamType
    description: str
    default: Any = NO_DEFAULT
    minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None
    choices: tuple[str, ...] = ()
    choices_from: tuple[str, str] | None = None
    """(table, column) whose distinct values are the enum's choices, resolved against the database."""
    pattern: str | None = None

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT

    @property
    def sql_names(self) -> tuple[str, ...]:
        """The ``$names`` the SQL reads for this parameter: a period is bound as its first and last day."""
        if self.type == "period":
            return (f"{self.name}_start", f"{self.name}_end")
        return (self.name,)

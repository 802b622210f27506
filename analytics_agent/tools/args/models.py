"""Tool arguments: one pydantic model per tool, the single source of its JSON Schema and its validation.

``arguments_model`` builds the model from parameter specs; ``parse_arguments`` turns what a model sent
(JSON text, an object, or nothing) into a validated instance, or an ``ArgumentError`` with one precise
line per problem, field first.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    WithJsonSchema,
    create_model,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from analytics_agent.errors import ArgumentError
from analytics_agent.suggest import clipped, did_you_mean
from analytics_agent.tools.args.params import DATE_PATTERN
from analytics_agent.tools.args.quick import DEFAULT_STRING_MAX, PREVIOUS, decode_arguments
from analytics_agent.tools.args.spec import ParamSpec

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _iso_date(value: Any) -> Any:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and _ISO_DATE.match(value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError as exc:
            raise PydanticCustomError(
                "date_value", "Input should be a real calendar date: {reason}", {"reason": str(exc)}
            ) from None
    raise PydanticCustomError("date_format", "Input should be a valid date in YYYY-MM-DD format")


IsoDate = Annotated[
    dt.date,
    BeforeValidator(_iso_date),
    WithJsonSchema({"type": "string", "pattern": DATE_PATTERN}),
]

_PERIOD = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})\s*\.\.\s*(\d{4}-\d{2}-\d{2})\s*$")


def _period(value: Any) -> Any:
    """One argument for one concept: ``"2026-10-01..2026-10-31"`` (both days included)."""
    if isinstance(value, tuple):
        return value
    match = _PERIOD.match(value) if isinstance(value, str) else None
    if not match:
        raise PydanticCustomError(
            "period_format",
            "Input should be a range of days YYYY-MM-DD..YYYY-MM-DD, e.g. 2026-10-01..2026-10-31",
        )
    first, last = (_iso_date(day) for day in match.groups())
    if first > last:
        raise PydanticCustomError(
            "period_order",
            "The first day {first} is after the last day {last}",
            {"first": str(first), "last": str(last)},
        )
    return first, last


Period = Annotated[
    tuple[dt.date, dt.date],
    BeforeValidator(_period),
    PlainSerializer(lambda p: f"{p[0].isoformat()}..{p[1].isoformat()}", when_used="json"),
    WithJsonSchema({"type": "string"}),
]


def _baseline(value: Any) -> Any:
    """A period, or ``"previous"``: each time bucket against the one before it."""
    if value == PREVIOUS:
        return value
    try:
        return _period(value)
    except PydanticCustomError as exc:
        raise PydanticCustomError(
            exc.type, exc.message() + "; or 'previous' (each time_grain bucket against the one before)"
        ) from None


Baseline = Annotated[
    tuple[dt.date, dt.date] | Literal["previous"],
    BeforeValidator(_baseline),
    PlainSerializer(
        lambda p: p if p == PREVIOUS else f"{p[0].isoformat()}..{p[1].isoformat()}", when_used="json"
    ),
    WithJsonSchema({"type": "string"}),
]


_Model = TypeVar("_Model", bound=BaseModel)


class ToolArguments(BaseModel):
    """Base of every tool's arguments: unknown keys are errors, so a misspelt one never passes silently."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def field_type(param: ParamSpec, choices: tuple[str, ...] = ()) -> Any:
    """The Python type (with constraints) that validates one parameter."""
    if param.type == "date":
        return IsoDate
    if param.type == "period":
        return Period
    if param.type == "enum":
        values = choices or param.choices
        return one_of(values)
    if param.type == "integer":
        return Annotated[int, Field(strict=True, ge=_num(param.minimum), le=_num(param.maximum))]
    if param.type == "number":
        return Annotated[float, Field(ge=param.minimum, le=param.maximum)]
    if param.type == "pattern":
        return Annotated[str, Field(pattern=param.pattern), _BOUNDED]
    if param.max_length:
        return Annotated[str, Field(max_length=param.max_length)]
    return Annotated[str, _BOUNDED]


def one_of(values: tuple[str, ...]) -> Any:
    """``Literal[values]`` built at run time: a type to pydantic, a value mypy cannot check as a type."""
    return Literal[values]


def _at_most_default_length(value: str) -> str:
    if len(value) > DEFAULT_STRING_MAX:
        raise PydanticCustomError(
            "string_too_long", "String should have at most {max} characters", {"max": DEFAULT_STRING_MAX}
        )
    return value


# A guard against huge inputs, not advice for the model: checked, but kept out of the schema it reads.
_BOUNDED = AfterValidator(_at_most_default_length)


def _num(value: float | None) -> int | None:
    return None if value is None else int(value)


def arguments_model(
    tool_name: str, params: tuple[ParamSpec, ...], resolved_choices: dict[str, tuple[str, ...]] | None = None
) -> type[ToolArguments]:
    """Build the pydantic model for one tool's parameters (``param_schema`` renders its JSON Schema)."""
    resolved_choices = resolved_choices or {}
    fields: dict[str, Any] = {}
    for param in params:
        annotation = field_type(param, resolved_choices.get(param.name, ()))
        description = param.description or None  # none rather than an empty one (describe_table's enum)
        if param.required:
            fields[param.name] = (annotation, Field(description=description))
        elif param.default is None:
            fields[param.name] = (annotation | None, Field(default=None, description=description))
        else:
            fields[param.name] = (annotation, Field(default=param.default, description=description))
    model_name = "".join(part.capitalize() for part in re.split(r"[_-]", tool_name)) + "Arguments"
    return create_model(model_name, __base__=ToolArguments, **fields)


def parse_arguments(model: type[_Model], raw: str | dict[str, Any] | None) -> _Model:
    """Validate what the model sent. Raises ArgumentError, one line per problem."""
    return validate_arguments(model, decode_arguments(raw))


def validate_arguments(model: type[_Model], data: dict[str, Any]) -> _Model:
    """Validate decoded arguments (``quick_args.decode_arguments``). Raises ArgumentError."""
    try:
        data = _drop_nulls_for_defaults(model, data)
        return model.model_validate(data)
    except ValidationError as exc:
        raise ArgumentError(format_validation_error(exc)) from None
    except RecursionError:  # a value nested past Python's stack (a dict from a native tool call)
        raise ArgumentError("arguments nest too deeply; send one flat JSON object") from None


def _drop_nulls_for_defaults(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """A null for an optional parameter means "use the default" (strict-mode schemas make models send it)."""
    fields = model.model_fields
    return {k: v for k, v in data.items() if not (v is None and k in fields and not fields[k].is_required())}


MAX_PROBLEM_LINES = 10


def format_validation_error(exc: ValidationError) -> str:
    """One line per problem, field first; at most ``MAX_PROBLEM_LINES`` of them, each of bounded length."""
    errors = exc.errors(include_url=False)
    lines = []
    for error in errors[:MAX_PROBLEM_LINES]:
        where = clipped(".".join(_field_name(part) for part in error["loc"]) or "arguments")
        message = error["msg"]
        if error["type"] == "literal_error":
            message = _short_literal_message(error)
        lines.append(f"{where}: {clipped(message, limit=400)}")
    if len(errors) > MAX_PROBLEM_LINES:
        lines.append(f"... and {len(errors) - MAX_PROBLEM_LINES:,} more problems of the same kind")
    return "\n".join(lines)


def _field_name(part: str | int) -> str:
    """A key as the model can recognise it: quoted when blank, padded or unprintable."""
    text = str(part)
    return text if text and text.strip() == text and text.isprintable() else repr(text)


def _short_literal_message(error: ErrorDetails) -> str:
    expected = str(error.get("ctx", {}).get("expected", ""))
    got = error.get("input")
    hint = did_you_mean(got, _choices(expected)) if isinstance(got, str) else ""
    return f"Input should be one of {clipped(expected, limit=300)}; got {clipped(repr(got))}{hint}"


def _choices(expected: str) -> list[str]:
    """The choices in pydantic's ``'a', 'b' or 'c'`` (each a Python repr), for the did-you-mean hint."""
    import ast

    found = []
    for literal in re.findall(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", expected[:20_000]):
        try:
            value = ast.literal_eval(literal)
        except (ValueError, SyntaxError):
            continue
        found.append(str(value))
    return found

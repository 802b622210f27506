"""Typer 0.27+'s parameters shown and converted as click does, so help, errors and start-up read the same on
every typer release we allow (0.26 builds its parameters on click's own types and is left alone).

What 0.27+ changed, and what each parameter gets back here:

- labels: every value with its Python type (``--json <bool>``, ``<list[Path]>``), a required argument in
  braces (``{name}``), an argument's metavar in the type column: click's plain labels instead;
- errors: pydantic's words for a bad number ("Input should be a valid integer, unable to parse string as an
  integer") and an argument's lower-case name ("Missing argument 'name'"): click's;
- start-up: 0.29 converts every value through a pydantic ``TypeAdapter`` built on first use, so any command
  imported pydantic (about as much CPU as importing DuckDB): str, int, float, Path and lists of them are
  converted here instead, by click's rules. Anything else keeps typer's own conversion.

Each hook is set on the parameter itself, only where typer has the 0.27+ API it replaces.
"""

# No ``from __future__ import annotations``: nothing here is read by typer, but the module stays importable
# at --help cost (typer and pathlib only).
import math
import os
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any

import typer

# A Path parameter's settings under which click's conversion is Path(value) plus a readability check.
_PLAIN_PATH = {
    "exists": False,
    "file_okay": True,
    "dir_okay": True,
    "writable": False,
    "readable": True,
    "resolve_path": False,
    "allow_dash": False,
    "path_type": None,
}


def plain_labels(params: list[Any]) -> list[Any]:
    """Help and errors that read as click's: ``--json``, ``--timezone TEXT``, ``NAME [ARGUMENTS]``,
    "Missing argument 'NAME'", "'abc' is not a valid integer." Releases before 0.27 read so already and
    are left alone. Returns ``params``."""
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)  # the 0.27+ API the noisy labels come from
        if descriptor is None or getattr(param, "_plain", False):
            continue
        param._plain = True
        _convert_plainly(param, descriptor)
        if getattr(param, "param_type_name", "") == "argument":
            _plain_argument(param, descriptor)
            continue
        if param.metavar is not None:
            label = param.metavar
        elif getattr(param, "is_flag", False) or getattr(param, "count", False):
            label = None
        else:
            label = _plain_type(descriptor)
        param.display_type_rich = lambda ctx, label=label: label
    return params


def _plain_argument(param: Any, descriptor: Any) -> None:
    """click's usage piece (``NAME``, ``[ARGUMENTS]``, ``PATH...``), the same in the help's name column with
    the name in lower case (``[arguments]``), the type in the type column, the usage piece in errors."""
    name = (param.name or "").upper()
    usage = param.metavar or name
    usage = usage if param.required or usage.startswith("[") else f"[{usage}]"
    usage += "..." if param.nargs != 1 and param.metavar is None else ""
    shown = usage.replace(name, param.name or "") if param.metavar is None else usage
    param.get_usage_pieces = lambda ctx: [usage]
    param.get_error_hint = lambda *_: f"'{usage}'"
    # typer's help names the argument by its metavar as given (no brackets, no dots added to one)
    param.metavar = shown
    label = _plain_type(descriptor)
    param.display_type_rich = lambda ctx: label


def _plain_type(descriptor: Any) -> str:
    annotation = descriptor.annotation
    if descriptor.is_list:
        annotation = (getattr(annotation, "__args__", None) or (str,))[0]
    if descriptor.is_path or descriptor.is_file or _is_path(annotation):
        return "PATH"
    if descriptor.is_choice:
        return f"[{'|'.join(str(c) for c in descriptor.choices)}]"
    name = {int: "INTEGER", float: "FLOAT"}.get(annotation, "TEXT")
    return f"{name} RANGE" if descriptor.is_ranged else name


def _is_path(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, PurePath)


# --- conversion -----------------------------------------------------------------------------------------


class _ClickConversion:
    """typer's runtime-parameter contract (``coerce``) with click's conversion of one value type."""

    def __init__(self, convert: Callable[[Any, Any, Any], Any]) -> None:
        self.convert = convert

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        many = param.multiple or param.nargs == -1
        if value is None:
            return () if many else None
        if not many:
            return self.convert(value, param, ctx)
        if isinstance(value, str):
            raise typer.BadParameter("Value must be an iterable.", ctx=ctx, param=param)
        return [self.convert(item, param, ctx) for item in value]


def _convert_plainly(param: Any, descriptor: Any) -> None:
    """Give ``param`` click's conversion when its type is one click converts plainly (and 0.29's hook for
    a conversion exists); typer's own otherwise."""
    if not hasattr(param, "get_runtime_param") or getattr(param, "_runtime_param", None) is not None:
        return
    info = descriptor.parameter_info
    if descriptor.is_choice or descriptor.is_file or info.parser is not None:
        return
    if getattr(info, "click_type", None) is not None or getattr(info, "clamp", False):
        return
    annotation = descriptor.annotation
    if descriptor.is_list:
        annotation = (getattr(annotation, "__args__", None) or (None,))[0]
    convert = _converter(annotation, info, param.get_runtime_param)
    if convert is not None:
        conversion = _ClickConversion(convert)
        param.get_runtime_param = lambda: conversion


def _converter(
    annotation: Any, info: Any, typers: Callable[[], Any]
) -> Callable[[Any, Any, Any], Any] | None:
    if annotation is bool:
        return _flag(typers)
    if annotation is str:
        return _to_text
    if annotation is int or annotation is float:
        return _number(annotation, info.min, info.max)
    if _is_path(annotation) and all(getattr(info, k, v) == v for k, v in _PLAIN_PATH.items()):
        return _to_path
    return None


def _flag(typers: Callable[[], Any]) -> Callable[[Any, Any, Any], Any]:
    """A flag's value is a bool already, or None when not given (the help option): nothing to convert. A
    word (from an environment variable) gets typer's own reading of it."""

    def convert(value: Any, param: Any, ctx: Any) -> Any:
        return value if isinstance(value, bool) else typers().coerce(value, param=param, ctx=ctx)

    return convert


def _to_text(value: Any, param: Any, ctx: Any) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return str(value)


def _to_path(value: Any, param: Any, ctx: Any) -> Path:
    path = Path(value)
    if os.path.exists(path) and not os.access(path, os.R_OK):
        raise typer.BadParameter(f"Path {str(value)!r} is not readable.", ctx=ctx, param=param)
    return path


def _number(kind: type, low: Any, high: Any) -> Callable[[Any, Any, Any], Any]:
    word = "integer" if kind is int else "float"

    def convert(value: Any, param: Any, ctx: Any) -> Any:
        try:
            number = kind(value)
        except (TypeError, ValueError):
            raise typer.BadParameter(f"{value!r} is not a valid {word}.", ctx=ctx, param=param) from None
        if kind is float and not math.isfinite(number):  # click reads "nan" and "inf" as floats
            raise typer.BadParameter(f"{value!r} is not a finite number.", ctx=ctx, param=param)
        if (low is not None and number < low) or (high is not None and number > high):
            raise typer.BadParameter(
                f"{number} is not in the range {_describe_range(low, high)}.", ctx=ctx, param=param
            )
        return number

    return convert


def _describe_range(low: Any, high: Any) -> str:
    if low is None:
        return f"x<={high}"
    if high is None:
        return f"x>={low}"
    return f"{low}<=x<={high}"

"""Parse a ``.sql`` tool file: a comment header that declares the tool, then the SQL it runs.

Pure: text in, ``SqlToolSpec`` out, or a ``ToolDefinitionError`` naming file and line. The format::

    -- name: sales_summary
    -- description: One city's orders on one day ...
    --   continuation lines are indented by two or more spaces
    -- tables: orders
    -- param city: enum(from orders.city) | The city, e.g. "Pune".
    -- param day: date | The calendar day, e.g. "2026-10-24".
    -- param top: integer(1, 50) = 10 | How many rows to return.
    -- returns: object
    -- empty: no orders in {city} on {day}
    SELECT ... WHERE city = $city AND day = $day

Parameter types: ``string``, ``string(MAXLEN)``, ``integer[(MIN, MAX)]``, ``number[(MIN, MAX)]``, ``date``,
``period`` (a range of days, one argument ``"YYYY-MM-DD..YYYY-MM-DD"``; the SQL reads ``$NAME_start`` and
``$NAME_end``), ``enum(a, b, c)``, ``enum(from TABLE.COLUMN)`` (values read from the data),
``pattern(^REGEX$)`` (anchored, in the portable subset of ``tools.portable``: ``[0-9]``, not ``\\d``). ``= DEFAULT``
makes a parameter optional (``= null`` for no value). ``returns`` is ``object`` (exactly one row, shown as
an object; no row is an error built from ``empty``) or ``rows`` (a capped table). Arguments reach DuckDB
only as bound ``$name`` parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from analytics_agent.errors import ToolDefinitionError
from analytics_agent.tools.args.portable import pattern_problems
from analytics_agent.tools.args.spec import ParamSpec

TOOL_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER_RE = re.compile(r"^--\s?(?P<key>[a-z_]+)(?:\s+(?P<arg>[A-Za-z_][A-Za-z0-9_]*))?:\s*(?P<value>.*)$")
_CONTINUATION_RE = re.compile(r"^--\s{2,}(?P<text>\S.*)$")
_TYPE_RE = re.compile(r"^(?P<type>[a-z]+)(?:\((?P<args>.*)\))?(?:\s*=\s*(?P<default>.+))?$")
_SQL_PARAM_RE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class SqlToolSpec:
    name: str
    description: str
    sql: str
    params: tuple[ParamSpec, ...] = ()
    returns: Literal["object", "rows"] = "rows"
    empty: str = "no rows match these arguments"
    tables: tuple[str, ...] = ()
    path: str = "<string>"
    extra: dict[str, str] = field(default_factory=dict)


def parse_sql_tool(text: str, *, path: str = "<string>") -> SqlToolSpec:
    """Parse one tool file's text. Raises ToolDefinitionError with the offending line."""
    lines = text.splitlines()
    header: dict[str, str] = {}
    params: list[ParamSpec] = []
    last_key: str | None = None
    last_param_index: int | None = None
    sql_start = len(lines)
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if not line.startswith("--"):
            sql_start = number - 1
            break
        continuation = _CONTINUATION_RE.match(line)
        if continuation and last_key is not None:
            if last_key == "param" and last_param_index is not None:
                p = params[last_param_index]
                params[last_param_index] = _replace_description(p, p.description + " " + continuation["text"])
            else:
                header[last_key] += " " + continuation["text"]
            continue
        match = _HEADER_RE.match(line)
        if not match:
            if line.strip() in ("--", "---") or line.startswith("-- #"):
                continue  # blank or remark lines inside the header
            raise ToolDefinitionError(
                f"cannot read header line {line!r}; expected '-- key: value'", path=path, line=number
            )
        key, arg, value = match["key"], match["arg"], match["value"].strip()
        if key == "param":
            if not arg:
                raise ToolDefinitionError(
                    "a param line needs a name: '-- param NAME: TYPE | description'", path=path, line=number
                )
            if any(p.name == arg for p in params):
                raise ToolDefinitionError(f"parameter {arg!r} is declared twice", path=path, line=number)
            params.append(_parse_param(arg, value, path=path, line=number))
            last_param_index = len(params) - 1
        elif key in ("name", "description", "returns", "empty", "tables"):
            if key in header:
                raise ToolDefinitionError(f"'{key}' is declared twice", path=path, line=number)
            header[key] = value
        else:
            raise ToolDefinitionError(
                f"unknown header key {key!r}; use name, description, tables, param, returns or empty",
                path=path,
                line=number,
            )
        last_key = key
    sql = "\n".join(lines[sql_start:]).strip().rstrip(";").strip()
    return _build_spec(header, params, sql, path=path, sql_line=sql_start + 1)


def _build_spec(
    header: dict[str, str], params: list[ParamSpec], sql: str, *, path: str, sql_line: int
) -> SqlToolSpec:
    name = header.get("name", "")
    if not TOOL_NAME_RE.match(name):
        raise ToolDefinitionError(f"tool name {name!r} must match ^[a-zA-Z0-9_-]{{1,64}}$", path=path, line=1)
    if not header.get("description"):
        raise ToolDefinitionError("a tool needs a non-empty '-- description:'", path=path, line=1)
    returns = header.get("returns", "rows")
    if returns not in ("object", "rows"):
        raise ToolDefinitionError(f"returns must be 'object' or 'rows', not {returns!r}", path=path, line=1)
    if not sql:
        raise ToolDefinitionError("no SQL after the header", path=path, line=sql_line)
    used = set(_SQL_PARAM_RE.findall(sql))
    declared = {name for p in params for name in p.sql_names}
    if used - declared:
        raise ToolDefinitionError(
            f"the SQL uses undeclared parameters: {', '.join(sorted(used - declared))}",
            path=path,
            line=sql_line,
        )
    if declared - used:
        raise ToolDefinitionError(
            f"declared parameters never used in the SQL: {', '.join(sorted(declared - used))}",
            path=path,
            line=sql_line,
        )
    tables = tuple(t.strip() for t in header.get("tables", "").split(",") if t.strip())
    return SqlToolSpec(
        name=name,
        description=header["description"],
        sql=sql,
        params=tuple(params),
        returns=returns,  # type: ignore[arg-type]  # checked against the Literal above
        empty=header.get("empty", "no rows match these arguments"),
        tables=tables,
        path=path,
    )


def _parse_param(name: str, value: str, *, path: str, line: int) -> ParamSpec:
    spec, sep, description = value.partition(" | ")
    if not sep or not description.strip():
        raise ToolDefinitionError(
            f"parameter {name!r} needs a description: '-- param {name}: TYPE | description'",
            path=path,
            line=line,
        )
    match = _TYPE_RE.match(spec.strip())
    if not match:
        raise ToolDefinitionError(
            f"cannot read the type of parameter {name!r}: {spec!r}", path=path, line=line
        )
    kind, args, default_text = match["type"], match["args"], match["default"]
    fields: dict[str, Any] = {}
    try:
        if kind in ("integer", "number"):
            if args:
                low, high = (a.strip() for a in args.split(","))
                fields["minimum"], fields["maximum"] = float(low), float(high)
        elif kind == "string":
            if args:
                fields["max_length"] = int(args)
        elif kind == "enum":
            fields.update(_parse_enum_args(args or ""))
        elif kind == "pattern":
            if not args:
                raise ValueError("pattern(REGEX) needs a regular expression")
            fields["pattern"] = _portable_pattern(args)
        elif kind in ("date", "period"):
            if args:
                raise ValueError(f"{kind} takes no arguments")
        else:
            raise ValueError(
                f"unknown type {kind!r}; use string, integer, number, date, period, enum or pattern"
            )
    except (ValueError, re.error) as exc:
        raise ToolDefinitionError(f"parameter {name!r}: {exc}", path=path, line=line) from None
    param = ParamSpec(name=name, type=kind, description=description.strip(), **fields)  # type: ignore[arg-type]  # kind checked above
    if default_text is not None:
        param = _with_default(param, default_text.strip(), path=path, line=line)
    return param


def _portable_pattern(pattern: str) -> str:
    """The pattern, if every model server can take it (a grammar converter may crash on one it cannot)."""
    problems = pattern_problems(pattern)
    if problems:
        raise ValueError(f"pattern {pattern!r}: {problems[0]}")
    return pattern


def _parse_enum_args(args: str) -> dict[str, Any]:
    args = args.strip()
    if args.startswith("from "):
        source = args[5:].strip()
        table, dot, column = source.partition(".")
        if not dot or not _IDENT_RE.match(table) or not _IDENT_RE.match(column):
            raise ValueError(f"enum(from TABLE.COLUMN) needs plain identifiers, not {source!r}")
        return {"choices_from": (table, column)}
    choices = tuple(c.strip().strip("'\"") for c in args.split(",") if c.strip())
    if not choices:
        raise ValueError("enum needs values: enum(a, b, c) or enum(from TABLE.COLUMN)")
    return {"choices": choices}


def _with_default(param: ParamSpec, text: str, *, path: str, line: int) -> ParamSpec:
    if text == "null":
        return replace(param, default=None)
    unquoted = text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text
    try:
        if param.type == "integer":
            value: Any = int(unquoted)
        elif param.type == "number":
            value = float(unquoted)
        else:
            value = unquoted
        if param.choices and value not in param.choices:
            raise ValueError(f"default {value!r} is not one of {', '.join(param.choices)}")
    except ValueError as exc:
        raise ToolDefinitionError(
            f"parameter {param.name!r}: bad default: {exc}", path=path, line=line
        ) from None
    return replace(param, default=value)


def _replace_description(param: ParamSpec, description: str) -> ParamSpec:
    return replace(param, description=description)

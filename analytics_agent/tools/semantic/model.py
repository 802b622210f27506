"""Read a semantic file: YAML in, plain definitions out, each carrying the line it came from. No catalog.

The format is the smallest subset of dbt MetricFlow / Cube / boring-semantic-layer that covers what the
tools need: per table a time column, many-to-one relationships, named dimensions with synonyms, and
named metrics (an aggregate with an optional condition, or a ratio of two metrics)::

    timezone: America/New_York                  # the business zone: days and months of zoned timestamps
    tables:
      orders:
        description: One row per order.
        time_column: day
        relationships:
          customer_id: customers.customer_id     # null removes an inferred one
          account_manager_id: {to: employees.employee_id, name: account_manager}   # a role name
        dimensions:
          segment: {column: customers.segment, synonyms: [tier]}
        metrics:
          revenue:
            fn: sum
            column: amount
            where: status not in ('cancelled', 'returned')
            synonyms: [sales]
          avg_order_value: {ratio: [revenue, paid_orders]}

``yaml.safe_load`` semantics (no Python objects); marks give every mistake its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from analytics_agent.errors import SemanticModelError
from analytics_agent.suggest import did_you_mean
from analytics_agent.tools.semantics import MetricDef

TOP_KEYS = ("timezone", "tables")
TABLE_KEYS = ("description", "time_column", "relationships", "dimensions", "metrics")
METRIC_KEYS = ("fn", "column", "where", "ratio", "description", "synonyms")
DIMENSION_KEYS = ("column", "description", "synonyms")
RELATIONSHIP_KEYS = ("to", "name")


@dataclass(frozen=True)
class DimensionDef:
    name: str
    table: str
    column: str
    line: int
    description: str = ""
    synonyms: tuple[str, ...] = ()


@dataclass(frozen=True)
class RelationshipDef:
    table: str
    column: str
    target: str | None
    """``table.key`` as written, or None to remove an inferred relationship (or, with ``name``, to keep
    the inferred one's target and rename it)."""
    line: int
    name: str = ""
    """The link's role name (``account_manager``: ``account_manager.last_name``), or "" for the default."""


@dataclass(frozen=True)
class TableDef:
    name: str
    line: int
    description: str = ""
    time_column: str | None = None


@dataclass
class SemanticFile:
    path: str
    tables: list[TableDef] = field(default_factory=list)
    metrics: list[MetricDef] = field(default_factory=list)
    dimensions: list[DimensionDef] = field(default_factory=list)
    relationships: list[RelationshipDef] = field(default_factory=list)
    timezone: str | None = None
    timezone_line: int = 0
    problems: list[SemanticModelError] = field(default_factory=list)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(SemanticModelError(message, path=self.path, line=line))


class _Mapping(dict[Any, Any]):
    """A YAML mapping that remembers its own line and each key's."""

    line = 0
    lines: dict[Any, int]


class _Loader(yaml.SafeLoader):
    pass


def _mapping(loader: _Loader, node: yaml.MappingNode) -> _Mapping:
    loader.flatten_mapping(node)
    result = _Mapping()
    result.line, result.lines = node.start_mark.line + 1, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"{key!r} is defined twice (first on line {result.lines[key]})",
                key_node.start_mark,
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def parse_semantic(text: str, *, path: str = "semantic.yaml") -> SemanticFile:
    """The definitions in ``text`` and one problem per mistake (the good parts are kept).

    Raises:
        SemanticModelError: the text is not YAML at all (with the line where it stops being YAML).
    """
    from analytics_agent.bounded_yaml import YamlTooLarge, check_yaml_bounds

    try:
        check_yaml_bounds(text)
    except YamlTooLarge as exc:
        raise SemanticModelError(f"not loaded: {exc}", path=path, line=exc.line) from None
    try:
        data = yaml.load(text, Loader=_Loader)  # a SafeLoader subclass: safe_load semantics
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise SemanticModelError(
            f"not valid YAML: {problem}", path=path, line=mark.line + 1 if mark else None
        ) from None
    result = SemanticFile(path)
    if data is None:
        return result
    if not isinstance(data, _Mapping) or ("tables" not in data and "timezone" not in data):
        raise SemanticModelError("a semantic file is a mapping with a 'tables:' key", path=path, line=1)
    for key in data:
        if key not in TOP_KEYS:
            result.problem(
                data.lines[key],
                f"unknown key {key!r}{did_you_mean(str(key), TOP_KEYS)}; keys: {', '.join(TOP_KEYS)}",
            )
    if data.get("timezone") is not None:
        result.timezone, result.timezone_line = str(data["timezone"]), data.lines["timezone"]
    if "tables" not in data or data["tables"] is None:
        return result
    tables = data["tables"]
    if not isinstance(tables, _Mapping):
        result.problem(data.lines["tables"], "tables: expected a mapping of table names")
        return result
    for name, body in tables.items():
        _table(result, str(name), body, tables.lines[name])
    return result


def read_semantic(path: Path) -> SemanticFile:
    from analytics_agent.bounded_yaml import YamlTooLarge, read_bounded

    try:
        text = read_bounded(path)
    except YamlTooLarge as exc:
        raise SemanticModelError(f"not loaded: {exc}", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SemanticModelError(f"cannot read it: {exc}", path=str(path)) from None
    return parse_semantic(text, path=str(path))


def _known_keys(result: SemanticFile, body: _Mapping, keys: tuple[str, ...], where: str) -> bool:
    ok = True
    for key in body:
        if key not in keys:
            result.problem(
                body.lines[key],
                f"{where}: unknown key {key!r}{did_you_mean(str(key), keys)}; keys: {', '.join(keys)}",
            )
            ok = False
    return ok


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _names(result: SemanticFile, value: Any, line: int, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    result.problem(line, f"{where}: synonyms is a list of words, e.g. [sales, turnover]")
    return ()


def _table(result: SemanticFile, name: str, body: Any, line: int) -> None:
    if body is None:
        body = _Mapping()
        body.line, body.lines = line, {}
    if not isinstance(body, _Mapping):
        result.problem(line, f"{name}: expected a mapping (description, time_column, metrics, ...)")
        return
    _known_keys(result, body, TABLE_KEYS, name)
    time_column = body.get("time_column")
    result.tables.append(TableDef(name, line, _text(body.get("description")), _text(time_column) or None))
    for section, reader in (
        ("relationships", _relationship),
        ("dimensions", _dimension),
        ("metrics", _metric),
    ):
        entries = body.get(section)
        if entries is None:
            continue
        if not isinstance(entries, _Mapping):
            result.problem(body.lines[section], f"{name}.{section}: expected a mapping of names")
            continue
        for key, value in entries.items():
            reader(result, name, str(key), value, entries.lines[key])


def _relationship(result: SemanticFile, table: str, column: str, value: Any, line: int) -> None:
    where = f"{table}.relationships.{column}"
    if isinstance(value, _Mapping):
        if not _known_keys(result, value, RELATIONSHIP_KEYS, where):
            return
        target, name = value.get("to"), value.get("name")
        if name is not None and not (isinstance(name, str) and name.isidentifier()):
            result.problem(line, f"{where}: name is one word of letters, digits and _, e.g. account_manager")
            return
        if name is None and target is None:
            result.problem(line, f"{where}: give to: (table.column), name: (a role name), or both")
            return
    else:
        target, name = value, None
    if target is not None and not (isinstance(target, str) and target.count(".") == 1):
        result.problem(line, f"{where}: write the key it refers to as table.column, or null")
        return
    result.relationships.append(RelationshipDef(table, column, target, line, name or ""))


def _dimension(result: SemanticFile, table: str, name: str, body: Any, line: int) -> None:
    where = f"{table}.dimensions.{name}"
    if isinstance(body, str):
        result.dimensions.append(DimensionDef(name, table, body, line))
        return
    if not isinstance(body, _Mapping) or not isinstance(body.get("column"), str):
        result.problem(line, f"{where}: needs column: (a column, or relation.column)")
        return
    if not _known_keys(result, body, DIMENSION_KEYS, where):
        return
    synonyms = _names(result, body.get("synonyms"), line, where)
    result.dimensions.append(
        DimensionDef(name, table, body["column"], line, _text(body.get("description")), synonyms)
    )


def _metric(result: SemanticFile, table: str, name: str, body: Any, line: int) -> None:
    where = f"{table}.metrics.{name}"
    if not isinstance(body, _Mapping):
        result.problem(line, f"{where}: expected a mapping with fn (and column, where) or ratio")
        return
    if not _known_keys(result, body, METRIC_KEYS, where):
        return
    ratio = body.get("ratio")
    if ratio is not None:
        if not (isinstance(ratio, list) and len(ratio) == 2 and all(isinstance(r, str) for r in ratio)):
            result.problem(line, f"{where}: ratio is [numerator, denominator], two metric names")
            return
        if body.get("fn") or body.get("column"):
            result.problem(line, f"{where}: a ratio takes no fn or column (its two metrics have them)")
            return
    elif not isinstance(body.get("fn"), str):
        result.problem(line, f"{where}: needs fn (count, sum, avg, ...) or ratio")
        return
    synonyms = _names(result, body.get("synonyms"), line, where)
    result.metrics.append(
        MetricDef(
            name,
            table,
            line,
            fn=body.get("fn"),
            column=body.get("column"),
            where=body.get("where"),
            ratio=tuple(ratio) if ratio else None,
            description=_text(body.get("description")),
            synonyms=synonyms,
        )
    )

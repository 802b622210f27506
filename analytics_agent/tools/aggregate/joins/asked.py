"""Links a call asks for (``joins``): the one a load did not infer, named for this call only. Pure: the
call's joins and the catalog in, links out. Each is checked as far as names and types go here; that its
key is unique is checked in full before the query runs (``verified=False``: ``Aggregate._check_keys``),
so an asked join can never repeat rows either."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from analytics_agent.db.relationships import Relationship, key_family
from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, did_you_mean, listing


def asked_links(
    table: str, joins: Sequence[Any], catalog: Mapping[str, Mapping[str, str]]
) -> list[Relationship]:
    """``{"column": "account_manager_id", "to": "employees.employee_id", "as": "manager"}`` from
    ``table``: a many-to-one link named ``manager`` (else by its target)."""
    links = []
    for join in joins:
        column, to, name = join.column, join.to, getattr(join, "as_", None) or ""
        own = catalog[table]
        if column not in own:
            raise ToolError(
                f"joins: {table} has no column {clipped(repr(column))}{did_you_mean(column, own)}; "
                f"columns: {listing(own)}"
            )
        target, _, key = to.partition(".")
        if target not in catalog or key not in catalog[target]:
            where = catalog.get(target)
            known = f"; columns of {target}: {listing(where)}" if where else f"; tables: {listing(catalog)}"
            raise ToolError(
                f"joins: to is table.key, the unique column it refers to; got {clipped(repr(to))}{known}"
            )
        if key_family(own[column]) != key_family(catalog[target][key]):
            raise ToolError(
                f"joins: {table}.{column} ({own[column]}) cannot refer to {to} ({catalog[target][key]}); "
                "a key joins a column of the same kind"
            )
        links.append(Relationship(table, column, target, key, verified=False, name=name))
    return links

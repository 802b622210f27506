"""The links of a database as a graph: which many-to-one paths lead from a table, and what a call names
them. Pure: relationships in, paths out.

An edge is a stored or declared link ``table.column → target.key`` whose key is unique (checked when the
link was found, and in full before the first query joins through it), so following edges from a table
never meets more than one row per step: a path reads, for each row of the table, at most one row of the
table it ends at. A name in a call is a path written out (``products.brands.brand_name``) or, when exactly
one path leads to a table, that table's name alone (``brands.brand_name``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from analytics_agent.db.relationships import Relationship

Path = tuple[Relationship, ...]

MAX_DEPTH = 6
"""Links a path may take: past a chain of six lookups a question names a table that is not what it meant."""
_MAX_PATHS = 200
"""Paths explored when one is found by its end's name: a dense graph could hold exponentially many."""


def link_names(table: str, relationships: Sequence[Relationship]) -> dict[str, Relationship]:
    """How a table's outgoing links are named: by the role name the semantic file gives one
    (``account_manager``), else by target table, or by column when one table is the target of several
    (flights.origin and flights.dest both refer to airports: ``origin.name``) or the link refers back to
    its own table (``reports_to.last_name`` is the manager's, never the employee's)."""
    outgoing = [r for r in relationships if r.table == table]
    targets = [r.target for r in outgoing if not r.name]
    return {
        (r.name or (r.target if targets.count(r.target) == 1 and r.target != table else r.column)): r
        for r in outgoing
    }


def name_of(link: Relationship, relationships: Sequence[Relationship]) -> str:
    """What a call calls ``link`` from its own table."""
    for name, other in link_names(link.table, relationships).items():
        if other == link:
            return name
    return link.target


def walk(table: str, names: Sequence[str], relationships: Sequence[Relationship]) -> tuple[Path, int]:
    """Follow the leading ``names`` that are links, from ``table`` on: the path taken and how many names
    it used (the rest name a column, and maybe a date part, of the table it ends at)."""
    path: list[Relationship] = []
    here = table
    for name in names[:MAX_DEPTH]:
        link = link_names(here, relationships).get(name)
        if link is None:
            break
        path.append(link)
        here = link.target
    return tuple(path), len(path)


def paths_named(table: str, name: str, relationships: Sequence[Relationship]) -> list[Path]:
    """Every path from ``table`` whose last link is called ``name`` or leads to the table ``name``,
    visiting no table twice (a self-reference such as ``reports_to`` is taken only when written out)."""
    found = []
    for path in _paths(table, relationships):
        last = path[-1]
        if last.target == name or name_of(last, relationships) == name:
            found.append(path)
    return found


def _paths(table: str, relationships: Sequence[Relationship]) -> Iterator[Path]:
    """Simple many-to-one paths from ``table``, shortest first, at most ``_MAX_PATHS`` of them."""
    frontier: list[tuple[Path, frozenset[str]]] = [((), frozenset({table}))]
    count = 0
    for _ in range(MAX_DEPTH):
        grown: list[tuple[Path, frozenset[str]]] = []
        for path, seen in frontier:
            here = path[-1].target if path else table
            for link in link_names(here, relationships).values():
                if link.target in seen:
                    continue
                longer = (*path, link)
                count += 1
                if count > _MAX_PATHS:
                    return
                yield longer
                grown.append((longer, seen | {link.target}))
        frontier = grown


def spelled(path: Path, relationships: Sequence[Relationship]) -> str:
    """A path as a call writes it: ``products.brands``."""
    return ".".join(name_of(link, relationships) for link in path)

"""Resolve the names an ``aggregate`` call uses: a column, a column of a related table (``orders.status``,
``products.brands.brand_name``, or ``brands.brand_name`` when exactly one path leads there), or a named
dimension (or one of its synonyms), into a quoted SQL expression and the joins it needs.

Only many-to-one links are followed (``joins.graph``), each path joined once, so a join never repeats the
queried table's rows. A column of a related table may still repeat (an order meets each of its lines): its
``Ref`` carries that table's key, and ``joins.fanout`` counts each of its rows once. A name that would
follow a link the other way is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.relationships import Relationship
from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, did_you_mean, listing
from analytics_agent.tools.aggregate.joins.graph import Path, link_names, name_of, paths_named, spelled, walk
from analytics_agent.tools.aggregate.query_plan import (
    GRAINS,
    PART_LABELS,
    FilterPlan,
    Join,
    time_key,
    time_label,
)
from analytics_agent.tools.aggregate.time import TEMPORAL, local
from analytics_agent.tools.date_parts import parts_date

Catalog = Mapping[str, Mapping[str, str]]


@dataclass(frozen=True)
class Ref:
    """A resolved name: its SQL, the table and column it reads, and that column's type."""

    sql: str
    table: str
    column: str
    type: str
    part: tuple[str, str] | None = None
    """A date part: its grain and the key it labels (grouped by the key, so weekdays come in order)."""
    grain: str = ""
    """For a column of a related table: the SQL of that table's unique key, which tells its rows apart
    where one of them meets many rows of the queried table (empty: the queried table's own column)."""
    via: tuple[Relationship, ...] = ()
    """The links from the queried table to the column's table."""


@dataclass
class Resolver:
    table: str
    catalog: Catalog
    relationships: Sequence[Relationship] = ()
    dimensions: Mapping[str, str] = field(default_factory=dict)
    """Dimension names and synonyms of this table, each mapped to the name it stands for."""
    zone: str = "UTC"
    """The business time zone: ``time_hour.day_of_week`` is the local weekday."""
    joins: list[Join] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.links = link_names(self.table, self.relationships)
        self.parts = parts_date(self.catalog[self.table])

    def column_type(self, name: str) -> str | None:
        """The type of a column of the table, or of the date its integer parts make."""
        if name in self.catalog[self.table]:
            return self.catalog[self.table][name]
        return self.parts.type if self.parts and name == self.parts.name else None

    @property
    def column_names(self) -> list[str]:
        """Columns of the table, the date its parts make, and dimension names."""
        return self.names

    @property
    def names(self) -> list[str]:
        return [*self.catalog[self.table], *([self.parts.name] if self.parts else []), *self.dimensions]

    def resolve(self, name: str, where: str) -> Ref:
        types = self.catalog[self.table]
        if name in types:
            return Ref(f"t.{quote_ident(name)}", self.table, name, types[name])
        if self.parts and name == self.parts.name:
            return Ref(self.parts.sql, self.table, name, self.parts.type)
        if name in self.dimensions:
            return self.resolve(self.dimensions[name], where)
        prefix, _, part = name.partition(".")
        if part and prefix not in self.links and TEMPORAL.match(self.column_type(prefix) or ""):
            try:
                return self._date_part(prefix, part)
            except ToolError as exc:
                raise ToolError(f"{where}: {exc}") from None
        if "." in name:
            return self._related(name, where)
        raise ToolError(
            f"{where}: {self.table} has no column {clipped(repr(name))}{did_you_mean(name, self.names)}; "
            f"columns: {listing(types)}{self._links_hint()}"
        )

    def _date_part(self, column: str, grain: str, base: Ref | None = None) -> Ref:
        """``time_hour.day_of_week``: a bucket or part of a date column, in the business zone, with the
        same values ``time_grain`` labels its rows with ('Sat', '2013-07', 18), so a filter, a metric's
        condition or count_distinct can use one ("weekends", "flights per day", "after 18:00")."""
        if grain not in GRAINS:
            raise ToolError(
                f"{clipped(repr(grain))} is not a date part{did_you_mean(grain, GRAINS)}; "
                f"use {column}.<{'|'.join(GRAINS)}>"
            )
        base = base or self.resolve(column, "date part")
        zoned = local(base.sql, base.type, self.zone)
        key = time_key(grain, zoned)
        kind = "BIGINT" if grain == "hour" else "VARCHAR"
        return Ref(time_label(grain, key), "", f"{column}.{grain}", kind, (grain, key), base.grain, base.via)

    def existence(self, name: str, op: str) -> FilterPlan | None:
        """``orders is_null`` asked of customers: the customers with no order (``not_null``: with at least
        one), where ``name`` is a table whose links refer to this one (one-to-many, never joined: an
        EXISTS, so no row repeats). None when ``name`` is no such table, or ``op`` no such test."""
        if op not in ("is_null", "not_null") or name in self.catalog[self.table]:
            return None
        back = [r for r in self.relationships if r.target == self.table and r.table == name != self.table]
        if not back:
            return None
        if len(back) > 1:
            columns = " and ".join(f"{r.table}.{r.column}" for r in back)
            raise ToolError(
                f"{name} refers to {self.table} through {columns}; ask with table {name!r} grouped by the link"
            )
        link = back[0]
        exists = "exists" if op == "not_null" else "not_exists"
        return FilterPlan(name, exists, (link.table, link.column), sql=f"t.{quote_ident(link.key)}")

    def check_values(self, ref: Ref, values: Sequence[object]) -> None:
        """A weekday or month name a date part never holds ('Saturday') would match no row: say the
        names it does hold."""
        labels = PART_LABELS.get(ref.part[0]) if ref.part else None
        bad = [v for v in values if labels and v not in labels]
        if bad:
            raise ToolError(
                f"{ref.column} holds {', '.join(repr(x) for x in labels or ())}, not {clipped(repr(bad[0]))}"
            )

    def _links_hint(self) -> str:
        dated = [c for c, t in self.catalog[self.table].items() if TEMPORAL.match(t)]
        dated += [self.parts.name] if self.parts else []
        links = ", ".join(f"{n}.<column of {r.target}>" for n, r in self.links.items())
        return (f"; related: {links}" if links else "") + (
            f"; date parts: {dated[0]}.<{'|'.join(GRAINS)}>" if dated else ""
        )

    def _related(self, name: str, where: str) -> Ref:
        """``orders.status``, ``products.brands.brand_name`` (a path written out), ``brands.brand_name``
        (the one path to brands), each maybe followed by a date part (``orders.ordered_at.month``)."""
        names = name.split(".")
        path, used = walk(self.table, names[:-1], self.relationships)
        if not path:
            path, used = self._only_path(names[0], where), 1
        rest, link = names[used:], path[-1]
        target = self.catalog[link.target]
        if len(rest) > 2 or rest[0] not in target:
            via = spelled(path, self.relationships)
            raise ToolError(
                f"{where}: {link.target} (as {via}) has no column {clipped(repr(rest[0]))}"
                f"{did_you_mean(rest[0], target)}; columns: {listing(target)}"
            )
        alias = self._join(path)
        column = rest[0]
        ref = Ref(
            f"{alias}.{quote_ident(column)}", link.target, column, target[column],
            grain=f"{alias}.{quote_ident(link.key)}", via=path,
        )  # fmt: skip
        if len(rest) == 1:
            return ref
        if not TEMPORAL.match(ref.type):
            raise ToolError(
                f"{where}: {link.target}.{column} is {ref.type}, not a date, so it has no part {rest[1]!r}"
            )
        try:
            return self._date_part(".".join(names[:-1]), rest[1], ref)
        except ToolError as exc:
            raise ToolError(f"{where}: {exc}") from None

    def _only_path(self, name: str, where: str) -> Path:
        """The one many-to-one path from the table that ends at the table (or link) ``name``."""
        paths = paths_named(self.table, name, self.relationships)
        if len(paths) == 1:
            return paths[0]
        if not paths:
            raise ToolError(f"{where}: {self._no_link(name)}")
        ways = " or ".join(f"{spelled(p, self.relationships)}.<column>" for p in sorted(paths, key=len)[:4])
        through = "columns" if all(len(p) == 1 for p in paths) else "paths"
        raise ToolError(f"{where}: {self.table} refers to {name} through several {through}; use {ways}")

    def _join(self, path: Path) -> str:
        """The alias of the table ``path`` ends at, joining each step of it once (a path shared by two
        names, ``orders.status`` and ``orders.customers.city``, is one join)."""
        source = "t"
        for depth in range(1, len(path) + 1):
            steps = path[:depth]
            found = next((j for j in self.joins if j.path == steps), None)
            if found is None:
                link = steps[-1]
                found = Join(
                    f"r{len(self.joins) + 1}", link.target, link.column, link.key, link.verified,
                    source=source, path=steps,
                )  # fmt: skip
                self.joins.append(found)
            source = found.alias
        return source

    def _no_link(self, prefix: str) -> str:
        back = [r for r in self.relationships if r.table == prefix and r.target == self.table]
        if back:
            r = back[0]
            return (
                f"{self.table} to {prefix} is one-to-many (each {self.table} row has many {prefix} rows via "
                f"{prefix}.{r.column}); joining would repeat rows and double-count, so it is refused: ask with "
                f"table {prefix!r} and group by {name_of(r, self.relationships)}.<column> instead"
            )
        if prefix in self.catalog:
            known = ", ".join(self.links) or "none"
            return (
                f"{self.table} has no many-to-one relationship to {prefix} (its relationships: {known}); "
                "declare one in the semantic file if a column refers to a unique key of it"
            )
        return f"no relationship or table {prefix!r}{did_you_mean(prefix, [*self.links, *self.catalog])}"

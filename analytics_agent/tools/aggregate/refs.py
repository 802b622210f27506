"""Resolve the names an ``aggregate`` call uses: a column, ``relation.column`` of a related table, or a
named dimension (or one of its synonyms), into a quoted SQL expression and the joins it needs.

Only many-to-one links are followed (each row of the table meets at most one row of the other), so a
join never repeats rows and counts stay right. A name that would follow a link the other way is refused
with the reason: that join would fan out and double-count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.relationships import Relationship
from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, did_you_mean, listing
from analytics_agent.tools.aggregate.query_plan import GRAINS, PART_LABELS, Join, time_key, time_label
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


def link_names(table: str, relationships: Sequence[Relationship]) -> dict[str, Relationship]:
    """How a table's outgoing links are named: by target table, or by column when one table is the
    target of several (flights.origin and flights.dest both refer to airports: ``origin.name``)."""
    outgoing = [r for r in relationships if r.table == table]
    targets = [r.target for r in outgoing]
    return {(r.target if targets.count(r.target) == 1 else r.column): r for r in outgoing}


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
            if part not in GRAINS:
                raise ToolError(
                    f"{where}: {clipped(repr(part))} is not a date part{did_you_mean(part, GRAINS)}; "
                    f"use {prefix}.<{'|'.join(GRAINS)}>"
                )
            return self._date_part(prefix, part)
        if "." in name:
            return self._related(name, where)
        raise ToolError(
            f"{where}: {self.table} has no column {clipped(repr(name))}{did_you_mean(name, self.names)}; "
            f"columns: {listing(types)}{self._links_hint()}"
        )

    def _date_part(self, column: str, grain: str) -> Ref:
        """``time_hour.day_of_week``: a bucket or part of a date column, in the business zone, with the
        same values ``time_grain`` labels its rows with ('Sat', '2013-07', 18), so a filter, a metric's
        condition or count_distinct can use one ("weekends", "flights per day", "after 18:00")."""
        base = self.resolve(column, "date part")
        zoned = local(base.sql, base.type, self.zone)
        key = time_key(grain, zoned)
        kind = "BIGINT" if grain == "hour" else "VARCHAR"
        return Ref(time_label(grain, key), "", f"{column}.{grain}", kind, (grain, key))

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
        prefix, column = name.split(".", 1)
        link = self.links.get(prefix)
        if link is None:
            raise ToolError(f"{where}: {self._no_link(prefix)}")
        target = self.catalog[link.target]
        if column not in target:
            raise ToolError(
                f"{where}: {link.target} has no column {clipped(repr(column))}{did_you_mean(column, target)}; "
                f"columns: {listing(target)}"
            )
        alias = self._join(link)
        return Ref(f"{alias}.{quote_ident(column)}", link.target, column, target[column])

    def _join(self, link: Relationship) -> str:
        for j in self.joins:
            if (j.table, j.column, j.key) == (link.target, link.column, link.key):
                return j.alias
        alias = f"r{len(self.joins) + 1}"
        self.joins.append(Join(alias, link.target, link.column, link.key, link.verified))
        return alias

    def _no_link(self, prefix: str) -> str:
        ambiguous = [n for n, r in self.links.items() if r.target == prefix]
        if ambiguous:
            return (
                f"{self.table} refers to {prefix} through several columns; use "
                f"{' or '.join(f'{n}.<column>' for n in ambiguous)}"
            )
        back = [r for r in self.relationships if r.table == prefix and r.target == self.table]
        if back:
            r = back[0]
            return (
                f"{self.table} to {prefix} is one-to-many (each {self.table} row has many {prefix} rows via "
                f"{prefix}.{r.column}); joining would repeat rows and double-count, so it is refused: ask with "
                f"table {prefix!r} and group by {_back_name(r, self.relationships)}.<column> instead"
            )
        if prefix in self.catalog:
            known = ", ".join(self.links) or "none"
            return (
                f"{self.table} has no many-to-one relationship to {prefix} (its relationships: {known}); "
                "declare one in the semantic file if a column refers to a unique key of it"
            )
        return f"no relationship or table {prefix!r}{did_you_mean(prefix, [*self.links, *self.catalog])}"


def _back_name(r: Relationship, relationships: Sequence[Relationship]) -> str:
    for name, link in link_names(r.table, relationships).items():
        if link == r:
            return name
    return r.target

"""What one reader may see of the database: its tables, and of each table its columns. Plain data, pure.

The access policy (``team.access``) decides it per signed-in user; the registry is then built from the
catalog, profiles and links as this view shows them, so no tool has to remember to check. ``None``
wherever a ``Visible`` is expected means the owner's view: everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from analytics_agent.db.relationships_base import Relationship

NONE_SHARED = "no tables are shared with you; the database's owner grants them in its access policy"
"""What a reader who sees no table is told where the owner is told to load one."""


@dataclass(frozen=True)
class Visible:
    """The tables one reader sees, each with the columns of it they see (a table with none is hidden)."""

    tables: tuple[tuple[str, frozenset[str]], ...] = ()
    """(table, its visible columns), sorted: hashable, so readers with the same view share one registry."""
    whole: frozenset[str] = frozenset()
    """The visible tables none of whose columns are hidden: only these may be read by free SQL or by a
    SQL-file tool (whose query may name any of a table's columns)."""
    run_sql: bool = False

    @classmethod
    def of(
        cls, catalog: Mapping[str, Mapping[str, str]], columns: Mapping[str, Iterable[str]], *, run_sql: bool
    ) -> Visible:
        """The view of ``catalog`` that shows ``columns`` (table -> visible columns) and nothing else."""
        shown = []
        for table in sorted(columns):
            kept = frozenset(c for c in columns[table] if c in catalog.get(table, {}))
            if kept:
                shown.append((table, kept))
        whole = frozenset(t for t, kept in shown if len(kept) == len(catalog[t]))
        return cls(tuple(shown), whole, run_sql)

    @property
    def columns(self) -> dict[str, frozenset[str]]:
        return dict(self.tables)

    def sees(self, table: str, column: str | None = None) -> bool:
        cols = self.columns.get(table)
        return cols is not None and (column is None or column in cols)

    def catalog(self, catalog: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
        """The catalog as this reader sees it: their tables, each with their columns, in catalog order."""
        shown = self.columns
        return {
            table: {c: kind for c, kind in columns.items() if c in shown[table]}
            for table, columns in catalog.items()
            if table in shown
        }

    def profile(self, table: str, profile: Mapping[str, Any]) -> dict[str, Any]:
        """``table``'s profile without the hidden columns (their stats, original names, units and labels
        too)."""
        cols = self.columns.get(table, frozenset())
        seen = dict(profile)
        seen["columns"] = [c for c in profile.get("columns", []) if c.get("name") in cols]
        for key in ("original_names", "units", "labels"):
            if isinstance(profile.get(key), Mapping):
                seen[key] = {c: v for c, v in profile[key].items() if c in cols}
        return seen

    def link(self, r: Relationship) -> bool:
        """A link this reader may follow: both tables and both key columns are theirs to see, so no path,
        listing or suggestion goes through anything hidden."""
        return self.sees(r.table, r.column) and self.sees(r.target, r.key)

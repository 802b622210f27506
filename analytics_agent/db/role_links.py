"""Links of role-named columns: ``customers.account_manager_id`` → ``employees.employee_id``,
``employees.reports_to`` → ``employees.employee_id`` (a self-reference), ``categories.parent_id``.

The name picks the tables (``key_names.role_targets``: a person role means a person table, ``parent``
the column's own table), the values must fall within that table's grain key (90 % of the distinct values),
and of several tables that fit only the best-named one is kept: a tie links none, which would be a guess.
No query here beyond the caller's uniqueness and coverage checks, which it passes in (they share its caches).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analytics_agent.db.catalog import SAMPLE_ROWS
from analytics_agent.db.key_names import is_free_text, role_targets
from analytics_agent.db.relationships_base import (
    KEY_TYPES,
    MIN_VALUE_COVERAGE,
    Relationship,
    key_family,
    may_be_key,
    within,
)

Candidate = tuple[str, str, str, str, int]
"""(table, column, target, key, rank): the lower the rank, the better the name fits (``role_targets``)."""


def role_candidates(
    catalog: dict[str, dict[str, str]],
    profiles: dict[str, dict[str, dict[str, Any]]],
    sizes: dict[str, int],
    grains: dict[str, str | None],
    touching: str | None,
) -> list[Candidate]:
    """Each role-named column with each table its name allows whose grain key has the same type family
    and a range that holds the column's (from the profiles: no query). ``touching``: only pairs from or to
    that table. A table's own grain key is no role column (``managers.manager_id``)."""
    tables = list(catalog)
    found = []
    for table, columns in catalog.items():
        for column, kind in columns.items():
            source = profiles[table][column]
            if not KEY_TYPES.match(kind) or column == grains[table] or is_free_text(column, source):
                continue
            for rank, target in role_targets(column, table, tables):
                key = grains[target]
                if (
                    key is None
                    or touching not in (None, table, target)
                    or key_family(catalog[target][key]) != key_family(kind)
                    or not may_be_key(profiles[target][key], sizes[target])
                    or not within(source, profiles[target][key])
                ):
                    continue
                found.append((table, column, target, key, rank))
    return found


def role_links(
    candidates: list[Candidate],
    unique: Callable[[str, str], bool],
    coverages: Callable[[list[tuple[str, str, str, str]]], list[float]],
    sizes: dict[str, int],
) -> list[Relationship]:
    """The candidates whose key is unique and covers 90 % of the column's values, the best-ranked one per
    column (none on a tie)."""
    kept = [c for c in candidates if unique(c[2], c[3])]
    shares = coverages([c[:4] for c in kept])
    fits: dict[tuple[str, str], list[tuple[int, str, str, float]]] = {}
    for (table, column, target, key, rank), share in zip(kept, shares, strict=True):
        if share >= MIN_VALUE_COVERAGE:
            fits.setdefault((table, column), []).append((rank, target, key, share))
    found = []
    for (table, column), ranked in fits.items():
        ranked.sort()
        if len(ranked) > 1 and ranked[0][0] == ranked[1][0]:
            continue
        _, target, key, share = ranked[0]
        verified = sizes[target] <= SAMPLE_ROWS
        found.append(Relationship(table, column, target, key, round(share, 4), verified=verified))
    return found

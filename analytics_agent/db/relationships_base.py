"""What a relationship is and the checks on names and profiles that need no query (imported by
``relationships`` and ``role_links``)."""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
import re
from typing import Any, NamedTuple

from analytics_agent.db.key_names import role_targets

MIN_COVERAGE = 0.5
MIN_VALUE_COVERAGE = 0.9
MAX_LOOKUP_ROWS = 100_000
_INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT")
_CALENDAR_PARTS = frozenset({"year", "month", "day", "hour", "minute", "week", "quarter", "weekday", "yr"})


class TypeNames:
    """Type names asked as a compiled ``^(A|B…)$`` regex of them was (``match``), by a set lookup: the
    regex's compile cost every load 0.2 ms of CPU."""

    __slots__ = ("names",)

    def __init__(self, *names: str) -> None:
        self.names = frozenset(names)

    def match(self, kind: str) -> bool:
        """Whether ``kind`` is one of the names (before a last line break, as ``$`` reads)."""
        return kind.removesuffix("\n") in self.names


KEY_TYPES = TypeNames("VARCHAR", "UUID", *(f"{u}{n}" for u in ("", "U") for n in _INTEGERS))


class Relationship(NamedTuple):  # not a dataclass: a tenth of the import cost
    """``table.column`` refers to ``target.key`` (many rows of ``table`` to one of ``target``)."""

    table: str
    column: str
    target: str
    key: str
    coverage: float = 1.0
    """Share of the source's distinct values found in the key (1.0 when declared)."""
    declared: bool = False
    verified: bool = True
    """The key was checked unique over the whole target. A big target is checked on a sample when a table
    is loaded (cheap) and in full when a question first joins to it (``duplicate_keys``)."""
    name: str = ""
    """The role name the semantic file gives the link (``account_manager``), or "" for the default: the
    target table, or the column when one table is the target of several (``refs.link_names``)."""


def key_family(kind: str) -> str:
    """Types that join without surprise: any integer width with any other; text with text."""
    return "integer" if "INT" in kind.upper() else kind.upper()


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name


def names_match(column: str, target: str, key: str) -> bool:
    """``carrier``→``carrier``, ``customer_id``→``customers.id``/``customers.customer_id``. A calendar
    part (``year``) shared by two tables names a time, not a row of the other table, and a bare ``id`` is
    each table's own: no link by name."""
    if column == key:  # every table's own ``id`` is no reference to another's
        return column.lower() not in _CALENDAR_PARTS and column.lower() != "id"
    if key == "id":
        return column in (f"{target}_id", f"{_singular(target)}_id")
    stem = _unprefixed(column)
    return stem is not None and stem == _unprefixed(key)


_TABLE_PREFIX = r"(?i)^[a-z]{1,3}_([a-z][a-z_]*?_?(?:key|id|no|code))$"
"""Compiled on first use, by a name that can match (``_unprefixed``): case-insensitive letter ranges made
it the dearest pattern of a load to compile (0.45 ms), and most loads have no such name."""


def _unprefixed(name: str) -> str | None:
    """A key column named with its table's short prefix, as TPC-H and many ERPs write them:
    ``l_orderkey`` and ``o_orderkey`` are both ``orderkey``, ``ps_suppkey`` and ``s_suppkey`` ``suppkey``.
    Only key-like words (ending in key, id, no, code): ``c_name`` and ``s_name`` name no row."""
    if "_" not in name[1:4]:  # the prefix's underscore, which the pattern needs at one of these places
        return None
    found = re.match(_TABLE_PREFIX, name)
    return found.group(1).lower() if found else None


def may_be_unique(key_profile: dict[str, Any], rows: int) -> bool:
    """False when the profile already lists every distinct value and there are fewer than rows (a status
    or channel column): no scan needed to rule such a key out."""
    values = key_profile.get("values")
    return values is None or len(values) >= rows


def within(source: dict[str, Any], key_profile: dict[str, Any]) -> bool:
    low, high = source.get("min"), source.get("max")
    return not (
        low is None or key_profile.get("min") is None or low < key_profile["min"] or high > key_profile["max"]
    )


def may_be_key(profile: dict[str, Any], rows: int) -> bool:
    """A key has rows, no nulls (stored profile) and no fewer listed values than rows."""
    return bool(rows) and not profile["nulls"] and may_be_unique(profile, rows)


def basis(r: Relationship) -> str:
    """How sure a link is, in words: declared in the semantic file, by name (``customer_id`` =
    ``customer_id``), by values and name (a role name and its values), or by values alone (lookup codes);
    with the share of values found when some are missing."""
    if r.declared:
        return "declared in the semantic file"
    if names_match(r.column, r.target, r.key):
        how = "by name"
    elif any(target == r.target for _, target in role_targets(r.column, r.table, [r.target])):
        how = "by values and name"
    else:
        how = "by values"
    return how if r.coverage >= 1 else f"{how}; {r.coverage:.0%} of its values found"


def describe_link(r: Relationship) -> str:
    """``links: customers.account_manager_id → employees.employee_id (by values and name)``."""
    role = f" as {r.name}" if r.name else ""
    return f"links: {r.table}.{r.column} → {r.target}.{r.key}{role} ({basis(r)})"

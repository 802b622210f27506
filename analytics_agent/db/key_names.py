"""What a column's name and profile say about keys, for relationship inference. Pure: names and profiles in.

Three questions: is a column free text (a name, an address, an email: never a key, whatever its values);
which column is a table's grain (its key column, not some unique text column); and which tables a
role-named column (``account_manager_id``, ``reports_to``, ``parent_id``, ``created_by``) may refer to.
A role name alone says little, values alone say little (any small integer lies within every surrogate key),
so a role link needs both: the name names the table family, the values must fall within its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_FREE_TEXT_WORDS = frozenset(
    {
        "name", "names", "address", "addr", "street", "city", "town", "email", "mail", "phone", "fax",
        "description", "desc", "comment", "comments", "note", "notes", "remark", "remarks", "title",
        "text", "message", "body", "summary", "url", "website", "zip", "postcode", "postal",
    }
)  # fmt: skip
_KEY_ENDINGS = ("id", "key", "ref", "no", "num", "code")
_TO_PERSON = frozenset({"reports", "assigned", "escalated", "delegated", "reported"})  # not ship_to
_PERSON_ROLES = frozenset(
    {
        "manager", "mgr", "rep", "representative", "owner", "creator", "author", "supervisor", "boss",
        "agent", "assignee", "approver", "reviewer", "handler", "salesperson", "seller", "mentor", "coach",
        "recruiter", "reporter", "advisor", "employee", "staff", "director", "worker", "operator",
    }
)  # fmt: skip
# not contact, lead, member, user: a CRM's contact or lead, a club's member, are rows of their own tables
_PERSON_TABLES = frozenset(
    {
        "employee", "staff", "user", "person", "people", "member", "agent", "worker", "personnel", "rep",
        "manager", "salesperson", "salespeople", "seller", "associate", "operator", "team_member",
    }
)  # fmt: skip
_TEXT_TYPES = ("VARCHAR",)


def singular(name: str) -> str:
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"  # categories -> category
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name


def _tokens(name: str) -> list[str]:
    return [t for t in name.lower().replace("-", "_").replace(" ", "_").split("_") if t]


def is_free_text(column: str, profile: Mapping[str, Any]) -> bool:
    """A text column of names, addresses, emails or prose: its name says so (``last_name``, ``city``,
    ``email``; not a name ending in id or code), or, for a column with too many values to list, its
    smallest or largest value does (an ``@``, two spaces, or longer than a code)."""
    words = _tokens(column)
    if profile.get("type") not in _TEXT_TYPES or (words and words[-1] in _KEY_ENDINGS):
        return False  # title_id, city_code: a code, whatever it codes
    if any(t in _FREE_TEXT_WORDS for t in words):
        return True
    if profile.get("values") is not None:
        return False  # few short values, listed: labels ('Out for delivery'), not prose
    ends = [v for v in (profile.get("min"), profile.get("max")) if isinstance(v, str)]
    return any("@" in v or v.count(" ") >= 2 or len(v) > 40 for v in ends)


def grain_key(table: str, profiles: Mapping[str, Mapping[str, Any]], key_type: Any) -> str | None:
    """The column one row of ``table`` stands for, from names and profiles alone (uniqueness is checked
    by the caller): ``id`` or ``<table>_id``, else the first column that may be a key. Never free text,
    never a column with nulls or fewer listed values than rows."""
    ok = [
        name
        for name, p in profiles.items()
        if key_type.match(str(p.get("type", ""))) and not p.get("nulls") and not is_free_text(name, p)
    ]
    preferred = ("id", f"{table}_id", f"{singular(table)}_id", f"{table}_key", f"{singular(table)}_key")
    for name in preferred:
        if name in ok:
            return name
    return ok[0] if ok else None


def is_person_table(table: str) -> bool:
    words = _tokens(table)
    return bool(words) and (singular(words[-1]) in _PERSON_TABLES or singular(table) in _PERSON_TABLES)


def _acted_by(words: list[str]) -> bool:
    """``created_by``, ``approved_by``, ``reports_to``, ``assigned_to``: a person did it (not ``ship_to``)."""
    return len(words) > 1 and (words[-1] == "by" or (words[-1] == "to" and words[-2] in _TO_PERSON))


def role_targets(column: str, table: str, tables: list[str]) -> list[tuple[int, str]]:
    """Tables a role-named ``column`` of ``table`` may refer to, best first as (rank, table): rank 0 when
    the name names the table (``parent_id`` → its own table, ``billing_customer_id`` → customers,
    ``manager_id`` → managers), then for a person role (``account_manager_id``, ``created_by``,
    ``reports_to``) the column's own table if it holds people (1: an employee's manager is an employee),
    then other person tables (2). Empty for a name that is no key's (``address``)."""
    words = _tokens(column)
    if len(words) < 2 and words != ["parent"] and not (words and words[0] in _PERSON_ROLES):
        return []
    if words[-1] in _KEY_ENDINGS:
        stem = words[:-1]
    elif _acted_by(words) or words[-1] in _PERSON_ROLES or words[-1] == "parent":
        stem = words
    else:
        return []
    if not stem or any(w in _FREE_TEXT_WORDS for w in stem):
        return []
    found: dict[str, int] = {}
    if stem[0] == "parent":
        rest = "_".join(stem[1:])
        for t in tables:
            if (not rest and t == table) or (rest and rest in (t, singular(t))):
                found[t] = 0
    for t in tables:
        named = _tokens(singular(t)) or [t]
        if len(stem) > len(named) and stem[-len(named) :] == named:
            found.setdefault(t, 0)  # origin_airport_id -> airports, billing_customer_id -> customers
    person = _acted_by(stem) or any(w in _PERSON_ROLES for w in stem)
    if person:
        for t in tables:
            if is_person_table(t):
                overlap = any(singular(w) in stem or w in stem for w in _tokens(t))
                found.setdefault(t, 0 if overlap else 1 if t == table else 2)
    return sorted((rank, t) for t, rank in found.items())

"""Who may read what: the access policy file, and the view of the database it gives one principal. Pure.

The policy maps users and groups (as sign-in names them: ``Principal.name`` and ``Principal.groups``) to
the tables and linked sources they may read, the columns hidden from them and whether ``run_sql`` is
theirs::

    groups:
      sales:
        tables: [orders, order_lines, "product*"]     # globs over the database's own tables
        hidden_columns:
          customers: [email, phone]                   # table glob -> column globs
      finance:
        tables: ["*"]
        sources: [crm]                                # every table of a linked source
        run_sql: true
    users:
      ann:
        tables: [customers]

A signed-in principal sees the union of what its user entry and each of its groups grant; one named
nowhere sees nothing (default deny). ``LOCAL`` (no sign-in: stdio, the CLI, the Python API) and a
server without a policy file see everything, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING

from analytics_agent.db.visible import Visible
from analytics_agent.errors import AccessPolicyError
from analytics_agent.team.principal import Principal

if TYPE_CHECKING:
    from analytics_agent.team.access_yaml import Node

POLICY_FILE = "access.yaml"
TOP_KEYS = ("groups", "users")
RULE_KEYS = ("tables", "sources", "hidden_columns", "run_sql")


@dataclass(frozen=True)
class Rule:
    """What one user or group entry grants."""

    tables: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    hidden_columns: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(table glob, column globs) pairs, in the file's order."""
    run_sql: bool = False

    def grants(self, table: str, source: str | None) -> bool:
        if source is not None:  # a linked source's table is granted by its source, never by a table glob
            return any(_matches(pattern, source) for pattern in self.sources)
        return any(_matches(pattern, table) for pattern in self.tables)

    def hides(self, table: str, column: str) -> bool:
        return any(
            _matches(t, table) and any(_matches(c, column) for c in cols) for t, cols in self.hidden_columns
        )


@dataclass(frozen=True)
class Policy:
    path: str
    users: Mapping[str, Rule] = field(default_factory=dict)
    groups: Mapping[str, Rule] = field(default_factory=dict)

    def rules_for(self, principal: Principal) -> list[Rule]:
        found = [self.users[principal.name]] if principal.name in self.users else []
        return found + [self.groups[g] for g in principal.groups if g in self.groups]

    def unmatched(self, catalog: Mapping[str, Mapping[str, str]], sources: Mapping[str, str]) -> list[str]:
        """One line per glob that matches nothing in ``catalog``: a misspelt table grants nothing, and a
        misspelt hidden column hides nothing, both silently, so the owner is told at start."""
        from analytics_agent.suggest import did_you_mean

        own = [t for t in catalog if t not in sources]
        found = []
        for kind, entries in (("groups", self.groups), ("users", self.users)):
            for name, rule in entries.items():
                where = f"{self.path}: {kind}.{name}"
                for pattern in rule.tables:
                    if not any(_matches(pattern, t) for t in own):
                        found.append(
                            f"{where}.tables: {pattern!r} matches no table{did_you_mean(pattern, own)}"
                        )
                for pattern in rule.sources:
                    if not any(_matches(pattern, s) for s in set(sources.values())):
                        found.append(f"{where}.sources: {pattern!r} matches no linked source")
                for tables, columns in rule.hidden_columns:
                    names = {c for t, cols in catalog.items() if _matches(tables, t) for c in cols}
                    for pattern in columns:
                        if not any(_matches(pattern, c) for c in names):
                            found.append(
                                f"{where}.hidden_columns.{tables}: {pattern!r} matches no column, so it "
                                f"hides nothing{did_you_mean(pattern, names)}"
                            )
        return found


def policy_path_for(db_path: Path) -> Path:
    """The policy a server over ``db_path`` reads when not told another: ``access.yaml`` beside it."""
    return db_path.with_name(POLICY_FILE)


def visible_to(
    policy: Policy | None,
    principal: Principal,
    catalog: Mapping[str, Mapping[str, str]],
    sources: Mapping[str, str] | None = None,
) -> Visible | None:
    """What ``principal`` sees of ``catalog`` under ``policy``: None means everything (the local user, or
    no policy at all). ``sources``: each linked source's table -> the source's name."""
    if policy is None or principal.local:
        return None
    rules = policy.rules_for(principal)
    sources = sources or {}
    shown: dict[str, set[str]] = {}
    for table, columns in catalog.items():
        for rule in rules:
            if rule.grants(table, sources.get(table)):
                shown.setdefault(table, set()).update(c for c in columns if not rule.hides(table, c))
    return Visible.of(catalog, shown, run_sql=any(r.run_sql for r in rules))


def _matches(pattern: str, name: str) -> bool:
    """A glob, case-blind as DuckDB's names are (``Orders`` and ``orders`` are one table)."""
    return fnmatchcase(name.lower(), pattern.lower())


def read_policy(path: Path) -> Policy:
    """The policy in ``path``.

    Raises:
        AccessPolicyError: the file cannot be read, is not YAML, or a key or value is wrong (file:line).
    """
    from analytics_agent.bounded_yaml import YamlTooLarge, read_bounded

    try:
        text = read_bounded(path)
    except YamlTooLarge as exc:
        raise AccessPolicyError(f"not loaded: {exc}", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AccessPolicyError(f"cannot read it: {exc}", path=str(path)) from None
    return parse_policy(text, path=str(path))


def parse_policy(text: str, *, path: str = POLICY_FILE) -> Policy:
    """The policy ``text`` states; the first mistake raises ``AccessPolicyError`` with its line. Nothing
    is guessed: a policy read half-right would show someone what the file meant to hide."""
    from analytics_agent.team.access_yaml import compose

    root = compose(text, path)
    if root is None:
        return Policy(path)
    top = root.mapping("the policy", keys=TOP_KEYS)
    users: dict[str, Rule] = {}
    groups: dict[str, Rule] = {}
    for key, body in top.items():
        entries = body.mapping(key, allow_empty=True)
        target = users if key == "users" else groups
        for name, rule in entries.items():
            target[name] = _rule(rule, f"{key}.{name}")
    return Policy(path, users, groups)


def _rule(node: Node, where: str) -> Rule:
    body = node.mapping(where, keys=RULE_KEYS, allow_empty=True)
    hidden: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if "hidden_columns" in body:
        by_table = body["hidden_columns"].mapping(f"{where}.hidden_columns")
        hidden = tuple((t, cols.names(f"{where}.hidden_columns.{t}")) for t, cols in by_table.items())
    return Rule(
        tables=body["tables"].names(f"{where}.tables") if "tables" in body else (),
        sources=body["sources"].names(f"{where}.sources") if "sources" in body else (),
        hidden_columns=hidden,
        run_sql=body["run_sql"].flag(f"{where}.run_sql") if "run_sql" in body else False,
    )

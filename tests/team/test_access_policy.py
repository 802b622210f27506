"""The access policy file: what it grants whom (globs, union of a user's entries, default deny), and a
one-line error naming the file and line for each kind of mistake. Pure: text and a catalog in."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics_agent.errors import AccessPolicyError, ConfigError
from analytics_agent.team.access import parse_policy, policy_path_for, read_policy, visible_to
from analytics_agent.team.principal import LOCAL, Principal

CATALOG = {
    "orders": {"order_id": "INTEGER", "customer_id": "INTEGER", "amount": "DOUBLE"},
    "order_lines": {"order_id": "INTEGER", "qty": "INTEGER"},
    "customers": {"customer_id": "INTEGER", "name": "VARCHAR", "email": "VARCHAR", "ssn": "VARCHAR"},
    "salaries": {"employee_id": "INTEGER", "salary": "DOUBLE", "ssn": "VARCHAR"},
    "crm_accounts": {"account_id": "INTEGER", "owner": "VARCHAR"},
}
SOURCES = {"crm_accounts": "crm"}
POLICY = """\
groups:
  sales:
    tables: ["order*", customers]
    hidden_columns:
      customers: [email]
      "*": [ssn]
  finance:
    tables: ["*"]
    sources: [crm]
    run_sql: true
users:
  ann:
    tables: [salaries]
    hidden_columns:
      salaries: [salary]
"""


def _seen(principal: Principal) -> dict[str, set[str]] | None:
    visible = visible_to(parse_policy(POLICY), principal, CATALOG, SOURCES)
    return None if visible is None else {t: set(c) for t, c in visible.tables}


def test_a_group_sees_the_tables_its_globs_match_without_the_hidden_columns():
    assert _seen(Principal("bob", groups=("sales",))) == {
        "orders": {"order_id", "customer_id", "amount"},
        "order_lines": {"order_id", "qty"},
        "customers": {"customer_id", "name"},
    }


def test_a_user_sees_the_union_of_their_own_entry_and_their_groups():
    seen = _seen(Principal("ann", groups=("sales",)))
    # an entry's hidden columns apply to the tables that entry grants: sales' "*: [ssn]" is about sales'
    # tables, and ann's own entry, which grants salaries, hides only its salary
    assert seen is not None and seen["salaries"] == {"employee_id", "ssn"}
    assert seen["customers"] == {"customer_id", "name"}
    assert set(seen) == {"orders", "order_lines", "customers", "salaries"}


def test_a_column_one_entry_hides_and_another_shows_is_shown():
    seen = _seen(Principal("ann", groups=("sales", "finance")))
    assert seen is not None and seen["customers"] == set(CATALOG["customers"])


def test_a_linked_source_is_granted_by_its_name_never_by_a_table_glob():
    assert "crm_accounts" not in (_seen(Principal("bob", groups=("sales",))) or {})
    finance = visible_to(parse_policy(POLICY), Principal("cy", groups=("finance",)), CATALOG, SOURCES)
    assert finance is not None and finance.sees("crm_accounts", "owner")
    assert finance.run_sql and set(finance.whole) == set(CATALOG)


def test_a_signed_in_user_named_nowhere_sees_nothing_and_may_not_run_sql():
    visible = visible_to(parse_policy(POLICY), Principal("eve", groups=("marketing",)), CATALOG, SOURCES)
    assert visible is not None and visible.tables == () and not visible.run_sql


def test_the_local_user_and_a_server_without_a_policy_see_everything():
    assert visible_to(parse_policy(POLICY), LOCAL, CATALOG) is None
    assert visible_to(None, Principal("eve"), CATALOG) is None


def test_only_wholly_visible_tables_are_whole():
    visible = visible_to(parse_policy(POLICY), Principal("bob", groups=("sales",)), CATALOG, SOURCES)
    assert visible is not None and visible.whole == frozenset({"orders", "order_lines"})


def test_globs_are_case_blind_as_duckdb_names_are():
    policy = parse_policy("users:\n  ann:\n    tables: [ORDERS]\n")
    visible = visible_to(policy, Principal("ann"), CATALOG)
    assert visible is not None and visible.sees("orders")


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("groups: [sales]\n", 1, "groups: expected a mapping"),
        ("groups:\n  sales:\n    tabels: [orders]\n", 3, "unknown key 'tabels'; did you mean 'tables'"),
        ("users:\n  ann:\n    run_sql: sometimes\n", 3, "users.ann.run_sql: expected true or false"),
        ("users:\n  ann: {}\n  ann: {}\n", 3, "'ann' is given twice (first on line 2)"),
        ("owners:\n  ann: {}\n", 1, "unknown key 'owners'"),
        (
            "groups:\n  s:\n    tables: [{orders: 1}]\n",
            3,
            "groups.s.tables: expected a name or a list of names",
        ),
        ("groups:\n  s:\n    hidden_columns: [email]\n", 3, "groups.s.hidden_columns: expected a mapping"),
        ("groups:\n  s:\n    tables: [orders\n", 4, "not valid YAML"),
    ],
)
def test_each_mistake_is_one_line_naming_the_file_and_line(text: str, line: int, says: str):
    with pytest.raises(AccessPolicyError) as caught:
        parse_policy(text, path="team/access.yaml")
    message = str(caught.value)
    assert message.startswith(f"team/access.yaml:{line}: ") and says in message
    assert "\n" not in message and isinstance(caught.value, ConfigError)


def test_an_empty_entry_grants_nothing_and_an_empty_file_is_a_policy_that_names_no_one():
    policy = parse_policy("users:\n  ann:\n")
    visible = visible_to(policy, Principal("ann"), CATALOG)
    assert visible is not None and visible.tables == ()
    empty = visible_to(parse_policy(""), Principal("ann"), CATALOG)
    assert empty is not None and empty.tables == ()
    assert parse_policy("groups:\nusers:\n").groups == {}  # keys with nothing under them yet


def test_the_policy_file_lives_beside_the_database_and_a_hostile_one_is_refused(tmp_path: Path):
    assert policy_path_for(tmp_path / "shop.duckdb") == tmp_path / "access.yaml"
    bomb = tmp_path / "access.yaml"
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for before, name in zip("abcdefgh", "bcdefghi", strict=True):  # nine times more at each level
        lines.append(f"{name}: &{name} [" + ",".join([f"*{before}"] * 9) + "]")
    bomb.write_text("\n".join(lines) + "\n")
    with pytest.raises(AccessPolicyError, match="not loaded"):
        read_policy(bomb)


def test_a_glob_that_matches_nothing_is_told_to_the_owner():
    policy = parse_policy(
        "groups:\n  sales:\n    tables: [ordrs, customers]\n    sources: [crn]\n"
        "    hidden_columns:\n      customers: [emial, name]\n",
        path="access.yaml",
    )
    assert policy.unmatched(CATALOG, SOURCES) == [
        "access.yaml: groups.sales.tables: 'ordrs' matches no table; did you mean 'orders'?",
        "access.yaml: groups.sales.sources: 'crn' matches no linked source",
        "access.yaml: groups.sales.hidden_columns.customers: 'emial' matches no column, so it hides nothing; "
        "did you mean 'email'?",
    ]
    assert parse_policy(POLICY).unmatched(CATALOG, SOURCES) == []

"""The semantic file's relationships on a normalized database: declare a link (a self-reference too),
give one a role name, remove one; every mistake one line naming the file and its line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.relationships import read_relationships
from analytics_agent.tools.aggregate.tool import read_catalog
from analytics_agent.tools.semantic.check import check_semantic
from analytics_agent.tools.semantic.model import parse_semantic
from tests.normalized_db import build_normalized_db


@pytest.fixture(scope="module")
def normalized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_normalized_db(tmp_path_factory.mktemp("semlinks") / "shop.duckdb")


def check(db: Path, text: str):
    with duckdb.connect(str(db), read_only=True) as conn:
        file = parse_semantic(textwrap.dedent(text), path="shop.semantic.yaml")
        semantics, problems = check_semantic(file, read_catalog(conn), read_relationships(conn), conn)
    return {(r.table, r.column): r for r in semantics.relationships}, [str(p) for p in problems]


def test_a_link_is_declared_renamed_and_removed(normalized):
    links, problems = check(
        normalized,
        """\
        tables:
          customers:
            relationships:
              account_manager_id: {name: account_manager}
          employees:
            relationships:
              reports_to: {to: employees.employee_id, name: manager}
          orders:
            relationships:
              sales_rep_id: null
              ship_city: offices.city
        """,
    )
    assert problems == []
    renamed = links["customers", "account_manager_id"]
    assert (renamed.target, renamed.key, renamed.name, renamed.declared) == (
        "employees", "employee_id", "account_manager", False,  # the inferred link, named
    )  # fmt: skip
    manager = links["employees", "reports_to"]
    assert (manager.target, manager.name, manager.declared) == ("employees", "manager", True)
    assert ("orders", "sales_rep_id") not in links
    assert (
        links["orders", "ship_city"].target == "offices"
    )  # free text is never inferred, but may be declared


def test_each_mistake_in_a_link_is_one_line_with_the_file_and_its_line(normalized):
    _, problems = check(
        normalized,
        """\
        tables:
          customers:
            relationships:
              city: {name: home}
              segment: {to: employees.employee_id, nmae: x}
              account_manager_id: {name: account manager}
              credit_limit: {}
          orders:
            relationships:
              customer_id: {name: buyer}
              sales_rep_id: {name: buyer}
              shipper_id: {name: employees}  # sales_rep_id's link keeps that name
        """,
    )
    assert problems == [
        "shop.semantic.yaml:5: customers.relationships.segment: unknown key 'nmae'; did you mean 'name'?; keys: to, name",
        "shop.semantic.yaml:6: customers.relationships.account_manager_id: name is one word of letters, digits "
        "and _, e.g. account_manager",
        "shop.semantic.yaml:7: customers.relationships.credit_limit: give to: (table.column), name: (a role "
        "name), or both",
        "shop.semantic.yaml:4: customers.relationships.city: no link of customers.city to name; add to: "
        "table.column",
        "shop.semantic.yaml:11: orders.relationships.sales_rep_id: name 'buyer' is already the link of "
        "orders.customer_id; pick another",
        "shop.semantic.yaml:12: orders.relationships.shipper_id: name 'employees' is already the table orders also "
        "links to; pick another",
    ]


def test_aggregate_groups_by_a_role_named_link(normalized, tmp_path):
    import json
    import shutil

    from analytics_agent.workspace.workspace import Workspace

    db = tmp_path / "shop.duckdb"
    shutil.copyfile(normalized, db)
    (tmp_path / "shop.semantic.yaml").write_text(
        "tables:\n  customers:\n    relationships:\n      account_manager_id: {name: account_manager}\n"
    )
    with Workspace.open(db) as ws:
        call = {"table": "customers", "group_by": ["account_manager.last_name"], "metrics": [{"fn": "count"}]}
        out = json.loads(ws.executor.execute("aggregate", json.dumps(call)).text)
        expected = (
            ws.cursor()
            .execute(
                "SELECT e.last_name, count(*) FROM customers c JOIN employees e "
                "ON c.account_manager_id = e.employee_id GROUP BY 1"
            )
            .fetchall()
        )
    assert {tuple(r) for r in out["rows"]} == {tuple(r) for r in expected}

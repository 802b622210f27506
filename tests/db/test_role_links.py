"""Keys with other names, and only keys: a role-named column (``account_manager_id``, ``reports_to``,
``parent_id``, ``created_by``) links to the table its name means when its values fall within that table's
grain key; free text (addresses, names, emails, cities) never links, whatever its values."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.catalog import store_profile
from analytics_agent.db.relationships import infer_relationships, read_relationships
from tests.normalized_db import build_normalized_db


@pytest.fixture(scope="module")
def normalized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_normalized_db(tmp_path_factory.mktemp("norm") / "shop.duckdb")


def _links(db: Path) -> set[tuple[str, str, str, str]]:
    with duckdb.connect(str(db), read_only=True) as conn:
        return {(r.table, r.column, r.target, r.key) for r in read_relationships(conn)}


def test_role_named_keys_link_to_the_table_their_name_means_self_references_too(normalized):
    links = _links(normalized)
    # each of these holds employee ids 1..40, which also lie within customers, products and orders' keys
    assert {
        ("customers", "account_manager_id", "employees", "employee_id"),
        ("orders", "sales_rep_id", "employees", "employee_id"),
        ("products", "created_by", "employees", "employee_id"),
        ("payments", "approved_by", "employees", "employee_id"),
        ("inventory", "counted_by", "employees", "employee_id"),
        ("employees", "reports_to", "employees", "employee_id"),  # a self-reference
        ("categories", "parent_id", "categories", "category_id"),
    } <= links
    role_columns = {"account_manager_id", "sales_rep_id", "created_by", "approved_by", "counted_by"}
    assert not {link for link in links if link[1] in role_columns and link[2] != "employees"}


def test_free_text_is_never_a_link_even_when_its_values_lie_in_a_unique_column(normalized):
    with duckdb.connect(str(normalized), read_only=True) as conn:
        contained = conn.execute(
            "SELECT (SELECT count(*) FROM orders WHERE ship_address NOT IN (SELECT address FROM customers)), "
            "(SELECT count(*) FROM payments WHERE payer_email NOT IN (SELECT email FROM customers)), "
            "(SELECT count(*) FROM orders WHERE ship_city NOT IN (SELECT city FROM offices)), "
            "(SELECT count(*) - count(DISTINCT address) - count(DISTINCT email) + count(*) FROM customers)"
        ).fetchone()
    assert contained == (0, 0, 0, 0)  # the trap is real: every value is in a unique column
    linked = {(t, c) for t, c, _, _ in _links(normalized)}
    assert not linked & {("orders", "ship_address"), ("payments", "payer_email"), ("orders", "ship_city"),
                         ("customers", "city"), ("customers", "email")}  # fmt: skip


def test_a_same_named_email_or_name_column_is_not_a_key_and_a_table_s_grain_is_its_key(tmp_path):
    with duckdb.connect(str(tmp_path / "s.duckdb")) as conn:
        conn.execute(
            "CREATE TABLE stores AS SELECT range + 1 AS store_id, 'store' || range || '@x.com' AS email, "
            "'Name' || range AS name, range || ' High Street' AS address FROM range(20)"
        )
        conn.execute(
            "CREATE TABLE visits AS SELECT range AS visit_id, 'store' || range % 20 || '@x.com' AS email, "
            "'Name' || range % 20 AS name, range % 20 || ' High Street' AS address FROM range(200)"
        )
        for table in ("stores", "visits"):
            store_profile(conn, table)
        assert infer_relationships(conn) == []


def test_a_role_that_two_person_tables_hold_equally_links_to_neither(tmp_path):
    with duckdb.connect(str(tmp_path / "t.duckdb")) as conn:
        conn.execute("CREATE TABLE employees AS SELECT range + 1 AS employee_id FROM range(50)")
        conn.execute("CREATE TABLE users AS SELECT range + 1 AS user_id FROM range(50)")
        conn.execute(
            "CREATE TABLE tickets AS SELECT range AS ticket_id, range % 30 + 1 AS owner_id FROM range(90)"
        )
        conn.execute(
            "CREATE TABLE notes AS SELECT range AS note_id, range % 30 + 1 AS user_owner_id FROM range(90)"
        )
        for table in ("employees", "users", "tickets", "notes"):
            store_profile(conn, table)
        found = {(r.table, r.column, r.target) for r in infer_relationships(conn)}
    assert ("tickets", "owner_id") not in {(t, c) for t, c, _ in found}  # a guess either way
    assert ("notes", "user_owner_id", "users") in found  # the name says which


def _export(db: Path, table: str, folder: Path) -> Path:
    path = folder / f"{table}.csv"
    with duckdb.connect(str(db), read_only=True) as conn:
        conn.execute(f"COPY {table} TO '{path}' (HEADER)")
    return path


def test_a_load_says_in_one_line_each_link_it_found_and_how_sure(normalized, tmp_path):
    from analytics_agent.cli.load_cmd import render_summary
    from analytics_agent.db.load.options import LoadOptions
    from analytics_agent.db.load.run import load_files

    db = tmp_path / "mine.duckdb"
    for table in ("offices", "employees"):
        load_files(db, [str(_export(normalized, table, tmp_path))], LoadOptions(table=table))
    text = render_summary(load_files(db, [str(_export(normalized, "customers", tmp_path))], LoadOptions()))
    links = [line for line in text.splitlines() if line.startswith("links:")]
    assert links == ["links: customers.account_manager_id → employees.employee_id (by values and name)"]
    text = render_summary(load_files(db, [str(_export(normalized, "categories", tmp_path))], LoadOptions()))
    assert "links: categories.parent_id → categories.category_id (by values and name)" in text.splitlines()


def test_a_load_beside_the_sample_data_names_its_link_by_name_with_the_share_found(sample_db, tmp_path):
    from analytics_agent.cli.load_cmd import render_summary
    from analytics_agent.db.load.options import LoadOptions
    from analytics_agent.db.load.run import load_files

    with duckdb.connect(str(sample_db), read_only=True) as conn:
        ids = [r[0] for r in conn.execute("SELECT order_id FROM orders ORDER BY 1 LIMIT 3").fetchall()]
    (tmp_path / "returns.csv").write_text(
        "order_id,reason\n" + "".join(f"{i},late\n" for i in ids) + "X9,odd\n"
    )
    (tmp_path / "remarks.csv").write_text("remark,score\nlate,1\n")
    text = render_summary(load_files(sample_db, [str(tmp_path / "returns.csv")], LoadOptions()))
    lines = [line for line in text.splitlines() if line.startswith("links:")]
    assert lines == ["links: returns.order_id → orders.order_id (by name; 75% of its values found)"]
    text = render_summary(load_files(sample_db, [str(tmp_path / "remarks.csv")], LoadOptions()))
    assert "links:" not in text  # nothing links to or from it: no line


def test_a_linked_source_s_role_named_columns_link_to_the_primary_key_their_name_means(tmp_path):
    from analytics_agent.db.catalog import LINKED, SEARCH_PATH
    from analytics_agent.db.linked.relationships import declared_links

    with duckdb.connect(str(tmp_path / "l.duckdb")) as conn:
        conn.execute(f"ATTACH ':memory:' AS {LINKED}")
        conn.execute(f"SET search_path = '{SEARCH_PATH}'")
        conn.execute(f"CREATE TABLE {LINKED}.pg_employees AS SELECT range + 1 AS id, "
                     "CASE WHEN range > 0 THEN range // 4 + 1 END AS reports_to FROM range(40)")  # fmt: skip
        conn.execute(f"CREATE TABLE {LINKED}.pg_customers AS SELECT range + 1 AS id, range % 40 + 1 AS "
                     "account_manager_id, 'x' || range AS address FROM range(300)")  # fmt: skip
        keys = {"pg_employees": "id", "pg_customers": "id"}
        own = {"pg_employees": "employees", "pg_customers": "customers"}
        links = declared_links(conn, list(keys), keys, [], own)
    assert {(r.table, r.column, r.target, r.key) for r in links} == {
        ("pg_customers", "account_manager_id", "pg_employees", "id"),
        ("pg_employees", "reports_to", "pg_employees", "id"),  # the self-reference
    }


def test_two_tables_own_id_columns_are_not_a_link(tmp_path):
    with duckdb.connect(str(tmp_path / "i.duckdb")) as conn:
        conn.execute("CREATE TABLE customers AS SELECT range + 1 AS id, 'c' || range AS label FROM range(50)")
        conn.execute(
            "CREATE TABLE orders AS SELECT range + 1 AS id, range % 50 + 1 AS customer_id FROM range(40)"
        )
        for table in ("customers", "orders"):
            store_profile(conn, table)
        links = {(r.table, r.column, r.target, r.key) for r in infer_relationships(conn)}
    assert links == {("orders", "customer_id", "customers", "id")}  # not orders.id -> customers.id


def test_a_code_named_like_text_and_labels_with_spaces_are_keys_not_free_text(tmp_path):
    # title_id is a code though "title" is a free-text word; a status lookup's labels have two spaces
    labels = ["Out for delivery", "Waiting on parts", "Done"]
    with duckdb.connect(str(tmp_path / "c.duckdb")) as conn:
        conn.execute("CREATE TABLE titles AS SELECT 'T' || range AS title_id, range AS pages FROM range(30)")
        conn.execute("CREATE TABLE statuses AS SELECT unnest(?) AS status, 1 AS rank", [labels])
        conn.execute(
            "CREATE TABLE sales AS SELECT range AS sale_id, 'T' || range % 30 AS title_id, "
            "(?)[range % 3 + 1] AS status FROM range(90)",
            [labels],
        )
        for table in ("titles", "statuses", "sales"):
            store_profile(conn, table)
        links = {(r.table, r.column, r.target, r.key) for r in infer_relationships(conn)}
    assert links == {("sales", "title_id", "titles", "title_id"), ("sales", "status", "statuses", "status")}


def test_a_person_table_s_role_column_means_its_own_rows_unless_its_name_names_another(tmp_path):
    # reports_to in employees: another employee, though managers' ids hold its values as well;
    # approved_by in orders: employees and managers tie, so no link
    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        conn.execute("CREATE TABLE managers AS SELECT range + 1 AS manager_id FROM range(30)")
        conn.execute("CREATE TABLE employees AS SELECT range + 1 AS employee_id, "
                     "CASE WHEN range > 0 THEN range % 9 + 1 END AS reports_to, "
                     "range % 5 + 1 AS team_manager_id FROM range(30)")  # fmt: skip
        conn.execute(
            "CREATE TABLE orders AS SELECT range AS order_id, range % 9 + 1 AS approved_by FROM range(60)"
        )
        for table in ("managers", "employees", "orders"):
            store_profile(conn, table)
        found = {(r.table, r.column): r.target for r in infer_relationships(conn)}
    assert found == {("employees", "reports_to"): "employees", ("employees", "team_manager_id"): "managers"}

"""Each signed-in reader sees the workspace through the access policy: tool specs, list_tables,
describe_table, links, metrics, suggestions and errors show only their tables and columns, over a real
12-table DuckDB file. Every probe of a hidden name is answered exactly as a probe of a name that does not
exist (the name itself aside), so no answer tells a hidden table or column from an absent one."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from analytics_agent.db.visible import NONE_SHARED
from analytics_agent.team.principal import Principal, acting_as
from analytics_agent.workspace.live import LiveWorkspace
from tests.workspace.access_fixtures import (
    POLICY,
    SALES_TABLES,
    SALES_TOOLS,
    build_shop,
    build_template,
    leaks,
)

ANN = Principal("ann", groups=("sales",))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_template(tmp_path_factory.mktemp("access"))


@pytest.fixture
def live(template: Path, tmp_path: Path):
    db, tools = build_shop(template, tmp_path)
    workspace = LiveWorkspace(db, tool_dirs=[tools], allow_sql=True, idle_s=60)
    yield workspace
    workspace.close()


def _as(principal: Principal, live: LiveWorkspace, name: str, arguments: dict) -> str:
    with acting_as(principal):
        return live.execute(name, arguments).text


def _same_answer(live: LiveWorkspace, name: str, hidden: str, absent: str, arguments) -> str:
    """The answer to a probe of ``hidden`` and of ``absent`` alike, each name replaced by a marker."""
    told = [_as(ANN, live, name, arguments(probe)).replace(probe, "<name>") for probe in (hidden, absent)]
    assert told[0] == told[1]
    assert told[0].startswith("Error:") and not leaks(told[0])
    return told[0]


def test_the_tool_specs_name_only_what_the_reader_sees(live: LiveWorkspace):
    with acting_as(ANN):
        specs = live.registry.mcp_tools()
    names = {t["name"] for t in specs}
    assert names == SALES_TOOLS
    assert leaks(json.dumps(specs)) == []
    owner = {t["name"] for t in live.registry.mcp_tools()}  # the local user: every tool, as before
    assert {"reps_per_title", "orders_paid", "orders_of_department"} <= owner
    assert "employees" in json.dumps(live.registry.mcp_tools())


def test_list_tables_lists_the_readers_tables_counting_only_their_columns(live: LiveWorkspace):
    rows = json.loads(_as(ANN, live, "list_tables", {}))["rows"]
    assert [r[0] for r in rows] == SALES_TABLES
    assert dict((r[0], r[2]) for r in rows)["customers"] == 13  # 15 columns, two hidden
    with acting_as(ANN):
        assert live.tables == SALES_TABLES


def test_describe_table_shows_no_hidden_column_link_metric_or_dimension(live: LiveWorkspace):
    for table in SALES_TABLES:
        text = _as(ANN, live, "describe_table", {"table": table})
        assert not text.startswith("Error") and leaks(text) == [], table
    orders = json.loads(_as(ANN, live, "describe_table", {"table": "orders"}))
    assert set(orders["related"]) == {"customers", "shippers"}  # the sales_rep link leads to employees
    assert orders["metrics"] == {"order_count": "count(*)"}
    assert orders["dimensions"] == {"sales_channel": "channel"}
    customers = json.loads(_as(ANN, live, "describe_table", {"table": "customers"}))
    assert customers["metrics"] == {"customer_count": "count(*)"}
    owner = json.loads(_as(Principal("local", local=True), live, "describe_table", {"table": "customers"}))
    assert "credit_exposure" in owner["metrics"] and "employees" in owner["related"]


def test_the_schema_card_of_a_readers_registry_names_only_what_they_see(live: LiveWorkspace):
    from analytics_agent.db.catalog import stored_profile
    from analytics_agent.tools.catalog.schema_text import schema_levels

    with acting_as(ANN), live.use() as ws:
        registry = live.registry
        cursor = ws.cursor()
        profiles = {t: stored_profile(cursor, t) for t in live.tables}
        cursor.close()
    levels, _ = schema_levels(registry, profiles)
    cards = [lines for lines, _ in levels]
    assert list(cards[0]) == SALES_TABLES and leaks(json.dumps(cards)) == []
    assert "sales_rep_id int" in cards[0]["orders"]  # a plain column now: its link is hidden


def test_a_hidden_table_is_answered_as_one_that_does_not_exist(live: LiveWorkspace):
    _same_answer(live, "describe_table", "employees", "zmployees", lambda t: {"table": t})
    _same_answer(
        live, "aggregate", "payments", "zayments", lambda t: {"table": t, "metrics": [{"fn": "count"}]}
    )
    # a near miss is offered no hidden table in a "did you mean"
    near = _as(ANN, live, "aggregate", {"table": "employee", "metrics": [{"fn": "count"}]})
    assert near.startswith("Error") and leaks(near) == []


def test_a_hidden_column_is_answered_as_one_that_does_not_exist(live: LiveWorkspace):
    def summed(column: str) -> dict:
        return {"table": "customers", "metrics": [{"fn": "sum", "column": column}]}

    _same_answer(live, "aggregate", "credit_limit", "zredit_limit", summed)
    _same_answer(live, "aggregate", "tax_id", "zax_id", lambda c: {"table": "customers", "group_by": [c]})
    _same_answer(
        live,
        "aggregate",
        "tax_id",
        "zax_id",
        lambda c: {
            "table": "customers",
            "metrics": [{"fn": "count"}],
            "filters": [{"column": c, "op": "not_null"}],
        },
    )
    _same_answer(
        live,
        "aggregate",
        "tax_id",
        "zax_id",
        lambda c: {
            "table": "orders",
            "metrics": [{"fn": "count"}],
            "joins": [{"column": "customer_id", "to": f"customers.{c}"}],
        },
    )
    near = _as(ANN, live, "aggregate", summed("credit_limt"))
    assert near.startswith("Error") and leaks(near) == []


def test_no_path_join_or_existence_filter_goes_through_a_hidden_table(live: LiveWorkspace):
    def grouped(ref: str) -> dict:
        return {"table": "orders", "metrics": [{"fn": "count"}], "group_by": [ref]}

    _same_answer(live, "aggregate", "sales_rep", "zales_rep", lambda r: grouped(f"{r}.department"))
    _same_answer(live, "aggregate", "employees", "zmployees", lambda r: grouped(f"{r}.department"))
    _same_answer(live, "aggregate", "team", "zeam", grouped)  # a dimension through the hidden link
    _same_answer(
        live,
        "aggregate",
        "payments",
        "zayments",
        lambda t: {
            "table": "orders",
            "metrics": [{"fn": "count"}],
            "filters": [{"column": t, "op": "not_null"}],
        },
    )
    _same_answer(
        live,
        "aggregate",
        "employees",
        "zmployees",
        lambda t: {
            "table": "orders",
            "metrics": [{"fn": "count"}],
            "joins": [{"column": "sales_rep_id", "to": f"{t}.employee_id"}],
            "group_by": [f"{t}.department"],
        },
    )
    # products' supplier_id and created_by lead to hidden tables: grouping by them goes nowhere
    told = _as(ANN, live, "aggregate", grouped("customers.segment"))
    assert not told.startswith("Error")  # a visible link still joins
    assert json.loads(told)["rows"]


def test_a_metric_on_a_hidden_column_or_table_is_answered_as_one_never_defined(live: LiveWorkspace):
    def named(metric: str) -> dict:
        return {"table": "customers", "metrics": [{"metric": metric}]}

    for hidden in ("credit_exposure", "big_credit_customers", "credit_per_customer", "paid_total"):
        _same_answer(live, "aggregate", hidden, "zz_" + hidden[3:], named)
    counted = json.loads(_as(ANN, live, "aggregate", named("customer_count")))
    assert counted["rows"] == [[300]]  # range(300) customers in the normalized database
    # the owner is told the semantic file's mistake about the hidden table; the reader never is
    owner = _as(Principal("local", local=True), live, "aggregate", named("paid_total"))
    assert "amout" in owner


def test_run_sql_reads_only_tables_the_reader_sees_whole(live: LiveWorkspace):
    def sql(query: str) -> dict:
        return {"query": query}

    assert json.loads(_as(ANN, live, "run_sql", sql("SELECT count(*) AS n FROM orders")))["rows"] == [[2000]]
    _same_answer(live, "run_sql", "employees", "zmployees", lambda t: sql(f"SELECT count(*) FROM {t}"))
    _same_answer(live, "run_sql", "payments", "zayments", lambda t: sql(f"SELECT * FROM orders WHERE order_id IN (SELECT order_id FROM {t})"))  # fmt: skip
    # a CTE named like a hidden table is the statement's own only where DuckDB binds it so
    _same_answer(live, "run_sql", "payments", "zayments", lambda t: sql(f"SELECT * FROM (WITH {t} AS (SELECT 1) SELECT * FROM {t}), {t}"))  # fmt: skip
    for probe in (
        "SELECT table_name FROM information_schema.tables",
        "SELECT * FROM duckdb_tables()",
        "SELECT * FROM duckdb_columns()",
        "SELECT pg_get_viewdef(1)",
        "SELECT * FROM query('SELECT * FROM employees')",
        "SHOW TABLES",
        "DESCRIBE orders",
        "SELECT * FROM sqlite_master",
        "SELECT * FROM pg_catalog.pg_class",
        "SELECT * FROM customers",  # two of its columns are hidden: run_sql would read them
    ):
        told = _as(ANN, live, "run_sql", sql(probe))
        assert told.startswith("Error") and leaks(told) == [], probe
    owner = _as(Principal("local", local=True), live, "run_sql", sql("SELECT count(*) FROM employees"))
    assert json.loads(owner)["rows"] == [[40]]


def test_a_sql_tool_over_a_hidden_table_is_not_offered(live: LiveWorkspace):
    for name in ("reps_per_title", "orders_paid", "orders_of_department"):
        told = _as(ANN, live, name, {})
        assert told.startswith("Error: unknown tool") and leaks(told.replace(name, "")) == []
    assert json.loads(_as(ANN, live, "orders_by_channel", {}))["rows"][0][0] == "phone"
    # 2,000 orders cycle through web, phone, store: range(2000) % 3 == 0 gives 667 on the web
    assert json.loads(_as(ANN, live, "orders_in_channel", {"channel": "web"}))["rows"] == [[667]]


def test_a_signed_in_user_named_nowhere_sees_no_table(live: LiveWorkspace):
    zed = Principal("zed", groups=("marketing",))
    with acting_as(zed):
        assert live.tables == []
        assert {t["name"] for t in live.registry.mcp_tools()} == {
            "list_tables",
            "describe_table",
            "aggregate",
        }
    assert json.loads(_as(zed, live, "list_tables", {}))["rows"] == []
    for name, arguments in (("describe_table", {"table": "orders"}), ("aggregate", {"table": "orders"})):
        assert _as(zed, live, name, arguments) == f"Error: {NONE_SHARED}"  # not "load one": not theirs to


def _touch(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    while path.stat().st_mtime_ns == before:  # a coarse clock: the change must show in the stamp
        time.sleep(0.01)
        path.write_text(text, encoding="utf-8")


def test_a_changed_policy_is_read_again_and_a_broken_one_shows_nothing(live: LiveWorkspace):
    policy = live.db_path.with_name("access.yaml")
    _touch(policy, POLICY.replace("products, shippers]", "products, shippers, employees]"))
    change = live.tick()  # the server's watcher: clients are told to list tools and resources again
    assert change.tools and change.tables and not live.tick()
    with acting_as(ANN):
        assert "employees" in live.tables
    assert json.loads(_as(ANN, live, "run_sql", {"query": "SELECT count(*) FROM employees"}))["rows"] == [
        [40]
    ]
    _touch(policy, "groups:\n  sales:\n    tabels: [orders]\n")
    with acting_as(ANN):
        assert live.tables == []
    assert "employees" in live.tables  # the local user is not bound by the policy


def test_a_misspelt_hidden_column_is_logged_when_the_server_starts(template: Path, tmp_path: Path, caplog):
    db, _ = build_shop(template, tmp_path)
    db.with_name("access.yaml").write_text(POLICY.replace("[credit_limit, tax_id]", "[credit_limt, tax_id]"))
    with caplog.at_level("WARNING", logger="analytics_agent.workspace.views"):
        LiveWorkspace(db).close()
    assert [r.getMessage() for r in caplog.records] == [
        f"{db.with_name('access.yaml')}: groups.sales.hidden_columns.customers: 'credit_limt' matches no "
        "column, so it hides nothing; did you mean 'credit_limit'?"
    ]


def test_a_linked_sources_tables_are_granted_by_naming_the_source_only(sample_db: Path, tmp_path: Path):
    import duckdb

    from analytics_agent.db.linked.spec import parse_source

    parquet = tmp_path / "accounts.parquet"
    duckdb.sql(f"COPY (SELECT i AS account_id, i * 10 AS arr FROM range(5) t(i)) TO '{parquet}'")
    source = parse_source("crm", {"type": "files", "path": str(parquet)})
    sample_db.with_name("access.yaml").write_text(
        "groups:\n  everything: {tables: ['*']}\n  crm: {sources: [crm], run_sql: true}\n", encoding="utf-8"
    )
    live = LiveWorkspace(sample_db, idle_s=60, sources=[source], allow_sql=True)
    try:
        everything, crm = Principal("al", groups=("everything",)), Principal("cy", groups=("crm",))
        with acting_as(everything):
            own = live.tables
        with acting_as(crm):
            assert live.tables == ["crm"]  # a file source's one table is named as the source
        summed = {"table": "crm", "metrics": [{"fn": "sum", "column": "arr"}]}
        assert json.loads(_as(crm, live, "aggregate", summed))["rows"] == [[100]]  # 10 * (0+1+2+3+4)
        counted = _as(crm, live, "run_sql", {"query": "SELECT count(*) FROM crm"})
        assert json.loads(counted)["rows"] == [[5]]
        told = _as(everything, live, "aggregate", summed).replace("crm", "<name>")
        absent = _as(everything, live, "aggregate", {**summed, "table": "zccounts"}).replace(
            "zccounts", "<name>"
        )
        assert told == absent and told.startswith("Error")
        attached = _as(crm, live, "run_sql", {"query": "SELECT * FROM src_crm.crm"})
        assert attached.startswith("Error") and "is qualified" in attached
    finally:
        live.close()
    assert "crm" not in own and "orders" in own and "crm" in live.tables

"""``Visible``: one reader's view of the catalog, a profile and a link. Pure."""

from __future__ import annotations

from analytics_agent.db.relationships_base import Relationship
from analytics_agent.db.visible import Visible

CATALOG = {
    "orders": {"order_id": "INTEGER", "customer_id": "INTEGER", "amount": "DOUBLE"},
    "customers": {"customer_id": "INTEGER", "name": "VARCHAR", "email": "VARCHAR"},
    "salaries": {"employee_id": "INTEGER", "salary": "DOUBLE"},
}
VIEW = Visible.of(
    CATALOG, {"orders": ["order_id", "customer_id", "amount"], "customers": ["name", "email"]}, run_sql=False
)


def test_the_catalog_keeps_the_readers_tables_and_columns_in_catalog_order():
    assert VIEW.catalog(CATALOG) == {
        "orders": CATALOG["orders"],
        "customers": {"name": "VARCHAR", "email": "VARCHAR"},
    }
    assert VIEW.whole == frozenset({"orders"})


def test_a_table_whose_every_column_is_hidden_is_hidden():
    view = Visible.of(CATALOG, {"salaries": [], "orders": ["nope"]}, run_sql=False)
    assert view.tables == () and not view.sees("salaries")


def test_a_link_is_followed_only_when_both_tables_and_both_keys_are_seen():
    to_customers = Relationship("orders", "customer_id", "customers", "customer_id")
    assert not VIEW.link(to_customers)  # customers.customer_id, the key, is hidden
    seen = Visible.of(CATALOG, {t: list(c) for t, c in CATALOG.items() if t != "salaries"}, run_sql=False)
    assert seen.link(to_customers)
    assert not seen.link(Relationship("orders", "customer_id", "salaries", "employee_id"))


def test_a_profile_loses_the_hidden_columns_their_original_names_and_units():
    profile = {
        "table": "customers",
        "rows": 3,
        "columns": [{"name": "customer_id", "type": "INTEGER"}, {"name": "name", "type": "VARCHAR"}],
        "original_names": {"customer_id": "Customer ID", "name": "Name"},
        "units": {"customer_id": "#"},
    }
    seen = VIEW.profile("customers", profile)
    assert seen["columns"] == [{"name": "name", "type": "VARCHAR"}]
    assert seen["original_names"] == {"name": "Name"} and seen["units"] == {}
    assert seen["rows"] == 3 and profile["columns"][0]["name"] == "customer_id"  # the stored one unchanged

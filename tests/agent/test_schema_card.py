"""The schema card in the system prompt: a 12-table, 121-column normalized database with its keys, links
(role names too), time columns and the values of small text columns, within 1,200 o200k tokens, so a
model can ask its first question without describe_table; past the budget it says what it summarised."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import bpe_openai
import pytest

from analytics_agent.agent.prompt import system_prompt
from analytics_agent.db.catalog import list_tables, stored_profile
from analytics_agent.tools.catalog.schema_text import schema_levels
from analytics_agent.workspace.workspace import Workspace
from tests.normalized_db import TABLES, build_normalized_db

O200K = bpe_openai.get_encoding("o200k_base")


@pytest.fixture(scope="module")
def normalized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_normalized_db(tmp_path_factory.mktemp("card") / "shop.duckdb")


def _prompt(db: Path, semantic: str | None = None) -> str:
    if semantic is not None:
        db.with_name(f"{db.stem}.semantic.yaml").write_text(semantic)
    with Workspace.open(db) as ws:
        cur = ws.cursor()
        tables = list_tables(cur)
        profiles = {t.name: stored_profile(cur, t.name) for t in tables}
        levels, zone = schema_levels(ws.registry, profiles)
        return system_prompt(tables, today=dt.date(2026, 1, 1), timezone="UTC", schema_levels=levels,
                             business_zone=zone)  # fmt: skip


def _line(text: str, table: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"- {table} ("))


def test_a_12_table_120_column_database_has_its_whole_card_within_1200_o200k_tokens(normalized, tmp_path):
    db = tmp_path / "shop.duckdb"
    shutil.copyfile(normalized, db)
    text = _prompt(
        db, "tables:\n  customers:\n    relationships:\n      account_manager_id: {name: account_manager}\n"
    )
    card = text[text.index("Tables (") : text.index("Use the tools")]
    assert len(TABLES) == 12 and card.count("\n- ") == 12
    assert len(O200K.encode(card)) <= 1200
    assert "Summarised" not in card and "describe_table" not in card  # nothing left out
    customers = _line(text, "customers")
    assert "key customer_id:" in customers  # what one row is (orders link to it)
    assert "account_manager_id→account_manager=employees" in customers  # the role name aggregate takes
    assert "segment text[consumer|enterprise|smb]" in customers  # a small text column's values
    assert "time: signup_date" in customers and "credit_limit num" in customers
    employees = _line(text, "employees")
    # the self-reference, by its column: reports_to.last_name is the manager's
    assert "reports_to→reports_to=employees" in employees and "key employee_id:" in employees
    orders = _line(text, "orders")
    assert "status text[cancelled|delivered|placed|returned|shipped]" in orders
    assert "customer_id→customers" in orders and "ordered_at timestamp" in orders
    assert "ship_address text" in orders  # free text: a plain column, no link
    for table, sql in TABLES.items():  # every column of every table is on the card
        line = _line(text, table)
        columns = [part.split(" AS ")[-1].split()[0].strip(",") for part in sql.split(" AS ")[1:]]
        assert all(c in line for c in columns), (table, [c for c in columns if c not in line])


def test_past_the_budget_the_card_says_what_it_summarised(tmp_path):
    import duckdb

    with duckdb.connect(str(tmp_path / "wide.duckdb")) as conn:
        for t in range(12):
            cols = ", ".join(f"measure_{c}_value DOUBLE" for c in range(40))
            conn.execute(f"CREATE TABLE table_{t} (id INTEGER, happened_at DATE, kind VARCHAR, {cols})")
    text = _prompt(tmp_path / "wide.duckdb")
    assert (
        "Summarised to fit: only keys, links and time columns shown; describe_table lists the others" in text
    )
    assert "happened_at date (+42 more); time: happened_at" in _line(text, "table_11")
    assert len(O200K.encode(text)) <= 1500

"""A normalized shop database with a semantic file, user SQL tools and an access policy beside it, for the
access tests (workspace and MCP server): the sales group sees five tables, two columns of customers
hidden; everything else, and every link, metric, dimension and tool that touches it, is hidden from it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.normalized_db import build_normalized_db

POLICY = """\
groups:
  sales:
    tables: [orders, order_lines, customers, products, shippers]
    hidden_columns:
      customers: [credit_limit, tax_id]
    run_sql: true
"""
SEMANTIC = """\
tables:
  orders:
    relationships:
      sales_rep_id: {to: employees.employee_id, name: sales_rep}
    dimensions:
      rep_department: {column: sales_rep.department, synonyms: [team]}
      sales_channel: {column: channel}
    metrics:
      order_count: {fn: count}
      rep_salary_total: {fn: sum, column: sales_rep.salary}
  customers:
    metrics:
      credit_exposure: {fn: sum, column: credit_limit}
      big_credit_customers: {fn: count, where: "credit_limit > 3000"}
      customer_count: {fn: count}
      credit_per_customer: {ratio: [credit_exposure, customer_count]}
  payments:
    metrics:
      paid_total: {fn: sum, column: amout}
"""
TOOLS = {
    "orders_by_channel.sql": """-- name: orders_by_channel
-- description: Orders per sales channel.
-- tables: orders
SELECT channel, count(*) AS orders FROM orders GROUP BY channel ORDER BY channel
""",
    "orders_in_channel.sql": """-- name: orders_in_channel
-- description: Orders of one sales channel.
-- tables: orders
-- param channel: enum(from orders.channel) | Channel.
SELECT count(*) AS orders FROM orders WHERE channel = $channel
""",
    "reps_per_title.sql": """-- name: reps_per_title
-- description: Sales reps per title.
-- tables: employees
SELECT title, count(*) AS reps FROM employees GROUP BY title
""",
    "orders_paid.sql": """-- name: orders_paid
-- description: Orders that were paid.
-- tables: orders
WITH p AS (SELECT DISTINCT order_id FROM payments) SELECT count(*) AS paid FROM orders JOIN p USING (order_id)
""",
    "orders_of_department.sql": """-- name: orders_of_department
-- description: Orders of one channel, listed by a hidden table's values.
-- tables: orders
-- param department: enum(from employees.department) | Department.
SELECT count(*) AS orders FROM orders WHERE $department IS NOT NULL
""",
}
SALES_TOOLS = {
    "list_tables",
    "describe_table",
    "aggregate",
    "run_sql",
    "orders_by_channel",
    "orders_in_channel",
}
SALES_TABLES = ["customers", "order_lines", "orders", "products", "shippers"]
HIDDEN_WORDS = re.compile(
    r"\b(employees|payments|suppliers|inventory|offices|regions|categories|credit_limit|tax_id|salary"
    r"|payer_email|sales_rep|rep_department|rep_salary_total|credit_exposure|big_credit_customers"
    r"|credit_per_customer|paid_total|reps_per_title|orders_paid|orders_of_department|amout)\b"
)
"""Every name the sales group must never read: hidden tables and columns, the link and the metrics and
tools that stand on them, and the semantic file's own mistake about a hidden table."""


def build_shop(template: Path, folder: Path) -> tuple[Path, Path]:
    """The database (copied from ``template``), its semantic file and policy, and a folder of tools."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "shop.duckdb"
    shutil.copyfile(template, db)
    (folder / "shop.semantic.yaml").write_text(SEMANTIC, encoding="utf-8")
    (folder / "access.yaml").write_text(POLICY, encoding="utf-8")
    tools = folder / "tools"
    tools.mkdir(exist_ok=True)
    for name, text in TOOLS.items():
        (tools / name).write_text(text, encoding="utf-8")
    return db, tools


def build_template(folder: Path) -> Path:
    return build_normalized_db(folder / "template.duckdb")


def leaks(text: str) -> list[str]:
    return sorted(set(HIDDEN_WORDS.findall(text)))

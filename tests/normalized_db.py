"""A normalized 12-table, 120-column database (order lines -> orders -> customers -> employees, with role-
named keys and free-text traps), written by DuckDB SQL into a file and profiled as a load would be.

Every id starts at 1, so a role column's values (1..40 employees) lie within every other table's key too:
only the name can say which table ``account_manager_id`` means. Free-text traps: ``orders.ship_address``
holds customers' unique addresses, ``orders.ship_city`` offices' unique cities, ``payments.payer_email``
customers' unique emails; none of them is a key.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

EMPLOYEES = 40
TABLES: dict[str, str] = {
    "regions": """SELECT range::INTEGER + 1 AS region_id, ['North', 'South', 'East', 'West'][range + 1]
        AS region_name, ['US', 'US', 'CA', 'MX'][range + 1] AS country_code, 'America/New_York' AS timezone,
        'USD' AS currency FROM range(4)""",
    "offices": """SELECT range::INTEGER + 1 AS office_id, (range % 4)::INTEGER + 1 AS region_id,
        'City ' || chr(65 + range::INTEGER) AS city, range || ' Harbour Road West' AS address,
        '555-01' || range AS phone, DATE '2015-01-01' + range::INTEGER * 90 AS opened_on,
        10 + range::INTEGER AS headcount, ['US', 'CA'][range % 2 + 1] AS country_code,
        'Z' || (1000 + range) AS postal_code FROM range(8)""",
    "employees": f"""SELECT range::INTEGER + 1 AS employee_id, 'First' || range AS first_name,
        'Last' || range AS last_name, 'emp' || range || '@example.com' AS email,
        ['Rep', 'Manager', 'Director'][range % 3 + 1] AS title, (range % 8)::INTEGER + 1 AS office_id,
        CASE WHEN range = 0 THEN NULL ELSE (range // 5)::INTEGER + 1 END AS reports_to,
        DATE '2018-01-01' + range::INTEGER * 30 AS hired_on, 50000 + range * 1000.0 AS salary,
        ['active', 'on_leave', 'left'][range % 3 + 1] AS status,
        ['Sales', 'Support', 'Finance', 'Ops'][range % 4 + 1] AS department, '555-02' || range AS phone,
        DATE '1980-01-01' + range::INTEGER * 200 AS birth_date, (range % 10) / 100.0 AS commission_pct
        FROM range({EMPLOYEES})""",
    "customers": f"""SELECT range::INTEGER + 1 AS customer_id, 'Company ' || range AS company_name,
        'Contact' || range AS contact_name, 'buyer' || range || '@example.org' AS email,
        range || ' Market Street North' AS address, 'City ' || chr(65 + (range % 8)::INTEGER) AS city,
        ['US', 'CA', 'MX'][range % 3 + 1] AS country_code,
        ['enterprise', 'smb', 'consumer'][range % 3 + 1] AS segment,
        (range % {EMPLOYEES})::INTEGER + 1 AS account_manager_id,
        DATE '2020-01-01' + range::INTEGER AS signup_date, 1000.0 * (range % 7) AS credit_limit,
        '555-03' || range AS phone, 'https://c' || range || '.example' AS website,
        'TX' || (5000 + range) AS tax_id, ['retail', 'tech', 'health', 'energy'][range % 4 + 1] AS industry
        FROM range(300)""",
    "categories": """SELECT range::INTEGER + 1 AS category_id, 'Category ' || range AS category_name,
        CASE WHEN range < 4 THEN NULL ELSE (range % 4)::INTEGER + 1 END AS parent_id,
        'All about category number ' || range AS description FROM range(12)""",
    "suppliers": """SELECT range::INTEGER + 1 AS supplier_id, 'Supplier ' || range AS company_name,
        'Person' || range AS contact_name, 'sup' || range || '@example.net' AS email,
        '555-04' || range AS phone, range || ' Factory Lane East' AS address, 'Town' || range AS city,
        ['US', 'CA', 'MX'][range % 3 + 1] AS country_code, (range % 5)::INTEGER + 1 AS rating,
        (range % 30)::INTEGER + 3 AS lead_time_days, 'https://s' || range || '.example' AS website
        FROM range(25)""",
    "products": f"""SELECT range::INTEGER + 1 AS product_id, 'SKU-' || (10000 + range) AS sku,
        'Product ' || range AS product_name, (range % 12)::INTEGER + 1 AS category_id,
        (range % 25)::INTEGER + 1 AS supplier_id, 5.0 + range AS unit_price, 2.0 + range / 2 AS unit_cost,
        0.1 * (range % 20) AS weight_kg, range % 17 = 0 AS discontinued,
        (range % {EMPLOYEES})::INTEGER + 1 AS created_by, DATE '2019-06-01' + range::INTEGER * 3 AS launched_on,
        ['red', 'blue', 'green', 'black'][range % 4 + 1] AS color, ['S', 'M', 'L'][range % 3 + 1] AS size
        FROM range(80)""",
    "shippers": """SELECT range::INTEGER + 1 AS shipper_id, ['Speedy', 'United', 'Federal'][range + 1]
        AS shipper_name, '555-05' || range AS phone, 'https://track' || range || '.example' AS tracking_url,
        range < 2 AS active, 0.5 + range AS rate_per_kg FROM range(3)""",
    "orders": f"""SELECT range::INTEGER + 1 AS order_id, (range % 300)::INTEGER + 1 AS customer_id,
        (range % {EMPLOYEES})::INTEGER + 1 AS sales_rep_id,
        TIMESTAMP '2024-01-01 08:00' + INTERVAL (range * 7) HOUR AS ordered_at,
        DATE '2024-01-03' + (range * 7 // 24)::INTEGER AS shipped_on,
        ['placed', 'shipped', 'delivered', 'returned', 'cancelled'][range % 5 + 1] AS status,
        ['web', 'phone', 'store'][range % 3 + 1] AS channel,
        'City ' || chr(65 + (range % 8)::INTEGER) AS ship_city,
        (range % 300) || ' Market Street North' AS ship_address, (range % 3)::INTEGER + 1 AS shipper_id,
        (range % 50) * 1.5 AS freight, ['USD', 'CAD', 'MXN'][range % 3 + 1] AS currency,
        CASE WHEN range % 9 = 0 THEN 'SAVE10' END AS discount_code, 'note ' || range AS notes,
        ['low', 'normal', 'high'][range % 3 + 1] AS priority,
        DATE '2024-01-05' + (range * 7 // 24)::INTEGER AS required_on, range % 4 = 0 AS gift
        FROM range(2000)""",
    "order_lines": """SELECT range::INTEGER + 1 AS order_line_id, (range // 3)::INTEGER + 1 AS order_id,
        (range % 80)::INTEGER + 1 AS product_id, (range % 5)::INTEGER + 1 AS quantity,
        5.0 + range % 80 AS unit_price, (range % 4) * 0.05 AS discount,
        ((range % 5) + 1) * (5.0 + range % 80) AS line_total, range % 23 = 0 AS returned FROM range(6000)""",
    "payments": f"""SELECT range::INTEGER + 1 AS payment_id, (range % 1800)::INTEGER + 1 AS order_id,
        TIMESTAMP '2024-01-01 09:00' + INTERVAL (range * 7) HOUR AS paid_at, 10.0 + range % 400 AS amount,
        ['card', 'transfer', 'cash'][range % 3 + 1] AS method, ['settled', 'pending', 'failed'][range % 3 + 1]
        AS status, (range % {EMPLOYEES})::INTEGER + 1 AS approved_by, 'PAY-' || range AS reference,
        lpad((range % 10000)::VARCHAR, 4, '0') AS card_last4, ['USD', 'CAD'][range % 2 + 1] AS currency,
        (range % 3) * 0.3 AS fee, 'buyer' || (range % 300) || '@example.org' AS payer_email FROM range(2000)""",
    "inventory": f"""SELECT range::INTEGER + 1 AS inventory_id, (range % 80)::INTEGER + 1 AS product_id,
        (range % 8)::INTEGER + 1 AS office_id, (range * 7 % 120)::INTEGER AS quantity_on_hand,
        (range % 20)::INTEGER + 5 AS reorder_level, DATE '2024-06-01' + (range % 30)::INTEGER AS counted_on,
        (range % {EMPLOYEES})::INTEGER + 1 AS counted_by FROM range(640)""",
}


def build_normalized_db(path: Path) -> Path:
    """The twelve tables in ``path``, each profiled, and the links stored, as loads would leave them."""
    from analytics_agent.db.catalog import store_profile
    from analytics_agent.db.relationships import store_relationships

    with duckdb.connect(str(path)) as conn:
        for table, sql in TABLES.items():
            conn.execute(f"CREATE TABLE {table} AS {sql}")
            store_profile(conn, table)
        store_relationships(conn)
    return path

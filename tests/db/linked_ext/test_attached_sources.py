"""PostgreSQL, DuckLake (PostgreSQL catalog; data on disk or S3) and Parquet on S3, attached read-only to
the sandbox: the tools answer as the source itself does, nothing can be written, and no password shows."""

from __future__ import annotations

import json

import duckdb
import pytest

pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)
pytest.importorskip(
    "duckdb_extension_ducklake", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)
pytest.importorskip("duckdb_extension_httpfs", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)")

from analytics_agent.db.linked.extensions import load_extension
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.workspace.workspace import Workspace


def writer(tmp_path, *extensions: str) -> duckdb.DuckDBPyConnection:
    """The data owner's own connection (not the sandbox), with the extensions loaded as the app loads them."""
    conn = duckdb.connect(
        config={"extension_directory": str(tmp_path / "ext"), "autoload_known_extensions": False}
    )
    for name in extensions:
        load_extension(conn, name)
    return conn


def sums_by(ws, table: str, column: str, key: str) -> list[tuple]:
    """``aggregate``'s sum of ``column`` per ``key``, in key order, as tuples."""
    args = {"table": table, "metrics": [{"fn": "sum", "column": column}], "group_by": [key], "order_by": key}
    return [tuple(row) for row in call(ws, "aggregate", args)["rows"]]


def call(ws, name, args):
    outcome = ws.executor.execute(name, json.dumps(args))
    assert not outcome.is_error, outcome.text
    return json.loads(outcome.text)


@pytest.fixture
def shop(postgres, tmp_path, monkeypatch):
    """A PostgreSQL database 'shop' with customers and orders, written through DuckDB's postgres extension."""
    postgres.create_database("shop")
    conn = writer(tmp_path, "postgres")
    conn.execute(f"CREATE SECRET (TYPE postgres, PASSWORD '{postgres.password}')")
    conn.execute(f"ATTACH '{postgres.dsn('shop')}' AS shop (TYPE postgres)")
    conn.execute(
        "CREATE TABLE shop.public.customers AS SELECT i AS id, ['Pune', 'Delhi', 'Goa'][i % 3 + 1] AS city FROM range(300) t(i)"
    )
    conn.execute(
        "CREATE TABLE shop.public.orders AS SELECT i AS id, i % 300 AS customer_id, (i * 37 % 1000) + 0.5 AS amount FROM range(5000) t(i)"
    )
    expected = conn.execute(
        "SELECT city, count(*) FROM shop.public.customers GROUP BY city ORDER BY city"
    ).fetchall()
    total = conn.execute("SELECT sum(amount) FROM shop.public.orders").fetchone()[0]
    conn.close()
    monkeypatch.setenv("SHOP_PASSWORD", postgres.password)
    return {"dsn": postgres.dsn("shop"), "cities": expected, "total": total, "password": postgres.password}


def test_postgres_tables_answer_through_the_tools_and_stay_unwritable(sample_db, shop):
    source = parse_source(
        "shop", {"type": "postgres", "dsn": shop["dsn"], "password_env": "SHOP_PASSWORD", "prefix": "pg_"}
    )
    with Workspace.open(sample_db, sources=[source], allow_sql=True) as ws:
        assert ws.linked_tables == {"pg_customers": "shop", "pg_orders": "shop"}
        cities = call(
            ws,
            "aggregate",
            {"table": "pg_customers", "metrics": [{"fn": "count"}], "group_by": ["city"], "order_by": "city"},
        )
        total = call(ws, "aggregate", {"table": "pg_orders", "metrics": [{"fn": "sum", "column": "amount"}]})
        attempts = [
            "SELECT * FROM postgres_query('src_shop', 'SELECT 1')",
            f"SELECT * FROM postgres_scan('{shop['dsn']}', 'public', 'orders')",
            "SELECT path FROM duckdb_databases()",
            "SELECT * FROM duckdb_secrets()",
        ]
        outcomes = [ws.executor.execute("run_sql", json.dumps({"query": q})) for q in attempts]
        with pytest.raises(duckdb.Error, match="read-only"):
            ws.cursor().execute("INSERT INTO src_shop.public.customers VALUES (999, 'x')")
    assert [tuple(r) for r in cities["rows"]] == shop["cities"]
    assert total["rows"][0][0] == pytest.approx(shop["total"])
    assert outcomes[0].is_error and outcomes[1].is_error
    for outcome in outcomes:
        assert shop["password"] not in outcome.text


def test_a_missing_password_variable_skips_that_source_with_one_line_naming_it(sample_db, shop, monkeypatch):
    from analytics_agent.db.linked.check import check_source
    from analytics_agent.errors import SourceError

    monkeypatch.delenv("SHOP_PASSWORD")
    source = parse_source("shop", {"type": "postgres", "dsn": shop["dsn"], "password_env": "SHOP_PASSWORD"})
    with pytest.raises(SourceError, match="SHOP_PASSWORD is not set"):
        check_source(source)  # `sources add/test` still fail loudly
    with Workspace.open(sample_db, sources=[source]) as ws:
        assert ws.linked_tables == {}
        [problem] = ws.source_problems
        total = call(ws, "aggregate", {"table": "orders", "metrics": [{"fn": "count"}]})
    assert problem.startswith("source shop skipped: ") and "SHOP_PASSWORD is not set" in problem
    assert "--no-sources" in problem
    assert total["rows"] == [[42000]]


def test_a_stopped_server_skips_that_source_and_the_others_still_link(sample_db, shop, postgres, tmp_path):
    """A second PostgreSQL source on a port where no server listens (a stopped server): skipped by name,
    while the working one answers, through the command line as a user runs it."""
    import socket

    from cli_process import run_cli

    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        dead_port = sock.getsockname()[1]
    stopped = shop["dsn"].replace(f"port={postgres.port}", f"port={dead_port}")
    config = tmp_path / "config" / "analytics-agent"
    config.mkdir(parents=True)
    (config / "sources.toml").write_text(
        f'[shop]\ntype = "postgres"\ndsn = "{shop["dsn"]}"\npassword_env = "SHOP_PASSWORD"\nprefix = "pg_"\n\n'
        f'[old]\ntype = "postgres"\ndsn = "{stopped}"\npassword_env = "SHOP_PASSWORD"\nprefix = "old_"\n'
    )
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "SHOP_PASSWORD": shop["password"]}
    done = run_cli(["--db", str(sample_db), "tables"], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "pg_orders" in done.stdout and "orders" in done.stdout and "old_" not in done.stdout
    [line] = done.stderr.splitlines()
    assert line.startswith("warning: source old skipped: ") and "--no-sources" in line
    assert shop["password"] not in done.stderr


@pytest.fixture
def lake_catalog(postgres, tmp_path, monkeypatch):
    name = "lake_" + "".join(ch for ch in tmp_path.name.lower() if ch.isalnum())[-12:]
    postgres.create_database(name)
    monkeypatch.setenv("LAKE_PASSWORD", postgres.password)
    return f"postgres:{postgres.dsn(name)}"


def _fill_lake(tmp_path, postgres, catalog: str, data_path: str, s3=None) -> list[tuple]:
    conn = writer(tmp_path, "ducklake", "postgres", *(("httpfs",) if s3 else ()))
    conn.execute(f"CREATE SECRET (TYPE postgres, PASSWORD '{postgres.password}')")
    if s3:
        host = s3.endpoint.removeprefix("http://")
        conn.execute(
            f"CREATE SECRET (TYPE s3, KEY_ID 'test', SECRET 'test', REGION 'us-east-1', ENDPOINT '{host}', USE_SSL false, URL_STYLE 'path')"
        )
    conn.execute(f"ATTACH 'ducklake:{catalog}' AS lake (DATA_PATH '{data_path}')")
    conn.execute(
        "CREATE TABLE lake.trips AS SELECT i AS trip_id, i % 7 AS weekday, (i % 50) * 1.5 AS fare FROM range(20000) t(i)"
    )
    expected = conn.execute("SELECT weekday, sum(fare) FROM lake.trips GROUP BY 1 ORDER BY 1").fetchall()
    conn.close()
    return [(weekday, float(fare)) for weekday, fare in expected]


def test_a_ducklake_with_a_postgres_catalog_and_local_files(sample_db, postgres, lake_catalog, tmp_path):
    expected = _fill_lake(tmp_path, postgres, lake_catalog, f"{tmp_path}/lakedata/")
    source = parse_source(
        "lake", {"type": "ducklake", "catalog": lake_catalog, "password_env": "LAKE_PASSWORD"}
    )
    with Workspace.open(sample_db, sources=[source], allow_sql=True) as ws:
        got = sums_by(ws, "trips", "fare", "weekday")
        other = ws.executor.execute(
            "run_sql", json.dumps({"query": f"SELECT * FROM read_text('{tmp_path}/ext/**')"})
        )
        with pytest.raises(duckdb.Error, match="read-only"):
            ws.cursor().execute("CREATE TABLE src_lake.main.x AS SELECT 1")
    assert got == expected
    assert other.is_error  # the lake's own data folder is allowed, nothing beside it


def test_parquet_on_s3_and_a_ducklake_whose_files_are_on_s3(
    sample_db, postgres, lake_catalog, s3_env, tmp_path
):
    client = s3_env.client()
    client.create_bucket(Bucket="data")
    local = tmp_path / "sales"
    duckdb.sql(
        f"COPY (SELECT i % 4 AS shop, i AS amount FROM range(1000) t(i)) TO '{local}' (FORMAT parquet, PARTITION_BY (shop))"
    )
    for path in local.rglob("*.parquet"):
        client.upload_file(str(path), "data", f"sales/{path.relative_to(local)}")
    expected_lake = _fill_lake(tmp_path, postgres, lake_catalog, "s3://data/lake/", s3=s3_env)
    sources = [
        parse_source("sales", {"type": "files", "path": "s3://data/sales/"}),
        parse_source(
            "lake",
            {
                "type": "ducklake",
                "catalog": lake_catalog,
                "password_env": "LAKE_PASSWORD",
                "data_path": "s3://data/lake/",
            },
        ),
    ]
    with Workspace.open(sample_db, sources=sources, allow_sql=True) as ws:
        sales = sums_by(ws, "sales", "amount", "shop")
        lake = sums_by(ws, "trips", "fare", "weekday")
        elsewhere = ws.executor.execute(
            "run_sql", json.dumps({"query": "SELECT * FROM read_parquet('s3://data/other.parquet')"})
        )
    assert sales == [(s, sum(range(s, 1000, 4))) for s in range(4)]
    assert lake == expected_lake
    assert elsewhere.is_error and "may not call read_parquet()" in elsewhere.text


@pytest.mark.parametrize(
    "uri",
    [
        "postgresql://postgres@127.0.0.1:{port}/shop",
        "postgres://postgres@127.0.0.1:{port}/shop?sslmode=disable&application_name=analytics%20agent",
    ],
    ids=["uri", "uri-with-query"],
)
def test_a_uri_dsn_with_its_password_from_the_environment_attaches(sample_db, shop, postgres, uri):
    """The extension adds the secret's password to the connection string in key=value form, which a URI
    cannot take ("missing '='"): a URI source with password_env never attached."""
    dsn = uri.format(port=postgres.port)
    source = parse_source(
        "shop", {"type": "postgres", "dsn": dsn, "password_env": "SHOP_PASSWORD", "prefix": "pg_"}
    )
    with Workspace.open(sample_db, sources=[source]) as ws:
        problems = [str(p) for p in ws.source_problems]
        total = call(ws, "aggregate", {"table": "pg_orders", "metrics": [{"fn": "sum", "column": "amount"}]})
    assert problems == []
    assert total["rows"][0][0] == pytest.approx(shop["total"])

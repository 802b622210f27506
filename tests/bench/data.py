"""Benchmark databases at 100k, 1M and 10M orders, built once and cached between runs.

100k and 1M come from the seeds generator (``seeds/generate.py --orders N``). 10M is built in DuckDB from the
1M database instead of generating it (~55 s at ~190k orders/s): ten copies of the 1M orders, items and
customers, where copy ``c`` gets the order ids the generator itself would give orders ``c*G .. c*G+G-1``
(its ids are ``(seq * mult + offset) mod space``, so shifting the id number by ``c*G*mult`` is exact and
unique) and customer numbers shifted by ``c`` times the customer count. The five reference orders stay in
copy 0 only, so "10m" holds 9,999,955 orders.

The cache lives in ``$ANALYTICS_AGENT_BENCH_CACHE`` or ``~/.cache/analytics-agent-bench``; a database is
rebuilt when the generator or the table layout changes (the file name carries a hash of both).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import duckdb

from tests.bench.common import ROOT

SIZES = {"100k": 100_000, "1m": 1_000_000, "10m": 10_000_000}
_COPIES = 10


def cache_dir() -> Path:
    base = os.environ.get("ANALYTICS_AGENT_BENCH_CACHE") or Path.home() / ".cache" / "analytics-agent-bench"
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def parse_sizes(text: str) -> list[str]:
    sizes = [s.strip().lower() for s in text.split(",") if s.strip()]
    unknown = [s for s in sizes if s not in SIZES]
    if unknown:
        raise SystemExit(f"unknown size {', '.join(unknown)}; choose from {', '.join(SIZES)}")
    return sizes


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("seeds_generate", ROOT / "seeds" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _version() -> str:
    from analytics_agent.db import seed

    digest = hashlib.sha256((ROOT / "seeds" / "generate.py").read_bytes())
    digest.update(repr(seed.SAMPLE_TABLES).encode())
    digest.update(b"v2")  # v2: relationships stored, as a load stores them
    return digest.hexdigest()[:10]


def database(size: str, *, log=print) -> Path:
    """The cached database for ``size`` ("100k", "1m" or "10m"), built if missing."""
    path = cache_dir() / f"orders-{size}-{_version()}.duckdb"
    if path.exists():
        return path
    started = time.perf_counter()
    log(f"building the {size} database in {path.parent} (cached for later runs)...")
    tmp = path.with_name(f".building-{os.getpid()}-{path.name}")
    try:
        if size == "10m":
            _replicate(database("1m", log=log), tmp)
        else:
            with tempfile.TemporaryDirectory(dir=cache_dir()) as folder:
                generator().generate(folder, orders=SIZES[size])
                _load_csvs(Path(folder), tmp)
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    log(f"built {size} in {time.perf_counter() - started:.1f} s")
    return path


def csv_folder(size: str, *, log=print) -> Path:
    """The generator's CSV files for ``size`` (100k or 1m), cached."""
    folder = cache_dir() / f"csv-{size}-{_version()}"
    if (folder / "orders.csv").exists():
        return folder
    log(f"generating {size} CSV files in {folder}...")
    tmp = Path(tempfile.mkdtemp(dir=cache_dir()))
    generator().generate(tmp, orders=SIZES[size])
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(tmp, folder)
    return folder


def _load_csvs(folder: Path, target: Path) -> None:
    """The same tables, types, order and profiles as the bundled sample (db/seed.py), from ``folder``."""
    from analytics_agent.db.catalog import store_profile
    from analytics_agent.db.relationships import store_relationships
    from analytics_agent.db.seed import SAMPLE_TABLES

    conn = duckdb.connect(str(target))
    try:
        for table, columns in SAMPLE_TABLES.items():
            order = " ORDER BY day, city" if table == "orders" else ""
            conn.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv(?, header = true, columns = ?){order}",
                [str(folder / f"{table}.csv"), columns],
            )
            store_profile(conn, table)
        store_relationships(conn)
        conn.execute("CHECKPOINT")
    finally:
        conn.close()


def _replicate(source: Path, target: Path) -> None:
    gen = generator()
    space = gen.LONG_ID_SPACE
    mult = gen._id_permutation(space)
    base_orders = SIZES["1m"]
    generated = base_orders - len(gen.REFERENCE_ORDERS)
    customers = gen._customer_count(base_orders)
    width = len(str(customers * _COPIES))
    step = generated * mult  # id shift per copy, see the module docstring
    number = "CAST(substr({col}, 3) AS BIGINT)"
    new_customer = f"'C-' || lpad(CAST({number} + c * {customers} AS VARCHAR), {width}, '0')"
    k = f"((ascii(substr({{col}}, 1, 1)) - 65)::BIGINT * 100000000 + {number} + c * {step}) % {space}"
    new_order = (
        f"CASE WHEN length({{col}}) = 6 THEN {{col}} ELSE "
        f"chr(CAST(65 + {k} // 100000000 AS INTEGER)) || '-' || lpad(CAST({k} % 100000000 AS VARCHAR), 8, '0') END"
    )
    copies = f"range({_COPIES}) t(c)"
    only_generated = "(c = 0 OR length({col}) > 6)"
    from analytics_agent.db.catalog import store_profile
    from analytics_agent.db.relationships import store_relationships

    conn = duckdb.connect(str(target))
    try:
        conn.execute("ATTACH ? AS src (READ_ONLY)", [str(source)])
        conn.execute("CREATE TABLE products AS SELECT * FROM src.products")
        conn.execute(
            f"CREATE TABLE customers AS SELECT {new_customer.format(col='customer_id')} AS customer_id, "
            f"name, city, signup_day, segment FROM src.customers, {copies} ORDER BY 1"
        )
        conn.execute(
            f"CREATE TABLE orders AS SELECT {new_order.format(col='order_id')} AS order_id, "
            f"{new_customer.format(col='customer_id')} AS customer_id, city, day, status, amount, channel "
            f"FROM src.orders, {copies} WHERE {only_generated.format(col='order_id')} ORDER BY day, city"
        )
        conn.execute(
            f"CREATE TABLE order_items AS SELECT {new_order.format(col='order_id')} AS order_id, "
            f"product_id, quantity, unit_price "
            f"FROM src.order_items, {copies} WHERE {only_generated.format(col='order_id')}"
        )
        conn.execute("DETACH src")
        for table in ("products", "customers", "orders", "order_items"):
            store_profile(conn, table)
        store_relationships(conn)
        conn.execute("CHECKPOINT")
    finally:
        conn.close()


def main() -> None:
    for size in sys.argv[1:] or list(SIZES):
        print(database(size))


if __name__ == "__main__":
    main()

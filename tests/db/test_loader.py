"""Loading CSV/Parquet files: messy real files in tmp_path, a real DuckDB file, all-or-nothing."""

from __future__ import annotations

import contextlib
import gzip
import os
import signal
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.catalog import get_profile
from analytics_agent.db.drop import drop_table
from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError
from analytics_agent.workspace.workspace import Workspace

CITIES = ("Pune", "Delhi", "Mumbai", "Chennai")
ROWS = 100_000


def messy_rows(n: int) -> list[tuple[int, str, str, int, str]]:
    """Semicolon data with day-first dates, thousands separators and a quoted newline every 1,000 rows."""
    rows = []
    for i in range(n):
        day = f"{i % 28 + 1:02d}/{i % 12 + 1:02d}/2025"
        note = "two\nlines" if i % 1000 == 0 else "ok"
        rows.append((i, CITIES[i % 4], day, (i * 37) % 5000, note))
    return rows


def write_messy(path: Path, rows, *, bad_at: int | None = None) -> Path:
    lines = ["Order ID;City;Order Date;Amount;Note"]
    for i, (oid, city, day, amount, note) in enumerate(rows):
        shown = f'"{amount:,}"' if amount >= 1000 else str(amount)
        if bad_at is not None and i == bad_at:
            shown = "unknown"  # "n/a" would be read as missing
        lines.append(f'{oid};{city};{day};{shown};"{note}"')
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def messy(tmp_path_factory) -> tuple[Path, Path, list]:
    folder = tmp_path_factory.mktemp("csv")
    rows = messy_rows(ROWS)
    good = write_messy(folder / "Sales Export.csv", rows)
    # record 60,000 is the 60,001st line counting the header: the line DuckDB names
    bad = write_messy(folder / "sales_bad.csv", rows, bad_at=59_999)
    return good, bad, rows


MESSY_OPTIONS = dict(date_format="%d/%m/%Y", thousands=",")


def test_a_messy_100k_row_csv_loads_with_the_right_rows_types_and_totals(sample_db, messy):
    good, _, rows = messy
    summary = load_files(sample_db, [str(good)], LoadOptions(**MESSY_OPTIONS))
    assert summary.table == "sales_export" and summary.rows_loaded == ROWS == summary.rows_total
    types = {c.name: c.type for c in summary.columns}
    assert types == {
        "order_id": "BIGINT",
        "city": "VARCHAR",
        "order_date": "DATE",
        "amount": "BIGINT",
        "note": "VARCHAR",
    }
    expected = defaultdict(int)
    for _, city, _, amount, _ in rows:
        expected[city] += amount
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        got = dict(conn.execute("SELECT city, sum(amount) FROM sales_export GROUP BY 1").fetchall())
        assert got == expected
        assert (
            conn.execute("SELECT count(*) FROM sales_export WHERE note = 'two\nlines'").fetchone()[0] == 100
        )
        first = conn.execute("SELECT order_date FROM sales_export WHERE order_id = 13").fetchone()[0]
        assert first.isoformat() == "2025-02-14"  # 14/02/2025, day first
        profile = get_profile(conn, "sales_export")
    assert profile["original_names"] == {
        "order_id": "Order ID",
        "city": "City",
        "order_date": "Order Date",
        "amount": "Amount",
        "note": "Note",
    }
    city = next(c for c in profile["columns"] if c["name"] == "city")
    assert sorted(city["values"]) == sorted(CITIES)


def test_a_bad_value_at_line_60001_fails_naming_the_line_and_leaves_the_table_as_it_was(sample_db, messy):
    good, bad, _ = messy
    load_files(sample_db, [str(good)], LoadOptions(table="sales", **MESSY_OPTIONS))
    before = _snapshot(sample_db, "sales")
    with pytest.raises(LoadError) as err:
        load_files(sample_db, [str(bad)], LoadOptions(table="sales", mode="replace", **MESSY_OPTIONS))
    message = str(err.value)
    # the 60,000th record starts on line 60,061 of the file: 60 records before it span two lines each
    assert "sales_bad.csv: line 60061" in message and '"unknown"' in message
    assert "--null unknown" in message and "--type amount=VARCHAR" in message and "\n" not in message
    assert _snapshot(sample_db, "sales") == before
    assert _tables(sample_db) == {"customers", "order_items", "orders", "products", "sales"}


def test_an_existing_table_is_never_overwritten_without_replace(sample_db, messy):
    good, _, _ = messy
    load_files(sample_db, [str(good)], LoadOptions(table="sales", **MESSY_OPTIONS))
    with pytest.raises(LoadError, match="already exists; add --replace"):
        load_files(sample_db, [str(good)], LoadOptions(table="sales", **MESSY_OPTIONS))
    with pytest.raises(LoadError, match="already exists"):
        load_files(sample_db, [str(good)], LoadOptions(table="orders", **MESSY_OPTIONS))
    assert _count(sample_db, "orders") == 42_000


def test_the_suggested_type_override_makes_the_bad_file_load(sample_db, messy):
    _, bad, _ = messy
    summary = load_files(
        sample_db, [str(bad)], LoadOptions(table="raw", types={"amount": "VARCHAR"}, **MESSY_OPTIONS)
    )
    assert summary.rows_total == ROWS
    assert {c.name: c.type for c in summary.columns}["amount"] == "VARCHAR"


def test_replace_swaps_the_table_and_append_adds_rows_matched_by_name(sample_db, tmp_path):
    first = tmp_path / "t.csv"
    first.write_text("a,b\n1,x\n2,y\n")
    load_files(sample_db, [str(first)], LoadOptions())
    second = tmp_path / "t2.csv"
    second.write_text("b,a\nz,3\n")  # other column order: matched by name
    summary = load_files(sample_db, [str(second)], LoadOptions(table="t", mode="append"))
    assert summary.rows_loaded == 1 and summary.rows_total == 3
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        assert conn.execute("SELECT a, b FROM t ORDER BY a").fetchall() == [(1, "x"), (2, "y"), (3, "z")]
    load_files(sample_db, [str(second)], LoadOptions(table="t", mode="replace"))
    assert _count(sample_db, "t") == 1
    assert not any(name.startswith("_loading") for name in _tables(sample_db))


def test_append_with_other_columns_is_a_clear_error_and_changes_nothing(sample_db, tmp_path):
    (tmp_path / "t.csv").write_text("a,b\n1,x\n")
    (tmp_path / "u.csv").write_text("a,c\n2,y\n")
    load_files(sample_db, [str(tmp_path / "t.csv")], LoadOptions())
    with pytest.raises(LoadError, match="the file has c which t lacks; t has b which the file lacks"):
        load_files(sample_db, [str(tmp_path / "u.csv")], LoadOptions(table="t", mode="append"))
    assert _count(sample_db, "t") == 1


def test_globs_gzip_and_several_files_load_into_one_table(sample_db, tmp_path):
    for month in (1, 2):
        text = f"day,amount\n2025-0{month}-01,{month * 10}\n2025-0{month}-02,{month * 20}\n"
        with gzip.open(tmp_path / f"sales-2025-0{month}.csv.gz", "wt") as fh:
            fh.write(text)
    summary = load_files(sample_db, [str(tmp_path / "sales-2025-*.csv.gz")], LoadOptions())
    assert summary.table == "sales_2025" and summary.rows_total == 4 and len(summary.files) == 2
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        assert conn.execute("SELECT sum(amount) FROM sales_2025").fetchone()[0] == 90


def test_parquet_loads_by_extension_and_refuses_csv_options(sample_db, tmp_path):
    path = tmp_path / "facts.parquet"
    with duckdb.connect() as conn:
        conn.execute(f"COPY (SELECT range AS \"Row Id\" FROM range(5)) TO '{path}' (FORMAT parquet)")
    summary = load_files(sample_db, [str(path)], LoadOptions())
    assert summary.table == "facts" and summary.rows_total == 5 and summary.columns[0].name == "row_id"
    with pytest.raises(LoadError, match="--delimiter only apply to CSV"):
        load_files(sample_db, [str(path)], LoadOptions(table="f2", delimiter=";"))


def test_a_header_only_file_is_refused_unless_asked_and_an_empty_file_is_refused(sample_db, tmp_path):
    (tmp_path / "header.csv").write_text("a,b,c\n")
    with pytest.raises(LoadError, match=r"header\.csv has no data rows.*--allow-empty"):
        load_files(sample_db, [str(tmp_path / "header.csv")], LoadOptions())
    assert "header" not in _tables(sample_db)
    assert (
        load_files(sample_db, [str(tmp_path / "header.csv")], LoadOptions(allow_empty=True)).rows_total == 0
    )
    assert _columns(sample_db, "header") == ["a", "b", "c"]
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(LoadError, match=r"empty\.csv is empty"):
        load_files(sample_db, [str(tmp_path / "empty.csv")], LoadOptions())


def test_no_header_and_an_explicit_delimiter(sample_db, tmp_path):
    (tmp_path / "pipes.csv").write_text("1|x\n2|y\n")
    summary = load_files(sample_db, [str(tmp_path / "pipes.csv")], LoadOptions(delimiter="|", header=False))
    assert summary.rows_total == 2 and len(summary.columns) == 2


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: "missing.csv", "no such file: missing.csv"),
        (lambda d: str(d / "nothing-*.csv"), "no files match"),
        (lambda d: str(d), "is a folder"),
    ],
)
def test_a_missing_file_is_one_clear_line_and_no_database_change(sample_db, tmp_path, make, message):
    before = _tables(sample_db)
    with pytest.raises(LoadError, match=message):
        load_files(sample_db, [make(tmp_path)], LoadOptions())
    assert _tables(sample_db) == before


def test_a_row_with_too_many_fields_names_file_and_line_and_suggests_the_delimiter(sample_db, tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("a;b\n" + "".join(f"{i};{i}\n" for i in range(30_000)) + "1;2;3\n")
    with pytest.raises(LoadError) as err:
        load_files(sample_db, [str(path)], LoadOptions(delimiter=";"))
    assert "ragged.csv: line 30002" in str(err.value) and "--delimiter" in str(err.value)
    assert "ragged" not in _tables(sample_db)


def test_a_non_utf8_file_suggests_the_encoding_option_which_then_works(sample_db, tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("name,n\ncafé,1\n".encode("latin-1"))
    with pytest.raises(LoadError, match="--encoding latin-1"):
        load_files(sample_db, [str(path)], LoadOptions())
    load_files(sample_db, [str(path)], LoadOptions(encoding="latin-1"))
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        assert conn.execute("SELECT name FROM latin").fetchone()[0] == "café"


def test_a_bad_type_override_is_refused_before_reading(sample_db, tmp_path):
    (tmp_path / "t.csv").write_text("a\n1\n")
    with pytest.raises(LoadError, match="no column 'b'"):
        load_files(sample_db, [str(tmp_path / "t.csv")], LoadOptions(types={"b": "VARCHAR"}))
    with pytest.raises(LoadError, match="DuckDB type"):
        load_files(
            sample_db, [str(tmp_path / "t.csv")], LoadOptions(types={"a": "VARCHAR); DROP TABLE orders"})
        )
    assert _count(sample_db, "orders") == 42_000


def test_drop_removes_the_table_and_its_profile(sample_db, tmp_path):
    (tmp_path / "t.csv").write_text("a\n1\n")
    load_files(sample_db, [str(tmp_path / "t.csv")], LoadOptions())
    assert drop_table(sample_db, "t") == 1
    assert "t" not in _tables(sample_db)
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM _agent.profiles WHERE table_name = 't'").fetchone()[0] == 0
    with pytest.raises(LoadError, match="no table 'ordrs'; did you mean 'orders'"):
        drop_table(sample_db, "ordrs")


def test_a_loaded_table_is_described_and_aggregated_by_the_tools(sample_db, tmp_path):
    (tmp_path / "visits.csv").write_text("Region,Visits\nNorth,3\nSouth,4\nNorth,5\n")
    load_files(sample_db, [str(tmp_path / "visits.csv")], LoadOptions())
    with Workspace.open(sample_db) as ws:
        assert "aggregate" in ws.registry.names  # user data present: the generic tool joins
        outcome = ws.executor.execute(
            "aggregate",
            {"table": "visits", "metrics": [{"fn": "sum", "column": "visits"}], "group_by": ["region"]},
        )
    assert (
        outcome.text == '{"columns":["region","sum_visits"],"rows":[["North",8],["South",4]],"row_count":2}'
    )


# --- a load that dies: the database is exactly as before --------------------------------------------

# The load stops where its rows are written and not yet committed, says so, and waits for the signal: a
# readiness signal at a known point (a progress line was the sign before: DuckDB's first reading can come
# at any point of the load, the COMMIT included).
LOAD_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import analytics_agent.db.load.run as loader
    import analytics_agent.db.load.steps as steps
    from analytics_agent.db.load.options import LoadOptions

    checked = steps.refuse_empty

    def hold(*args, **kwargs):
        checked(*args, **kwargs)
        print("written", flush=True)
        for _ in range(6000):  # a bound (10 min or more) so a broken test ends; the signal ends it first
            time.sleep(0.1)

    steps.refuse_empty = hold
    loader.load_files(Path(sys.argv[1]), [sys.argv[2]], LoadOptions(table="sales", mode="replace"))
    print("done", flush=True)
    """
)


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.csv"
    with duckdb.connect() as conn:
        conn.execute(
            "COPY (SELECT range AS id, 'city ' || (range % 97) AS city, range % 1000 AS amount, "
            "repeat('x', 40) AS pad FROM range(4000000)) TO ? (HEADER)",
            [str(path)],
        )
    return path


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_a_load_killed_midway_leaves_the_old_table_and_no_partial_one(sample_db, tmp_path, big_csv, sig):
    small = tmp_path / "small.csv"
    small.write_text("id,city,amount,pad\n1,Pune,5,x\n")
    load_files(sample_db, [str(small)], LoadOptions(table="sales"))
    before = _snapshot(sample_db, "sales")
    proc = subprocess.Popen(
        [sys.executable, "-c", LOAD_SCRIPT, str(sample_db), str(big_csv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ},
        # A shell ignores SIGINT for a background command and a child inherits that: give it Ctrl-C back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = proc.stdout.readline()
    proc.send_signal(sig)
    proc.wait(timeout=600)
    assert first == "written\n", first  # it was killed with the rows written and not committed
    assert proc.returncode != 0
    assert _snapshot(sample_db, "sales") == before
    assert not any(name.startswith("_loading") for name in _tables(sample_db))


def _snapshot(db: Path, table: str):
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute(f"SELECT count(*), sum(hash(t)) FROM {table} t").fetchone()
        return rows, get_profile(conn, table)


def _tables(db: Path) -> set[str]:
    with duckdb.connect(str(db), read_only=True) as conn:
        return {
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            ).fetchall()
        }


def _count(db: Path, table: str) -> int:
    with duckdb.connect(str(db), read_only=True) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _columns(db: Path, table: str) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as conn:
        return [r[0] for r in conn.execute(f"DESCRIBE {table}").fetchall()]


def test_a_layout_duckdb_cannot_sniff_is_read_as_the_first_line_says_and_the_bad_line_named(
    sample_db, tmp_path
):
    path = tmp_path / "odd.csv"
    path.write_text("a;b\n" + "".join(f"{i};{i}\n" for i in range(3000)) + "1;2;3\n")
    with pytest.raises(LoadError, match=r"^odd.csv: line 3002 has 3 fields where the header has 2"):
        load_files(sample_db, [str(path)], LoadOptions(delimiter=";"))


def test_the_writer_never_prints_duckdbs_progress_bar(tmp_path):
    """DuckDB printed its own bar on stdout for a statement past 2 s: a load piped to a file carried it."""
    from analytics_agent.db.connect import open_writer

    with open_writer(tmp_path / "w.duckdb") as conn:
        assert conn.execute("SELECT current_setting('enable_progress_bar_print')").fetchone()[0] is False


def test_a_small_input_loads_on_one_duckdb_thread_and_a_big_one_on_its_default(
    sample_db, tmp_path, monkeypatch
):
    from analytics_agent.db.load import inputs
    from analytics_agent.db.load import run as loader

    seen = []
    real = loader.open_writer

    def spied(path, **kwargs):
        seen.append(kwargs.get("threads"))
        return real(path, **kwargs)

    monkeypatch.setattr(loader, "open_writer", spied)
    small = tmp_path / "small.csv"
    small.write_text("a,b\n1,x\n2,y\n")
    load_files(sample_db, [str(small)], LoadOptions(table="small"))
    assert seen == [1]
    with loader.open_writer(sample_db, threads=1) as conn:  # the setting reaches DuckDB
        assert conn.execute("SELECT current_setting('threads')").fetchone()[0] == 1

    big, packed = tmp_path / "big.csv", tmp_path / "packed.csv.gz"
    with big.open("wb") as handle:  # sparse: the size is what counts, not the bytes
        handle.truncate(inputs.SMALL_INPUT_BYTES + 1)
    with packed.open("wb") as handle:  # compressed text counts as several times its size
        handle.truncate(inputs.SMALL_INPUT_BYTES // 2)
    assert inputs.load_threads([small]) == 1
    assert inputs.load_threads([big]) is None
    assert inputs.load_threads([packed]) is None
    assert inputs.load_threads([small, tmp_path / "gone.csv"]) is None


def test_a_load_reads_the_catalog_once_and_its_new_tables_types_after_the_checks(
    sample_db, tmp_path, monkeypatch
):
    """The tables before the load come from one catalog query; the new table's columns from DuckDB's
    binding of it once its text dates are DATE (a second catalog query cost a small load 1.4 ms). Views
    and temporary tables are no tables of the database, before the load or after."""
    from analytics_agent.db.load import run as loader

    sql: list[str] = []
    real = loader.open_writer

    class Recording:
        def __init__(self, conn):
            self._conn = conn

        def execute(self, query, *args):
            sql.append(query)
            return self._conn.execute(query, *args)

        def __getattr__(self, name):
            return getattr(self._conn, name)

    @contextlib.contextmanager
    def recorded(path, **kwargs):
        with real(path, **kwargs) as conn:
            conn.execute("CREATE TEMP TABLE scratch AS SELECT 1 AS customer_id")
            yield Recording(conn)

    with duckdb.connect(str(sample_db)) as conn:
        conn.execute("CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 100")
    monkeypatch.setattr(loader, "open_writer", recorded)
    path = tmp_path / "visits.csv"
    path.write_text("customer_id,day\n" + "".join(f"C-{i:05d},Jan {i % 28 + 1} 2009\n" for i in range(1, 40)))
    summary = load_files(sample_db, [str(path)], LoadOptions(table="visits"))
    assert [c.type for c in summary.columns] == ["VARCHAR", "DATE"]
    assert sum("duckdb_columns()" in q or "duckdb_tables()" in q for q in sql) == 1
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        links = conn.execute("SELECT table_name, target FROM _agent.relationships").fetchall()
    assert ("visits", "customers") in links
    assert not any("big_orders" in link or "scratch" in link for link in links)

"""The stored profile's text columns: min and max are the column's own, whatever the length of its values,
and free text (a value longer than a label) keeps none."""

from __future__ import annotations

import duckdb

from analytics_agent.db.catalog import MAX_PROFILE_TEXT, compute_profile


def _column(conn: duckdb.DuckDBPyConnection, values: list[str]) -> dict:
    conn.execute("CREATE OR REPLACE TABLE t (v VARCHAR)")
    conn.executemany("INSERT INTO t VALUES (?)", [[v] for v in values])
    return compute_profile(conn, "t")["columns"][0]


def test_text_min_and_max_are_the_columns_own_up_to_the_label_length(tmp_path):
    # values that tie up to the last letter a label may have (its length counts bytes), and multi-byte letters
    at_limit = "y" * (MAX_PROFILE_TEXT - 1)
    values = [at_limit + "b", at_limit + "a", "Zürich", "zebra", "a" * MAX_PROFILE_TEXT, "ä", "é"]
    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        column = _column(conn, values)
    assert (column["min"], column["max"]) == (min(values), max(values))
    assert column["max"] == "é"


def test_free_text_keeps_no_min_max_or_values(tmp_path):
    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        column = _column(conn, ["a", "b", "z" * (MAX_PROFILE_TEXT + 1)])
    assert "min" not in column and "max" not in column and "values" not in column


def test_low_cardinality_text_columns_list_their_values_in_duckdbs_own_order(tmp_path):
    # several such columns are listed in one scan: each must still read as SELECT DISTINCT … ORDER BY would
    rows = [("B", f"v{i}", None, "x") for i in range(60)] + [("a", "w", None, "x"), ("é", "w", None, None)]
    rows += [("b", "w", None, "x"), (None, "w", None, "x"), ("a", "w", None, "x"), ("Zürich", "w", None, "x")]
    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        conn.execute("CREATE TABLE t (labels VARCHAR, many VARCHAR, empty VARCHAR, one VARCHAR)")
        conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
        columns = {c["name"]: c for c in compute_profile(conn, "t")["columns"]}
        ordered = [
            r[0]
            for r in conn.execute(
                "SELECT DISTINCT labels FROM t WHERE labels IS NOT NULL ORDER BY 1"
            ).fetchall()
        ]
    assert columns["labels"]["values"] == ordered == ["B", "Zürich", "a", "b", "é"]
    assert "values" not in columns["many"]  # 61 distinct values: more than a label list holds
    assert columns["empty"]["values"] == [] and columns["one"]["values"] == ["x"]


def test_a_small_and_a_big_tables_value_lists_are_the_same_lists(tmp_path, monkeypatch):
    # a small table sorts each column's whole list, a big one groups each column (a GROUP BY per column
    # joined by UNION ALL, whose own column names are k and v: columns named so must list their own values)
    from analytics_agent.db import profile_scan

    labels = ["B", "", " a", "a", "a ", "Zürich", "é", "e\u0301", "😀", "10", "9", "\t", "NULL", "b"]
    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        conn.execute("CREATE TABLE t (labels VARCHAR, empty VARCHAR, k VARCHAR, v VARCHAR)")
        conn.executemany(
            "INSERT INTO t VALUES (?, NULL, ?, 'one')", [[v, v[:1]] for v in labels * 3] + [[None, None]]
        )
        conn.execute("CREATE TABLE nothing (labels VARCHAR)")
        small = [compute_profile(conn, t)["columns"] for t in ("t", "nothing")]
        monkeypatch.setattr(profile_scan, "SMALL_TABLE_ROWS", -1)
        big = [compute_profile(conn, t)["columns"] for t in ("t", "nothing")]
    assert small == big
    assert small[0][0]["values"] == sorted(set(labels)) and small[0][1]["values"] == []
    assert small[0][2]["values"] == sorted({v[:1] for v in labels}) and small[0][3]["values"] == ["one"]


def test_a_big_tables_profile_gauged_on_a_sample_is_the_whole_tables(tmp_path, monkeypatch):
    """A table bigger than the sample is gauged on it first (which text columns have few, short values);
    the stored profile must be the one counted over every row, including what the sample cannot see: a
    rare value, a long value, variety that starts late in the table."""
    from analytics_agent.db import profile_scan

    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        conn.execute(
            "CREATE TABLE t AS SELECT 'C-' || lpad(i::VARCHAR, 6, '0') AS code, 'k' || (i % 40) AS label, "
            "CASE WHEN i = 29990 THEN 'rare' ELSE 'common' END AS status, "
            "CASE WHEN i < 25000 THEN 'same' ELSE 'v' || i END AS late, "
            "CASE WHEN i = 29995 THEN repeat('z', 500) WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS one_long, "
            "NULL::VARCHAR AS empty, DATE '2026-01-01' + (i % 365)::INTEGER AS day, i * 1.5 AS amount "
            "FROM range(30000) r(i)"
        )
        whole = compute_profile(conn, "t")
        monkeypatch.setattr(profile_scan, "SAMPLE_ROWS", 2_000)
        monkeypatch.setattr(profile_scan, "GAUGE_ROWS", 1_000)
        gauged = compute_profile(conn, "t", rows=30_000)
    assert gauged == whole
    columns = {c["name"]: c for c in whole["columns"]}
    assert columns["status"]["values"] == ["common", "rare"] and len(columns["label"]["values"]) == 40
    assert set(columns["one_long"]) == {"name", "type", "nulls"}  # free text after all
    assert "values" not in columns["late"] and columns["code"]["max"] == "C-029999"


def test_a_stored_profile_is_returned_as_stored_and_not_read_back(tmp_path):
    """``store_profile`` answers with the profile as stored (dates as text); ``get_profiles`` takes that
    answer for its table and reads only the others."""
    from analytics_agent.db.catalog import get_profiles, store_profile

    with duckdb.connect(str(tmp_path / "p.duckdb")) as conn:
        conn.execute("CREATE TABLE a AS SELECT DATE '2024-03-01' + i::INTEGER AS day FROM range(3) r(i)")
        conn.execute("CREATE TABLE b AS SELECT 7 AS n")
        stored_a = store_profile(conn, "a")
        store_profile(conn, "b")
        assert stored_a["columns"][0]["min"] == "2024-03-01"  # as the stored JSON says it
        read = get_profiles(conn, ["a", "b"])
        assert read["a"] == stored_a
        marked = {**stored_a, "rows": -1}  # a known profile is taken, not read again
        both = get_profiles(conn, ["a", "b"], known={"a": marked})
        assert both["a"]["rows"] == -1 and both["b"] == read["b"] and both["b"]["rows"] == 1
        conn.execute("DROP SCHEMA _agent CASCADE")  # nothing stored: the known one needs no query
        assert get_profiles(conn, ["a"], stored=True, known={"a": marked}) == {"a": marked}

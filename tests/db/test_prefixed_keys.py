"""Keys named with their table's short prefix (TPC-H, many ERPs): ``l_orderkey`` refers to ``o_orderkey``.
Before, such a database had no link at all, so nothing in lineitem could be grouped by a nation."""

from __future__ import annotations

import duckdb
import pytest

from analytics_agent.db.relationships import names_match, store_relationships


@pytest.mark.parametrize(
    ("column", "target", "key", "links"),
    [
        ("l_orderkey", "orders", "o_orderkey", True),
        ("ps_suppkey", "supplier", "s_suppkey", True),
        ("c_nationkey", "nation", "n_nationkey", True),
        ("ord_customer_id", "customer", "cus_customer_id", True),
        ("c_name", "supplier", "s_name", False),  # names, not keys
        ("c_comment", "orders", "o_comment", False),
        ("l_orderkey", "orders", "o_custkey", False),
        ("line_orderkey", "orders", "o_orderkey", False),  # a word, not a short table prefix
    ],
)
def test_a_short_table_prefix_is_read_past_on_key_like_names_only(column, target, key, links):
    assert names_match(column, target, key) is links


def test_a_tpch_like_store_gets_every_link_and_names_no_text_column(tmp_path):
    db = tmp_path / "tpch.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(
            "CREATE TABLE region AS SELECT range AS r_regionkey, 'R' || range AS r_name FROM range(5);"
            "CREATE TABLE nation AS SELECT range AS n_nationkey, range % 5 AS n_regionkey, 'N' || range AS n_name FROM range(25);"
            "CREATE TABLE customer AS SELECT range + 1 AS c_custkey, range % 25 AS c_nationkey, 'N' || (range % 25) AS c_name FROM range(150);"
            "CREATE TABLE orders AS SELECT range + 1 AS o_orderkey, range % 150 + 1 AS o_custkey FROM range(1500);"
            "CREATE TABLE lineitem AS SELECT range % 1500 + 1 AS l_orderkey, range % 7 + 1 AS l_linenumber FROM range(6000);"
        )
        links = store_relationships(conn)
    assert sorted((r.table, r.column, r.target, r.key) for r in links) == [
        ("customer", "c_nationkey", "nation", "n_nationkey"),
        ("lineitem", "l_orderkey", "orders", "o_orderkey"),
        ("nation", "n_regionkey", "region", "r_regionkey"),
        ("orders", "o_custkey", "customer", "c_custkey"),
    ]


def test_the_quick_look_for_the_prefix_underscore_never_changes_the_answer():
    """``_unprefixed`` skips the pattern when no underscore stands where the prefix ends: on names built
    from every prefix length, underscore place and case-folding letter (``İ``, ``ſ``, the Kelvin sign),
    its answer is the pattern's own, compiled here apart."""
    import itertools
    import re

    from analytics_agent.db.relationships_base import _TABLE_PREFIX, _unprefixed

    pattern = re.compile(_TABLE_PREFIX)
    heads = ["", "l", "ps", "cus", "line", "_", "l_", "\u0130", "\u017f_", "x\u212a"]
    tails = ["_orderkey", "orderkey", "_Order_ID", "_no", "__code", "_name", "_\u212aey", "_s\u0130d"]
    names = {h + t for h, t in itertools.product(heads, tails)} | {"a_b_id", "_a_id", "abcd_id", "İİ_key"}
    for name in sorted(names):
        found = pattern.match(name)
        assert _unprefixed(name) == (found.group(1).lower() if found else None), name

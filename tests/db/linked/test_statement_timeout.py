"""Every PostgreSQL connection string gets the server's own statement timeout as a startup option, added
to the options it has, unless it sets one (issue 38: an endless linked view ran on the server after its
client died). Pure: the strings libpq reads; tests/db/linked_ext/test_endless_view.py runs them against a
real server."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from analytics_agent.db.linked.timeouts import with_statement_timeout, with_timeouts

SETTING = "-c statement_timeout=60s"


@pytest.mark.parametrize(
    ("dsn", "expected"),
    [
        ("host=db dbname=shop", f"host=db dbname=shop options='{SETTING}'"),
        ("", f"options='{SETTING}'"),
        (
            "host=db options='-c search_path=x' dbname=s",
            f"host=db options='-c search_path=x {SETTING}' dbname=s",
        ),
        ("host=db options=-csearch_path=x", f"host=db options='-csearch_path=x {SETTING}'"),
        ("host=db OPTIONS = '-c a=it\\'s'", f"host=db OPTIONS = '-c a=it\\'s {SETTING}'"),
        ("host=db options='-c statement_timeout=0'", "host=db options='-c statement_timeout=0'"),
    ],
)
def test_key_value_strings(dsn: str, expected: str) -> None:
    assert with_statement_timeout(dsn) == expected


@pytest.mark.parametrize(
    ("dsn", "options"),
    [
        ("postgresql://u@db/shop", SETTING),
        ("postgres://db/shop?sslmode=require", SETTING),
        ("postgresql://db/shop?options=-c%20search_path%3Dx", f"-c search_path=x {SETTING}"),
    ],
)
def test_uris_carry_it_encoded_in_their_query(dsn: str, options: str) -> None:
    query = parse_qs(urlsplit(with_statement_timeout(dsn)).query)
    assert query["options"] == [options]
    assert {k: v for k, v in query.items() if k != "options"} == {
        k: v for k, v in parse_qs(urlsplit(dsn).query).items() if k != "options"
    }


def test_a_uri_that_sets_it_and_a_fragment_are_kept() -> None:
    dsn = "postgresql://db/shop?options=-c%20statement_timeout%3D5s"
    assert with_statement_timeout(dsn) == dsn
    assert with_statement_timeout("postgresql://db/shop#x").endswith("#x")


def test_every_bound_together() -> None:
    keepalives = (
        "keepalives=1 keepalives_idle=15 keepalives_interval=5 keepalives_count=3 tcp_user_timeout=30000"
    )
    assert with_timeouts("host=db") == f"host=db connect_timeout=10 {keepalives} options='{SETTING}'"

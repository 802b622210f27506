"""A PostgreSQL connection string gets TCP keepalives and ``tcp_user_timeout`` unless it sets them, each
on its own (issue 38: a host that vanished mid-session held a call for ever). Pure: the strings libpq
reads; tests/db/linked_ext/test_stalled_server.py checks that libpq sets them on the real socket."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from analytics_agent.db.linked.timeouts import KEEPALIVES, with_keepalives


def key_values(dsn: str) -> dict[str, str]:
    return dict(word.split("=", 1) for word in dsn.split())


def test_a_key_value_string_gets_all_five() -> None:
    assert key_values(with_keepalives("host=db dbname=shop")) == {
        "host": "db",
        "dbname": "shop",
        "keepalives": "1",
        "keepalives_idle": "15",
        "keepalives_interval": "5",
        "keepalives_count": "3",
        "tcp_user_timeout": "30000",
    }


@pytest.mark.parametrize(
    "dsn",
    [
        "postgresql://u@db/shop",
        "postgres://db/shop?sslmode=require",
        "postgresql://db/shop?sslmode=require#x",
    ],
)
def test_a_uri_gets_them_as_query_parameters(dsn: str) -> None:
    found = with_keepalives(dsn)
    query = parse_qs(urlsplit(found).query)
    assert {k: query[k] for k in KEEPALIVES} == {k: [v] for k, v in KEEPALIVES.items()}
    assert found.startswith(dsn.partition("#")[0]) and found.endswith("#x") == dsn.endswith("#x")


@pytest.mark.parametrize(
    ("dsn", "key", "value"),
    [
        ("host=db keepalives=0", "keepalives", "0"),
        ("host=db KEEPALIVES_IDLE = 600", "KEEPALIVES_IDLE", "600"),
        ("host=db tcp_user_timeout=0", "tcp_user_timeout", "0"),
    ],
)
def test_what_the_string_sets_is_kept_and_the_rest_added(dsn: str, key: str, value: str) -> None:
    added = " ".join(f"{k}={v}" for k, v in KEEPALIVES.items() if k != key.lower())
    assert with_keepalives(dsn) == f"{dsn} {added}"
    assert value in with_keepalives(dsn)


def test_a_uri_that_sets_one_keeps_it() -> None:
    found = with_keepalives("postgresql://db/shop?keepalives_count=9")
    assert parse_qs(urlsplit(found).query)["keepalives_count"] == ["9"]

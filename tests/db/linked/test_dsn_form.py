"""A PostgreSQL URI written as libpq's key=value words (the form DuckDB's postgres extension can add a
secret's password to). Each expectation is libpq's own reading of the URI (its documentation,
"Connection URIs": percent-decoding, several hosts, IPv6 in brackets, query parameters as words)."""

from __future__ import annotations

import pytest

from analytics_agent.db.linked.dsn_form import as_keywords


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        (
            "postgresql://reader@db.example.com:5433/shop",
            "user=reader host=db.example.com port=5433 dbname=shop",
        ),
        ("postgres://db/shop", "host=db dbname=shop"),
        ("postgresql://", ""),
        ("postgresql://a%40b:p%20w@h/d%2Fx", "user=a@b password='p w' host=h dbname=d/x"),
        ("postgresql://h1:5432,h2:5433/shop", "host=h1,h2 port=5432,5433 dbname=shop"),
        ("postgresql://[::1]:6432/shop", "host=::1 port=6432 dbname=shop"),
        (
            "postgresql://u@h/shop?sslmode=require&application_name=my%20app&options=-c%20search_path%3Dx",
            "user=u host=h dbname=shop sslmode=require application_name='my app' options='-c search_path=x'",
        ),
        ("postgresql://u@h/shop?connect_timeout=5#frag", "user=u host=h dbname=shop connect_timeout=5"),
        ("postgresql://u:it's@h/d", "user=u password='it\\'s' host=h dbname=d"),
    ],
)
def test_a_uri_becomes_the_words_libpq_reads_from_it(uri, words):
    assert as_keywords(uri) == words


def test_key_value_words_are_left_as_they_are():
    dsn = "host=127.0.0.1 port=5432 dbname=shop user=reader"
    assert as_keywords(dsn) == dsn

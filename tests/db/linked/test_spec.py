"""Source settings: what sources.toml may say, what each mistake is told, and a file that round-trips."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics_agent.db.linked.spec import parse_source, redact_dsn
from analytics_agent.db.linked.store import read_sources, render_toml, write_sources
from analytics_agent.errors import SourceError


@pytest.mark.parametrize(
    ("name", "raw", "needle"),
    [
        ("Trips", {"type": "files", "path": "/x"}, "lower-case letters"),
        ("trips", {"type": "excel", "path": "/x"}, "type must be one of files, postgres"),
        ("trips", {"type": "files"}, "path is required for type files"),
        ("trips", {"type": "files", "path": "/x", "dsn": "y"}, "unknown setting 'dsn' for type files"),
        ("trips", {"type": "files", "path": "/x", "format": "xlsx"}, "format must be parquet or csv"),
        ("trips", {"type": "files", "path": "/x", "hive": "yes"}, "hive must be true or false"),
        ("shop", {"type": "postgres", "dsn": "host=a password=hunter2"}, "set password_env"),
        ("shop", {"type": "postgres", "dsn": "postgresql://u:hunter2@h/db"}, "set password_env"),
        ("shop", {"type": "postgres", "dsn": "host=a", "password_env": "not a var"}, "environment variable"),
        ("shop", {"type": "postgres", "dsn": "host=a", "prefix": "PG-"}, "prefix must be lower-case"),
        ("shop", {"type": "postgres", "dsn": "host=a", "tables": "orders"}, "tables must be a list"),
    ],
)
def test_each_mistake_is_one_sentence_naming_the_setting(name, raw, needle):
    with pytest.raises(SourceError) as caught:
        parse_source(name, raw)
    message = str(caught.value)
    assert needle in message and "\n" not in message
    assert "hunter2" not in message


def test_kinds_know_the_extensions_they_need():
    assert parse_source("t", {"type": "files", "path": "/data/*.parquet"}).extensions() == ()
    assert parse_source("t", {"type": "files", "path": "s3://b/k/"}).extensions() == ("httpfs",)
    lake = parse_source(
        "l", {"type": "ducklake", "catalog": "postgres:dbname=lake", "data_path": "s3://b/l/"}
    )
    assert lake.extensions() == ("ducklake", "postgres", "httpfs")
    assert parse_source("p", {"type": "postgres", "dsn": "host=a"}).extensions() == ("postgres",)


@pytest.mark.parametrize(
    ("dsn", "shown"),
    [
        ("host=a password=s3cret user=u", "host=a password=*** user=u"),
        ("host=a PASSWORD = 'two words' user=u", "host=a PASSWORD = *** user=u"),
        ("postgresql://u:s3cret@h:5432/db", "postgresql://u:***@h:5432/db"),
        ("host=a user=u", "host=a user=u"),
    ],
)
def test_connection_strings_are_shown_without_their_password(dsn, shown):
    assert redact_dsn(dsn) == shown


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(path=_text.filter(str.strip), prefix=st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True))
def test_the_written_file_reads_back_as_the_same_sources(path, prefix):
    source = parse_source("trips", {"type": "files", "path": path, "hive": True, "prefix": prefix})
    again = tomllib.loads(render_toml([source]))
    assert parse_source("trips", again["trips"]) == source


def test_write_then_read_keeps_order_and_a_broken_file_names_itself(tmp_path):
    path = tmp_path / "sources.toml"
    first = parse_source("b", {"type": "files", "path": "/b.parquet"})
    second = parse_source("a", {"type": "postgres", "dsn": "host=x", "tables": ["orders"]})
    write_sources([first, second], path)
    assert read_sources(path) == [first, second]
    path.write_text("[trips\ntype = 1\n")
    with pytest.raises(SourceError, match=r"sources\.toml: .*line 1"):
        read_sources(path)


def test_a_csv_sources_amounts_setting_is_checked_and_named():
    good = {
        "type": "files",
        "path": "/d/a.csv",
        "amounts": {"price": {"decimal": ".", "unit": "$", "currency": "$"}},
    }
    assert parse_source("s", good).get("amounts") == good["amounts"]
    for bad in ({"price": {"decimal": ";"}}, {"price": {"decimal": ".", "sql": "x"}}, {"price": "."}):
        with pytest.raises(SourceError, match=r"source s: amounts\.price must be like \{ decimal = "):
            parse_source("s", {**good, "amounts": bad})

"""No credential in a source's settings, in any form: refused in one line that never repeats it, so it is
never stored in sources.toml, printed by ``sources list`` or ``--json``, or shown to SQL through
``duckdb_views()`` (issue 24, vulnerability 3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analytics_agent.db.linked.spec import credential_in, parse_source, redact_dsn
from analytics_agent.errors import SourceError

SECRET = "Zq7secretPW"
HOSTILE = [
    ("postgres", "dsn", f"postgresql://writer@host/db?%70assword={SECRET}"),
    ("postgres", "dsn", f"postgresql://:{SECRET}@host/db?user=writer"),
    ("postgres", "dsn", f"postgresql://writer@host/db?sslmode=require&PassWord={SECRET}"),
    ("postgres", "dsn", f"host=db user=writer sslpassword={SECRET}"),
    ("ducklake", "catalog", f"postgres:password={SECRET} dbname=lake"),
    ("ducklake", "catalog", f"postgres:postgresql://u:{SECRET}@h/lake"),
    ("ducklake", "data_path", f"s3://AKIAKEY:{SECRET}@bucket/lake/"),
    ("files", "path", f"http://user:{SECRET}@example.com/trips.parquet"),
    ("files", "path", f"s3://AKIAKEY:{SECRET}@bucket/trips/"),
    ("files", "path", f"https://example.com/t.parquet?X-Amz-Signature={SECRET}"),
    ("motherduck", "database", f"analytics?motherduck_token={SECRET}"),
]
_REQUIRED = {"ducklake": {"catalog": "sqlite:lake.db"}}


@pytest.mark.parametrize(("kind", "key", "value"), HOSTILE)
def test_every_credential_form_is_refused_without_repeating_it(kind: str, key: str, value: str) -> None:
    raw = {"type": kind, **_REQUIRED.get(kind, {}), key: value}
    with pytest.raises(SourceError) as info:
        parse_source("shop", raw)
    message = str(info.value)
    assert f"{key} holds" in message and "\n" not in message
    assert SECRET not in message


@pytest.mark.parametrize(
    "value",
    [
        "host=db dbname=shop user=reader sslmode=require passfile=/home/me/.pgpass",
        "postgresql://reader@db:5432/shop?sslmode=require&application_name=aa",
        "postgres:dbname=lake host=127.0.0.1",
        "s3://bucket/trips/year=2026/*.parquet",
        "/data/key=2026/part.parquet",
    ],
)
def test_settings_without_a_credential_are_kept(value: str) -> None:
    assert credential_in(value, key_value=value.startswith(("host", "postgres"))) is None


@pytest.mark.parametrize(("_kind", "_key", "value"), HOSTILE)
def test_shown_connection_strings_never_hold_a_credential(_kind: str, _key: str, value: str) -> None:
    assert SECRET not in redact_dsn(value)


def _run(args: list[str], home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data")}
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=home, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_sources_add_list_and_json_never_store_or_print_the_password(tmp_path: Path) -> None:
    added = _run(
        ["sources", "add", "shop", "--type", "postgres", "--no-test", "--dsn", HOSTILE[0][2]], tmp_path
    )
    assert added.returncode != 0 and SECRET not in added.stdout + added.stderr
    assert "dsn holds a secret" in added.stderr
    stored = list((tmp_path / "config").rglob("sources.toml"))
    assert all(SECRET not in p.read_text() for p in stored)
    # A sources.toml written by hand (or received) with the password in it: listed, never printed.
    config = tmp_path / "config" / "analytics-agent"
    config.mkdir(parents=True, exist_ok=True)
    (config / "sources.toml").write_text(f'[shop]\ntype = "postgres"\ndsn = "{HOSTILE[1][2]}"\n')
    for args in (["sources", "list"], ["sources", "list", "--json"]):
        listed = _run(args, tmp_path)
        assert SECRET not in listed.stdout + listed.stderr
        assert listed.returncode != 0 or "***" in listed.stdout

"""MotherDuck: attach one database with a token from the environment, and say whether it is read-only.

MotherDuck enforces read-only access through read-scaling tokens (a read/write token can write whatever
this tool promises not to). We check twice: the token's own claims before connecting (offline), and the
duckling the connection lands on after (read-scaling ducklings are named ``<db>.rs.<n>``).
"""

from __future__ import annotations

import base64
import json
import os
import re

import duckdb

from analytics_agent.db.linked.spec import Source
from analytics_agent.errors import SourceError

DEFAULT_TOKEN_ENV = "motherduck_token"
NOT_READ_ONLY = (
    "is a read/write token; analytics-agent only reads, but MotherDuck would let this token write: create a "
    "read-scaling token (MotherDuck UI, Settings > Access tokens > Read scaling) and use that"
)


def token_kind(token: str) -> str:
    """'read_scaling', 'read_write' or 'unknown', from the token's claims (read, not verified). Pure."""
    parts = token.split(".")
    if len(parts) != 3:
        return "unknown"
    try:
        padded = parts[1] + "=" * (-len(parts[1]) % 4)
        claims = json.loads(base64.urlsafe_b64decode(padded))
    except (ValueError, json.JSONDecodeError):
        return "unknown"
    if not isinstance(claims, dict):
        return "unknown"
    kind = str(claims.get("tokenType") or claims.get("token_type") or "").lower()
    if kind in ("read_scaling", "read-scaling", "readscaling") or claims.get("readOnly") is True:
        return "read_scaling"
    if kind in ("read_write", "read-write") or claims.get("readOnly") is False:
        return "read_write"
    return "unknown"


def motherduck_token(source: Source) -> str:
    env = str(source.get("token_env") or DEFAULT_TOKEN_ENV)
    token = os.environ.get(env)
    if not token:
        raise SourceError(f"source {source.name}: set the environment variable {env} to a MotherDuck token")
    if token_kind(token) == "read_write":
        raise SourceError(f"source {source.name}: the token in {env} {NOT_READ_ONLY}")
    return token


def attach_motherduck(conn: duckdb.DuckDBPyConnection, source: Source) -> None:
    token = motherduck_token(source)
    database = str(source.get("database"))
    if not re.fullmatch(r"[A-Za-z0-9_]+", database):
        raise SourceError(
            f"source {source.name}: database must be a MotherDuck database name, e.g. analytics"
        )
    # The token goes in a secret, not the attach string, which duckdb_databases() would show to SQL.
    conn.execute(f"CREATE OR REPLACE TEMPORARY SECRET {source.alias}_md (TYPE motherduck, TOKEN '{token}')")
    # saas_mode keeps MotherDuck itself from reaching this machine's files.
    conn.execute(f"ATTACH 'md:{database}?saas_mode=true' (READ_ONLY)")
    if not is_read_scaling(conn):
        raise SourceError(f"source {source.name}: the token {NOT_READ_ONLY}")


def is_read_scaling(conn: duckdb.DuckDBPyConnection) -> bool:
    try:
        row = conn.execute("SELECT * FROM __md_duckling_id()").fetchone()
    except duckdb.Error:
        return False
    return bool(row and row[0] and re.search(r"\.rs\.\d+$", str(row[0])))

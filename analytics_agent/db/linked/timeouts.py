"""A PostgreSQL source's connection string with a connect timeout, unless it sets its own. Pure.

libpq waits for ever on a host that accepts the connection and never answers (no ``connect_timeout`` is
its default), and DuckDB's postgres scanner connects through libpq while a command opens the workspace:
one such host held every command. ``connect_timeout`` bounds the whole start of a connection, the server's
first answer included; a query on a connection already made is not covered.
"""

from __future__ import annotations

import re

CONNECT_TIMEOUT_S = 10
_SET = re.compile(r"(^|[\s?&])connect_timeout\s*=", re.IGNORECASE)
_URI = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


def with_connect_timeout(dsn: str, seconds: int | None = None) -> str:
    """``dsn`` (libpq key/value words or a ``postgresql://`` URI) with ``connect_timeout=seconds`` added
    (default ``CONNECT_TIMEOUT_S``) when it has none."""
    seconds = seconds or CONNECT_TIMEOUT_S
    if _SET.search(dsn):
        return dsn
    if _URI.match(dsn):
        base, hash_mark, fragment = dsn.partition("#")
        joiner = "&" if "?" in base else "?"
        return f"{base}{joiner}connect_timeout={seconds}{hash_mark}{fragment}"
    return f"{dsn} connect_timeout={seconds}".strip()

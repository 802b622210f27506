"""A PostgreSQL source's connection string with a connect timeout and a statement timeout, unless it
sets its own. Pure.

libpq waits for ever on a host that accepts the connection and never answers (no ``connect_timeout`` is
its default), and DuckDB's postgres scanner connects through libpq while a command opens the workspace:
one such host held every command. ``connect_timeout`` bounds the whole start of a connection, the server's
first answer included.

Once connected, DuckDB 1.5.5's postgres scanner does not stop on an interrupt, and a client that dies
(Ctrl-C, a kill) leaves its statement running on the server until it next writes to the socket: a linked
view that never ends (``pg_sleep``, an endless recursive query) held the first start for ever and kept
running on the server afterwards. The server's own ``statement_timeout``, sent as a startup option, ends
every statement of the connection on the server, whether the client still waits or has gone.

A host that vanishes mid-session (its packets dropped) is seen by the kernel: TCP keepalives find a
silent peer, and ``tcp_user_timeout`` drops a connection whose data goes unacknowledged; libpq sets both
on its socket from the connection string. A server that stays connected and acknowledges but stops
answering (its backend stopped) is found by a tool call's own time limit (``stalls``).
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

CONNECT_TIMEOUT_S = 10
STATEMENT_TIMEOUT_S = 60
"""As long as a linked table's first profile may take (``profiles.PROFILE_LIMIT_S``); a tool call's own
time limit (15 s) is shorter, so this only ends what the client can no longer stop."""
KEEPALIVES = {
    "keepalives": "1",
    "keepalives_idle": "15",
    "keepalives_interval": "5",
    "keepalives_count": "3",
    "tcp_user_timeout": "30000",
}
"""A peer silent for 15 s is probed every 5 s and dropped after 3 probes unanswered, and data unacknowledged
for 30 s (milliseconds) drops the connection: a live server's kernel answers both at once, whatever its
queries take, so only a host that is gone is dropped."""
_URI = re.compile(r"^postgres(ql)?://", re.IGNORECASE)
_KV_OPTIONS = re.compile(r"(^|\s)options\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)", re.IGNORECASE)


def with_timeouts(dsn: str) -> str:
    """``dsn`` with every bound: ``with_connect_timeout``, ``with_keepalives``, ``with_statement_timeout``."""
    return with_statement_timeout(with_keepalives(with_connect_timeout(dsn)))


def with_connect_timeout(dsn: str, seconds: int | None = None) -> str:
    """``dsn`` (libpq key/value words or a ``postgresql://`` URI) with ``connect_timeout=seconds`` added
    (default ``CONNECT_TIMEOUT_S``) when it has none."""
    seconds = seconds or CONNECT_TIMEOUT_S
    if _sets(dsn, "connect_timeout"):
        return dsn
    return _add_parameter(dsn, f"connect_timeout={seconds}")


def with_keepalives(dsn: str) -> str:
    """``dsn`` with each of ``KEEPALIVES`` it does not set itself."""
    for key, value in KEEPALIVES.items():
        if not _sets(dsn, key):
            dsn = _add_parameter(dsn, f"{key}={value}")
    return dsn


def _sets(dsn: str, key: str) -> bool:
    return re.search(rf"(^|[\s?&]){key}\s*=", dsn, re.IGNORECASE) is not None


def with_statement_timeout(dsn: str, seconds: int | None = None) -> str:
    """``dsn`` with ``-c statement_timeout=<seconds>s`` in its startup ``options`` (added to the options
    it has), unless it names ``statement_timeout`` itself."""
    setting = f"-c statement_timeout={seconds or STATEMENT_TIMEOUT_S}s"
    if "statement_timeout" in unquote(dsn).lower():
        return dsn
    if _URI.match(dsn):
        return _uri_options(dsn, setting)
    found = _KV_OPTIONS.search(dsn)
    if found is None:
        return _add_parameter(dsn, f"options='{setting}'")
    value = found.group(2)
    if value.startswith("'"):
        value = re.sub(r"\\(.)", r"\1", value[1:-1])
    merged = f"{value} {setting}".strip().replace("\\", "\\\\").replace("'", "\\'")
    return f"{dsn[: found.start(2)]}'{merged}'{dsn[found.end(2) :]}"


def _uri_options(dsn: str, setting: str) -> str:
    base, hash_mark, fragment = dsn.partition("#")
    path, question, query = base.partition("?")
    pairs = query.split("&") if question else []
    for i, pair in enumerate(pairs):
        key, _, value = pair.partition("=")
        if unquote(key).lower() == "options":
            pairs[i] = f"{key}={quote(f'{unquote(value)} {setting}'.strip(), safe='')}"
            return f"{path}?{'&'.join(pairs)}{hash_mark}{fragment}"
    return _add_parameter(dsn, f"options={quote(setting, safe='')}")


def _add_parameter(dsn: str, parameter: str) -> str:
    """``dsn`` with one more ``key=value`` (already quoted for the DSN's form)."""
    if _URI.match(dsn):
        base, hash_mark, fragment = dsn.partition("#")
        joiner = "&" if "?" in base else "?"
        return f"{base}{joiner}{parameter}{hash_mark}{fragment}"
    return f"{dsn} {parameter}".strip()

"""A ``postgresql://`` URI as libpq's ``key=value`` words. Pure.

DuckDB's postgres extension adds a secret's parameters (the password from ``password_env``) to the
connection string as ``key=value`` words, which a URI cannot take: libpq refused every URI source with a
password (``missing "=" after "postgresql://…"``). Written as words, the same connection attaches; libpq
reads both forms as one (its documentation: "Connection URIs"), so nothing else changes.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

_URI = re.compile(r"^postgres(?:ql)?://", re.IGNORECASE)


def is_uri(dsn: str) -> bool:
    return _URI.match(dsn) is not None


def as_keywords(dsn: str) -> str:
    """``dsn`` in ``key=value`` form: a URI converted (user, password, hosts and ports, database, then its
    query parameters), anything else as it is."""
    if not is_uri(dsn):
        return dsn
    rest = _URI.sub("", dsn, count=1).partition("#")[0]
    rest, _, query = rest.partition("?")
    authority, slash, database = rest.partition("/")
    userinfo, at, hosts = authority.rpartition("@")
    words: list[tuple[str, str]] = []
    if at:
        user, colon, password = userinfo.partition(":")
        words += [("user", unquote(user))] if user else []
        words += [("password", unquote(password))] if colon else []
    host_list, port_list = _hosts(hosts)
    if any(host_list):
        words.append(("host", ",".join(host_list)))
    if any(port_list):
        words.append(("port", ",".join(port_list)))
    if slash and database:
        words.append(("dbname", unquote(database)))
    for pair in filter(None, query.split("&")):
        key, _, value = pair.partition("=")
        words.append((unquote(key), unquote(value)))
    return " ".join(f"{key}={_quoted(value)}" for key, value in words)


def _hosts(hosts: str) -> tuple[list[str], list[str]]:
    """``h1:5432,[::1]:5433`` -> (hosts, ports), an IPv6 address without its brackets."""
    names, ports = [], []
    for part in hosts.split(",") if hosts else []:
        if part.startswith("["):
            address, _, after = part[1:].partition("]")
            port = after[1:] if after.startswith(":") else ""
        else:
            address, _, port = part.partition(":")
        names.append(unquote(address))
        ports.append(port)
    return names, ports


def _quoted(value: str) -> str:
    """A word's value as libpq reads it: quoted when empty or holding a space, a quote or a backslash."""
    if value and not re.search(r"[\s'\\]", value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"

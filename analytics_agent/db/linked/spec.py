"""What a source is: one named, read-only place data lives, as written in ``sources.toml``. Pure.

    [trips]                        # files in place: a file, a glob, or a hive-partitioned folder
    type = "files"
    path = "/data/trips/"          # or "s3://bucket/trips/*.parquet", "exports/*.csv"
    format = "parquet"             # parquet | csv (default: from the path)

    [shop]                         # a PostgreSQL database; every table of `schema` becomes a table
    type = "postgres"
    dsn = "host=db.internal dbname=shop user=reader"
    password_env = "SHOP_PASSWORD" # the password comes from this variable, never from the file
    schema = "public"

    [lake]                         # a DuckLake catalog (PostgreSQL, SQLite or DuckDB file catalog)
    type = "ducklake"
    catalog = "postgres:dbname=lake host=127.0.0.1"
    data_path = "s3://bucket/lake/"   # optional: where the catalog's files are

    [cloud]                        # a MotherDuck database (use a read-scaling token)
    type = "motherduck"
    database = "analytics"
    token_env = "motherduck_token"

Every source may set ``prefix`` (prepended to its table names), ``tables`` (only these tables) and ``db``
(the absolute path of the one database it belongs to; without it, every database sees it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analytics_agent.errors import SourceError

TYPES = ("files", "postgres", "ducklake", "motherduck")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_KEYS: dict[str, tuple[str, ...]] = {
    "files": ("path", "format", "hive", "endpoint", "region", "url_style"),
    "postgres": ("dsn", "password_env", "schema"),
    "ducklake": ("catalog", "data_path", "password_env", "endpoint", "region", "url_style"),
    "motherduck": ("database", "token_env"),
}
_COMMON = ("type", "prefix", "tables", "db")
_REMOTE_SCHEMES = ("s3://", "s3a://", "s3n://", "r2://", "gs://", "gcs://", "http://", "https://", "hf://")
# What each kind needs loaded into DuckDB beyond what its Python wheel has built in.
_EXTENSIONS = {"postgres": ("postgres",), "ducklake": ("ducklake",), "motherduck": ("motherduck",)}


@dataclass(frozen=True)
class Source:
    name: str
    type: str
    options: dict[str, Any] = field(default_factory=dict)
    prefix: str = ""
    tables: tuple[str, ...] = ()
    db: str = ""
    """The database this source belongs to (absolute path); empty: every database."""

    def applies_to(self, db_path: Path) -> bool:
        """Whether a command on ``db_path`` links this source."""
        return not self.db or Path(self.db) == db_path.expanduser().absolute()

    @property
    def alias(self) -> str:
        """The name it is attached under: never a table name, so it cannot shadow one."""
        return f"src_{self.name}"

    def get(self, key: str, default: Any = None) -> Any:
        return self.options.get(key, default)

    def extensions(self) -> tuple[str, ...]:
        """The DuckDB extensions this source needs (httpfs for object storage)."""
        needed = list(_EXTENSIONS.get(self.type, ()))
        if self.type == "ducklake" and str(self.get("catalog", "")).startswith("postgres:"):
            needed.append("postgres")
        if self.type == "ducklake" and str(self.get("catalog", "")).startswith("sqlite:"):
            needed.append("sqlite")
        if self.remote_path() is not None:
            needed.append("httpfs")
        return tuple(dict.fromkeys(needed))

    def remote_path(self) -> str | None:
        """The object-storage URL this source reads, if it reads one."""
        path = str(self.get("path") if self.type == "files" else self.get("data_path") or "")
        return path if path.lower().startswith(_REMOTE_SCHEMES) else None

    def as_mapping(self) -> dict[str, Any]:
        """The TOML table for this source (what ``sources add`` writes)."""
        out: dict[str, Any] = {"type": self.type, **self.options}
        if self.prefix:
            out["prefix"] = self.prefix
        if self.tables:
            out["tables"] = list(self.tables)
        if self.db:
            out["db"] = self.db
        return out

    def describe(self) -> str:
        """One line for ``sources list``: where it points, with any secret in it hidden."""
        where = {
            "files": self.get("path"),
            "postgres": redact_dsn(str(self.get("dsn", ""))),
            "ducklake": redact_dsn(str(self.get("catalog", "")))
            + (f" (data {self.get('data_path')})" if self.get("data_path") else ""),
            "motherduck": f"md:{self.get('database')}",
        }[self.type]
        return str(where)


def parse_source(name: str, raw: Mapping[str, Any]) -> Source:
    """One ``[name]`` table of ``sources.toml`` as a Source, or a SourceError naming the key to fix."""
    if not NAME_RE.match(name):
        raise SourceError(
            f"source name {name!r}: use lower-case letters, digits and _ (starting with a letter), e.g. trips"
        )
    if not isinstance(raw, Mapping):
        raise SourceError(f'source {name}: expected a table of settings, e.g. [{name}] with type = "files"')
    kind = raw.get("type")
    if kind not in TYPES:
        raise SourceError(f"source {name}: type must be one of {', '.join(TYPES)}, not {kind!r}")
    allowed = _KEYS[kind] + _COMMON
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise SourceError(
            f"source {name}: unknown setting {unknown[0]!r} for type {kind}; allowed: {', '.join(allowed)}"
        )
    options = {k: v for k, v in raw.items() if k not in _COMMON}
    _check_values(name, kind, options)
    prefix = raw.get("prefix", "")
    if not isinstance(prefix, str) or (prefix and not re.fullmatch(r"[a-z][a-z0-9_]*", prefix)):
        raise SourceError(f"source {name}: prefix must be lower-case letters, digits and _, e.g. pg_")
    tables = raw.get("tables", ())
    if isinstance(tables, str) or not all(isinstance(t, str) for t in tables):
        raise SourceError(f'source {name}: tables must be a list of table names, e.g. ["orders"]')
    db = raw.get("db", "")
    if not isinstance(db, str) or (db and not Path(db).is_absolute()):
        raise SourceError(f"source {name}: db must be the absolute path of a database file")
    return Source(name=name, type=kind, options=options, prefix=prefix, tables=tuple(tables), db=db)


def _check_values(name: str, kind: str, options: dict[str, Any]) -> None:
    required = {"files": "path", "postgres": "dsn", "ducklake": "catalog", "motherduck": "database"}[kind]
    if not isinstance(options.get(required), str) or not options[required].strip():
        raise SourceError(f"source {name}: {required} is required for type {kind}")
    for key, value in options.items():
        if key == "hive":
            if not isinstance(value, bool):
                raise SourceError(f"source {name}: hive must be true or false")
        elif not isinstance(value, str):
            raise SourceError(f"source {name}: {key} must be a string")
    if options.get("format") not in (None, "parquet", "csv"):
        raise SourceError(f"source {name}: format must be parquet or csv, not {options['format']!r}")
    for key in ("password_env", "token_env"):
        if key in options and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", options[key]):
            raise SourceError(f"source {name}: {key} names an environment variable, e.g. SHOP_PASSWORD")
    if kind == "postgres" and _dsn_password(options["dsn"]):
        raise SourceError(
            f"source {name}: the dsn holds a password; remove it and set password_env to the name of an "
            "environment variable that holds it"
        )


def parse_sources(document: Mapping[str, Any]) -> list[Source]:
    return [parse_source(name, raw) for name, raw in document.items()]


_URI_PASSWORD = re.compile(r"(://[^:/@\s]+:)([^@\s]+)(@)")
_KV_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)


def _dsn_password(dsn: str) -> bool:
    return bool(_URI_PASSWORD.search(dsn) or _KV_PASSWORD.search(dsn))


def redact_dsn(dsn: str) -> str:
    """A connection string with any password in it replaced by ***."""
    return _KV_PASSWORD.sub(r"\1***", _URI_PASSWORD.sub(r"\1***\3", dsn))

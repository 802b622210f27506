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
    "files": ("path", "format", "hive", "endpoint", "region", "url_style", "read", "columns", "amounts"),
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
        elif key in ("read", "columns", "amounts"):
            check_reading(name, key, value)
        elif not isinstance(value, str):
            raise SourceError(f"source {name}: {key} must be a string")
    if options.get("format") not in (None, "parquet", "csv"):
        raise SourceError(f"source {name}: format must be parquet or csv, not {options['format']!r}")
    for key in ("password_env", "token_env"):
        if key in options and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", options[key]):
            raise SourceError(f"source {name}: {key} names an environment variable, e.g. SHOP_PASSWORD")
    for key, value in options.items():
        what = credential_in(value, key_value=key in ("dsn", "catalog")) if isinstance(value, str) else None
        if what is None:
            continue
        fix = (
            "set password_env to the name of an environment variable that holds it"
            if kind in ("postgres", "ducklake") and "password" in what
            else "set token_env to the name of an environment variable that holds it"
            if kind == "motherduck"
            else "object storage credentials come from the environment or an AWS profile, never the file"
        )
        raise SourceError(f"source {name}: {key} holds {what}; remove it ({fix})")


READ_SETTINGS = frozenset(
    {
        "auto_detect", "delim", "quote", "escape", "header", "skip", "comment", "columns", "types",
        "nullstr", "dateformat", "timestampformat", "thousands", "decimal_separator", "encoding",
        "new_line", "strict_mode", "null_padding", "max_line_size", "union_by_name",
    }
)  # fmt: skip
"""The ``read_csv`` settings a CSV source may pin (``sources add`` writes them as a load decided them)."""


def check_reading(name: str, key: str, value: Any) -> None:
    """``read`` (read_csv settings) and ``columns`` (file name -> stored name): plain values only."""
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise SourceError(f"source {name}: {key} must be a table of settings")
    if key == "amounts":
        for column, reading in value.items():
            _check_amount(name, column, reading)
        return
    if key == "columns":
        for stored in value.values():
            if not isinstance(stored, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", stored):
                raise SourceError(
                    f"source {name}: columns maps a file's column to a lower-case name, not {stored!r}"
                )
        return
    for setting, item in value.items():
        if setting not in READ_SETTINGS:
            raise SourceError(
                f"source {name}: unknown read setting {setting!r}; allowed: {', '.join(sorted(READ_SETTINGS))}"
            )
        if not _plain(item):
            raise SourceError(
                f"source {name}: read setting {setting} must be text, a number, true/false or a list"
            )


def _check_amount(name: str, column: str, reading: Any) -> None:
    """One column of ``amounts``: ``{ decimal = "." }``, with ``unit`` and ``currency`` when written."""
    if (
        not isinstance(reading, Mapping)
        or reading.get("decimal") not in (".", ",")
        or set(reading) - {"decimal", "unit", "currency"}
        or not all(isinstance(v, str) and 0 < len(v) <= 8 for v in reading.values())
    ):
        raise SourceError(
            f'source {name}: amounts.{column} must be like {{ decimal = ".", unit = "$", currency = "$" }}'
        )


def _plain(item: Any) -> bool:
    if isinstance(item, str | bool | int):
        return True
    if isinstance(item, list):
        return all(isinstance(i, str) for i in item)
    return isinstance(item, Mapping) and all(isinstance(v, str) for v in item.values())


def parse_sources(document: Mapping[str, Any]) -> list[Source]:
    return [parse_source(name, raw) for name, raw in document.items()]


_URI_PASSWORD = re.compile(r"(://[^:/@\s]*:)([^@\s/]+)(@)")
_KV_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s]*)([^?#\s]*)(?:\?([^#\s]*))?")
_KV_KEY = re.compile(r"(?:^|[\s:])([A-Za-z_][A-Za-z0-9_]*)\s*=")
_SECRET_WORDS = ("password", "passwd", "secret", "token", "signature", "credential", "apikey")
_SECRET_KEYS = frozenset({"pwd", "pass", "key", "sig", "accesskey", "accesskeyid", "keyid", "auth"})


def credential_in(value: str, *, key_value: bool = False) -> str | None:
    """What credential ``value`` holds, in words that never repeat it, or None. Pure.

    Every form a connection string or URL can carry one in: a password in the user part of any URL
    (``scheme://user:PW@``, ``://:PW@`` with the user given elsewhere), any user part of an object-storage
    URL (``s3://key:secret@``), a secret-looking query parameter, percent-encoded names included
    (``?%70assword=PW``), and, for libpq key-value strings (``key_value``), ``password=``.
    """
    from urllib.parse import unquote

    found = [(m.group(0), m.group(1), m.group(3)) for m in _URI.finditer(value)]
    if not found and "?" in value:  # md:analytics?motherduck_token=…: a query without a URL
        found = [("", "", value.split("?", 1)[1])]
    for whole, authority, query in found:
        if "@" in authority:
            userinfo = authority.rsplit("@", 1)[0]
            scheme = whole.split("://", 1)[0].lower()
            if ":" in userinfo:
                return "a password in the URL's user part"
            if not scheme.startswith("postgres"):
                return "a user name or key in the URL"
        for pair in (query or "").replace(";", "&").split("&"):
            name = unquote(pair.split("=", 1)[0])
            if secret_name(name):
                return f"a secret in the URL's query ({_shown_name(name)})"
    if key_value:
        for match in _KV_KEY.finditer(value):
            if secret_name(match.group(1)):
                return f"a secret ({_shown_name(match.group(1))}=)"
    return None


def secret_name(name: str) -> bool:
    """Whether a parameter, variable or key called ``name`` holds a secret (``password``, ``api_key``,
    ``PGPASSWORD``, ``X-Amz-Signature``…); the audit trail masks such values too."""
    flat = re.sub(r"[^a-z0-9]", "", name.lower())
    return flat in _SECRET_KEYS or any(word in flat for word in _SECRET_WORDS)


def _shown_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "?", name)[:30]


def redact_dsn(dsn: str) -> str:
    """A connection string with any password in it replaced by ***; one that holds a credential in any
    other form (a query parameter, an encoded name) is shown as its scheme and host only."""
    redacted = _KV_PASSWORD.sub(r"\1***", _URI_PASSWORD.sub(r"\1***\3", dsn))
    rest = _KV_PASSWORD.sub("", _URI_PASSWORD.sub(lambda m: m.group(1)[:-1] + m.group(3), dsn))
    if credential_in(rest, key_value=True) is None:
        return redacted
    match = _URI.search(redacted)
    host = match.group(1).rsplit("@", 1)[-1] if match else ""
    return f"{redacted.split('://', 1)[0]}://{host}/*** (holds a credential; hidden)" if match else "***"

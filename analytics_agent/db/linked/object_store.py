"""Credentials for object storage: a DuckDB secret built from the usual AWS chain (environment, profile,
SSO, role), resolved by boto3, scoped to the source's own bucket. The secret lives only in the session
(``TEMPORARY``); DuckDB shows it redacted in ``duckdb_secrets()``.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

import duckdb

from analytics_agent.db.linked.spec import Source

_S3_SCHEMES = ("s3", "s3a", "s3n", "r2")


def storage_secret_options(source: Source, credentials: Any, env: dict[str, str]) -> dict[str, Any] | None:
    """The secret's settings for this source (pure), or None where no secret applies (http, gcs)."""
    url = source.remote_path() or ""
    parts = urlsplit(url)
    if parts.scheme not in _S3_SCHEMES:
        return None
    options: dict[str, Any] = {"TYPE": "s3", "SCOPE": f"{parts.scheme}://{parts.netloc}"}
    region = source.get("region") or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if region:
        options["REGION"] = region
    endpoint = source.get("endpoint") or env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
    if endpoint:
        target = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
        options["ENDPOINT"] = target.netloc
        options["USE_SSL"] = target.scheme == "https"
        options["URL_STYLE"] = source.get("url_style") or "path"
    elif source.get("url_style"):
        options["URL_STYLE"] = source.get("url_style")
    if credentials is not None:
        options["KEY_ID"] = credentials.access_key
        options["SECRET"] = credentials.secret_key
        if credentials.token:
            options["SESSION_TOKEN"] = credentials.token
    return options


def create_storage_secret(conn: duckdb.DuckDBPyConnection, source: Source) -> None:
    options = storage_secret_options(source, _aws_credentials(), dict(os.environ))
    if options is None:
        return
    body = ", ".join(f"{key} {_literal(value)}" for key, value in options.items())
    conn.execute(f"CREATE OR REPLACE TEMPORARY SECRET {source.alias}_storage ({body})")


def _aws_credentials() -> Any:
    """The AWS chain's credentials, frozen, or None (a public bucket needs none)."""
    import boto3

    found = boto3.Session().get_credentials()
    return found.get_frozen_credentials() if found is not None else None


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "'" + str(value).replace("'", "''") + "'"

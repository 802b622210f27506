"""The business time zone: which zone days and months of zoned timestamps are counted in, found without
the config module (whose settings classes cost a ``tools call`` a few ms it never otherwise spends)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from analytics_agent.errors import ConfigError


def check_timezone(name: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"--timezone {name!r} is not a known time zone; use an IANA name such as Asia/Kolkata or UTC"
        ) from None


def business_zone_from(flag: str | None, configured: object, local: str | None) -> str:
    """The business zone: the flag (a zone the user typed is wrong loudly, not replaced quietly), else the
    config file's ``timezone``, else the machine's zone if it has an IANA name, else UTC."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if flag:
        check_timezone(flag)
    for name in (flag, configured, local):
        if not name:
            continue
        try:
            ZoneInfo(str(name))
            return str(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
    return "UTC"


def local_zone_name() -> str:
    """The IANA name of the local zone when the system says it, else its abbreviation (e.g. "UTC")."""
    value = os.environ.get("TZ", "").lstrip(":")
    if value and "/" in value and not value.startswith("/"):
        return value
    try:
        target = Path("/etc/localtime").resolve()
        parts = target.parts
        if "zoneinfo" in parts:
            return "/".join(parts[parts.index("zoneinfo") + 1 :])
    except OSError:
        pass
    return dt.datetime.now().astimezone().tzname() or "local time"

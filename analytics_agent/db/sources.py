"""What a load reads: the files a user named, and the DuckDB reader call for them. Pure apart from
looking at the file system in ``resolve_files``.

Reader options reach DuckDB as bound parameters (``read_csv(?, delim = ?, …)``), never spliced into SQL.
"""

from __future__ import annotations

import glob
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from analytics_agent.errors import LoadError

Mode = Literal["create", "replace", "append"]
Kind = Literal["csv", "parquet"]
_PARQUET_SUFFIXES = (".parquet", ".pq")
_GLOB = re.compile(r"[*?\[]")
_TYPE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\s*\(\s*\d+\s*(,\s*\d+\s*)?\))?(\[\])?$")
_DELIMITER_ALIASES = {"\\t": "\t", "tab": "\t", "TAB": "\t"}


@dataclass(frozen=True)
class LoadOptions:
    """How to read and where to write. CSV-only options are refused for Parquet."""

    table: str | None = None
    mode: Mode = "create"
    delimiter: str | None = None
    header: bool = True
    date_format: str | None = None
    types: Mapping[str, str] = field(default_factory=dict)
    thousands: str | None = None
    decimal: str | None = None
    encoding: str | None = None

    def csv_only_options(self) -> list[str]:
        used = {
            "--delimiter": self.delimiter is not None,
            "--no-header": not self.header,
            "--date-format": self.date_format is not None,
            "--thousands": self.thousands is not None,
            "--decimal": self.decimal is not None,
            "--encoding": self.encoding is not None,
        }
        return [flag for flag, on in used.items() if on]


def resolve_files(patterns: Sequence[str]) -> list[Path]:
    """Every file the arguments name, globs expanded, in a stable order; one clear error otherwise."""
    if not patterns:
        raise LoadError("name at least one file to load, e.g. analytics-agent load sales.csv")
    files: list[Path] = []
    for pattern in patterns:
        expanded = Path(pattern).expanduser()
        if _GLOB.search(pattern):
            matches = sorted(Path(m) for m in glob.glob(str(expanded)) if Path(m).is_file())
            if not matches:
                raise LoadError(f"no files match {pattern}")
            files.extend(matches)
        elif expanded.is_dir():
            raise LoadError(f"{pattern} is a folder; name files or a glob such as {pattern}/*.csv")
        elif not expanded.is_file():
            raise LoadError(f"no such file: {pattern}")
        else:
            files.append(expanded)
    unique = list(dict.fromkeys(f.resolve() for f in files))
    for path in unique:
        if path.stat().st_size == 0:
            raise LoadError(f"{path.name} is empty; there is nothing to load")
    return unique


def file_kind(files: Sequence[Path]) -> Kind:
    kinds = {"parquet" if f.name.lower().endswith(_PARQUET_SUFFIXES) else "csv" for f in files}
    if len(kinds) > 1:
        raise LoadError("CSV and Parquet files cannot load into one table at once; load them separately")
    return kinds.pop()  # type: ignore[return-value]


def check_options(options: LoadOptions, kind: Kind) -> LoadOptions:
    """Refuse what cannot work before any reading; normalise the delimiter spelling."""
    if kind == "parquet" and options.csv_only_options():
        raise LoadError(f"{', '.join(options.csv_only_options())} only apply to CSV files, not Parquet")
    for column, type_name in options.types.items():
        if not column or not _TYPE_NAME.match(type_name.strip()):
            raise LoadError(
                f"--type {column}={type_name}: give COLUMN=TYPE with a DuckDB type such as VARCHAR, "
                "BIGINT, DOUBLE, DATE or TIMESTAMP"
            )
    delimiter = options.delimiter
    if delimiter is not None:
        delimiter = _DELIMITER_ALIASES.get(delimiter, delimiter)
        if not delimiter or len(delimiter) > 4:
            raise LoadError("--delimiter takes one to four characters, e.g. ';' or '\\t'")
    if options.mode not in ("create", "replace", "append"):
        raise LoadError(f"unknown load mode {options.mode!r}")
    return LoadOptions(**{**options.__dict__, "delimiter": delimiter})


def reader_sql(
    kind: Kind, files: Sequence[Path], options: LoadOptions, *, types: Mapping[str, str] | None = None
) -> tuple[str, list[Any]]:
    """``read_csv(…)``/``read_parquet(…)`` with bound parameters, and their values. ``types`` maps the
    file's own column names to DuckDB types."""
    params: list[Any] = [[str(f) for f in files]]
    if kind == "parquet":
        extra = ", union_by_name = true" if len(files) > 1 else ""
        return f"read_parquet(?{extra})", params
    parts = ["?"]
    named: list[tuple[str, Any]] = [
        ("delim", options.delimiter),
        ("header", None if options.header else False),
        ("dateformat", options.date_format),
        ("thousands", options.thousands),
        ("decimal_separator", options.decimal),
        ("encoding", options.encoding),
        ("types", dict(types) if types else None),
        ("union_by_name", True if len(files) > 1 else None),
    ]
    for key, value in named:
        if value is not None:
            parts.append(f"{key} = ?")
            params.append(value)
    return f"read_csv({', '.join(parts)})", params


def map_type_overrides(
    overrides: Mapping[str, str], originals: Sequence[str], safe: Sequence[str]
) -> dict[str, str]:
    """``--type`` may name a column as the file does or as it is stored; DuckDB wants the file's name."""
    by_name = {o: o for o in originals} | {s: o for s, o in zip(safe, originals, strict=True)}
    by_lower = {k.lower(): v for k, v in by_name.items()}
    mapped: dict[str, str] = {}
    for column, type_name in overrides.items():
        original = by_name.get(column) or by_lower.get(column.lower())
        if original is None:
            from analytics_agent.suggest import did_you_mean

            raise LoadError(
                f"--type {column}=…: no column {column!r}{did_you_mean(column, safe)}; columns: {', '.join(safe)}"
            )
        mapped[original] = type_name.strip().upper()
    return mapped

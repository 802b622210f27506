"""``sources add --type files`` over local CSV files: the load's reading, pinned into the source.

The CLI may use the loader (``db.load``); ``db.linked`` may not, so what the loader decides is stored in
the source as plain settings (``source_reading.pin_csv_reading``) and the notes a load would print are
printed here, the same ``note: …`` lines.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from analytics_agent.present.safe_text import escape_control

if TYPE_CHECKING:
    from analytics_agent.db.linked.spec import Source


def with_pinned_reading(source: Source, reading: dict[str, Any]) -> Source:
    """``source`` with ``read`` and ``columns`` settings when it reads local CSV files; the options in
    ``reading`` (named as ``load``'s) apply only there, and are refused elsewhere with the reason."""
    given = {k: v for k, v in reading.items() if v is not None}
    pattern = _local_csv_pattern(source)
    if pattern is None and _csv_elsewhere(source):
        typer.echo(
            f"note: {source.name} reads its CSV files as DuckDB's read_csv does (names as written, no notes); "
            "the load's reading is pinned for local files, globs and folders (not hive-partitioned) only"
        )
    if pattern is None:
        if given:
            from analytics_agent.errors import SourceError

            raise SourceError(
                f"{_flag(next(iter(given)))} reads CSV files: it applies to a source of local CSV files "
                "(a file or a glob), not to this one"
            )
        return source
    from analytics_agent.db.load.options import GLOB, load_options
    from analytics_agent.db.load.source_reading import pin_csv_reading

    many = bool(GLOB.search(pattern)) or Path(pattern).is_dir()
    pinned = pin_csv_reading(pattern, load_options(**given), many=many)
    for note in pinned.notes:
        typer.echo(escape_control(f"note: {note}"))
    options = dict(source.options)
    options.pop("read", None)
    options.pop("columns", None)
    options.pop("amounts", None)
    if pinned.read:
        options["read"] = pinned.read
    if pinned.columns:
        options["columns"] = pinned.columns
    if pinned.amounts:
        options["amounts"] = pinned.amounts
    return dataclasses.replace(source, options=options)


def _local_csv_pattern(source: Source) -> str | None:
    """The file, glob or folder a files source reads, when it is local and CSV (a folder of hive
    partitions is left as DuckDB reads it: its partition columns are no file's)."""
    if source.type != "files" or source.remote_path() is not None or source.get("format") == "parquet":
        return None
    path = str(source.get("path"))
    folder = Path(path)
    if folder.is_dir():
        parquet = source.get("format") != "csv" and next(folder.rglob("*.parquet"), None) is not None
        hive = source.get("hive", any("=" in p.name for p in folder.iterdir() if p.is_dir()))
        return None if parquet or hive else path
    if path.lower().endswith((".parquet", ".pq")):
        return None
    return path


def _csv_elsewhere(source: Source) -> bool:
    """A files source of CSV in a folder or object storage: read as DuckDB reads it, and said."""
    if source.type != "files" or source.get("format") == "parquet":
        return False
    path = str(source.get("path")).lower()
    return source.get("format") == "csv" or ".csv" in path or ".tsv" in path


def _flag(name: str) -> str:
    return "--column-type" if name == "types" else f"--{name.replace('_', '-')}"
